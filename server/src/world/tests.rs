//! The world with its depths' tasks, played through presences.

use std::time::Duration;

use gloam_protocol::{Action, Dir, Pos, codec};

use super::depth::views::still::{SHIFTS, TELL_THE_STILL, shift_of, still_period};
use super::task::SAVE_SHIFTS;
use super::*;
use crate::mapgen;
use crate::store::Store;

const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

/// A player whose connection stops reading is dropped by its depth, and
/// saved where it stood then: it comes back there, not at the start.
#[tokio::test]
async fn a_player_dropped_for_falling_behind_is_saved_where_it_stood() {
    // No periodic saves: only the drop can have saved the step.
    let config = Config {
        save_interval: Duration::from_secs(3600),
        outbox_capacity: 64,
        ..Config::quiet(9)
    };
    let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
    let (writer, known) = Store::in_memory().start();
    let store = writer.handle();
    let world = Arc::new(World::new(config, store.clone(), known));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();

    let open = |p: Pos| level.terrain(p).is_open();
    let dir = Dir::ALL.into_iter().find(|&d| level.arrival.step(d).is_some_and(open)).unwrap();
    let stepped_to = level.arrival.step(dir).unwrap();
    // The arrival and one step, read in full.
    let arrival = ann.reply().await.expect("the arrival");
    assert!(arrival.done && !arrival.frames.is_empty());
    ann.act(Action::Move(dir)).unwrap();
    assert!(ann.reply().await.expect("the step's answer").done);
    // Then nothing more is read while waits pile up.
    for _ in 0..100 {
        ann.act(Action::Wait).unwrap();
    }
    let dropped = tokio::time::timeout(Duration::from_secs(5), async {
        while ann.reply().await.is_some() {}
    })
    .await;
    assert!(dropped.is_ok(), "the depth let the laggard go");
    let saved = store.load("ann").await.unwrap().expect("saved when dropped");
    assert_eq!((saved.depth, saved.pos), (1, stepped_to));
    assert!(!saved.explored.is_empty());
}

/// A player back with its key while its old connection does not leave
/// (a storm: its own last try, given up on but still joining) is asked to
/// try again, which clients do, never told its name is taken, which
/// they do not: and once the old one has left, it is back.
#[tokio::test]
async fn a_takeover_the_old_connection_outlasts_is_asked_to_try_again_not_locked_out() {
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(Config::quiet(9), writer.handle(), known));
    let old = world.enter("ann", None, LOCAL, None).await.unwrap();
    let token = old.new_token().expect("a new character's key");
    // The old connection is kicked but never looks: it does not leave.
    let refused = world.enter("ann", Some(token), LOCAL, None).await.err();
    assert!(
        matches!(refused, Some(gloam_protocol::Refusal::Unavailable { .. })),
        "a refusal a client tries again: {refused:?}"
    );
    assert!(old.kicked().is_cancelled(), "the old connection was asked to go");
    old.leave().await;
    let back = world.enter("ann", Some(token), LOCAL, None).await.expect("back once it left");
    assert_eq!(back.new_token(), None, "the same character");
}

/// The stairs move a player to the next depth inside the world: its
/// next commands go there without the connection doing anything.
#[tokio::test]
async fn the_stairs_move_a_presence_to_the_next_depth() {
    let config = Config::quiet(9);
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(config.clone(), writer.handle(), known));
    let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    ann.reply().await.unwrap();
    let path = level.grid.walk_from(level.arrival).path_to(level.stairs_down).unwrap();
    for dir in path {
        ann.act(Action::Move(dir)).unwrap();
        while !ann.reply().await.unwrap().done {}
    }
    assert_eq!(ann.depth(), 1);
    ann.act(Action::Descend).unwrap();
    let mut entered = None;
    loop {
        let reply = ann.reply().await.unwrap();
        for frame in &reply.frames {
            if let Ok(gloam_protocol::ServerMsg::EnterLevel { depth, .. }) =
                codec::decode_server(frame)
            {
                entered = Some(depth);
            }
        }
        if reply.done {
            break;
        }
    }
    assert_eq!((entered, ann.depth()), (Some(2), 2));
    ann.act(Action::Wait).unwrap();
    assert!(ann.reply().await.unwrap().done, "depth 2 answers the next action");
    ann.leave().await;
    let saved = writer.handle().load("ann").await.unwrap().unwrap();
    assert_eq!(saved.depth, 2);
}

/// Building a level takes a while (caves, and soon monsters): another
/// depth being built must not hold up a join elsewhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_is_not_held_up_while_another_depth_is_built() {
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(Config::quiet(5), writer.handle(), known));
    let (entered, release) = gate::hold_building(&world.depths, 7);
    let depths = world.depths.clone();
    let builder = tokio::task::spawn_blocking(move || depths.handle(7).map(|h| h.depth));
    entered.recv_timeout(Duration::from_secs(10)).expect("depth 7 is being built");
    let joining = world.clone();
    let join = tokio::spawn(async move {
        let mut ann = joining.enter("ann", None, LOCAL, None).await.unwrap();
        ann.reply().await.expect("the arrival on depth 1").done
    });
    let joined = tokio::time::timeout(Duration::from_secs(10), join).await;
    assert!(joined.is_ok(), "the join waited for another depth's level");
    release.send(()).unwrap();
    assert_eq!(builder.await.unwrap(), Some(7));
}

/// A crowd arriving at once at a depth out of play (a reconnect storm
/// after a restart) builds it, and replays its history, once: who comes
/// while it is being built waits for that building, not builds its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_depth_is_built_once_however_many_arrive_while_it_is_built() {
    use std::sync::atomic::Ordering;
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(Config::quiet(5), writer.handle(), known));
    let (building, release) = gate::hold_building(&world.depths, 1);
    let enter = |name: &'static str| {
        let world = world.clone();
        tokio::spawn(async move { world.enter(name, None, LOCAL, None).await.is_ok() })
    };
    let ann = enter("ann");
    tokio::task::block_in_place(|| building.recv_timeout(Duration::from_secs(10)))
        .expect("ann's arrival builds depth 1");
    let mut others: Vec<_> = ["bob", "cy", "dee"].into_iter().map(enter).collect();
    // Long enough for the others to build a depth of their own, were they
    // let: they are not, so nothing is waited for.
    let early = tokio::time::timeout(Duration::from_millis(300), async {
        for other in &mut others {
            let _ = other.await;
        }
    })
    .await;
    assert!(early.is_err(), "the others came in before depth 1 was built");
    release.send(()).unwrap();
    assert!(ann.await.unwrap());
    for other in others {
        assert!(other.await.unwrap());
    }
    assert_eq!(world.depths.builds.load(Ordering::SeqCst), 1, "built once");
}

/// Every message of the replies up to the one that answers the last command.
async fn until_done(ann: &mut Presence) -> Vec<gloam_protocol::ServerMsg> {
    let mut msgs = Vec::new();
    loop {
        let reply = ann.reply().await.expect("still in the world");
        msgs.extend(reply.frames.iter().map(|f| codec::decode_server(f).unwrap()));
        if reply.done {
            return msgs;
        }
    }
}

/// Actions that queue up while a depth is busy are applied as one
/// batch: a player who stood still hears of every mover in one
/// message, not one per mover, and every mover is answered.
#[tokio::test]
async fn actions_queued_together_reach_a_watcher_in_one_message() {
    use gloam_protocol::{PlayerChange, ServerMsg};
    let config = Config::quiet(9);
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(config.clone(), writer.handle(), known));
    let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
    let stands = |msgs: &[ServerMsg]| {
        msgs.iter().rev().find_map(|m| match m {
            ServerMsg::Sight(d) | ServerMsg::Displaced(d) => Some(d.at),
            _ => None,
        })
    };
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    let mut taken = vec![stands(&until_done(&mut ann).await).unwrap()];
    let mut movers = Vec::new();
    for name in ["bob", "cy", "dee"] {
        let mut p = world.enter(name, None, LOCAL, None).await.unwrap();
        taken.push(stands(&until_done(&mut p).await).unwrap());
        movers.push((p, *taken.last().unwrap()));
    }
    // Everything the arrivals told ann is read.
    ann.act(Action::Wait).unwrap();
    until_done(&mut ann).await;

    let release = gate::hold_task(&world.depths.handle(1).unwrap().tx).await;
    for (mover, at) in &mut movers {
        let free = |p: Pos| level.terrain(p).is_open() && !taken.contains(&p);
        let dir = Dir::ALL.into_iter().find(|&d| at.step(d).is_some_and(free)).unwrap();
        taken.push(at.step(dir).unwrap());
        mover.act(Action::Move(dir)).unwrap();
    }
    release.send(()).unwrap();
    for (mover, _) in &mut movers {
        assert!(!until_done(mover).await.is_empty(), "each mover is answered");
    }
    let reply = ann.reply().await.unwrap();
    let told: Vec<Vec<PlayerChange>> = reply
        .frames
        .iter()
        .filter_map(|f| match codec::decode_server(f).unwrap() {
            ServerMsg::Players(changes) => Some(changes),
            _ => None,
        })
        .collect();
    assert_eq!(told.len(), 1, "one message for the batch: {told:?}");
    let moved = told[0].iter().filter(|c| matches!(c, PlayerChange::Moved { .. })).count();
    assert_eq!(moved, 3, "all three moves in it: {told:?}");
}

/// Where the last sight diff among `msgs` stands its player.
fn stands(msgs: &[gloam_protocol::ServerMsg]) -> Option<Pos> {
    use gloam_protocol::ServerMsg;
    msgs.iter().rev().find_map(|m| match m {
        ServerMsg::Sight(d) | ServerMsg::Displaced(d) => Some(d.at),
        _ => None,
    })
}

/// Whether `frames` tell, in a `Players` message, of a player stepping
/// onto `to`.
fn tells_of_a_step(frames: &[Vec<u8>], to: Pos) -> bool {
    use gloam_protocol::{PlayerChange, ServerMsg};
    frames.iter().any(|f| match codec::decode_server(f).unwrap() {
        ServerMsg::Players(changes) => {
            changes.iter().any(|c| matches!(c, PlayerChange::Moved { at, .. } if *at == to))
        }
        _ => false,
    })
}

/// Ann and Bob on depth 1 of a quiet world (no monsters, no rounds),
/// each having read all it was told on arriving.
struct AnnAndBob {
    _writer: crate::store::Writer,
    _world: Arc<World>,
    level: crate::level::Level,
    ann: Presence,
    ann_at: Pos,
    bob: Presence,
    bob_at: Pos,
}

impl AnnAndBob {
    async fn enter() -> Self {
        let config = Config::quiet(9);
        let (writer, known) = Store::in_memory().start();
        let world = Arc::new(World::new(config.clone(), writer.handle(), known));
        let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
        let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
        let ann_at = stands(&until_done(&mut ann).await).unwrap();
        let mut bob = world.enter("bob", None, LOCAL, None).await.unwrap();
        let bob_at = stands(&until_done(&mut bob).await).unwrap();
        Self { _writer: writer, _world: world, level, ann, ann_at, bob, bob_at }
    }

    /// Bob steps to a free cell, answered (where he now stands).
    async fn bob_steps(&mut self) -> Pos {
        let (level, ann_at) = (&self.level, self.ann_at);
        let free = |p: Pos| level.terrain(p).is_open() && p != ann_at;
        let dir = Dir::ALL.into_iter().find(|&d| self.bob_at.step(d).is_some_and(free)).unwrap();
        self.bob.act(Action::Move(dir)).unwrap();
        self.bob_at = stands(&until_done(&mut self.bob).await).unwrap();
        self.bob_at
    }
}

/// Those who stood still hear of the movers at most every
/// [`TELL_THE_STILL`], however quiet the depth; the mover's own answer
/// never waits for it.
#[tokio::test(start_paused = true)]
async fn the_still_hear_of_movers_at_most_every_twentieth_of_a_second() {
    use tokio::time::Instant;
    let mut two = AnnAndBob::enter().await;
    let mut told_at = Vec::new();
    for _ in 0..2 {
        // A round: ann waits, bob steps somewhere free.
        two.ann.act(Action::Wait).unwrap();
        until_done(&mut two.ann).await;
        let acted = Instant::now();
        let bob_at = two.bob_steps().await;
        assert_eq!(Instant::now(), acted, "the mover's answer does not wait");
        let reply = tokio::time::timeout(Duration::from_secs(5), two.ann.reply());
        let reply = reply.await.expect("ann is told within seconds").unwrap();
        assert!(tells_of_a_step(&reply.frames, bob_at), "ann hears of bob's step");
        told_at.push(Instant::now());
    }
    let apart = told_at[1] - told_at[0];
    assert!(apart >= TELL_THE_STILL, "told again after {apart:?}");
}

/// The still are told every [`TELL_THE_STILL`] up to a hundred
/// players on a depth, less often beyond (never less than four times a
/// second), and never more often as the crowd grows.
#[test]
fn a_crowd_hears_less_often_but_at_least_four_times_a_second() {
    let ms = |n| still_period(n).as_millis();
    assert_eq!([ms(0), ms(1), ms(2), ms(100)], [50, 50, 50, 50]);
    assert_eq!([ms(150), ms(200), ms(400)], [75, 100, 200]);
    assert_eq!([ms(500), ms(1_000), ms(usize::MAX)], [250, 250, 250]);
    for n in 0..2_000 {
        assert!(still_period(n) <= still_period(n + 1), "{n}");
    }
}

/// A depth's task tells its still as often as its crowd allows: with
/// 150 on the depth a watcher hears of two steps no sooner than 75 ms
/// apart, where two players alone hear every 50 ms.
#[tokio::test(start_paused = true)]
async fn a_crowd_is_told_less_often() {
    use tokio::time::Instant;
    let mut two = AnnAndBob::enter().await;
    let mut crowd = Vec::new();
    for i in 0..148 {
        let mut p = two._world.enter(&format!("p{i}"), None, LOCAL, None).await.unwrap();
        until_done(&mut p).await;
        crowd.push(p);
    }
    let mut told_at = Vec::new();
    for _ in 0..2 {
        two.ann.act(Action::Wait).unwrap();
        until_done(&mut two.ann).await;
        let bob_at = two.bob_steps().await;
        loop {
            let reply = tokio::time::timeout(Duration::from_secs(5), two.ann.reply());
            let reply = reply.await.expect("ann is told within seconds").unwrap();
            if tells_of_a_step(&reply.frames, bob_at) {
                break;
            }
        }
        told_at.push(Instant::now());
    }
    let apart = told_at[1] - told_at[0];
    assert!(apart >= still_period(150), "told again after {apart:?}");
    assert!(still_period(150) > TELL_THE_STILL);
}

/// Those who stood still are told in shifts: watchers of different
/// shifts hear of one step at different moments, a shift's step
/// apart, and each within [`TELL_THE_STILL`] of it.
#[tokio::test(start_paused = true)]
async fn the_still_hear_of_a_step_in_shifts() {
    use tokio::time::Instant;
    let two = AnnAndBob::enter().await;
    let (mut bob, bob_was) = (two.bob, two.bob_at);
    let mut taken = vec![two.ann_at, bob_was];
    let mut watchers = vec![two.ann];
    for name in ["cat", "dan", "eve", "fay"] {
        let mut p = two._world.enter(name, None, LOCAL, None).await.unwrap();
        taken.push(stands(&until_done(&mut p).await).unwrap());
        watchers.push(p);
    }
    let shifts: std::collections::BTreeSet<usize> =
        watchers.iter().map(|w| shift_of(w.id())).collect();
    assert!(shifts.len() >= 3, "the watchers are of several shifts");
    // Everything about the arrivals heard, and the shifts' timer idle.
    tokio::time::sleep(TELL_THE_STILL * 2).await;
    for w in &mut watchers {
        while let Ok(Some(_)) = tokio::time::timeout(Duration::ZERO, w.reply()).await {}
    }
    let stepped = Instant::now();
    let free = |p: Pos| two.level.terrain(p).is_open() && !taken.contains(&p);
    let dir = Dir::ALL.into_iter().find(|&d| bob_was.step(d).is_some_and(free)).unwrap();
    bob.act(Action::Move(dir)).unwrap();
    let bob_at = stands(&until_done(&mut bob).await).unwrap();
    assert_ne!(bob_at, bob_was);
    let heard = watchers.into_iter().map(|mut w| {
        tokio::spawn(async move {
            loop {
                let reply = tokio::time::timeout(Duration::from_secs(5), w.reply());
                let reply = reply.await.expect("told within seconds").unwrap();
                if tells_of_a_step(&reply.frames, bob_at) {
                    return (shift_of(w.id()), Instant::now() - stepped);
                }
            }
        })
    });
    let mut when = std::collections::BTreeMap::new();
    for h in heard.collect::<Vec<_>>() {
        let (shift, after) = h.await.unwrap();
        assert!(after <= TELL_THE_STILL, "heard after {after:?}");
        when.entry(shift).or_insert(after);
        assert_eq!(when[&shift], after, "a shift hears at one moment");
    }
    let mut moments: Vec<Duration> = when.values().copied().collect();
    moments.sort();
    for pair in moments.windows(2) {
        assert!(pair[1] - pair[0] >= TELL_THE_STILL / SHIFTS as u32, "{moments:?}");
    }
}

/// One who stands still hears of an arrival (its line and the roster
/// change) from the depth task's timer, within [`TELL_THE_STILL`].
#[tokio::test(start_paused = true)]
async fn the_still_hear_of_an_arrival_within_a_twentieth_of_a_second() {
    use gloam_protocol::ServerMsg;
    use tokio::time::Instant;
    let two = AnnAndBob::enter().await;
    let mut ann = two.ann;
    let mut cat = two._world.enter("cat", None, LOCAL, None).await.unwrap();
    until_done(&mut cat).await;
    let arrived = Instant::now();
    // Bob's arrival may not be told yet (the store's thread takes real
    // time while this test's clock runs ahead): then one line and one
    // roster change tell of both.
    let cat = |names: &Vec<String>| names.iter().any(|n| n == "cat");
    let mut heard = Vec::new();
    while !heard.iter().any(|m| matches!(m, ServerMsg::Joined(names) if cat(names))) {
        let reply = tokio::time::timeout(Duration::from_secs(5), ann.reply());
        let reply = reply.await.expect("ann hears within seconds").unwrap();
        heard.extend(reply.frames.iter().map(|f| codec::decode_server(f).unwrap()));
    }
    let line = |m: &ServerMsg| matches!(m, ServerMsg::Others(l) if l.contains("cat") && l.ends_with("on this depth."));
    assert!(heard.iter().any(line), "{heard:?}");
    let after = Instant::now() - arrived;
    assert!(after <= TELL_THE_STILL, "heard after {after:?}");
}

/// Whatever the still are yet to hear, a player's answer to its own
/// action, a wait too, shows the others as they stand when it is
/// applied, at once.
#[tokio::test(start_paused = true)]
async fn an_answer_shows_the_others_as_they_stand_now() {
    use gloam_protocol::{PlayerChange, ServerMsg};
    use tokio::time::Instant;
    let mut two = AnnAndBob::enter().await;
    two.ann.act(Action::Wait).unwrap();
    until_done(&mut two.ann).await;
    let acted = Instant::now();
    let bob_at = two.bob_steps().await;
    two.ann.act(Action::Wait).unwrap();
    let answer = until_done(&mut two.ann).await;
    assert_eq!(Instant::now(), acted, "nothing waited");
    let told = answer.iter().any(|m| match m {
        ServerMsg::Sight(d) => {
            d.players.iter().any(|c| matches!(c, PlayerChange::Moved { at, .. } if *at == bob_at))
        }
        _ => false,
    });
    assert!(told, "ann's answer shows bob where he stepped: {answer:?}");
}

/// Those who acted are saved where they stand in shifts by id (a crowd's
/// saves are spread over the save interval, not made at one tick), each
/// within `save_interval` of acting. In real time: the store is a thread
/// of its own, and a paused clock would skip ahead while it answers. The
/// moment of each save is the depth's (`SHIFT_SAVES`): the store's thread,
/// at a low priority, answered reads so late on a busy machine that
/// both saves were found by the same look (2 runs in 10 with both cores
/// busy).
#[tokio::test]
async fn those_who_acted_are_saved_in_shifts_within_the_save_interval() {
    use super::task::SHIFT_SAVES;
    use tokio::time::Instant;
    let interval = Duration::from_secs(4);
    let config = Config { save_interval: interval, ..Config::quiet(9) };
    let (writer, known) = Store::in_memory().start();
    let store = writer.handle();
    let world = Arc::new(World::new(config, store.clone(), known));
    let mut players = Vec::new();
    for name in ["ann", "bob"] {
        let mut p = world.enter(name, None, LOCAL, None).await.unwrap();
        until_done(&mut p).await;
        players.push(p);
    }
    let ids: Vec<PlayerId> = players.iter().map(|p| p.id()).collect();
    assert_ne!(
        ids[0].0 % SAVE_SHIFTS,
        ids[1].0 % SAVE_SHIFTS,
        "ann and bob are of different shifts"
    );
    let rounds = async |name: &str| store.load(name).await.unwrap().unwrap().vitals.rounds;
    let before = [rounds("ann").await, rounds("bob").await];
    SHIFT_SAVES.with(|s| *s.borrow_mut() = Some(Vec::new()));
    for p in &mut players {
        for _ in 0..3 {
            p.act(Action::Wait).unwrap();
            until_done(p).await;
        }
    }
    let acted = Instant::now();
    // When each was saved by its shift, looking every 20 ms for 8 s. The
    // runtime is the test's thread alone, so the depth logs its saves here.
    let saved_at = |id: PlayerId| {
        SHIFT_SAVES.with(|s| {
            let saves = s.borrow();
            let first = saves.as_ref()?.iter().find(|&&(who, _)| who == id);
            first.map(|&(_, at)| at.duration_since(acted))
        })
    };
    while (saved_at(ids[0]).is_none() || saved_at(ids[1]).is_none())
        && acted.elapsed() < 2 * interval
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (Some(ann), Some(bob)) = (saved_at(ids[0]), saved_at(ids[1])) else {
        panic!("both saved by their shifts within twice the interval");
    };
    let slack = interval / 5;
    assert!(ann.max(bob) <= interval + slack, "within the save interval: {ann:?}, {bob:?}");
    // Nominally a twenty-fifth of the interval apart for each shift
    // between them (160 ms here).
    let apart = ann.abs_diff(bob);
    assert!(apart >= interval / (2 * SAVE_SHIFTS), "saved at different ticks: {ann:?}, {bob:?}");
    // And what they saved is in the store: each as it stands after acting.
    let after = [rounds("ann").await, rounds("bob").await];
    assert!(after[0] > before[0] && after[1] > before[1], "saved: {before:?} -> {after:?}");
}

/// A depth nobody is on for `depth_idle` frees its level and task; the
/// next arrival there starts it afresh, with the very level the seed
/// makes, and the player remembers what it knew of it.
#[tokio::test(start_paused = true)]
async fn an_idle_depth_stops_and_is_rebuilt_exactly_when_someone_returns() {
    let config = Config {
        depth_idle: Duration::from_secs(60),
        save_interval: Duration::from_secs(1),
        ..Config::quiet(9)
    };
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(config.clone(), writer.handle(), known));
    let level = |d| mapgen::build_level_with(config.seed, d, config.generator, &config.mix);
    let (one, two) = (level(1), level(2));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    until_done(&mut ann).await;
    let path = one.grid.walk_from(one.arrival).path_to(one.stairs_down).unwrap();
    for dir in path {
        ann.act(Action::Move(dir)).unwrap();
        until_done(&mut ann).await;
    }
    ann.act(Action::Descend).unwrap();
    until_done(&mut ann).await;
    ann.act(Action::Ascend).unwrap();
    until_done(&mut ann).await;
    assert_eq!(ann.depth(), 1);
    let running = |w: &World, d| w.depths.lock().contains_key(&d);
    assert!(running(&world, 2), "just left: depth 2 still runs");
    // Time passes (paused: the runtime skips ahead while all is idle).
    for _ in 0..70 {
        ann.act(Action::Wait).unwrap();
        until_done(&mut ann).await;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    assert!(!running(&world, 2), "an empty depth let its level go");
    assert!(running(&world, 1), "an occupied depth goes on");
    ann.act(Action::Descend).unwrap();
    let msgs = until_done(&mut ann).await;
    assert!(running(&world, 2), "back in play");
    let (remembered, terrain) = msgs
        .iter()
        .find_map(|m| match m {
            gloam_protocol::ServerMsg::EnterLevel { remembered, terrain, .. } => {
                Some((gloam_protocol::CellSet::from_bytes(remembered), terrain.clone()))
            }
            _ => None,
        })
        .expect("the level again");
    assert!(!terrain.is_empty(), "what it saw there is remembered");
    for (i, t) in remembered.iter().zip(terrain) {
        assert_eq!(two.grid.cells()[i], t, "the same level, cell {i}");
    }
}

/// Alone on a depth the game waits, however long: a hunting jackal five
/// cells away is where it was after a minute with nothing pressed (the
/// clock is paused, so the minute passes at once), and the next action
/// is one round: one step for the jackal.
#[tokio::test(start_paused = true)]
async fn alone_a_minute_passes_and_nothing_moves() {
    let config = Config::with_seed(9);
    let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
    let seen = level.grid.fov(level.arrival, 8);
    let far = |p: &Pos| p.x.abs_diff(level.arrival.x).max(p.y.abs_diff(level.arrival.y));
    let at = seen
        .cells()
        .filter(|p| level.terrain(*p) == gloam_protocol::Terrain::Floor && far(p) == 5)
        .min()
        .expect("floor five cells off, in sight of the arrival");
    let placements = vec![crate::config::Placement { kind: "jackal".into(), depth: 1, pos: at }];
    let config = Config { placements, ..config };
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(config, writer.handle(), known));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    let arrival = until_done(&mut ann).await;
    let jackal = arrival
        .iter()
        .find_map(|m| match m {
            gloam_protocol::ServerMsg::Sight(d) => d.monsters.iter().find_map(|c| match c {
                gloam_protocol::MonsterChange::Appeared { id, at: seen_at, .. }
                    if *seen_at == at =>
                {
                    Some(*id)
                }
                _ => None,
            }),
            _ => None,
        })
        .expect("ann sees the jackal on arriving");
    tokio::time::sleep(Duration::from_secs(60)).await;
    let quiet = tokio::time::timeout(Duration::ZERO, ann.reply()).await;
    assert!(quiet.is_err(), "nothing happened in a minute");
    ann.act(Action::Wait).unwrap();
    let moved: Vec<Pos> = until_done(&mut ann)
        .await
        .iter()
        .flat_map(|m| match m {
            gloam_protocol::ServerMsg::Sight(d) => d.monsters.clone(),
            gloam_protocol::ServerMsg::Monsters(c) => c.clone(),
            _ => Vec::new(),
        })
        .filter_map(|c| match c {
            gloam_protocol::MonsterChange::Moved { id, at } if id == jackal => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(moved.len(), 1, "one round, one step: {moved:?}");
    assert_eq!(far(&moved[0]), 4, "a step towards ann");
}

/// One client in a loop cannot fill the host's disk: past the hour's
/// quota for its address, and past the world's total, new names are
/// refused with a reason and nothing more is stored.
#[tokio::test]
async fn new_characters_are_capped_per_address_and_in_all() {
    let dir = tempfile::tempdir().unwrap();
    let config =
        Config { new_characters_per_address_per_hour: 5, max_characters: 12, ..Config::quiet(2) };
    let (writer, known) = Store::open(dir.path()).unwrap().start();
    let world = Arc::new(World::new(config, writer.handle(), known));
    let address = |i: u8| IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, i));
    let mut made = Vec::new();
    let mut refusals = std::collections::BTreeSet::new();
    for attempt in 0..3_000u32 {
        // Most from one address; every hundredth from a new one.
        let from = if attempt % 100 == 0 { address((attempt / 100) as u8) } else { address(200) };
        match world.enter(&format!("bot{attempt}"), None, from, None).await {
            Ok(presence) => made.push(presence),
            Err(Refusal::Unavailable { reason }) => {
                refusals.insert(reason);
            }
            Err(other) => panic!("{other:?}"),
        }
    }
    assert_eq!(made.len(), 12, "5 from the looping address, then others up to the total");
    // The host's own machine is not held to the hourly quota, only to the total.
    let local = world.enter("host", None, LOCAL, None).await.err();
    assert!(
        matches!(local, Some(Refusal::Unavailable { reason }) if reason.contains("all the characters"))
    );
    assert!(refusals.iter().any(|r| r.contains("an hour from one address")), "{refusals:?}");
    assert!(refusals.iter().any(|r| r.contains("all the characters it can keep")));
    for presence in made {
        presence.leave().await;
    }
    world.close().await;
    let handle = writer.handle();
    handle.flush().await;
    drop(handle);
    writer.close();
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.known().len(), 12, "nothing refused was stored");
}

/// When the disk fills, the players are told their progress is not
/// being kept and no new character is made; when there is room again
/// they are told so, and where they stand is saved after all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_hear_when_saving_stops_and_when_it_works_again() {
    let config = Config { save_interval: Duration::from_millis(20), ..Config::quiet(4) };
    let (store, full) = Store::on_a_disk_that_fills();
    let (writer, known) = store.start();
    let world = Arc::new(World::new(config, writer.handle(), known));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    until_done(&mut ann).await;
    full.store(true, std::sync::atomic::Ordering::SeqCst);
    let heard = |msgs: &[gloam_protocol::ServerMsg], words: &str| {
        msgs.iter().any(|m| matches!(m, gloam_protocol::ServerMsg::Note(n) if n.contains(words)))
    };
    // Bounded by the timeouts around it, not by a count of waits: the
    // store retries once a second, and waits can be quick enough that
    // any count runs out first.
    let until_heard = async |ann: &mut Presence, words: &str| loop {
        ann.act(Action::Wait).unwrap();
        if heard(&until_done(ann).await, words) {
            return;
        }
        tokio::task::yield_now().await;
    };
    tokio::time::timeout(Duration::from_secs(20), until_heard(&mut ann, "cannot save"))
        .await
        .expect("told in time");
    let refused = world.enter("bob", None, LOCAL, None).await.err();
    assert!(
        matches!(refused, Some(Refusal::Unavailable { reason }) if reason.contains("cannot save"))
    );
    full.store(false, std::sync::atomic::Ordering::SeqCst);
    tokio::time::timeout(Duration::from_secs(20), until_heard(&mut ann, "can save again"))
        .await
        .expect("told in time");
    ann.leave().await;
    assert!(writer.handle().load("ann").await.unwrap().is_some(), "ann is kept");
}

/// A reply its player's connection did not take (its queue was full, so
/// the depth let the player go) is shown to its watchers neither: they
/// are shown the replies the player took, then the end of its game.
#[tokio::test]
async fn a_reply_its_player_never_took_is_not_shown_to_its_watchers() {
    use gloam_protocol::ServerMsg;
    let config = Config { outbox_capacity: 2, ..Config::quiet(9) };
    let (writer, known) = Store::in_memory().start();
    let world = Arc::new(World::new(config, writer.handle(), known));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    until_done(&mut ann).await;
    let mut bob = world.watch("bob", None, LOCAL, "ann").await.unwrap();
    assert!(matches!(bob.next().await, Some(StreamPart::Frames(_))), "bob's first view");
    let tell = world.depths.handle(1).unwrap().tx;
    // Ann's connection takes nothing more: two lines fill her queue (bob
    // reads them as they come), and the third finds it full.
    for line in ["one", "two"] {
        tell.send(DepthCmd::Tell(line.into())).await.unwrap();
        let Some(StreamPart::Frames(frames)) = bob.next().await else {
            panic!("bob is shown {line}")
        };
        assert_eq!(decoded(&frames), [ServerMsg::Note(line.into())]);
    }
    tell.send(DepthCmd::Tell("three".into())).await.unwrap();
    // Her leave, queued behind the third line, gives what her queue held.
    let untaken = decoded(&ann.leave().await);
    assert_eq!(untaken, ["one", "two"].map(|l| ServerMsg::Note(l.into())));
    match bob.next().await {
        Some(StreamPart::End(why)) => assert_eq!(why, "ann left the game"),
        other => panic!("bob was shown what ann never took: {other:?}"),
    }
}

/// Encoded messages, decoded.
fn decoded(frames: &[impl AsRef<[u8]>]) -> Vec<gloam_protocol::ServerMsg> {
    frames.iter().map(|f| codec::decode_server(f.as_ref()).unwrap()).collect()
}

/// Once the world is frozen (the server stops), an action is not applied:
/// a player leaving afterwards is saved where it stood, so nobody steps
/// onto a cell a leaver has just left and two are saved on one cell.
#[tokio::test]
async fn a_frozen_world_applies_no_action_and_saves_each_where_it_stood() {
    let config = Config { save_interval: Duration::from_secs(3600), ..Config::quiet(9) };
    let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
    let (writer, known) = Store::in_memory().start();
    let store = writer.handle();
    let world = Arc::new(World::new(config, store.clone(), known));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    assert!(ann.reply().await.expect("the arrival").done);
    let open = |p: Pos| level.terrain(p).is_open();
    let dir = Dir::ALL.into_iter().find(|&d| level.arrival.step(d).is_some_and(open)).unwrap();
    world.freeze().await;
    ann.act(Action::Move(dir)).unwrap();
    ann.leave().await;
    let saved = store.load("ann").await.unwrap().expect("saved as it left");
    assert_eq!(saved.pos, level.arrival, "the step after the freeze was not taken");
}

/// The server stops: every depth hands its history to the store before
/// the store closes, so a clean restart loses none of it (the periodic
/// save never came here).
#[tokio::test]
async fn closing_the_world_keeps_every_depths_history_whole() {
    let config = Config { save_interval: Duration::from_secs(3600), ..Config::quiet(9) };
    let dir = tempfile::tempdir().unwrap();
    let (writer, known) = Store::open(dir.path()).unwrap().start();
    let world = Arc::new(World::new(config, writer.handle(), known));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    assert!(ann.reply().await.expect("the arrival").done);
    for _ in 0..3 {
        ann.act(Action::Wait).unwrap();
        assert!(ann.reply().await.expect("an answer").done);
    }
    // Its presence still held while the world and the store close: the
    // depth's task lives on past the store, as it may at a SIGTERM's end.
    world.close().await;
    tokio::task::spawn_blocking(move || writer.close()).await.unwrap();
    drop(ann);
    let stored = Store::open(dir.path()).unwrap().depth_history(1).unwrap();
    let entries = decode_history(&stored.entries).unwrap();
    let waits = entries.iter().filter(|e| matches!(e.what, Command::Act { .. })).count();
    assert_eq!(waits, 3, "every wait is in the history: {entries:?}");
    let summed = stored.live.map(|(at, _)| at);
    assert_eq!(summed, Some(stored.entries.len() as u64), "summed after its last entry");
}

/// The depth's task hands its log over every fifth of `save_interval` and
/// sums it once a `save_interval`: a depth that falls quiet after a part
/// went unsummed has its checksum kept after its last entry all the same,
/// within a `save_interval` or two (here 1 s: the log goes every 200 ms,
/// the sum every second). In real time, the store being a thread of its
/// own (see the shifts' test above).
#[tokio::test]
async fn a_quiet_depth_keeps_its_checksum_after_its_last_entry() {
    let interval = Duration::from_secs(1);
    let config = Config { save_interval: interval, ..Config::quiet(9) };
    let (writer, known) = Store::in_memory().start();
    let store = writer.handle();
    let world = Arc::new(World::new(config, store.clone(), known));
    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    until_done(&mut ann).await;
    for _ in 0..3 {
        ann.act(Action::Wait).unwrap();
        until_done(&mut ann).await;
    }
    let read = || {
        let store = store.clone();
        tokio::task::spawn_blocking(move || store.depth_history(1).unwrap())
    };
    // Looking every 20 ms, for four intervals at most.
    let quiet = tokio::time::Instant::now();
    let (entries, summed) = loop {
        let history = read().await.unwrap();
        let (entries, summed) = (history.entries.len() as u64, history.live.map(|(at, _)| at));
        if (entries >= 4 && summed == Some(entries)) || quiet.elapsed() > 4 * interval {
            break (entries, summed);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(entries >= 4, "the arrival and three waits handed over: {entries}");
    assert_eq!(summed, Some(entries), "summed after the last entry, once quiet");
    drop(ann);
    world.close().await;
}
