//! Standing orders over real WebSockets: exploring a quiet depth to the
//! end and travelling to its stairs takes a few orders, not hundreds of
//! key presses; a monster coming into view stops exploring and is said.
//! Every step is checked to land on a cell the player was told of before
//! it, every client by the oracle after every message, and what each was
//! shown of the monsters at the end against the depths replayed from the
//! server's logs.

use std::sync::Arc;

use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{Action, ClientMsg, Pos, ServerMsg, Terrain};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::items::Catalogue;
use gloam_server::mapgen::GeneratorSetting;
use gloam_tests::Oracle;
use gloam_tests::scenario::{STRAW_DUMMY, World};

const SEED: u64 = 20_261_203;
const SETTING: GeneratorSetting = GeneratorSetting::Mixed;

/// Items only below the depths walked here (and the Gloamstone at the
/// bottom): nothing to see on the way.
const ITEMS: &str = r##"
[[item]]
name = "potion of healing"
glyph = "!"
colour = "#e05050"
class = "potion"
effect = "heal"
power = "4d4"
depths = [25, 26]
rarity = 1

[[item]]
name = "the Gloamstone"
glyph = '"'
colour = "#b070ff"
class = "artifact"
"##;

fn config(placements: Vec<Placement>) -> Config {
    Config {
        seed: SEED,
        generator: SETTING,
        actions_per_second: 1_000_000,
        action_burst: 1_000_000,
        bestiary: Arc::new(Bestiary::parse(STRAW_DUMMY, "orders.rs").expect("the dummy")),
        items: Arc::new(Catalogue::parse(ITEMS, "orders.rs").expect("the test's items")),
        placements,
        max_depth: 3,
        ..Config::quiet(SEED)
    }
}

fn notes(msgs: &[ServerMsg]) -> Vec<&str> {
    msgs.iter()
        .filter_map(|m| match m {
            ServerMsg::Note(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_quiet_depth_is_explored_and_its_stairs_reached_in_three_orders() {
    let config = config(Vec::new());
    let world = World::start(config.clone(), World::oracle_of(&config)).await;
    let mut ann = world.join("ann").await;
    let mut orders = 0;
    let explored = ann.order(Action::Explore).await.unwrap();
    orders += 1;
    assert_eq!(notes(&explored).last(), Some(&"Nothing left to explore."), "{explored:?}");
    // Every cell ann can walk to from where she came is known to her now.
    let level = world.oracle.clone().level(1).clone();
    let grid = &level.grid;
    let walk = DistanceMap::new(grid.width(), grid.height(), &[level.arrival], |i| {
        grid.cells()[i].is_open()
    });
    for (i, &d) in walk.distances().iter().enumerate() {
        let pos = grid.pos_of(i);
        if d != u16::MAX {
            assert!(ann.state.terrain(pos).is_some(), "{pos:?} left unexplored");
        }
    }
    ann.order(Action::Descend).await.unwrap();
    orders += 1;
    assert_eq!(ann.state.terrain(ann.at()), Some(Terrain::StairsDown), "on the stairs");
    ann.act(Action::Descend).await.unwrap();
    orders += 1;
    assert_eq!(ann.state.depth, 2);
    println!("depth 1 of seed {SEED} explored and left in {orders} orders");
    assert_eq!(orders, 3);
    world.replayed(vec![ann], Vec::new()).await;
}

#[tokio::test]
async fn a_monster_coming_into_view_stops_exploring_and_is_said() {
    // The dummy asleep on the far side of depth 1, by its stairs down.
    let level = Oracle::new(SEED, SETTING, 8).level(1).clone();
    let grid = &level.grid;
    let by_stairs =
        |p: Pos| p != level.stairs_down && grid.contains(p) && level.terrain(p) == Terrain::Floor;
    let mut near = gloam_protocol::Dir::ALL.iter().filter_map(|&d| level.stairs_down.step(d));
    let at = near.find(|&p| by_stairs(p)).expect("floor by the stairs");
    let dummy = Placement { kind: "straw dummy".into(), depth: 1, pos: at };
    let config = config(vec![dummy]);
    let world = World::start(config.clone(), World::oracle_of(&config)).await;
    let mut ann = world.join("ann").await;
    let mut said = Vec::new();
    for _ in 0..20 {
        let told = ann.order(Action::Explore).await.unwrap();
        let lines: Vec<String> = notes(&told).iter().map(|s| s.to_string()).collect();
        said.extend(lines.iter().cloned());
        if lines.iter().any(|l| l.contains("comes into view") || l == "Nothing left to explore.") {
            break;
        }
    }
    assert!(said.contains(&"A straw dummy comes into view, asleep.".to_string()), "{said:?}");
    let seen: Vec<_> = ann.state.monsters.values().collect();
    assert!(seen.iter().any(|m| m.at == at && m.asleep), "shown asleep: {seen:?}");
    world.replayed(vec![ann], Vec::new()).await;
}

#[tokio::test]
async fn stop_ends_an_order_at_once() {
    let mut config = config(Vec::new());
    // At a human pace, exploring the depth takes seconds: the stop comes
    // long before it is done.
    (config.actions_per_second, config.action_burst) = (20, 5);
    let world = World::start(config.clone(), World::oracle_of(&config)).await;
    let mut ann = world.join("ann").await;
    ann.send(&ClientMsg::Act(Action::Explore)).await.unwrap();
    ann.send(&ClientMsg::Stop).await.unwrap();
    loop {
        match ann.recv().await.unwrap() {
            ServerMsg::Stopped => break,
            ServerMsg::Note(line) => assert_ne!(line, "Nothing left to explore."),
            _ => {}
        }
    }
    // Nothing more walks: a wait is answered where she stands.
    let at = ann.at();
    let turn = ann.act(Action::Wait).await.unwrap();
    assert!(!turn.contains(&ServerMsg::Stopped), "{turn:?}");
    assert_eq!(ann.at(), at);
    world.replayed(vec![ann], Vec::new()).await;
}
