//! A depth left alone regains monsters, through the world: its task asks
//! the world's absences how long it stood empty when someone comes, and
//! that outlives the task (a depth that retired is rebuilt from its log,
//! then restocked).

use std::time::Duration;

use gloam_protocol::{Action, Dir, ServerMsg, codec};

use super::depth::{Command, decode_history};
use super::task::DepthHost;
use super::*;
use crate::bestiary::Bestiary;
use crate::config::Placement;
use crate::mapgen;
use crate::store::Store;

const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

/// One kind, living at depth 1 only: asleep, harmless, dead in a blow.
const MOTHS: &str = r##"
[[monster]]
name = "moth"
glyph = "m"
colour = "#c0c0a0"
hp = 1
to_hit = 1
damage = "1d1"
speed = "normal"
sight = 4
behaviour = "hunts"
asleep = true
depths = [1, 1]
rarity = 1
"##;

/// Every message up to the one that answers the last command.
async fn until_done(p: &mut Presence) -> Vec<ServerMsg> {
    let mut msgs = Vec::new();
    loop {
        let reply = p.reply().await.expect("still in the world");
        msgs.extend(reply.frames.iter().map(|f| codec::decode_server(f).unwrap()));
        if reply.done {
            return msgs;
        }
    }
}

/// Strikes `dir` until the moth there dies (bounded: a blow hits four
/// times in five).
async fn strike_until_killed(p: &mut Presence, dir: Dir) {
    let killed = |msgs: &[ServerMsg]| {
        msgs.iter().any(|m| matches!(m, ServerMsg::Combat(t) if t == "You kill the moth."))
    };
    for _ in 0..50 {
        p.act(Action::Move(dir)).unwrap();
        if killed(&until_done(p).await) {
            return;
        }
    }
    panic!("the moth beside did not die in 50 blows");
}

/// What depth 1's log holds, as the store keeps it.
fn depth_1_log(store: &crate::store::StoreHandle) -> Vec<Command> {
    let stored = store.depth_history(1).expect("the store answers");
    decode_history(&stored.entries).unwrap().into_iter().map(|e| e.what).collect()
}

/// Ann kills the moth placed beside the arrival of depth 1 and leaves the
/// game. Rounds played elsewhere (counted straight into the world's
/// absences here; tests/tests/integration/restock.rs plays them) while
/// depth 1 stands empty long enough for its task to retire: when she comes
/// back, the depth is rebuilt from its log and regains a moth before her
/// arrival. Short of a period, it does not.
#[tokio::test(start_paused = true)]
async fn a_depth_regains_monsters_after_its_task_retired_and_not_before_a_period() {
    let mut config = Config {
        bestiary: Arc::new(Bestiary::parse(MOTHS, "moths").unwrap()),
        depth_idle: Duration::from_secs(60),
        save_interval: Duration::from_secs(1),
        restock_every: 20,
        ..Config::with_seed(9)
    };
    let level = mapgen::build_level_with(config.seed, 1, config.generator, &config.mix);
    let open = |d: &Dir| level.arrival.step(*d).is_some_and(|p| level.terrain(p).is_open());
    let dir = Dir::ALL.into_iter().find(open).unwrap();
    let beside = level.arrival.step(dir).unwrap();
    config.placements = vec![Placement { kind: "moth".into(), depth: 1, pos: beside }];
    let (writer, known) = Store::in_memory().start();
    let store = writer.handle();
    let world = Arc::new(World::new(config, store.clone(), known));

    let mut ann = world.enter("ann", None, LOCAL, None).await.unwrap();
    let token = ann.new_token();
    until_done(&mut ann).await;
    strike_until_killed(&mut ann, dir).await;
    ann.leave().await;

    // Less than a period: nothing.
    world.depths.absences().played(19);
    let mut ann = world.enter("ann", token, LOCAL, None).await.unwrap();
    until_done(&mut ann).await;
    ann.leave().await;
    // Then three periods, and long enough for depth 1 to retire.
    world.depths.absences().played(60);
    let running = |w: &World| w.depths.lock().contains_key(&1);
    for _ in 0..70 {
        if !running(&world) {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    assert!(!running(&world), "depth 1 stood empty and retired");
    let mut ann = world.enter("ann", token, LOCAL, None).await.unwrap();
    until_done(&mut ann).await;
    ann.leave().await;
    // The depth hands its log to the store as it saves (the clock is
    // paused: this is its next save, not a wait).
    tokio::time::sleep(Duration::from_secs(2)).await;

    let log = depth_1_log(&store);
    let restocks: Vec<(usize, &Command)> =
        log.iter().enumerate().filter(|(_, c)| matches!(c, Command::Restock { .. })).collect();
    assert_eq!(restocks.len(), 1, "one restock, after three periods: {log:?}");
    let (at, restock) = restocks[0];
    assert_eq!(restock, &Command::Restock { periods: 3 });
    let next = log[at + 1..].iter().find(|c| !c.is_mark());
    assert!(matches!(next, Some(Command::Entered { .. })), "before the arrival: {log:?}");
    let arrivals = log.iter().filter(|c| matches!(c, Command::Entered { .. })).count();
    assert_eq!(arrivals, 3, "{log:?}");
}
