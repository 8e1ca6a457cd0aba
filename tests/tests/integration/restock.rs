//! A dungeon that lives on, over real WebSockets against a real server on
//! loopback: a depth left alone while rounds are played elsewhere regains
//! monsters, and its log, restock and all, replays to the live depth.
//! Every message is checked by the oracle; every monster the player was
//! shown, the regained ones too, against the depth replayed from its log.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use gloam_client::ClientState;
use gloam_protocol::{Action, Pos, Terrain};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_server::store::Store;
use gloam_server::world::{Command, fresh_depth};
use gloam_tests::history;
use gloam_tests::{MOTH_BESTIARY, Oracle, SimClient, TestServer};

const SEED: u64 = 7_070;
const SETTING: GeneratorSetting = GeneratorSetting::One(Generator::Bsp);
/// Rounds played elsewhere per restock period: short, so the test plays
/// a few dozen rounds, not hundreds.
const EVERY: u64 = 10;
const MAX_STEPS: usize = 3_000;

fn bestiary() -> Bestiary {
    Bestiary::load(std::path::Path::new(MOTH_BESTIARY)).expect("the moth bestiary loads")
}

/// The ids of the monsters `state` shows past the first `first`.
fn regained(state: &ClientState, first: usize) -> Vec<u32> {
    state.monsters.keys().map(|id| id.0).filter(|&id| id as usize > first).collect()
}

/// `rounds` waits, each a round of its own (ann is alone on her depth).
async fn wait(sim: &mut SimClient, rounds: u64) {
    for _ in 0..rounds {
        sim.act(Action::Wait).await.expect("a wait");
    }
}

/// Walks about depth 1 until a monster past its first `first` is in sight:
/// to the nearest cell not seen since it came back (or the nearest edge
/// of what it knows), striking what stands beside it.
async fn look_for_regained(sim: &mut SimClient, first: usize) {
    let mut seen: HashSet<Pos> = HashSet::new();
    for _ in 0..MAX_STEPS {
        seen.extend(sim.state.visible_cells());
        if !regained(&sim.state, first).is_empty() {
            return;
        }
        let action = match sim.fight() {
            Some(action) => action,
            None => {
                let unseen = |p: Pos| {
                    let open = sim.state.terrain(p).is_some_and(Terrain::is_open);
                    (open && !seen.contains(&p)) || sim.is_frontier(p)
                };
                let dir = sim.first_step(unseen).expect("somewhere not seen since");
                Action::Move(dir)
            }
        };
        sim.act(action).await.expect("a step");
    }
    panic!("no regained monster in sight after {MAX_STEPS} steps");
}

/// Ann kills the moth beside the arrival of depth 1 and goes down. Back
/// up after fewer rounds than a period, depth 1 has regained nothing;
/// down again and back after two periods, it has (before her arrival, as
/// its log says), and she finds a regained moth on it. The log replays to
/// the live depth's checksum, and everything ann was shown to the truth.
#[tokio::test]
async fn a_depth_left_alone_regains_monsters_and_its_log_replays() {
    let (_, near) = gloam_tests::floor_in_sight_of_arrival(SEED, SETTING, 1);
    let placements = vec![Placement { kind: "moth".into(), depth: 1, pos: near[0] }];
    let config = Config {
        seed: SEED,
        generator: SETTING,
        actions_per_second: 1_000,
        action_burst: 1_000,
        bestiary: Arc::new(bestiary()),
        placements: placements.clone(),
        restock_every: EVERY,
        ..Config::default()
    };
    let first = fresh_depth(&config, 1).monsters().count();
    let data = tempfile::tempdir().unwrap();
    let store = Store::open(data.path()).unwrap();
    let server = TestServer::start_with_store(config.clone(), store).await.unwrap();
    let oracle = Oracle::new(SEED, SETTING, gloam_protocol::SIGHT_RADIUS)
        .with_monsters(bestiary(), placements);
    let mut ann = SimClient::join(&server.url(), "ann", Some(oracle)).await.unwrap();

    for _ in 0..50 {
        let Some(strike) = ann.fight() else { break };
        ann.act(strike).await.unwrap();
    }
    assert!(ann.state.monsters.values().all(|m| m.at != near[0]), "the moth beside her died");
    ann.find_and_descend(MAX_STEPS).await.unwrap();
    assert_eq!(ann.state.depth, 2);
    wait(&mut ann, EVERY / 2).await;
    ann.act(Action::Ascend).await.unwrap();
    assert_eq!(ann.state.depth, 1, "back on depth 1, short of a period");
    ann.act(Action::Descend).await.unwrap();
    wait(&mut ann, 2 * EVERY + EVERY / 2).await;
    ann.act(Action::Ascend).await.unwrap();
    assert_eq!(ann.state.depth, 1, "back on depth 1 after two periods");
    look_for_regained(&mut ann, first).await;
    let shown = regained(&ann.state, first);

    let glimpses = ann.quit_with_oracle().await.unwrap().unwrap().glimpses;
    server.stop(Duration::from_secs(10)).await.unwrap();
    let store = Store::open(data.path()).unwrap();
    let covered =
        history::check_every_depth(&config, &store, &glimpses).unwrap_or_else(|e| panic!("{e}"));
    assert!(covered.glimpses >= 2, "{covered:?}");

    let log = history::entries(&store, 1).unwrap();
    let commands: Vec<&Command> = log.iter().map(|e| &e.what).collect();
    let returns: Vec<usize> = (0..commands.len())
        .filter(|&i| matches!(commands[i], Command::Entered { via, .. } if *via != gloam_server::world::Arrival::Join))
        .collect();
    assert_eq!(returns.len(), 2, "ann came back twice: {commands:?}");
    let restocks: Vec<usize> =
        (0..commands.len()).filter(|&i| matches!(commands[i], Command::Restock { .. })).collect();
    // Just before: only the mark of what she remembered between them.
    assert_eq!(restocks, [returns[1] - 2], "one restock, just before the second return");
    assert!(matches!(commands[returns[1] - 1], Command::Remembered { memory: Some(_) }));
    assert_eq!(commands[restocks[0]], &Command::Restock { periods: 2 });

    let (kept, live) = store.depth_history(1).unwrap().live.expect("depth 1 was played");
    assert_eq!(kept, log.len() as u64);
    let mut again = fresh_depth(&config, 1);
    again.replay(&log).unwrap();
    assert_eq!(again.checksum(), live, "the log replays to the live depth");
    let truth: Vec<u32> = again.monsters().map(|m| m.id.0).collect();
    assert!(shown.iter().all(|id| truth.contains(id)), "{shown:?} regained, in {truth:?}");
}
