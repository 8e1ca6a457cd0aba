//! Items on a depth: picked up, dropped, seen only in sight and
//! remembered where they were seen.

use gloam_protocol::{
    Action, Carried, Dir, FloorChange, Lying, PACK_SLOTS, PlayerId, Pos, ServerMsg,
};

use super::testing::PlayAndTell;
use super::tests::level_from;
use super::*;
use crate::items::{Catalogue, Item, Pack};

/// Two rooms joined by a door ('<' the arrival).
const MAP: &[&str] =
    &["##############", "#<...#.......#", "#....#.......#", "#...........>#", "##############"];

const ANN: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);

fn item(name: &str, count: u16) -> Item {
    let kind = Catalogue::built_in().find(name).expect("a built-in item");
    Item { kind, count }
}

fn to(out: &[Outgoing], id: PlayerId) -> Vec<&ServerMsg> {
    out.iter().filter(|o| o.to == id).map(|o| &o.msg).collect()
}

fn note(text: &str) -> ServerMsg {
    ServerMsg::Note(text.into())
}

/// Ann on the arrival (1, 1), a potion on (2, 1) and darts on (3, 1).
fn depth_with_items() -> DepthState {
    let mut d = DepthState::new(2, level_from(MAP), 8);
    d.lay(Pos::new(2, 1), item("potion of healing", 1));
    d.lay(Pos::new(3, 1), item("dart", 5));
    d.come(Player::new(ANN, "ann".into()), Arrival::FromAbove);
    d
}

fn pack(d: &DepthState, id: PlayerId) -> Vec<Item> {
    d.player(id).map(|p| p.pack.items().to_vec()).unwrap_or_default()
}

#[test]
fn piles_in_sight_are_told_on_arriving_with_their_top() {
    let mut d = DepthState::new(2, level_from(MAP), 8);
    d.lay(Pos::new(3, 1), item("dart", 5));
    d.lay(Pos::new(3, 1), item("dagger", 1));
    let out = d.come(Player::new(ANN, "ann".into()), Arrival::FromAbove);
    let dagger = item("dagger", 1).kind;
    let told = to(&out, ANN).into_iter().find_map(|m| match m {
        ServerMsg::Sight(diff) => Some(diff.floor.clone()),
        _ => None,
    });
    let top = Lying { kind: dagger, count: 1, more: true };
    assert_eq!(told, Some(vec![FloorChange { at: Pos::new(3, 1), top: Some(top) }]));
    assert!(to(&out, ANN).contains(&&ServerMsg::Pack(vec![])), "its pack, empty");
}

#[test]
fn stepping_onto_a_pile_of_several_says_there_is_more_under_its_top() {
    let mut d = DepthState::new(2, level_from(MAP), 8);
    d.lay(Pos::new(3, 1), item("dart", 5));
    d.lay(Pos::new(3, 1), item("dagger", 1));
    d.come(Player::new(ANN, "ann".into()), Arrival::FromAbove);
    let mut out = d.play(ANN, Action::Move(Dir::E)).out;
    out.extend(d.play(ANN, Action::Move(Dir::E)).out);
    let seen = note("You see a dagger here, with more under it.");
    assert!(to(&out, ANN).contains(&&seen), "{out:?}");
}

#[test]
fn picking_up_takes_the_top_into_the_pack_and_stacks_what_stacks() {
    let mut d = depth_with_items();
    let out = d.play(ANN, Action::PickUp).out;
    assert!(to(&out, ANN).contains(&&note("There is nothing here to pick up.")));
    let out = d.play(ANN, Action::Move(Dir::E)).out;
    assert!(to(&out, ANN).contains(&&note("You see a potion of healing here.")), "{out:?}");
    let out = d.play(ANN, Action::PickUp).out;
    assert!(to(&out, ANN).contains(&&note("You pick up a potion of healing (a).")), "{out:?}");
    let potion = item("potion of healing", 1);
    assert!(to(&out, ANN).contains(&&ServerMsg::Pack(vec![Carried {
        kind: potion.kind,
        count: 1,
        equipped: false
    }])));
    let gone = to(&out, ANN).into_iter().any(|m| matches!(m, ServerMsg::Sight(diff) if diff.floor == vec![FloorChange { at: Pos::new(2, 1), top: None }]));
    assert!(gone, "its own answer shows the cell bare");
    d.play(ANN, Action::Move(Dir::E));
    d.play(ANN, Action::PickUp);
    d.lay(Pos::new(3, 1), item("dart", 4));
    let out = d.play(ANN, Action::PickUp).out;
    assert!(to(&out, ANN).contains(&&note("You pick up 4 darts (b).")), "{out:?}");
    assert_eq!(pack(&d, ANN), vec![potion, item("dart", 9)], "the darts went onto their stack");
}

#[test]
fn a_drop_lies_where_it_fell_and_those_who_see_it_are_told() {
    let mut d = depth_with_items();
    d.play(ANN, Action::Move(Dir::E));
    d.play(ANN, Action::PickUp);
    d.come(Player::new(BOB, "bob".into()), Arrival::FromAbove);
    let out = d.play(ANN, Action::Drop(3)).out;
    assert!(to(&out, ANN).contains(&&note("You have no such item.")));
    let out = d.play(ANN, Action::Drop(0)).out;
    assert!(to(&out, ANN).contains(&&note("You drop a potion of healing.")));
    assert!(to(&out, ANN).contains(&&ServerMsg::Pack(vec![])));
    let potion = item("potion of healing", 1).kind;
    let top = Some(Lying { kind: potion, count: 1, more: false });
    let seen = ServerMsg::Floor(vec![FloorChange { at: Pos::new(2, 1), top }]);
    assert!(to(&out, BOB).contains(&&seen), "bob sees it fall: {:?}", to(&out, BOB));
    // Bob picks it up: ann, beside him, sees the cell bare.
    let bob_at = d.player(BOB).unwrap().pos;
    let dir = Dir::from_delta(2 - i32::from(bob_at.x), 1 - i32::from(bob_at.y))
        .expect("bob is beside it");
    d.play(ANN, Action::Move(Dir::E));
    d.play(BOB, Action::Move(dir));
    let out = d.play(BOB, Action::PickUp).out;
    assert!(
        to(&out, ANN)
            .contains(&&ServerMsg::Floor(vec![FloorChange { at: Pos::new(2, 1), top: None }]))
    );
    assert_eq!(pack(&d, BOB), vec![item("potion of healing", 1)]);
}

#[test]
fn a_pile_out_of_sight_is_remembered_as_last_seen_and_told_again_on_return() {
    let mut d = depth_with_items();
    d.come(Player::new(BOB, "bob".into()), Arrival::FromAbove);
    // Ann goes into the far room, out of sight of the darts.
    for dir in [Dir::S, Dir::S, Dir::E, Dir::E, Dir::E, Dir::E, Dir::E, Dir::E, Dir::E, Dir::E] {
        d.play(ANN, Action::Move(dir));
    }
    let darts = (Pos::new(3, 1), Lying { kind: item("dart", 1).kind, count: 5, more: false });
    let memory = d.player(ANN).unwrap().memory(2).unwrap();
    assert!(!memory.sees(darts.0), "out of her sight");
    // Bob takes them while she is away: she is not told.
    let bob_at = d.player(BOB).unwrap().pos;
    let dir = Dir::from_delta(3 - i32::from(bob_at.x), 1 - i32::from(bob_at.y)).unwrap();
    d.play(BOB, Action::Move(dir));
    let out = d.play(BOB, Action::PickUp).out;
    assert!(to(&out, ANN).is_empty(), "{:?}", to(&out, ANN));
    let recalled = d.player(ANN).unwrap().memory(2).unwrap().recall_floor();
    assert!(recalled.contains(&FloorChange { at: darts.0, top: Some(darts.1) }), "{recalled:?}");
    // Back in sight of the cell, she sees it bare.
    let mut told = Vec::new();
    for _ in 0..8 {
        let out = d.play(ANN, Action::Move(Dir::W)).out;
        for m in to(&out, ANN) {
            if let ServerMsg::Sight(diff) = m {
                told.extend(diff.floor.clone());
            }
        }
    }
    assert_eq!(told, vec![FloorChange { at: darts.0, top: None }]);
}

#[test]
fn a_full_pack_takes_no_new_kind_but_a_stack_it_holds() {
    let mut d = depth_with_items();
    let dagger = item("dagger", 1);
    let mut full = vec![dagger; PACK_SLOTS - 1];
    full.push(item("dart", 1));
    d.rules.occupancy.get_mut(ANN).unwrap().pack = Pack::of(full);
    d.play(ANN, Action::Move(Dir::E));
    let out = d.play(ANN, Action::PickUp).out;
    assert!(to(&out, ANN).contains(&&note("Your pack is full.")));
    d.play(ANN, Action::Move(Dir::E));
    let out = d.play(ANN, Action::PickUp).out;
    assert!(to(&out, ANN).contains(&&note("You pick up 5 darts (z).")), "{out:?}");
    assert_eq!(pack(&d, ANN).last(), Some(&item("dart", 6)));
}
