//! Items over real WebSockets: a weapon picked up and wielded kills
//! faster than bare hands; a potion drunk when hurt heals; a potion
//! dropped for a friend is picked up by it; the Gloamstone is carried up
//! from the bottom depth by two players in turn, and wins. Every client is
//! checked by the oracle after every message, and what each was shown of
//! the monsters and the piles in its sight is checked at the end against
//! the depths replayed from the server's logs.

use std::sync::Arc;

use gloam_protocol::{Action, Dir, Lying, Pos, ServerMsg, Terrain};
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::config::Placement;
use gloam_server::items::{Catalogue, ItemKindId};
use gloam_server::mapgen::GeneratorSetting;
use gloam_server::seeds::Seeds;
use gloam_server::world::fresh_depth;
use gloam_tests::SimClient;
use gloam_tests::scenario::{STRAW_DUMMY, World};

const SEED: u64 = 20_261_202;
const SETTING: GeneratorSetting = GeneratorSetting::Mixed;
const STEPS: usize = 3_000;

/// Only two kinds lie about, both common from the first depth: a
/// greatsword and a potion of healing (and the Gloamstone at the bottom).
const ITEMS: &str = r##"
[[item]]
name = "greatsword"
glyph = ")"
colour = "#e8e8ff"
class = "weapon"
damage = "4d6"
depths = [1, 26]
rarity = 1

[[item]]
name = "potion of healing"
glyph = "!"
colour = "#e05050"
class = "potion"
effect = "heal"
power = "4d4"
depths = [1, 26]
rarity = 1

[[item]]
name = "the Gloamstone"
glyph = '"'
colour = "#b070ff"
class = "artifact"
"##;

fn items() -> Catalogue {
    Catalogue::parse(ITEMS, "items.rs").expect("the test's items")
}

fn config(bestiary: Bestiary, placements: Vec<Placement>, max_depth: u16) -> Config {
    Config {
        seed: SEED,
        generator: SETTING,
        actions_per_second: 1_000_000,
        action_burst: 1_000_000,
        bestiary: Arc::new(bestiary),
        items: Arc::new(items()),
        placements,
        max_depth,
        ..Config::quiet(SEED)
    }
}

/// A floor cell beside `other` that `sim` knows, to walk to.
fn floor_beside(sim: &SimClient, other: &SimClient) -> Pos {
    let at = other.at();
    Dir::ALL
        .into_iter()
        .filter_map(|d| at.step(d))
        .find(|p| sim.state.known_cells().any(|(c, t)| c == *p && t == Terrain::Floor))
        .expect("room beside the other")
}

/// How kind `name` looks in the world of `config` until it is known.
fn looks_of(config: &Config, name: &str) -> String {
    config.world_items().look(kind(name)).expect("unknown until tried").name.clone()
}

/// "Smoky potions", as a line starts.
fn many(text: &str) -> String {
    gloam_server::bestiary::capitalised(&format!("{text}s"))
}

fn config_of(world: &World) -> Config {
    world.server.config.clone()
}

/// A world of `config`, its clients checked by the oracle as the piles
/// change.
async fn start(config: Config) -> World {
    let oracle = World::oracle_of(&config).with_changing_floor();
    World::start(config, oracle).await
}

/// The piles on `depth` of `config`'s world as laid, nearest the arrival
/// (on foot) first.
fn piles(config: &Config, depth: u16) -> Vec<(Pos, Lying)> {
    let state = fresh_depth(config, depth);
    let level = state.level();
    let seeds = Seeds::of_world(config.seed).depth(depth);
    let bottom = depth >= config.bottom();
    let tops = gloam_server::mapgen::stock::tops(level, &config.items, seeds, depth, bottom);
    let walk = level.grid.walk_from(level.arrival);
    let mut piles: Vec<(Pos, Lying)> = tops.into_iter().collect();
    piles.sort_by_key(|(p, _)| (walk.get(*p).unwrap_or(u16::MAX), p.y, p.x));
    piles
}

fn kind(name: &str) -> ItemKindId {
    items().find(name).expect("a test item")
}

/// The letter (slot) of the first item of `kind` in `sim`'s pack.
fn slot_of(sim: &SimClient, kind: ItemKindId) -> u8 {
    let slot = sim.state.pack.iter().position(|c| c.kind == kind);
    slot.unwrap_or_else(|| panic!("{}: no {kind} in {:?}", sim.name, sim.state.pack)) as u8
}

/// Explores until `at` is known, then walks onto it.
async fn go_to(sim: &mut SimClient, at: Pos) {
    sim.explore_until(|s| s.known_cells().any(|(p, _)| p == at), STEPS).await.unwrap();
    sim.walk_to(at, STEPS).await.unwrap();
}

fn lines(msgs: &[ServerMsg]) -> Vec<String> {
    msgs.iter()
        .filter_map(|m| match m {
            ServerMsg::Combat(t) | ServerMsg::Note(t) | ServerMsg::Others(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

/// Fights the monster nearest `near` until it dies (walking after it when
/// it wanders off): the blows that landed.
async fn fight_to_the_end(sim: &mut SimClient, near: Pos) -> usize {
    let king = |a: Pos, b: Pos| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y));
    let foe = sim.state.monsters.iter().min_by_key(|(_, m)| king(m.at, near)).map(|(&id, _)| id);
    let foe = foe.unwrap_or_else(|| panic!("{}: no monster in sight", sim.name));
    let mut landed = 0;
    for _ in 0..STEPS {
        let Some(at) = sim.state.monsters.get(&foe).map(|m| m.at) else {
            return landed;
        };
        let here = sim.at();
        let dir = match Dir::ALL.into_iter().find(|d| here.step(*d) == Some(at)) {
            Some(dir) => dir,
            None => sim.first_step(|p| p == at).expect("a way to the dummy"),
        };
        for line in lines(&sim.act(Action::Move(dir)).await.unwrap()) {
            if line.starts_with("You hit") || line.starts_with("You kill") {
                landed += 1;
            }
        }
    }
    panic!("{}: the fight never ended", sim.name)
}

/// Ann fights a straw dummy bare-handed, then picks up a greatsword,
/// wields it and fights another: the second dies in fewer blows. Hurt,
/// she drinks a potion of healing and is healed.
#[tokio::test]
async fn a_wielded_greatsword_kills_faster_and_a_potion_heals() {
    let probe = config(Bestiary::parse(STRAW_DUMMY, "dummies").unwrap(), vec![], 26);
    let lying = piles(&probe, 1);
    let sword = lying.iter().find(|(_, l)| l.kind == kind("greatsword")).expect("a sword").0;
    let potion =
        lying.iter().find(|(_, l)| l.kind == kind("potion of healing")).expect("a potion").0;
    let arrival = fresh_depth(&probe, 1).level().arrival;
    let open = |p: Pos| fresh_depth(&probe, 1).level().terrain(p) == Terrain::Floor;
    let near = |c: Pos| {
        let around = Dir::ALL.iter().filter_map(|d| c.step(*d).and_then(|p| p.step(*d)));
        around.filter(|&p| open(p) && p != sword && p != potion).collect::<Vec<_>>()
    };
    let first = near(arrival)[0];
    let second = *near(sword).iter().find(|&&p| p != first).expect("room by the sword");
    let place = |pos| Placement { kind: "straw dummy".into(), depth: 1, pos };
    let world =
        start(config(probe.bestiary.as_ref().clone(), vec![place(first), place(second)], 26)).await;
    let mut ann = world.join("ann").await;

    // A potion for later, then bare-handed: 2d4 a blow.
    go_to(&mut ann, potion).await;
    ann.act(Action::PickUp).await.unwrap();
    let bare = fight_to_the_end(&mut ann, first).await;

    // Hurt by the pokes, she drinks.
    let (hp, max) = ann.state.hp.unwrap();
    assert!(hp < max, "the dummy hurt her: {hp}/{max}");
    let quaff = Action::Quaff(slot_of(&ann, kind("potion of healing")));
    let drink = lines(&ann.act(quaff).await.unwrap());
    let look = looks_of(&probe, "potion of healing");
    assert!(drink.contains(&format!("You drink a {look}.")), "{drink:?}");
    assert!(drink.contains(&format!("{} are potions of healing.", many(&look))), "{drink:?}");
    assert!(ann.state.hp.unwrap().0 > hp, "healed: {:?}", ann.state.hp);

    // The greatsword: picked up, wielded, 4d6 a blow.
    go_to(&mut ann, sword).await;
    let got = lines(&ann.act(Action::PickUp).await.unwrap());
    assert!(got.iter().any(|l| l.starts_with("You pick up a greatsword")), "{got:?}");
    let sword_slot = slot_of(&ann, kind("greatsword"));
    let wield = lines(&ann.act(Action::Wield(sword_slot)).await.unwrap());
    assert!(wield.contains(&"You wield the greatsword.".to_owned()), "{wield:?}");
    assert!(ann.state.pack[usize::from(sword_slot)].equipped);
    let armed = fight_to_the_end(&mut ann, second).await;
    assert!(armed < bare, "{armed} blows with the greatsword, {bare} bare-handed");
    assert!(ann.state.experience.is_some_and(|e| e.xp > 0), "the kills gave experience");

    let covered = world.replayed(vec![ann], vec![]).await;
    assert!(covered.floors >= 3, "{covered:?}");
}

/// Ann picks up a potion and drops it beside bob; bob sees it lying
/// there, steps onto it and picks it up.
#[tokio::test]
async fn a_potion_dropped_for_a_friend_is_picked_up_by_it() {
    let config = config(Bestiary::empty(), vec![], 26);
    let lying = piles(&config, 1);
    let potion =
        lying.iter().find(|(_, l)| l.kind == kind("potion of healing")).expect("a potion").0;
    let world = start(config).await;
    let mut ann = world.join("ann").await;
    let mut bob = world.join("bob").await;
    go_to(&mut ann, potion).await;
    ann.act(Action::PickUp).await.unwrap();
    let beside = floor_beside(&ann, &bob);
    ann.walk_to(beside, STEPS).await.unwrap();
    let dropped =
        lines(&ann.act(Action::Drop(slot_of(&ann, kind("potion of healing")))).await.unwrap());
    let look = looks_of(&config_of(&world), "potion of healing");
    assert!(dropped.contains(&format!("You drop a {look}.")), "{dropped:?}");
    bob.sync().await.unwrap();
    assert_eq!(
        bob.state.floor.get(&beside).map(|l| l.kind),
        Some(kind("potion of healing")),
        "bob sees it"
    );
    // Ann steps aside (or bob swaps with her) and bob takes it.
    bob.walk_to(beside, 20).await.unwrap();
    let got = lines(&bob.act(Action::PickUp).await.unwrap());
    assert!(got.iter().any(|l| l.starts_with(&format!("You pick up a {look}"))), "{got:?}");
    assert_eq!(slot_of(&bob, kind("potion of healing")), 0);
    ann.sync().await.unwrap();
    assert_eq!(ann.state.floor.get(&beside), None, "ann sees it gone");
    let covered = world.replayed(vec![ann, bob], vec![]).await;
    assert!(covered.floors >= 4, "{covered:?}");
}

/// Ann sees piles, walks on until they are out of sight, quits and joins
/// again: on arrival she is told the piles she remembers, before any of
/// them comes back into sight. Regression: the piles a player remembered
/// were not stored with its map, and a player who came back saw them
/// again only once in sight.
#[tokio::test]
async fn remembered_piles_are_told_again_on_rejoining() {
    let world = start(config(Bestiary::empty(), vec![], 26)).await;
    let mut ann = world.join("ann").await;
    let out_of_sight = |s: &gloam_client::ClientState| s.floor.keys().any(|&p| !s.is_visible(p));
    ann.explore_until(out_of_sight, STEPS).await.unwrap();
    let remembered: Vec<(Pos, Lying)> = (ann.state.floor.iter())
        .filter(|&(&p, _)| !ann.state.is_visible(p))
        .map(|(&p, &l)| (p, l))
        .collect();
    let token = ann.token;
    let first = ann.quit_with_oracle().await.unwrap().expect("ann's oracle");
    let mut ann = world.rejoin("ann", token, first).await;
    for (at, lying) in &remembered {
        assert!(!ann.state.is_visible(*at), "{at:?} out of sight on arrival");
        assert_eq!(ann.state.floor.get(at), Some(lying), "{at:?} remembered on arrival");
    }
    ann.sync().await.unwrap();
    world.replayed(vec![ann], vec![]).await;
}

/// The dungeon ends at depth 2. Ann goes down, finds the Gloamstone and
/// carries it to bob by the stairs; bob takes it up to depth 1 and
/// escapes: the whole world hears of it and the hall of the living
/// lists him.
#[tokio::test]
async fn the_gloamstone_carried_up_by_two_players_in_turn_wins() {
    let config = config(Bestiary::empty(), vec![], 2);
    let stone = kind("the Gloamstone");
    let at = piles(&config, 2)
        .into_iter()
        .find(|(_, l)| l.kind == stone)
        .expect("the stone lies at the bottom")
        .0;
    let world = start(config).await;
    let mut ann = world.join("ann").await;
    let mut bob = world.join("bob").await;
    let mut cy = world.join("cy").await;
    ann.find_and_descend(STEPS).await.unwrap();
    bob.find_and_descend(STEPS).await.unwrap();
    assert_eq!((ann.state.depth, bob.state.depth), (2, 2));
    go_to(&mut ann, at).await;
    let got = lines(&ann.act(Action::PickUp).await.unwrap());
    assert!(got.contains(&"You pick up the Gloamstone (a).".to_owned()), "{got:?}");
    let stairs = bob.state.find(Terrain::StairsUp).expect("bob came down by them");
    let beside = Dir::ALL
        .into_iter()
        .filter_map(|d| stairs.step(d))
        .find(|p| ann.state.known_cells().any(|(c, t)| c == *p && t == Terrain::Floor));
    let beside = match beside {
        Some(p) => p,
        None => {
            ann.explore_until(
                |s| {
                    Dir::ALL
                        .iter()
                        .filter_map(|d| stairs.step(*d))
                        .any(|p| s.known_cells().any(|(c, t)| c == p && t == Terrain::Floor))
                },
                STEPS,
            )
            .await
            .unwrap();
            Dir::ALL
                .into_iter()
                .filter_map(|d| stairs.step(d))
                .find(|p| ann.state.known_cells().any(|(c, t)| c == *p && t == Terrain::Floor))
                .unwrap()
        }
    };
    ann.walk_to(beside, STEPS).await.unwrap();
    let dropped = lines(&ann.act(Action::Drop(0)).await.unwrap());
    assert!(dropped.contains(&"You drop the Gloamstone.".to_owned()), "{dropped:?}");
    // Bob hears where he stands now (ann may have swapped places with him).
    bob.sync().await.unwrap();
    bob.walk_to(beside, 20).await.unwrap();
    let got = lines(&bob.act(Action::PickUp).await.unwrap());
    assert_eq!(bob.state.pack.first().map(|c| c.kind), Some(stone), "{got:?}");
    bob.walk_to(stairs, 20).await.unwrap();
    bob.send(&gloam_protocol::ClientMsg::Act(Action::Ascend)).await.unwrap();
    let escaped = loop {
        match bob.recv().await.unwrap() {
            ServerMsg::Escaped(record) => break record,
            ServerMsg::Died(record) => panic!("bob died: {record:?}"),
            _ => {}
        }
    };
    assert!(escaped.escaped);
    assert_eq!((escaped.name.as_str(), escaped.killed_by.as_str()), ("bob", "the Gloamstone"));
    assert!(bob.closed().await.unwrap().is_some(), "his game is over");
    let news = "bob has escaped the Gloam with the Gloamstone!";
    for sim in [&mut ann, &mut cy] {
        for _ in 0..200 {
            if sim.state.log.iter().any(|l| l.text == news) {
                break;
            }
            sim.act(Action::Wait).await.unwrap();
        }
        assert!(sim.state.log.iter().any(|l| l.text == news), "{} hears of it", sim.name);
    }
    cy.send(&gloam_protocol::ClientMsg::Graveyard).await.unwrap();
    let hall = loop {
        if let ServerMsg::Graveyard(all) = cy.recv().await.unwrap() {
            break all;
        }
    };
    assert_eq!(hall.first().map(|r| (r.name.as_str(), r.escaped)), Some(("bob", true)));
    let gone = bob.take_oracle().into_iter().collect();
    let covered = world.replayed(vec![ann, cy], gone).await;
    assert!(covered.floors >= 4, "{covered:?}");
}

/// In a world whose potions are unknown until tried, ann drinks one beside
/// bob: both learn it, each told its name (and that it is known, for the
/// discoveries page) only then; cat, who comes after, knows it only by its
/// look. The oracle checks every message of all
/// three (no name told that the player did not know), and the depth
/// replayed from the log, that each learnt it exactly when it truly did.
#[tokio::test]
async fn an_unknown_potion_drunk_teaches_those_who_see_it_and_nobody_else() {
    let items = Arc::new(items().disguised(SEED));
    let healing = kind("potion of healing");
    let look = items.look(healing).expect("a look").name.clone();
    let config = Config { items: items.clone(), ..config(Bestiary::empty(), vec![], 26) };
    let potion = piles(&config, 1).into_iter().find(|(_, l)| l.kind == healing).expect("one").0;
    let world = start(config).await;
    let mut ann = world.join("ann").await;
    let mut bob = world.join("bob").await;
    assert_eq!(ann.state.item_kinds[usize::from(healing)].name, look, "unknown at first");
    assert!(!ann.state.item_kinds[usize::from(healing)].known, "told as unknown at first");
    go_to(&mut ann, potion).await;
    let got = lines(&ann.act(Action::PickUp).await.unwrap());
    assert!(got.iter().any(|l| l.starts_with(&format!("You pick up a {look}"))), "{got:?}");
    let beside = floor_beside(&ann, &bob);
    ann.walk_to(beside, STEPS).await.unwrap();
    let drink = lines(&ann.act(Action::Quaff(slot_of(&ann, healing))).await.unwrap());
    assert!(drink.contains(&format!("You drink a {look}.")), "{drink:?}");
    bob.sync().await.unwrap();
    for sim in [&ann, &bob] {
        let told = &sim.state.item_kinds[usize::from(healing)];
        assert_eq!(told.name, "potion of healing");
        assert!(told.known, "{} is told it is known now", sim.name);
    }
    let cat = world.join("cat").await;
    let told = &cat.state.item_kinds[usize::from(healing)];
    assert_eq!((told.name.as_str(), told.known), (look.as_str(), false), "cat was not there");
    let covered = world.replayed(vec![ann, bob, cat], vec![]).await;
    assert!(covered.known >= 2, "ann's and bob's learning checked: {covered:?}");
}
