//! Using items: drinking, reading, wielding, wearing and throwing them;
//! experience from kills; what a monster drops; escaping with the
//! artifact.

use std::sync::Arc;

use gloam_protocol::{Action, Dir, MonsterId, PlayerId, Pos, ServerMsg};

use super::testing::PlayAndTell;
use super::tests::level_from;
use super::*;
use crate::bestiary;
use crate::bestiary::{Bestiary, KindId};
use crate::character::experience;
use crate::items::{Catalogue, Class, Item, Pack};
use crate::seeds::DepthSeeds;

/// A hall with a pillar ('#' at (8, 2)) to hide behind.
const HALL: &[&str] = &[
    "##################",
    "#<...............#",
    "#.......#........#",
    "#...............>#",
    "##################",
];

pub(super) const ANN: PlayerId = PlayerId(1);
pub(super) const BOB: PlayerId = PlayerId(2);

pub(super) fn hall(depth: u16) -> DepthState {
    DepthState::with_bestiary(
        depth,
        level_from(HALL),
        8,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(11),
    )
}

pub(super) fn item(name: &str, count: u16) -> Item {
    let kind = Catalogue::built_in().find(name).expect("a built-in item");
    Item { kind, count }
}

pub(super) fn kind(d: &DepthState, name: &str) -> KindId {
    d.rules.bestiary.find(name).unwrap()
}

/// Puts a player carrying `pack` on `at`.
pub(super) fn put(d: &mut DepthState, id: PlayerId, name: &str, at: Pos, pack: Vec<Item>) {
    let mut player = Player::new(id, name.into());
    player.pack = Pack::of(pack);
    d.come(player, Arrival::Resume(at));
    assert_eq!(d.rules.occupancy.players()[&id].pos, at);
}

pub(super) fn player(d: &mut DepthState, id: PlayerId) -> &mut Player {
    d.rules.occupancy.get_mut(id).unwrap()
}

pub(super) fn to(outcome: &Outcome, id: PlayerId) -> Vec<&ServerMsg> {
    outcome.out.iter().filter(|o| o.to == id).map(|o| &o.msg).collect()
}

pub(super) fn said(outcome: &Outcome, id: PlayerId, text: &str) -> bool {
    to(outcome, id).iter().any(|m| matches!(m, ServerMsg::Combat(t) | ServerMsg::Note(t) | ServerMsg::Others(t) if t == text))
}

pub(super) fn lines(outcome: &Outcome, id: PlayerId) -> Vec<String> {
    to(outcome, id)
        .into_iter()
        .filter_map(|m| match m {
            ServerMsg::Combat(t) | ServerMsg::Note(t) | ServerMsg::Others(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_potion_of_healing_heals_and_is_used_up() {
    let mut d = hall(2);
    let potions = item("potion of healing", 2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![potions]);
    player(&mut d, ANN).vitals.hp = 5;
    let outcome = d.play(ANN, Action::Quaff(0));
    assert!(said(&outcome, ANN, "You drink a potion of healing."), "{:?}", lines(&outcome, ANN));
    let hp = d.player(ANN).unwrap().vitals.hp;
    assert!((5 + 4..=5 + 16).contains(&hp), "healed by 4d4: {hp}");
    assert!(to(&outcome, ANN).contains(&&ServerMsg::Vitals { hp, max: 30 }));
    assert_eq!(d.player(ANN).unwrap().pack.items(), &[item("potion of healing", 1)]);
    let outcome = d.play(ANN, Action::Read(0));
    assert!(said(&outcome, ANN, "You cannot read that."));
    let outcome = d.play(ANN, Action::Quaff(5));
    assert!(said(&outcome, ANN, "You have no such item."));
    assert_eq!(d.player(ANN).unwrap().pack.items(), &[item("potion of healing", 1)]);
}

#[test]
fn magic_mapping_shows_the_reader_the_level_and_nobody_else() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(1, 1), vec![item("scroll of magic mapping", 1)]);
    put(&mut d, BOB, "bob", Pos::new(2, 1), vec![]);
    let before = d.player(BOB).unwrap().memory(2).unwrap().explored().iter().count();
    let outcome = d.play(ANN, Action::Read(0));
    let mapped = to(&outcome, ANN).into_iter().find_map(|m| match m {
        ServerMsg::Mapped { remembered, terrain } => Some((remembered.clone(), terrain.clone())),
        _ => None,
    });
    let (bits, terrain) = mapped.expect("ann is sent the map");
    let learnt = gloam_protocol::CellSet::from_bytes(&bits);
    assert_eq!(learnt.iter().count(), terrain.len());
    let far = d.level().grid.index(Pos::new(16, 3));
    assert!(
        learnt.contains(far) || d.player(ANN).unwrap().memory(2).unwrap().explored().contains(far)
    );
    let grid = &d.level().grid;
    let all = grid.cells().iter().filter(|t| t.is_open()).count();
    let known = d.player(ANN).unwrap().memory(2).unwrap().explored();
    let open_known = grid.iter().filter(|(p, t)| t.is_open() && known.contains(grid.index(*p)));
    assert_eq!(open_known.count(), all, "every open cell is remembered");
    assert!(to(&outcome, BOB).iter().all(|m| !matches!(m, ServerMsg::Mapped { .. })));
    assert_eq!(d.player(BOB).unwrap().memory(2).unwrap().explored().iter().count(), before);
}

#[test]
fn teleportation_sets_the_reader_down_on_another_open_cell() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(1, 1), vec![item("scroll of teleportation", 3)]);
    let mut places = std::collections::BTreeSet::new();
    for _ in 0..3 {
        let outcome = d.play(ANN, Action::Read(0));
        assert!(said(&outcome, ANN, "The world twists, and you are elsewhere."));
        let at = d.player(ANN).unwrap().pos;
        assert!(d.level().terrain(at).is_open());
        let told = to(&outcome, ANN)
            .into_iter()
            .any(|m| matches!(m, ServerMsg::Sight(diff) if diff.at == at));
        assert!(told, "its answer sees from where it landed");
        places.insert(at);
    }
    assert!(places.len() > 1 || !places.contains(&Pos::new(1, 1)), "it moved: {places:?}");
}

#[test]
fn a_friend_who_saw_the_reader_stand_there_sees_it_vanish() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(1, 1), vec![item("scroll of teleportation", 1)]);
    put(&mut d, BOB, "bob", Pos::new(3, 1), vec![]);
    let outcome = d.play(ANN, Action::Read(0));
    assert!(said(&outcome, BOB, "ann vanishes!"), "{:?}", to(&outcome, BOB));
    assert!(!said(&outcome, ANN, "ann vanishes!"), "not to the reader");
}

#[test]
fn slumber_puts_the_monsters_in_sight_to_sleep_and_not_those_behind_a_wall() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(6, 2), vec![item("scroll of slumber", 1)]);
    let near = d.spawn(kind(&d, "kobold"), Pos::new(4, 2)).unwrap();
    let hidden = d.spawn(kind(&d, "kobold"), Pos::new(10, 2)).unwrap();
    for id in [near, hidden] {
        d.rules.monsters.wake(id).unwrap();
    }
    assert!(!d.player(ANN).unwrap().memory(2).unwrap().sees(Pos::new(10, 2)), "behind the pillar");
    let outcome = d.play(ANN, Action::Read(0));
    assert!(said(&outcome, ANN, "The monster you see falls asleep."), "{:?}", lines(&outcome, ANN));
    let awake = |d: &DepthState, id: MonsterId| d.rules.monsters.get(&id).map(|m| m.is_awake());
    assert_eq!(awake(&d, near), Some(false));
    assert_eq!(awake(&d, hidden), Some(true));
}

#[test]
fn wielding_and_wearing_mark_the_pack_and_change_the_odds() {
    let mut d = hall(2);
    let gear = vec![item("dagger", 1), item("greatsword", 1), item("leather armour", 1)];
    put(&mut d, ANN, "ann", Pos::new(2, 1), gear);
    assert_eq!(d.rules.weapon_of(ANN), None);
    let outcome = d.play(ANN, Action::Wield(1));
    assert!(said(&outcome, ANN, "You wield the greatsword."));
    let told = to(&outcome, ANN).into_iter().find_map(|m| match m {
        ServerMsg::Pack(pack) => Some(pack.iter().map(|c| c.equipped).collect::<Vec<_>>()),
        _ => None,
    });
    assert_eq!(told, Some(vec![false, true, false]));
    let (damage, bonus) = d.rules.weapon_of(ANN).unwrap();
    assert_eq!((damage.to_string(), bonus), ("4d6".to_owned(), -10));
    assert!(said(&d.play(ANN, Action::Wield(1)), ANN, "You are already using that."));
    assert!(said(&d.play(ANN, Action::Wield(2)), ANN, "You cannot wield that."));
    assert!(said(&d.play(ANN, Action::Wear(2)), ANN, "You put on the leather armour."));
    assert_eq!(d.rules.armour_of(ANN), 5);
    assert_eq!(rules::combat::to_hit_against(60, d.rules.armour_of(ANN)), 55);
    assert!(said(&d.play(ANN, Action::Wield(0)), ANN, "You wield the dagger."));
    assert_eq!(d.player(ANN).unwrap().pack.wielded(), Some(0), "the greatsword went back");
    assert!(said(&d.play(ANN, Action::TakeOff(2)), ANN, "You take off the leather armour."));
    assert_eq!(d.rules.armour_of(ANN), 0);
    assert!(said(&d.play(ANN, Action::TakeOff(2)), ANN, "You are not using that."));
    // Dropping what is wielded takes it out of hand.
    d.play(ANN, Action::Drop(0));
    assert_eq!(d.rules.weapon_of(ANN), None);
    assert_eq!(d.player(ANN).unwrap().pack.wielded(), None);
}

#[test]
fn a_wielded_weapon_deals_its_own_dice() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![item("greatsword", 1)]);
    d.play(ANN, Action::Wield(0));
    let ogre = d.spawn(kind(&d, "ogre"), Pos::new(3, 1)).unwrap();
    let mut hits = Vec::new();
    for _ in 0..200 {
        if let Some(m) = d.rules.monsters.get_mut(&ogre) {
            m.hp = m.max_hp;
        }
        player(&mut d, ANN).vitals.hp = 30;
        let outcome = d.play(ANN, Action::Move(Dir::E));
        for line in lines(&outcome, ANN) {
            if let Some(n) = line.strip_prefix("You hit the ogre (") {
                hits.push(n.trim_end_matches(").").parse::<u16>().unwrap());
            }
        }
    }
    assert!(hits.iter().all(|&n| (4..=24).contains(&n)), "{hits:?}");
    assert!(hits.iter().any(|&n| n > 8), "bare hands never pass 8: {hits:?}");
}

#[test]
fn a_thrown_dart_flies_at_a_monster_in_sight_and_falls_where_it_stops() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![item("dart", 3), item("dagger", 1)]);
    let ogre = d.spawn(kind(&d, "ogre"), Pos::new(6, 1)).unwrap();
    let outcome = d.play(ANN, Action::Throw { slot: 0, at: Pos::new(6, 1) });
    assert!(said(&outcome, ANN, "You throw a dart."), "{:?}", lines(&outcome, ANN));
    let reached = lines(&outcome, ANN)
        .iter()
        .any(|l| l.starts_with("The dart hits the ogre") || l == "The dart misses the ogre.");
    assert!(reached, "{:?}", lines(&outcome, ANN));
    assert_eq!(d.player(ANN).unwrap().pack.get(0), Some(item("dart", 2)));
    assert_eq!(
        d.rules.floor.top(Pos::new(6, 1), &d.rules.items).map(|l| l.count),
        Some(1),
        "it lies under the ogre"
    );
    assert!(d.rules.monsters[&ogre].is_awake(), "and woke it");
    let far = d.play(ANN, Action::Throw { slot: 0, at: Pos::new(9, 1) });
    assert!(said(&far, ANN, "That is out of range."));
    let hidden = d.play(ANN, Action::Throw { slot: 0, at: Pos::new(9, 2) });
    assert!(said(&hidden, ANN, "You cannot see that spot."), "{:?}", lines(&hidden, ANN));
    assert!(said(
        &d.play(ANN, Action::Throw { slot: 1, at: Pos::new(4, 1) }),
        ANN,
        "You cannot throw that."
    ));
    assert_eq!(d.player(ANN).unwrap().pack.get(0), Some(item("dart", 2)), "refusals cost no dart");
}

/// Strikes `monster` (`dir` of `id`) until it dies, 200 blows at most,
/// `waiting` waiting each round.
fn kill(
    d: &mut DepthState,
    id: PlayerId,
    monster: MonsterId,
    dir: Dir,
    waiting: &[PlayerId],
) -> Outcome {
    let mut all = Outcome::default();
    for _ in 0..200 {
        if !d.rules.monsters.contains_key(&monster) {
            return all;
        }
        player(d, id).vitals.hp = player(d, id).vitals.max_hp;
        all.append(d.play(id, Action::Move(dir)));
        for &other in waiting {
            all.append(d.play(other, Action::Wait));
        }
    }
    panic!("the monster never died");
}

#[test]
fn a_kill_gives_experience_shared_by_the_party_and_levels_raise_hit_points() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![]);
    put(&mut d, BOB, "bob", Pos::new(2, 2), vec![]);
    let ogre = d.spawn(kind(&d, "ogre"), Pos::new(3, 1)).unwrap();
    d.rules.monsters.wake(ogre).unwrap();
    assert_eq!(d.party_of(ANN), vec![ANN, BOB], "they share the ogre's danger");
    // Bob waits each round, so that ann's rounds close.
    let outcome = kill(&mut d, ANN, ogre, Dir::E, &[BOB]);
    let worth = d.rules.bestiary.kind(kind(&d, "ogre")).xp();
    assert_eq!(worth, 40 * 7);
    for id in [ANN, BOB] {
        let p = d.player(id).unwrap();
        assert_eq!(p.xp, worth / 2, "{}", p.name);
        let level = experience::level_of(worth / 2);
        assert_eq!(level, 3);
        assert_eq!(p.vitals.max_hp, experience::max_hp_at(3));
        let next = experience::next_after(3);
        let told = ServerMsg::Experience { level, xp: worth / 2, next };
        assert!(to(&outcome, id).contains(&&told), "{} is told", p.name);
        assert!(said(&outcome, id, "Welcome to level 3!"));
    }
}

#[test]
fn a_monster_that_drops_leaves_an_item_where_it_died() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![]);
    let mut bestiary = Bestiary::default();
    let kobold = bestiary.find("kobold").unwrap();
    bestiary.kinds_mut()[usize::from(kobold)].drops = 100;
    d.rules.bestiary = Arc::new(bestiary);
    let id = d.spawn(kobold, Pos::new(3, 1)).unwrap();
    kill(&mut d, ANN, id, Dir::E, &[]);
    assert!(d.rules.floor.top(Pos::new(3, 1), &d.rules.items).is_some(), "it dropped something");
}

#[test]
fn a_dead_player_leaves_its_pack_where_it_fell() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![item("dart", 4), item("dagger", 1)]);
    let troll = d.spawn(kind(&d, "troll"), Pos::new(3, 1)).unwrap();
    d.rules.monsters.wake(troll).unwrap();
    player(&mut d, ANN).vitals.hp = 1;
    let mut dead = false;
    for _ in 0..200 {
        let outcome = d.play(ANN, Action::Wait);
        if !outcome.flow.deaths.is_empty() {
            dead = true;
            break;
        }
    }
    assert!(dead, "the troll killed ann");
    let top = d.rules.floor.top(Pos::new(2, 1), &d.rules.items).unwrap();
    assert_eq!((top.kind, top.more), (item("dagger", 1).kind, true));
}

#[test]
fn carrying_the_artifact_up_to_the_first_depth_wins() {
    let mut d = hall(1);
    d.keep_log();
    put(&mut d, BOB, "bob", Pos::new(5, 1), vec![]);
    let stone = Item { kind: Catalogue::built_in().artifact(), count: 1 };
    let mut ann = Player::new(ANN, "ann".into());
    ann.pack = Pack::of(vec![stone]);
    let outcome = d.arrive(ann, Arrival::FromBelow);
    assert_eq!(outcome.flow.deaths.len(), 1);
    let won = &outcome.flow.deaths[0];
    assert_eq!(won.end, End::Escaped(Catalogue::built_in().artifact()));
    assert_eq!(d.end_in_words(&won.end), "the Gloamstone");
    assert!(said(&outcome, ANN, "You escape the Gloam with the Gloamstone!"));
    assert!(d.player(ANN).is_none(), "ann left the game");
    let mut told = outcome;
    told.out.extend(d.tell_all());
    assert!(said(&told, BOB, "ann escapes the Gloam, and wins!"), "{:?}", lines(&told, BOB));
    let mut again = hall(1);
    again.replay(d.log()).unwrap();
    assert!(again.player(ANN).is_none(), "the replay has her escape too");
    assert_eq!(again.checksum(), d.checksum());
    // Coming down with it, or up without it, wins nothing.
    let mut d = hall(1);
    let mut cy = Player::new(PlayerId(3), "cy".into());
    cy.pack = Pack::of(vec![stone]);
    assert!(d.arrive(cy, Arrival::Join).flow.deaths.is_empty());
    let mut d = hall(2);
    let mut dee = Player::new(PlayerId(4), "dee".into());
    dee.pack = Pack::with_gear(vec![stone], None, None);
    assert!(d.arrive(dee, Arrival::FromBelow).flow.deaths.is_empty());
}

#[test]
fn the_party_panel_follows_who_shares_the_round_and_their_hit_points() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![]);
    put(&mut d, BOB, "bob", Pos::new(2, 2), vec![]);
    let party_of = |outcome: &Outcome, id| {
        to(outcome, id).into_iter().rev().find_map(|m| match m {
            ServerMsg::Party(members) => Some(members.clone()),
            _ => None,
        })
    };
    let quiet = d.play(ANN, Action::Wait);
    assert_eq!(party_of(&quiet, ANN), None, "alone, nothing is told");
    let ogre = d.spawn(kind(&d, "ogre"), Pos::new(4, 1)).unwrap();
    d.rules.monsters.wake(ogre).unwrap();
    let outcome = d.play(ANN, Action::Wait);
    let told = party_of(&outcome, ANN).expect("ann is told her party");
    let names: Vec<(&str, u16)> = told.iter().map(|m| (m.name.as_str(), m.hp)).collect();
    assert_eq!(names, [("ann", 30), ("bob", 30)], "herself first");
    let bobs = party_of(&outcome, BOB).expect("and bob his");
    assert_eq!(bobs[0].name, "bob");
    player(&mut d, BOB).vitals.hp = 12;
    d.rules.monsters.remove(ogre);
    let mut outcome = d.play(BOB, Action::Wait);
    outcome.append(d.play(ANN, Action::Wait));
    assert_eq!(party_of(&outcome, ANN), Some(vec![]), "the danger gone, she is alone again");
    assert_eq!(party_of(&outcome, BOB), Some(vec![]));
}

/// The world of seed 7's items, its potions and scrolls disguised.
pub(super) fn disguised(d: &mut DepthState) -> Arc<Catalogue> {
    let items = Arc::new(Catalogue::built_in().disguised(7));
    d.set_items(items.clone());
    items
}

/// Every text `outcome` sends `id`, lines and kinds of item alike.
pub(super) fn everything_told(outcome: &Outcome, id: PlayerId) -> String {
    format!("{:?}", to(outcome, id))
}

/// A potion drunk teaches what it is to the one who drank it and to those
/// who saw it, each told the kind's name only then; one who did not see
/// it still knows it only by its look, and is never told its name.
#[test]
fn a_potion_drunk_teaches_its_kind_to_the_drinker_and_those_who_see_it() {
    let mut d = hall(2);
    let items = disguised(&mut d);
    let healing = items.find("potion of healing").unwrap();
    let look = items.look(healing).expect("potions are unknown until tried").name.clone();
    put(&mut d, ANN, "ann", Pos::new(6, 2), vec![item("potion of healing", 2)]);
    put(&mut d, BOB, "bob", Pos::new(5, 1), vec![]);
    put(&mut d, PlayerId(3), "cat", Pos::new(10, 2), vec![item("potion of healing", 1)]);
    assert!(!d.player(ANN).unwrap().memory(2).unwrap().sees(Pos::new(10, 2)), "cat is hidden");

    let outcome = d.play(ANN, Action::Quaff(0));
    let learnt = format!("{} are potions of healing.", bestiary::capitalised(&format!("{look}s")));
    assert!(said(&outcome, ANN, &format!("You drink a {look}.")), "{:?}", lines(&outcome, ANN));
    assert!(said(&outcome, ANN, &learnt), "{:?}", lines(&outcome, ANN));
    assert!(said(&outcome, BOB, &format!("ann drinks a {look}.")), "{:?}", lines(&outcome, BOB));
    assert!(said(&outcome, BOB, &learnt));
    for id in [ANN, BOB] {
        assert!(d.player(id).unwrap().known.contains(&healing));
        let kinds = to(&outcome, id).into_iter().find_map(|m| match m {
            ServerMsg::ItemKinds(k) => Some(k.clone()),
            _ => None,
        });
        let kinds = kinds.expect("its client is told the kinds as it knows them now");
        assert_eq!(kinds[usize::from(healing)].name, "potion of healing");
        assert!(kinds[usize::from(healing)].known, "told as known");
        let colour = items.look(healing).unwrap().colour;
        assert_eq!(kinds[usize::from(healing)].colour, colour, "it keeps its look's colour");
    }
    let cat = PlayerId(3);
    assert!(d.player(cat).unwrap().known.is_empty(), "cat saw nothing");
    assert!(!everything_told(&outcome, cat).contains("healing"), "cat is never told the name");

    // Known now, it is named so: by ann, and to bob when she drinks again.
    let outcome = d.play(ANN, Action::Quaff(0));
    assert!(said(&outcome, ANN, "You drink a potion of healing."), "{:?}", lines(&outcome, ANN));
    assert!(said(&outcome, BOB, "ann drinks a potion of healing."));
    assert!(!said(&outcome, ANN, &learnt), "nothing new learnt");
    // Cat drinks its own: it learns now.
    let outcome = d.play(cat, Action::Quaff(0));
    assert!(said(&outcome, cat, &format!("You drink a {look}.")), "{:?}", lines(&outcome, cat));
    assert!(said(&outcome, cat, &learnt));
}

/// Each kind told says whether its name is the kind's own: a kind with no
/// look and a kind learnt are known; one told by its look is not.
#[test]
fn each_kind_told_says_whether_its_name_is_its_own() {
    let items = Catalogue::built_in().disguised(7);
    let healing = items.find("potion of healing").unwrap();
    let dagger = items.find("dagger").unwrap();
    let mut known = crate::items::Known::new();
    let told = items.infos_for(&known);
    for (i, info) in told.iter().enumerate() {
        let own = info.name == items.kinds()[i].name;
        assert_eq!(info.known, own, "{} is known exactly when named so", info.name);
    }
    assert!(told[usize::from(dagger)].known, "a dagger has no look");
    assert!(!told[usize::from(healing)].known, "a potion is told by its look");
    known.insert(healing);
    let told = items.infos_for(&known);
    assert!(told[usize::from(healing)].known, "a kind learnt is known");
    assert_eq!(told[usize::from(healing)].name, "potion of healing");
}

/// A world's looks come from its seed: every potion and scroll has one,
/// no two alike, the same for the same seed, another for another; and a
/// world made before unknown items knows every kind by name.
#[test]
fn each_world_draws_its_own_looks_and_older_worlds_have_none() {
    let items = Catalogue::built_in();
    let looks = |seed: u64| -> Vec<Option<String>> {
        let world = items.disguised(seed);
        (0..items.kinds().len() as u16).map(|k| world.look(k).map(|l| l.name.clone())).collect()
    };
    let seven = looks(7);
    assert_eq!(seven, looks(7), "the same seed, the same looks");
    assert_ne!(seven, looks(8), "another seed, other looks");
    for (i, kind) in items.kinds().iter().enumerate() {
        let unknown =
            matches!(kind.class, Class::Potion { .. } | Class::Scroll { .. } | Class::Wand { .. });
        assert_eq!(seven[i].is_some(), unknown, "{} has a look exactly if unknown", kind.name);
    }
    let named: Vec<&String> = seven.iter().flatten().collect();
    let distinct: std::collections::BTreeSet<&&String> = named.iter().collect();
    assert_eq!(distinct.len(), named.len(), "no two kinds look alike: {named:?}");
    let old = items.as_of(2).disguised(7);
    assert!((0..items.kinds().len() as u16).all(|k| old.look(k).is_none()));
}

/// A potion of sickness takes 3d6 hit points, and never the last one.
#[test]
fn a_potion_of_sickness_hurts_but_never_kills() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![item("potion of sickness", 2)]);
    player(&mut d, ANN).vitals.hp = 25;
    let outcome = d.play(ANN, Action::Quaff(0));
    let hp = d.player(ANN).unwrap().vitals.hp;
    assert!((25 - 18..=25 - 3).contains(&hp), "3d6 taken: {hp}");
    assert!(said(&outcome, ANN, &format!("You feel very sick ({}).", 25 - hp)));
    player(&mut d, ANN).vitals.hp = 2;
    d.play(ANN, Action::Quaff(0));
    assert_eq!(d.player(ANN).unwrap().vitals.hp, 1, "it leaves one hit point");
}

/// Confused, a player's moves may go astray (into rock they stumble, and
/// the move is spent) until its 4d4 moves of confusion are used up;
/// then each goes the way asked.
#[test]
fn confusion_sends_moves_astray_until_it_wears_off() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 2), vec![item("potion of confusion", 1)]);
    let outcome = d.play(ANN, Action::Quaff(0));
    assert!(said(&outcome, ANN, "You feel confused; your feet wander."));
    let moves = d.player(ANN).unwrap().confused;
    assert!((4..=16).contains(&moves), "4d4 moves: {moves}");
    let (mut astray, mut worn_off) = (0, false);
    for left in (0..moves).rev() {
        let (from, dir) = (d.player(ANN).unwrap().pos, if left % 2 == 0 { Dir::E } else { Dir::W });
        let outcome = d.play(ANN, Action::Move(dir));
        worn_off = said(&outcome, ANN, "You feel less confused now.");
        let at = d.player(ANN).unwrap().pos;
        if said(&outcome, ANN, "You stumble.") {
            assert_eq!(at, from, "a stumble goes nowhere");
        }
        astray += usize::from(Some(at) != from.step(dir));
        assert_eq!(d.player(ANN).unwrap().confused, left);
    }
    assert!(astray > 0 || moves < 6, "some of {moves} moves went astray");
    let from = d.player(ANN).unwrap().pos;
    d.play(ANN, Action::Move(Dir::E));
    assert_eq!(Some(d.player(ANN).unwrap().pos), from.step(Dir::E), "clear-headed again");
    assert!(worn_off, "the last confused move says it wore off");
}

/// A scroll of aggravate monsters wakes every monster of the level, in
/// sight or not.
#[test]
fn aggravate_monsters_wakes_the_whole_level() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(6, 2), vec![item("scroll of aggravate monsters", 1)]);
    let near = d.spawn(kind(&d, "kobold"), Pos::new(4, 2)).unwrap();
    let hidden = d.spawn(kind(&d, "kobold"), Pos::new(10, 2)).unwrap();
    for m in [near, hidden] {
        d.rules.monsters.lull(m).unwrap();
    }
    put(&mut d, BOB, "bob", Pos::new(16, 3), vec![]);
    let outcome = d.play(ANN, Action::Read(0));
    let humming = "You hear a high-pitched humming, and the whole level stirs.";
    assert!(said(&outcome, ANN, humming));
    assert!(said(&outcome, BOB, humming), "the whole level hears it");
    for m in [near, hidden] {
        assert!(d.rules.monsters.get(&m).is_some_and(|m| m.is_awake()), "{m:?} woke");
    }
}

/// A scroll of summon monster calls up to three awake monsters of the
/// depth onto the cells around the reader.
#[test]
fn summon_monster_calls_monsters_around_the_reader() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(6, 2), vec![item("scroll of summon monster", 1)]);
    let before: Vec<MonsterId> = d.rules.monsters.values().map(|m| m.id).collect();
    let outcome = d.play(ANN, Action::Read(0));
    let called: Vec<_> = d.rules.monsters.values().filter(|m| !before.contains(&m.id)).collect();
    assert!((1..=3).contains(&called.len()), "{} called", called.len());
    let at = Pos::new(6, 2);
    for m in &called {
        assert!(m.pos.x.abs_diff(at.x) <= 1 && m.pos.y.abs_diff(at.y) <= 1, "{:?} beside", m.pos);
        assert!(d.rules.bestiary.kind(m.kind).lives_at(2), "a monster of the depth");
    }
    let line =
        if called.len() == 1 { "Something answers the call!" } else { "Monsters answer the call!" };
    assert!(said(&outcome, ANN, line), "{:?}", lines(&outcome, ANN));
    let woke = lines(&outcome, ANN).into_iter().any(|l| l.ends_with("wakes up."));
    assert!(!woke, "called up awake, none wakes: {:?}", lines(&outcome, ANN));
    assert!(called.iter().all(|m| m.is_awake()));
}
