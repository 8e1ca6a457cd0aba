//! Zapping wands: each effect, what a zap teaches and to whom, and a wand
//! zapped empty.

use gloam_protocol::{Action, PlayerId, Pos, ServerMsg};

use super::testing::PlayAndTell;
use super::use_tests::{
    ANN, BOB, disguised, everything_told, hall, item, kind, lines, player, put, said, to,
};
use super::*;
use crate::bestiary;
use crate::items::{Catalogue, Item};

/// A wand of the built-in kind `name` holding `charges`.
fn wand(name: &str, charges: u16) -> Item {
    Item::wand(Catalogue::built_in().find(name).expect("a built-in wand"), charges)
}

fn charges(d: &DepthState, id: PlayerId, slot: u8) -> Option<u16> {
    let item = d.player(id)?.pack.get(slot)?;
    d.rules.items.charges(item)
}

fn rounds_of(d: &DepthState, id: PlayerId) -> u64 {
    d.player(id).unwrap().vitals.rounds
}

#[test]
fn a_bolt_flies_at_the_first_monster_and_strikes_it_until_it_dies() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![wand("wand of striking", 40)]);
    let ogre = d.spawn(kind(&d, "ogre"), Pos::new(6, 1)).unwrap();
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(9, 1) });
    assert!(said(&outcome, ANN, "You zap a wand of striking."), "{:?}", lines(&outcome, ANN));
    let reached = lines(&outcome, ANN).iter().any(|l| l.starts_with("The bolt "));
    assert!(reached, "it stops at the ogre before the aimed cell: {:?}", lines(&outcome, ANN));
    assert_eq!(charges(&d, ANN, 0), Some(39), "a charge is used");
    let pack = |m: &&ServerMsg| matches!(m, ServerMsg::Pack(_));
    assert!(!to(&outcome, ANN).iter().any(pack), "the pack told is the same: its charges untold");
    let mut all = lines(&outcome, ANN);
    for _ in 0..30 {
        if !d.rules.monsters.contains_key(&ogre) {
            break;
        }
        player(&mut d, ANN).vitals.hp = player(&mut d, ANN).vitals.max_hp;
        all.extend(lines(&d.play(ANN, Action::Zap { slot: 0, at: Pos::new(6, 1) }), ANN));
    }
    assert!(!d.rules.monsters.contains_key(&ogre), "the bolts killed it: {all:?}");
    assert!(all.iter().any(|l| l.starts_with("The bolt hits the ogre (")), "{all:?}");
    assert!(all.iter().any(|l| l == "The bolt kills the ogre."), "{all:?}");
    assert!(d.player(ANN).unwrap().xp > 0, "a kill by a bolt gives experience");
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(9, 1) });
    assert!(said(&outcome, ANN, "The bolt strikes nothing."), "{:?}", lines(&outcome, ANN));
}

#[test]
fn a_blink_moves_the_zapper_to_a_seen_open_empty_cell_within_range() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![wand("wand of blinking", 9)]);
    put(&mut d, BOB, "bob", Pos::new(4, 1), vec![]);
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(4, 1) });
    assert!(said(&outcome, ANN, "You shudder, and stay where you are."));
    assert_eq!(d.player(ANN).unwrap().pos, Pos::new(2, 1), "bob stands there");
    d.play(BOB, Action::Wait);
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(6, 3) });
    assert!(said(&outcome, ANN, "You blink across the gap."), "{:?}", lines(&outcome, ANN));
    assert_eq!(d.player(ANN).unwrap().pos, Pos::new(6, 3));
    let sight = to(&outcome, ANN).into_iter().any(|m| matches!(m, ServerMsg::Sight(_)));
    assert!(sight, "she sees from where she landed");
    d.play(BOB, Action::Wait);
    let far = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(14, 3) });
    assert!(said(&far, ANN, "The magic fades, finding nothing."), "{:?}", lines(&far, ANN));
    assert_eq!(d.player(ANN).unwrap().pos, Pos::new(6, 3), "8 cells is past its range of 7");
    assert_eq!(charges(&d, ANN, 0), Some(6), "every zap used a charge");
}

#[test]
fn a_wand_of_healing_heals_the_friend_aimed_at() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![wand("wand of healing", 5)]);
    put(&mut d, BOB, "bob", Pos::new(5, 1), vec![]);
    player(&mut d, BOB).vitals.hp = 2;
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(5, 1) });
    let by = d.player(BOB).unwrap().vitals.hp - 2;
    assert!((3..=18).contains(&by), "3d6 given back: {by}");
    assert!(
        said(&outcome, ANN, &format!("bob looks better ({by}).")),
        "{:?}",
        lines(&outcome, ANN)
    );
    assert!(said(&outcome, BOB, &format!("ann's wand heals you ({by}).")));
    d.play(BOB, Action::Wait);
    let max = d.player(BOB).unwrap().vitals.max_hp;
    player(&mut d, BOB).vitals.hp = max;
    let whole = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(5, 1) });
    assert!(said(&whole, ANN, "bob looks no better."), "{:?}", lines(&whole, ANN));
    assert!(said(&whole, BOB, "ann's wand does you no good."), "{:?}", lines(&whole, BOB));
    d.play(BOB, Action::Wait);
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(7, 3) });
    assert!(said(&outcome, ANN, "The magic fades, finding nothing."), "nobody stands there");
}

#[test]
fn a_slowed_monster_acts_on_every_other_round() {
    // Two kobolds hunt ann from as far: one slowed, one not.
    let moved = |slow: bool| {
        let mut d = hall(2);
        put(&mut d, ANN, "ann", Pos::new(2, 1), vec![wand("wand of slow monster", 5)]);
        let kobold = d.spawn(kind(&d, "kobold"), Pos::new(8, 1)).unwrap();
        d.rules.monsters.wake(kobold).unwrap();
        let first = if slow {
            Action::Zap { slot: 0, at: Pos::new(8, 1) }
        } else {
            Action::Zap { slot: 0, at: Pos::new(8, 3) }
        };
        let outcome = d.play(ANN, first);
        if slow {
            assert!(said(&outcome, ANN, "The kobold slows down."), "{:?}", lines(&outcome, ANN));
            assert!((4..=16).contains(&d.rules.monsters[&kobold].slowed));
        }
        let before = d.rules.monsters[&kobold].pos.x;
        for _ in 0..4 {
            d.play(ANN, Action::Wait);
        }
        before - d.rules.monsters[&kobold].pos.x
    };
    assert_eq!(moved(false), 4, "a kobold steps every round");
    assert_eq!(moved(true), 2, "slowed, every other round");
}

#[test]
fn a_wand_of_light_shows_the_zapper_the_cells_around_where_it_shines() {
    let mut d = hall(2);
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![wand("wand of light", 5)]);
    let far = d.rules.level.grid.index(Pos::new(12, 1));
    let memory = |d: &DepthState| d.player(ANN).unwrap().memory(2).unwrap().explored().clone();
    assert!(!memory(&d).contains(far), "out of her sight");
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(10, 1) });
    assert!(said(&outcome, ANN, "Light floods the place, and you see it."));
    assert!(memory(&d).contains(far), "lit two cells past where it shone");
    let mapped = to(&outcome, ANN).into_iter().find_map(|m| match m {
        ServerMsg::Mapped { remembered, .. } => Some(remembered.clone()),
        _ => None,
    });
    let told = gloam_protocol::CellSet::from_bytes(&mapped.expect("told as mapped cells"));
    assert!(told.contains(far));
}

/// A zap teaches the wand's kind to the zapper and to those who see it;
/// one who does not see it is never told its name.
#[test]
fn a_zap_teaches_the_zapper_and_those_who_see_it() {
    let mut d = hall(2);
    let items = disguised(&mut d);
    let striking = items.find("wand of striking").unwrap();
    let look = items.look(striking).expect("wands are unknown until zapped").name.clone();
    put(&mut d, ANN, "ann", Pos::new(6, 2), vec![wand("wand of striking", 3)]);
    put(&mut d, BOB, "bob", Pos::new(5, 1), vec![]);
    let cat = PlayerId(3);
    put(&mut d, cat, "cat", Pos::new(10, 2), vec![]);
    assert!(!d.player(ANN).unwrap().memory(2).unwrap().sees(Pos::new(10, 2)), "cat is hidden");
    let a = bestiary::capitalised(&format!("{look}s"));
    let learnt = format!("{a} are wands of striking.");
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(6, 3) });
    let an = crate::items::Catalogue::built_in().kind(striking).described(1);
    let a_look = if look.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    assert!(an.starts_with('a'));
    assert!(
        said(&outcome, ANN, &format!("You zap {a_look} {look}.")),
        "{:?}",
        lines(&outcome, ANN)
    );
    assert!(said(&outcome, ANN, &learnt), "{:?}", lines(&outcome, ANN));
    assert!(
        said(&outcome, BOB, &format!("ann zaps {a_look} {look}.")),
        "{:?}",
        lines(&outcome, BOB)
    );
    assert!(said(&outcome, BOB, &learnt));
    for id in [ANN, BOB] {
        assert!(d.player(id).unwrap().known.contains(&striking));
    }
    assert!(d.player(cat).unwrap().known.is_empty(), "cat saw nothing");
    assert!(!everything_told(&outcome, cat).contains("striking"), "cat is never told the name");
}

/// A wand with no charges left does nothing and teaches nothing, but the
/// zap still costs the action; what is no wand is refused, for nothing.
#[test]
fn an_empty_wand_does_nothing_and_still_costs_the_action() {
    let mut d = hall(2);
    let items = disguised(&mut d);
    let light = items.find("wand of light").unwrap();
    put(&mut d, ANN, "ann", Pos::new(2, 1), vec![wand("wand of light", 0), item("dart", 3)]);
    let before = rounds_of(&d, ANN);
    let outcome = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(5, 1) });
    assert!(said(&outcome, ANN, "Nothing happens."), "{:?}", lines(&outcome, ANN));
    assert_eq!(rounds_of(&d, ANN), before + 1, "the round is spent");
    assert!(!d.player(ANN).unwrap().known.contains(&light), "nothing seen, nothing learnt");
    assert_eq!(charges(&d, ANN, 0), Some(0), "still a wand, still empty");
    let outcome = d.play(ANN, Action::Zap { slot: 1, at: Pos::new(5, 1) });
    assert!(said(&outcome, ANN, "You cannot zap that."), "{:?}", lines(&outcome, ANN));
    let hidden = d.play(ANN, Action::Zap { slot: 0, at: Pos::new(2, 1) });
    assert!(said(&hidden, ANN, "You cannot see that spot."), "not at oneself");
    assert_eq!(rounds_of(&d, ANN), before + 1, "refusals cost nothing");
}
