//! Standing orders over real WebSockets: exploring a quiet depth to the
//! end and travelling to its stairs takes a few orders, not hundreds of
//! key presses; a monster coming into view stops exploring and is said.
//! Every step is checked to land on a cell the player was told of before
//! it, every client by the oracle after every message, and what each was
//! shown of the monsters at the end against the depths replayed from the
//! server's logs.

use std::sync::Arc;
use std::time::Duration;

use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{Action, Pos, ServerMsg, Terrain};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::items::Catalogue;
use gloam_server::mapgen::GeneratorSetting;
use gloam_server::store::Store;
use gloam_tests::history::{self, Glimpse};
use gloam_tests::{Oracle, SimClient, TestServer};
use tempfile::TempDir;

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

/// A sleepy straw dummy that lives nowhere but where it is placed.
const DUMMIES: &str = r##"
[[monster]]
name = "straw dummy"
glyph = "D"
colour = "#c0b060"
hp = 60
to_hit = 50
damage = "1d3"
verb = "pokes"
speed = "slow"
sight = 2
behaviour = "wanders"
asleep = true
depths = [30, 30]
rarity = 10
"##;

fn config(placements: Vec<Placement>) -> Config {
    Config {
        seed: SEED,
        generator: SETTING,
        actions_per_second: 1_000_000,
        action_burst: 1_000_000,
        bestiary: Arc::new(Bestiary::parse(DUMMIES, "orders.rs").expect("the test's bestiary")),
        items: Arc::new(Catalogue::parse(ITEMS, "orders.rs").expect("the test's items")),
        placements,
        max_depth: 3,
        ..Config::quiet(SEED)
    }
}

struct World {
    server: TestServer,
    data: TempDir,
    oracle: Oracle,
}

impl World {
    async fn start(config: Config) -> Self {
        let oracle = Oracle::new(config.seed, config.generator, config.sight_radius)
            .with_monsters((*config.bestiary).clone(), config.placements.clone())
            .with_items((*config.items).clone())
            .with_bottom(config.bottom());
        let data = tempfile::tempdir().unwrap();
        let store = Store::open(data.path()).unwrap();
        let server = TestServer::start_with_store(config, store).await.expect("the server starts");
        World { server, data, oracle }
    }

    async fn join(&self, name: &str) -> SimClient {
        SimClient::join(&self.server.url(), name, Some(self.oracle.clone())).await.expect("join")
    }

    /// The players quit, and what each was shown is checked against every
    /// depth replayed from the server's logs.
    async fn replayed(self, players: Vec<SimClient>) {
        let mut glimpses: Vec<Glimpse> = Vec::new();
        for sim in players {
            glimpses.extend(sim.quit_with_oracle().await.expect("quits").unwrap().glimpses);
        }
        let config = self.server.config.clone();
        self.server.stop(Duration::from_secs(10)).await.unwrap();
        let store = Store::open(self.data.path()).unwrap();
        history::check_every_depth(&config, &store, &glimpses).unwrap_or_else(|e| panic!("{e}"));
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
    let world = World::start(config(Vec::new())).await;
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
    world.replayed(vec![ann]).await;
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
    let world = World::start(config(vec![dummy])).await;
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
    world.replayed(vec![ann]).await;
}
