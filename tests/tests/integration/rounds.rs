//! The clock of docs/turns.md and the fights it paces, over real WebSockets
//! against a real server on loopback, every message checked by the oracle
//! (monsters included). The monsters are put by hand (`--place`) from a
//! bestiary whose kinds the seed never places, so each scenario meets
//! exactly the monsters it names.

use std::sync::Arc;
use std::time::{Duration, Instant};

use gloam_protocol::{Action, ClientMsg, Pos, ServerMsg};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_tests::history::{self, Covered, Glimpse};
use gloam_tests::{ARENA_BESTIARY, Oracle, SimClient, SimError, TestServer};
use tempfile::TempDir;

const SEED: u64 = 7_070;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);

fn bestiary() -> Bestiary {
    Bestiary::load(std::path::Path::new(ARENA_BESTIARY)).expect("the arena bestiary loads")
}

/// The arrival of depth 1 and an open cell in its sight `far` steps from it
/// (as the king walks), nearest its row.
fn arrival_and_cell(far: u16) -> (Pos, Pos) {
    let (a, cells) = in_sight_of_arrival(SEED, SETTING, far);
    (a, cells[0])
}

/// The arrival of depth 1 and the floor cells in its sight `far` steps from
/// it (as the king walks), nearest its row first.
fn in_sight_of_arrival(seed: u64, setting: GeneratorSetting, far: u16) -> (Pos, Vec<Pos>) {
    let (a, mut cells) = gloam_tests::floor_in_sight_of_arrival(seed, setting, far);
    cells.sort_by_key(|p| (p.y.abs_diff(a.y), p.x, p.y));
    (a, cells)
}

struct Arena {
    server: TestServer,
    placements: Vec<Placement>,
    data: TempDir,
}

impl Arena {
    async fn start(placed: &[(&str, Pos)], deadline: Duration, pvp: bool) -> Arena {
        let placements: Vec<Placement> = placed
            .iter()
            .map(|&(kind, pos)| Placement { kind: kind.into(), depth: 1, pos })
            .collect();
        let config = Config {
            seed: SEED,
            generator: SETTING,
            actions_per_second: 1_000,
            action_burst: 1_000,
            bestiary: Arc::new(bestiary()),
            placements: placements.clone(),
            turn_deadline: deadline,
            pvp,
            ..Config::default()
        };
        let data = tempfile::tempdir().unwrap();
        let store = Store::open(data.path()).unwrap();
        let server = TestServer::start_with_store(config, store).await.expect("the server starts");
        Arena { server, placements, data }
    }

    /// Ends the scenario: `players` quit, and every monster each was shown
    /// is checked against depth 1 replayed from the server's log. `gone`
    /// holds the oracles of those who died.
    async fn replayed(self, players: Vec<SimClient>, gone: Vec<Oracle>) -> Covered {
        let mut glimpses: Vec<Glimpse> = gone.into_iter().flat_map(|o| o.glimpses).collect();
        for sim in players {
            glimpses.extend(sim.quit_with_oracle().await.expect("quits").unwrap().glimpses);
        }
        replayed(self.server, &self.data, &glimpses).await
    }

    fn oracle(&self) -> Oracle {
        Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS)
            .with_monsters(bestiary(), self.placements.clone())
    }

    async fn join(&self, name: &str) -> SimClient {
        SimClient::join(&self.server.url(), name, Some(self.oracle())).await.expect("join")
    }
}

fn king(a: Pos, b: Pos) -> u16 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

/// Where the one monster in `sim`'s sight stands.
fn monster_at(sim: &SimClient) -> Pos {
    assert_eq!(sim.state.monsters.len(), 1, "{}: {:?}", sim.name, sim.state.monsters);
    sim.state.monsters.values().next().unwrap().at
}

/// Reads `sim`'s messages up to and including its next `Sight`.
async fn next_answer(sim: &mut SimClient) -> Vec<ServerMsg> {
    let mut msgs = Vec::new();
    loop {
        let msg = sim.recv().await.expect("the server answers");
        let done = matches!(msg, ServerMsg::Sight(_));
        msgs.push(msg);
        if done {
            return msgs;
        }
    }
}

fn waited_for(msgs: &[ServerMsg]) -> Vec<Vec<String>> {
    msgs.iter()
        .filter_map(|m| match m {
            ServerMsg::Waiting(names) => Some(names.clone()),
            _ => None,
        })
        .collect()
}

/// 1. Alone on a depth, the game waits: a hunting kobold five cells away
/// stays where it is for as long as the player does nothing (ten deadlines
/// here), and each action is answered at once and is one round.
#[tokio::test]
async fn alone_on_a_depth_the_game_waits_for_you() {
    let (_, kobold) = arrival_and_cell(5);
    let deadline = Duration::from_millis(100);
    let arena = Arena::start(&[("kobold", kobold)], deadline, false).await;
    let mut ann = arena.join("ann").await;
    assert_eq!(monster_at(&ann), kobold, "ann sees the kobold on arriving");
    // Time passes with nothing pressed: not a synchronisation, the test's
    // subject. Nothing may arrive meanwhile.
    tokio::time::sleep(deadline * 10).await;
    let quiet = tokio::time::timeout(Duration::from_millis(5), ann.recv()).await;
    assert!(quiet.is_err(), "nothing happened while ann waited: {quiet:?}");
    assert_eq!(monster_at(&ann), kobold, "the kobold is where it was");
    let mut distance = king(ann.at(), kobold);
    for _ in 0..3 {
        ann.act(Action::Wait).await.expect("answered at once");
        let now = king(ann.at(), monster_at(&ann));
        assert_eq!(now, distance - 1, "one action, one round, one step");
        distance = now;
        assert!(ann.state.waiting.is_empty(), "alone, nobody is waited for");
    }
    assert!(ann.checked() > 0);
    let covered = arena.replayed(vec![ann], vec![]).await;
    assert!(covered.glimpses >= 4, "{covered:?}");
}

/// 2. Nobody outpaces anybody: with a hunting kobold seeing both, ann
/// sends ten actions at once while bob thinks; she gets one action per
/// round (each of bob's actions closes one), is told she waits for bob,
/// and the kobold takes one step per round.
#[tokio::test]
async fn sharing_a_danger_the_fast_player_gets_one_action_per_round() {
    let (_, kobold) = arrival_and_cell(6);
    let arena = Arena::start(&[("kobold", kobold)], Duration::from_secs(30), false).await;
    let mut ann = arena.join("ann").await;
    let mut bob = arena.join("bob").await;
    // Nobody has acted: the kobold is where it was put, and both see it.
    assert_eq!((monster_at(&ann), monster_at(&bob)), (kobold, kobold));
    let mut kobold_at = monster_at(&ann);
    for _ in 0..10 {
        ann.send(&ClientMsg::Act(Action::Wait)).await.unwrap();
    }
    let first = next_answer(&mut ann).await;
    assert_eq!(waited_for(&first), [vec!["bob".to_string()]], "{first:?}");
    assert_eq!(ann.state.waiting, ["bob"]);
    assert_eq!(monster_at(&ann), kobold_at, "the round is open: the kobold waits too");
    for round in 0..4 {
        bob.act(Action::Wait).await.expect("bob's action closes the round");
        let msgs = next_answer(&mut ann).await;
        assert_eq!(ann.state.waiting, ["bob"], "round {round}: ann's held action, then waiting");
        assert!(msgs.iter().filter(|m| matches!(m, ServerMsg::Sight(_))).count() == 1);
        let now = monster_at(&ann);
        assert_eq!(king(now, kobold_at), 1, "round {round}: one step for the kobold");
        kobold_at = now;
    }
    // Four rounds: ann has had five of her ten actions, no more.
    let early = tokio::time::timeout(Duration::from_millis(50), ann.recv()).await;
    assert!(
        !matches!(early, Ok(Ok(ServerMsg::Sight(_)))),
        "no answer comes before bob acts again: {early:?}"
    );
    let covered = arena.replayed(vec![ann, bob], vec![]).await;
    assert!(covered.glimpses >= 8, "{covered:?}");
}

/// 3. An absent friend costs at most one deadline: bob never acts; ann's
/// second action waits for the deadline, no longer, then bob is counted
/// away and ann plays at her own pace; when bob acts he is back, and the
/// round waits for ann's turn again.
#[tokio::test]
async fn an_absent_friend_costs_at_most_one_deadline() {
    let (_, kobold) = arrival_and_cell(6);
    let deadline = Duration::from_millis(300);
    let arena = Arena::start(&[("kobold", kobold)], deadline, false).await;
    let mut ann = arena.join("ann").await;
    let mut bob = arena.join("bob").await;
    let msgs = ann.act(Action::Wait).await.expect("answered at once");
    assert_eq!(ann.state.waiting, ["bob"], "the HUD says whom the round waits for: {msgs:?}");
    let held = Instant::now();
    ann.send(&ClientMsg::Act(Action::Wait)).await.unwrap();
    let msgs = next_answer(&mut ann).await;
    assert!(held.elapsed() >= deadline.mul_f32(0.9), "held until the deadline");
    assert!(ann.state.waiting.is_empty(), "bob is away now: {msgs:?}");
    for _ in 0..6 {
        let msgs = ann.act(Action::Wait).await.expect("at her own pace");
        assert!(waited_for(&msgs).iter().all(Vec::is_empty), "never waits for bob: {msgs:?}");
    }
    let msgs = bob.act(Action::Wait).await.expect("bob is back");
    assert_eq!(bob.state.waiting, ["ann"], "and the round waits for ann's turn: {msgs:?}");
    let covered = arena.replayed(vec![ann, bob], vec![]).await;
    assert!(covered.glimpses >= 8, "{covered:?}");
}

/// 4. Players who share no danger are not slowed by each other, even in
/// sight of each other; with --pvp, seeing each other is a danger shared.
#[tokio::test]
async fn without_a_shared_danger_each_plays_at_their_own_pace() {
    let arena = Arena::start(&[], Duration::from_secs(30), false).await;
    let mut ann = arena.join("ann").await;
    let mut bob = arena.join("bob").await;
    ann.sync().await.unwrap();
    assert!(!ann.state.others.is_empty(), "ann sees bob (and was not held for him)");
    for _ in 0..20 {
        let msgs = ann.act(Action::Wait).await.expect("answered without bob");
        assert!(waited_for(&msgs).is_empty(), "{msgs:?}");
    }
    for _ in 0..5 {
        bob.act(Action::Wait).await.expect("bob too, at his pace");
    }

    let pvp = Arena::start(&[], Duration::from_secs(30), true).await;
    let mut ann = pvp.join("ann").await;
    let mut bob = pvp.join("bob").await;
    let msgs = ann.act(Action::Wait).await.unwrap();
    assert_eq!(waited_for(&msgs), [vec!["bob".to_string()]], "with --pvp, bob is a danger");
    bob.act(Action::Wait).await.unwrap();
    // Bob's action closed the round: ann is told she waits no more.
    while ann.recv().await.unwrap() != ServerMsg::Waiting(vec![]) {}
    ann.act(Action::Wait).await.expect("her next round");
}

/// A fight by keys: a rat beside the arrival is struck until it dies;
/// every message on the way is checked against the truth.
#[tokio::test]
async fn a_rat_beside_the_arrival_is_killed_by_keys() {
    let (arrival, rat) = arrival_and_cell(1);
    let arena = Arena::start(&[("rat", rat)], Duration::from_secs(30), false).await;
    let mut ann = arena.join("ann").await;
    assert_eq!(ann.at(), arrival);
    let dir = gloam_protocol::Dir::ALL.into_iter().find(|&d| arrival.step(d) == Some(rat)).unwrap();
    let mut lines = Vec::new();
    for _ in 0..30 {
        let msgs = ann.act(Action::Move(dir)).await.expect("a blow");
        lines.extend(msgs.into_iter().filter_map(|m| match m {
            ServerMsg::Combat(text) => Some(text),
            _ => None,
        }));
        if ann.state.monsters.is_empty() {
            break;
        }
    }
    assert!(lines.iter().any(|l| l == "You kill the rat."), "{lines:?}");
    assert!(ann.state.monsters.is_empty(), "the dead rat is gone from sight");
    assert_eq!(ann.at(), arrival, "striking is not stepping");
    let covered = arena.replayed(vec![ann], vec![]).await;
    assert!(covered.glimpses >= 2, "{covered:?}");
}

/// A death: the giant's blow kills; the player gets its record, then the
/// graveyard, then a normal close; the same name and key start a new
/// character with full hit points, and the graveyard keeps the dead.
#[tokio::test]
async fn a_dead_character_goes_to_the_graveyard_and_its_name_plays_on() {
    let (_, giant) = arrival_and_cell(1);
    let arena = Arena::start(&[("giant", giant)], Duration::from_secs(30), false).await;
    let mut ann = arena.join("ann").await;
    let token = ann.token;
    let record = match ann.act(Action::Wait).await {
        Err(SimError::Died(record)) => record,
        other => panic!("ann should have died: {other:?}"),
    };
    assert_eq!(
        (record.name.as_str(), record.depth, record.killed_by.as_str()),
        ("ann", 1, "a giant")
    );
    assert!(ann.state.log.iter().any(|l| l.starts_with("The giant crushes you")));
    let graveyard = ann.state.graveyard.clone().expect("the graveyard came with the death");
    assert_eq!(graveyard.first(), Some(&record));

    let mut again =
        SimClient::join_with_token(&arena.server.url(), "ann", token, Some(arena.oracle()))
            .await
            .expect("the same name and key play on");
    assert_eq!(again.state.hp, Some((30, 30)), "a new character");
    assert_eq!(again.state.depth, 1);
    again.send(&ClientMsg::Graveyard).await.unwrap();
    loop {
        if let ServerMsg::Graveyard(dead) = again.recv().await.unwrap() {
            assert_eq!(dead, vec![record]);
            break;
        }
    }
    let gone = ann.take_oracle().unwrap();
    let covered = arena.replayed(vec![again], vec![gone]).await;
    assert!(covered.glimpses >= 1, "{covered:?}");
}

/// Three players explore a world its seed filled with monsters, fighting
/// what they meet (and starting again when they die); every message each
/// receives is checked by the oracle: no monster out of sight, none of a
/// kind the seed did not make, none in a wall or on a player. After play,
/// every monster each was shown is checked against the truth: each depth
/// replayed from the seed and the log the server kept.
#[tokio::test]
async fn explorers_meet_the_seeds_monsters_and_the_oracle_checks_every_one() {
    let seed = 31;
    let setting = GeneratorSetting::Mixed;
    // A welcome party by the arrival besides what the seed placed, so the
    // fights start at once.
    let (_, near) = in_sight_of_arrival(seed, setting, 5);
    let placements: Vec<Placement> = ["jackal", "jackal", "kobold", "cutpurse"]
        .into_iter()
        .zip(near)
        .map(|(kind, pos)| Placement { kind: kind.into(), depth: 1, pos })
        .collect();
    let config = Config {
        seed,
        generator: setting,
        actions_per_second: 1_000,
        action_burst: 1_000,
        turn_deadline: Duration::from_millis(200),
        placements: placements.clone(),
        ..Config::default()
    };
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(config.clone(), store).await.unwrap();
    let oracle = || {
        Oracle::new(seed, setting, gloam_protocol::SIGHT_RADIUS)
            .with_monsters(Bestiary::default(), placements.clone())
    };
    let names = ["ann", "bob", "cy"];
    let mut sims = Vec::new();
    for name in names {
        sims.push(SimClient::join(&server.url(), name, Some(oracle())).await.unwrap());
    }
    let (mut monsters_seen, mut deaths, mut checked) = (0, 0, 0);
    let mut glimpses = Vec::new();
    for turn in 0..400 {
        for i in 0..sims.len() {
            monsters_seen += sims[i].state.monsters.len();
            let explored = match sims[i].fight() {
                Some(action) => sims[i].act(action).await.map(|_| true),
                None => sims[i].explore(1).await,
            };
            match explored {
                Ok(true) => {}
                Ok(false) => {
                    sims[i].find_and_descend(200).await.ok();
                }
                Err(SimError::Died(_)) => {
                    deaths += 1;
                    checked += sims[i].checked();
                    glimpses.extend(sims[i].take_oracle().unwrap().glimpses);
                    let (name, token) = (sims[i].name.clone(), sims[i].token);
                    sims[i] =
                        SimClient::join_with_token(&server.url(), &name, token, Some(oracle()))
                            .await
                            .unwrap();
                }
                Err(e) => panic!("turn {turn}, {}: {e}", names[i]),
            }
        }
    }
    checked += sims.iter().map(SimClient::checked).sum::<u64>();
    assert!(monsters_seen > 0, "the explorers met monsters");
    assert!(checked > 1_000, "{checked} messages checked ({deaths} deaths)");
    for sim in sims {
        glimpses.extend(sim.quit_with_oracle().await.unwrap().unwrap().glimpses);
    }
    let covered = replayed(server, &data, &glimpses).await;
    assert!(covered.glimpses >= 20, "{covered:?}");
}

/// Stops `server` and checks `glimpses` (of every depth they saw) against
/// each depth replayed from the log it kept in `data`.
async fn replayed(server: TestServer, data: &TempDir, glimpses: &[Glimpse]) -> Covered {
    let config = server.config.clone();
    server.stop(Duration::from_secs(10)).await.unwrap();
    let store = Store::open(data.path()).unwrap();
    history::check_every_depth(&config, &store, glimpses).unwrap_or_else(|e| panic!("{e}"))
}
