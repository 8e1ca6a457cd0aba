//! Friends in single file: players walking the same way down a corridor
//! all advance, whatever order their steps come in (docs/turns.md,
//! "Walking into another player").

use gloam_protocol::{Action, Dir, PlayerId, Pos, ServerMsg};
use proptest::prelude::*;

use super::testing::PlayAndTell;
use super::tests::level_from;
use super::*;

/// A corridor one cell wide and 22 long, east to west.
const CORRIDOR: &[&str] =
    &["########################", "#<.....................#", "########################"];

/// The corridor's last open cell.
const END: u16 = 22;

/// `n` players in a row at the corridor's west end, the first at the back.
fn single_file(n: u32) -> DepthState {
    let mut d = DepthState::new(2, level_from(CORRIDOR), 8);
    for i in 1..=n {
        d.come(Player::new(PlayerId(i), format!("p{i}")), Arrival::FromAbove);
    }
    for i in 1..=n {
        d.rules.occupancy.step(PlayerId(i), Pos::new(i as u16, 1));
    }
    d
}

fn xs(d: &DepthState) -> Vec<u16> {
    d.rules.occupancy.players().values().map(|p| p.pos.x).collect()
}

/// Plays `rounds` rounds in which every player steps east once, in the
/// order `order` gives for each round; gives where they stand then, west
/// to east.
fn walk_east(n: u32, rounds: usize, mut order: impl FnMut(usize) -> Vec<u32>) -> Vec<u16> {
    let mut d = single_file(n);
    for round in 0..rounds {
        for i in order(round) {
            d.play(PlayerId(i), Action::Move(Dir::E));
        }
    }
    let mut at = xs(&d);
    at.sort_unstable();
    at
}

/// The cells `n` players fill at the corridor's end.
fn at_the_end(n: u32) -> Vec<u16> {
    (END + 1 - n as u16..=END).collect()
}

#[test]
fn two_friends_walking_one_behind_the_other_both_reach_the_end() {
    // The one behind presses first every time: it follows, it does not swap.
    let back_first = walk_east(2, 30, |_| vec![1, 2]);
    assert_eq!(back_first, at_the_end(2));
    let front_first = walk_east(2, 30, |_| vec![2, 1]);
    assert_eq!(front_first, at_the_end(2));
}

#[test]
fn five_in_a_corridor_flow_to_its_end_back_first_or_front_first() {
    assert_eq!(walk_east(5, 40, |_| vec![1, 2, 3, 4, 5]), at_the_end(5));
    assert_eq!(walk_east(5, 40, |_| vec![5, 4, 3, 2, 1]), at_the_end(5));
}

#[test]
fn the_one_behind_follows_a_friend_walking_its_way_and_passes_one_who_stopped() {
    let (p1, p2) = (PlayerId(1), PlayerId(2));
    let follow =
        |of: &str| Outgoing { to: PlayerId(2), msg: ServerMsg::Note(format!("You follow {of}.")) };
    let mut d = single_file(2);
    // p2 has not walked yet: p1 swaps past it.
    d.play(p1, Action::Move(Dir::E));
    assert_eq!(xs(&d), vec![2, 1]);
    // p1 has walked east since p2 last acted: p2 follows, it does not swap.
    let out = d.play(p2, Action::Move(Dir::E)).out;
    assert!(out.contains(&follow("p1")), "{out:?}");
    assert_eq!(xs(&d), vec![2, 1], "p2 waited a step behind");
    d.play(p1, Action::Move(Dir::E));
    d.play(p2, Action::Move(Dir::E));
    assert_eq!(xs(&d), vec![3, 2], "both advanced");
    // p1 stops: p2 follows it once, and passes it at its next try.
    let out = d.play(p2, Action::Move(Dir::E)).out;
    assert!(out.contains(&follow("p1")), "{out:?}");
    let out = d.play(p2, Action::Move(Dir::E)).out;
    assert!(!out.contains(&follow("p1")));
    assert_eq!(xs(&d), vec![2, 3], "p2 swapped past p1, who stood still");
}

#[test]
fn nobody_blocks_a_corridor_by_standing_in_it() {
    let mut d = single_file(2);
    for _ in 0..3 {
        d.play(PlayerId(2), Action::Wait);
    }
    d.play(PlayerId(1), Action::Move(Dir::E));
    assert_eq!(xs(&d), vec![2, 1], "p1 swapped with p2, who stood still");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Two to five players walking east, each once a round in an order
    /// that changes every round, all reach the corridor's end.
    #[test]
    fn a_crowd_in_a_corridor_flows_whatever_the_order(
        n in 2u32..=5,
        orders in proptest::collection::vec(any::<u64>(), 60),
    ) {
        let order = |round: usize| {
            let mut ids: Vec<u32> = (1..=n).collect();
            let mut bits = orders[round];
            for i in (1..ids.len()).rev() {
                ids.swap(i, (bits % (i as u64 + 1)) as usize);
                bits /= i as u64 + 1;
            }
            ids
        };
        prop_assert_eq!(walk_east(n, 60, order), at_the_end(n));
    }
}
