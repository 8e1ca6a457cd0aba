//! Uniques in words: named without an article in every line (waking,
//! striking, slain), in the graveyard, and heard of by everyone on the
//! depth when one is slain; and the slaying handed back in the flow.

use super::testing::PlayAndTell;
use super::tests::level_from;
use super::*;
use crate::seeds::DepthSeeds;
use gloam_protocol::Dir;

/// One long hall: '<' is where arrivals stand.
const HALL: &[&str] = &[
    "##################################",
    "#<...............................#",
    "#................................#",
    "#...............................>#",
    "##################################",
];

const ANN: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);
const CHIEF: &str = "Grishnakh the Kobold Chief";

/// The hall with ann at (2, 2) and bob far off, out of her sight.
fn hall() -> DepthState {
    let mut d = DepthState::with_bestiary(
        3,
        level_from(HALL),
        8,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(5),
    );
    for (id, name, at) in [(ANN, "ann", Pos::new(2, 2)), (BOB, "bob", Pos::new(31, 2))] {
        let mut p = Player::new(id, name.into());
        (p.vitals.hp, p.vitals.max_hp) = (500, 500);
        d.come(p, Arrival::Resume(at));
    }
    d
}

fn chief(d: &DepthState) -> KindId {
    d.rules.bestiary.find(CHIEF).unwrap()
}

fn lines(outcome: &Outcome, id: PlayerId) -> Vec<String> {
    let text = |m: &ServerMsg| match m {
        ServerMsg::Combat(t) | ServerMsg::Note(t) | ServerMsg::Others(t) => Some(t.clone()),
        _ => None,
    };
    outcome.out.iter().filter(|o| o.to == id).filter_map(|o| text(&o.msg)).collect()
}

/// Ann and bob wait until `line` is said to ann; the lines said to ann
/// and bob meanwhile.
fn wait_for(d: &mut DepthState, line: impl Fn(&str) -> bool) -> Vec<String> {
    let mut said = Vec::new();
    for _ in 0..100 {
        said.extend(lines(&d.play(ANN, Action::Wait), ANN));
        d.play(BOB, Action::Wait);
        if said.iter().any(|l| line(l)) {
            return said;
        }
    }
    panic!("never said in 100 rounds: {said:?}");
}

#[test]
fn a_unique_wakes_and_strikes_by_its_name_alone() {
    let mut d = hall();
    let kind = chief(&d);
    d.spawn(kind, Pos::new(3, 2)).unwrap();
    let said = wait_for(&mut d, |l| l.starts_with(&format!("{CHIEF} hits you (")));
    assert!(said.contains(&format!("{CHIEF} wakes up.")), "{said:?}");
    assert!(said.iter().all(|l| !l.contains("the Grishnakh") && !l.contains("The Grishnakh")));
    let killed = End::Killed(Killer::Monster(kind));
    assert_eq!(d.end_in_words(&killed), CHIEF, "the graveyard's killed_by has no article");
}

#[test]
fn a_unique_slain_is_told_to_everyone_on_the_depth_and_handed_back() {
    let mut d = hall();
    let kind = chief(&d);
    let id = d.spawn(kind, Pos::new(3, 2)).unwrap();
    d.rules.monsters.get_mut(&id).unwrap().hp = 1;
    let mut slain = None;
    for _ in 0..40 {
        let outcome = d.play(ANN, Action::Move(Dir::E));
        let bob = d.play(BOB, Action::Wait);
        if !outcome.flow.slayings.is_empty() {
            slain = Some((outcome, bob));
            break;
        }
    }
    let (outcome, _) = slain.expect("one blow of forty lands");
    assert_eq!(outcome.flow.slayings, [Slaying { kind, by: "ann".into() }]);
    assert!(lines(&outcome, ANN).contains(&format!("You kill {CHIEF}.")));
    let heard = lines(&outcome, BOB);
    assert_eq!(heard, [format!("{CHIEF} is slain by ann!")], "bob, far off, hears of it once");
    let ordinary = d.spawn(d.rules.bestiary.find("kobold").unwrap(), Pos::new(3, 2)).unwrap();
    d.rules.monsters.get_mut(&ordinary).unwrap().hp = 1;
    for _ in 0..40 {
        let outcome = d.play(ANN, Action::Move(Dir::E));
        assert!(outcome.flow.slayings.is_empty(), "a kobold is no unique");
        assert!(lines(&outcome, BOB).is_empty(), "nor heard of afar");
        d.play(BOB, Action::Wait);
        if !d.rules.monsters.contains_key(&ordinary) {
            return;
        }
    }
    panic!("the kobold outlived forty blows");
}
