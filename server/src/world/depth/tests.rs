//! The rules of a turn on a small level: sight, swaps, stairs.

use std::collections::HashMap;

use gloam_protocol::{Dir, Terrain};

use super::testing::PlayAndTell;
use super::*;
use crate::level::Grid;
use gloam_protocol::PlayerChange;

/// Two rooms joined by a door: '<' and '>' are stairs, '#' wall, '.' floor.
const MAP: &[&str] =
    &["##############", "#<...#.......#", "#....#.......#", "#...........>#", "##############"];

fn level() -> Arc<Level> {
    level_from(MAP)
}

/// A level drawn as rows of '#', '.', '<' (the arrival) and '>'.
pub(super) fn level_from(rows: &[&str]) -> Arc<Level> {
    let mut grid = Grid::filled(rows[0].len() as u16, rows.len() as u16);
    let (mut arrival, mut stairs_down) = (Pos::default(), Pos::default());
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let pos = Pos::new(x as u16, y as u16);
            let t = match c {
                '.' => Terrain::Floor,
                '<' => {
                    arrival = pos;
                    Terrain::StairsUp
                }
                '>' => {
                    stairs_down = pos;
                    Terrain::StairsDown
                }
                _ => Terrain::Wall,
            };
            grid.set(pos, t);
        }
    }
    let walk =
        grid.walk_rows_from(&grid.open_rows(), arrival, crate::mapgen::populate::CLEAR_STEPS);
    Arc::new(Level { grid, arrival, stairs_down, walk, vault: None })
}

fn depth_with(names: &[&str]) -> DepthState {
    let mut d = DepthState::new(2, level(), 8);
    for (i, name) in names.iter().enumerate() {
        d.come(Player::new(PlayerId(i as u32 + 1), (*name).into()), Arrival::FromAbove);
    }
    d
}

fn to(out: &[Outgoing], id: PlayerId) -> Vec<&ServerMsg> {
    out.iter().filter(|o| o.to == id).map(|o| &o.msg).collect()
}

fn teleport(d: &mut DepthState, id: PlayerId, pos: Pos) {
    d.rules.occupancy.step(id, pos);
}

const ANN: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);

#[test]
fn every_action_is_answered_with_sight_as_the_last_message() {
    let mut d = depth_with(&["ann"]);
    for action in [
        Action::Wait,
        Action::Move(Dir::E),
        Action::Move(Dir::N), // into the wall
        Action::Descend,      // not on stairs
        Action::Ascend,       // not on stairs any more
    ] {
        let outcome = d.play(ANN, action);
        let mine = to(&outcome.out, ANN);
        assert!(matches!(mine.last(), Some(ServerMsg::Sight(_))), "{action:?}: {mine:?}");
        assert_eq!(mine.iter().filter(|m| matches!(m, ServerMsg::Sight(_))).count(), 1);
    }
}

#[test]
fn arriving_sends_the_level_then_sight_and_lands_on_the_stairs() {
    let mut d = DepthState::new(2, level(), 8);
    let out = d.come(Player::new(ANN, "ann".into()), Arrival::FromAbove);
    assert!(matches!(out[0].msg, ServerMsg::EnterLevel { depth: 2, .. }));
    assert!(matches!(out.last().map(|o| &o.msg), Some(ServerMsg::Sight(_))));
    assert_eq!(d.player(ANN).unwrap().pos, Pos::new(1, 1));
    assert!(
        out.contains(&Outgoing {
            to: ANN,
            msg: ServerMsg::Note("There are stairs up here.".into())
        })
    );
}

#[test]
fn a_second_arrival_stands_beside_the_first_and_they_see_each_other() {
    let mut d = DepthState::new(2, level(), 8);
    d.come(Player::new(ANN, "ann".into()), Arrival::FromAbove);
    let out = d.come(Player::new(BOB, "bob".into()), Arrival::FromAbove);
    let bob_at = d.player(BOB).unwrap().pos;
    assert_ne!(bob_at, Pos::new(1, 1));
    assert!(to(&out, ANN).iter().any(|m| matches!(m, ServerMsg::Players(c) if c.contains(&PlayerChange::Appeared { id: BOB, name: "bob".into(), at: bob_at }))));
    assert!(to(&out, ANN).contains(&&ServerMsg::Others("bob arrives on this depth.".into())));
    assert!(to(&out, ANN).contains(&&ServerMsg::Joined(vec!["bob".into()])));
    assert!(to(&out, BOB).contains(&&ServerMsg::Roster(vec!["ann".into()])));
}

#[test]
fn stepping_into_a_player_swaps_the_two() {
    let mut d = depth_with(&["ann", "bob"]);
    teleport(&mut d, ANN, Pos::new(2, 2));
    teleport(&mut d, BOB, Pos::new(3, 2));
    let outcome = d.play(ANN, Action::Move(Dir::E));
    assert_eq!(d.player(ANN).unwrap().pos, Pos::new(3, 2));
    assert_eq!(d.player(BOB).unwrap().pos, Pos::new(2, 2));
    let bob_msgs = to(&outcome.out, BOB);
    assert!(
        bob_msgs.iter().any(|m| matches!(m, ServerMsg::Displaced(s) if s.at == Pos::new(2, 2)))
    );
    assert!(bob_msgs.contains(&&ServerMsg::Others("ann swaps places with you.".into())));
    assert!(!bob_msgs.iter().any(|m| matches!(m, ServerMsg::Sight(_))), "bob's reply is his own");
}

#[test]
fn players_out_of_sight_are_not_reported_and_vanish_when_they_leave_it() {
    let mut d = depth_with(&["ann", "bob"]);
    // Bob goes round the corner into the far room; Ann stays by the stairs.
    teleport(&mut d, ANN, Pos::new(1, 1));
    let out = d.play(ANN, Action::Wait).out;
    assert!(to(&out, ANN).iter().all(|m| !matches!(m, ServerMsg::Players(_))));
    let mut vanished = false;
    for dir in [Dir::SE, Dir::SE, Dir::E, Dir::E, Dir::NE, Dir::NE, Dir::E] {
        let out = d.play(BOB, Action::Move(dir)).out;
        vanished |= to(&out, ANN).iter().any(|m| matches!(m, ServerMsg::Players(c) if c.contains(&PlayerChange::Vanished { id: BOB })));
    }
    assert!(vanished, "ann was told bob left her sight");
    assert!(!d.views.told[&ANN].players.contains_key(&BOB));
    let bob_at = d.player(BOB).unwrap().pos;
    assert!(!d.rules.occupancy.players()[&ANN].memory(2).unwrap().sees(bob_at));
}

#[test]
fn stairs_hand_the_player_on_and_tell_the_others() {
    let mut d = depth_with(&["ann", "bob"]);
    teleport(&mut d, ANN, Pos::new(12, 3));
    let outcome = d.play(ANN, Action::Descend);
    let departure = outcome.flow.departures.into_iter().next().expect("ann leaves");
    assert_eq!((departure.depth, departure.via, departure.player.id), (3, Arrival::FromAbove, ANN));
    assert!(!d.contains(ANN));
    assert!(
        to(&outcome.out, BOB).contains(&&ServerMsg::Others("ann goes down the stairs.".into()))
    );
    assert!(to(&outcome.out, BOB).contains(&&ServerMsg::Left(vec!["ann".into()])));
    // Up from depth 2 leads to depth 1.
    teleport(&mut d, BOB, Pos::new(1, 1));
    let up = d.play(BOB, Action::Ascend).flow.departures.into_iter().next().expect("bob leaves");
    assert_eq!((up.depth, up.via), (1, Arrival::FromBelow));
}

/// The lines and roster changes `out` holds for `id`.
fn comings_to(out: &[Outgoing], id: PlayerId) -> Vec<&ServerMsg> {
    let news = |m: &&ServerMsg| {
        matches!(m, ServerMsg::Others(_) | ServerMsg::Joined(_) | ServerMsg::Left(_))
    };
    to(out, id).into_iter().filter(news).collect()
}

#[test]
fn a_burst_of_comings_and_goings_is_heard_in_one_line_and_one_roster_change() {
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (cat, dan) = (PlayerId(3), PlayerId(4));
    let mut d = depth_with(&["ann"]);
    let mut out = Vec::new();
    for (id, name) in [(BOB, "bob"), (cat, "cat"), (dan, "dan")] {
        out.extend(d.arrive(Player::new(id, name.into()), Arrival::FromAbove).out);
    }
    assert!(comings_to(&out, ANN).is_empty(), "untold until the news is told");
    assert!(to(&out, dan).contains(&&ServerMsg::Roster(names(&["ann", "bob", "cat"]))));
    let out = d.tell_all();
    let came = |n: &[&str]| ServerMsg::Joined(names(n));
    let line = |l: &str| ServerMsg::Others(l.into());
    assert_eq!(
        comings_to(&out, ANN),
        [&line("bob, cat and dan arrive on this depth."), &came(&["bob", "cat", "dan"])]
    );
    // Each newcomer hears of those who came after it, its roster held the rest.
    assert_eq!(
        comings_to(&out, BOB),
        [&line("cat and dan arrive on this depth."), &came(&["cat", "dan"])]
    );
    assert_eq!(comings_to(&out, cat), [&line("dan arrives on this depth."), &came(&["dan"])]);
    assert!(comings_to(&out, dan).is_empty());

    // Two leave; ann's answer to her own action (in a batch left untold)
    // finds her up to date, dan hears with the others.
    let mut out = d.leave(BOB, Leaving::Quit).1.out;
    out.extend(d.leave(cat, Leaving::Quit).1.out);
    assert!(comings_to(&out, ANN).is_empty());
    let answer = d.act_all([(ANN, Action::Wait)]).out;
    assert!(comings_to(&answer, dan).is_empty());
    let went = ServerMsg::Left(names(&["bob", "cat"]));
    assert_eq!(comings_to(&answer, ANN), [&line("bob and cat have left the game."), &went]);
    assert!(matches!(to(&answer, ANN).last(), Some(ServerMsg::Sight(_))), "the sight comes last");
    let out = d.tell_all();
    assert!(comings_to(&out, ANN).is_empty(), "heard once");
    assert_eq!(comings_to(&out, dan), [&line("bob and cat have left the game."), &went]);
}

/// With every cell taken, a newcomer stands on another (no cell is free):
/// a player's answer still shows the others as they stand, found by a
/// look at everyone rather than by their cells.
#[test]
fn an_answer_shows_the_others_as_they_stand_when_players_share_a_cell() {
    let mut d = DepthState::new(2, level_from(&["#####", "#<..#", "#####"]), 8);
    let (cat, dan) = (PlayerId(3), PlayerId(4));
    for (id, name) in [(ANN, "ann"), (BOB, "bob"), (cat, "cat"), (dan, "dan")] {
        d.come(Player::new(id, name.into()), Arrival::FromAbove);
    }
    assert_eq!(d.player(dan).unwrap().pos, d.player(ANN).unwrap().pos, "dan shares ann's cell");
    d.act_all([(BOB, Action::Move(Dir::E))]);
    assert_eq!(d.player(BOB).unwrap().pos, Pos::new(3, 1), "bob swapped with cat");
    d.act_all([(ANN, Action::Wait)]);
    for other in [BOB, cat] {
        assert_eq!(d.views.told[&ANN].players.get(&other), Some(&d.player(other).unwrap().pos));
    }
}

/// With many more players than cells in a sight, a player's answer finds
/// those it may see by the cells around it: after others moved untold,
/// each one's answer shows exactly the players it sees.
#[test]
fn in_a_crowd_an_answer_shows_exactly_the_players_in_sight() {
    let rows = ["#########", "#<......#", "#.......#", "#.......#", "#########"];
    let mut d = DepthState::new(2, level_from(&rows), 1);
    let ids: Vec<PlayerId> = (1..=12).map(PlayerId).collect();
    for &id in &ids {
        d.come(Player::new(id, format!("p{}", id.0)), Arrival::FromAbove);
    }
    assert!(ids.len() > 2 * d.rules.disc.len(), "the crowd is found by cells");
    for &id in ids.iter().step_by(3) {
        d.act_all([(id, Action::Move(Dir::E))]);
    }
    for &viewer in &ids {
        answered_with_exactly_those_seen(&mut d, viewer);
    }
}

/// `viewer` waits, and its client was then told exactly the players it
/// sees (on depth 2), where each stands.
fn answered_with_exactly_those_seen(d: &mut DepthState, viewer: PlayerId) {
    d.act_all([(viewer, Action::Wait)]);
    let memory = d.rules.occupancy.players()[&viewer].memory(2).unwrap();
    let seen: HashMap<PlayerId, Pos> = (d.rules.players().values())
        .filter(|o| o.id != viewer && memory.sees(o.pos))
        .map(|o| (o.id, o.pos))
        .collect();
    let told: HashMap<PlayerId, Pos> =
        d.views.told[&viewer].players.iter().map(|(&id, &at)| (id, at)).collect();
    assert_eq!(told, seen, "{viewer:?}");
}

/// More players than open cells: those who came last share cells (a cell
/// names one of them only), and each one's answer still shows exactly
/// the players it sees, also those on a shared cell, as they step,
/// swap and go.
#[test]
fn players_sharing_a_cell_are_shown_as_any_other() {
    let rows = ["#####", "#<..#", "#..>#", "#####"];
    let mut d = DepthState::new(2, level_from(&rows), 1);
    let ids: Vec<PlayerId> = (1..=12).map(PlayerId).collect();
    for &id in &ids {
        d.come(Player::new(id, format!("p{}", id.0)), Arrival::FromAbove);
    }
    assert!(d.rules.occupancy.is_stacked(), "some share a cell");
    for (turn, &id) in ids.iter().enumerate() {
        d.act_all([(id, Action::Move(Dir::ALL[turn % 8]))]);
        for &viewer in &ids[turn % 3..] {
            answered_with_exactly_those_seen(&mut d, viewer);
        }
    }
    d.leave(ids[0], Leaving::Quit);
    for &viewer in &ids[1..] {
        answered_with_exactly_those_seen(&mut d, viewer);
    }
}

/// A watcher who comes while its player has not heard of the latest
/// comings and goings is shown the roster its player's client holds, not
/// the depth as it is now; once the player hears the news, both agree.
#[test]
fn a_view_shows_the_roster_its_player_holds_not_the_news_it_has_not_heard() {
    let roster = |d: &DepthState, id| {
        let view = d.view_of(id).unwrap();
        view.into_iter().find_map(|m| match m {
            ServerMsg::Roster(names) => Some(names),
            _ => None,
        })
    };
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut d = depth_with(&["ann", "bob"]);
    assert_eq!(roster(&d, ANN), Some(names(&["bob"])));
    let cat = PlayerId(3);
    // Cat comes and bob goes, and ann has heard of neither.
    d.arrive(Player::new(cat, "cat".into()), Arrival::FromAbove);
    d.leave(BOB, Leaving::Quit);
    assert_eq!(roster(&d, ANN), Some(names(&["bob"])), "what ann's client holds");
    assert_eq!(roster(&d, cat), Some(names(&["ann", "bob"])), "cat has not heard bob go");
    d.tell_all();
    assert_eq!(roster(&d, ANN), Some(names(&["cat"])), "told: the depth as it is");
}
