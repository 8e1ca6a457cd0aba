//! Standing orders on a depth: explore, travel and rest, one step per
//! command from what the player knows, and what stops them.

use gloam_protocol::Terrain;

use super::testing::PlayAndTell;
use super::tests::level_from;
use super::*;
use crate::seeds::DepthSeeds;

/// Two rooms joined by a corridor, with a pillar; the stairs down in the
/// far room, out of sight of the arrival ('<').
const ROOMS: &[&str] = &[
    "##############################",
    "#<.....#######################",
    "#......#######################",
    "#..............###############",
    "#......#######.###############",
    "#......#######.......#########",
    "##############.#####.........#",
    "##############.#####.........#",
    "##############.#####.....>...#",
    "##############.#####.........#",
    "##############################",
];

const ANN: PlayerId = PlayerId(1);

fn rooms() -> DepthState {
    let mut d = DepthState::with_bestiary(
        3,
        level_from(ROOMS),
        5,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(3),
    );
    d.come(Player::new(ANN, "ann".into()), Arrival::FromAbove);
    d
}

fn notes(outcome: &Outcome) -> Vec<&str> {
    outcome
        .out
        .iter()
        .filter(|o| o.to == ANN)
        .filter_map(|o| match &o.msg {
            ServerMsg::Note(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

fn remembers(d: &DepthState, at: Pos) -> bool {
    let memory = d.rules.player(ANN).unwrap().memory(d.rules.depth).unwrap();
    memory.explored().contains(d.rules.level.grid.index(at))
}

fn pos(d: &DepthState) -> Pos {
    d.rules.player(ANN).unwrap().pos
}

/// Plays `action` as a connection does a standing order: again while the
/// depth says it goes on, at most `limit` times. The outcomes, in turn.
fn standing(d: &mut DepthState, action: Action, limit: usize) -> Vec<Outcome> {
    let mut turns = Vec::new();
    for _ in 0..limit {
        let outcome = d.play(ANN, action);
        let goes_on = outcome.going_on.contains(&ANN);
        turns.push(outcome);
        if !goes_on {
            return turns;
        }
    }
    panic!("{action:?} still went on after {limit} steps");
}

#[test]
fn exploring_walks_only_over_remembered_cells_until_nothing_is_left() {
    let mut d = rooms();
    let mut steps = 0;
    loop {
        let from = pos(&d);
        let outcome = d.play(ANN, Action::Explore);
        let to = pos(&d);
        assert!(outcome.flow.answered.contains(&ANN), "every step is answered");
        if to != from {
            steps += 1;
            assert!(chebyshev(from, to) == 1, "one step at a time");
        }
        if !outcome.going_on.contains(&ANN) {
            assert_eq!(notes(&outcome), ["Nothing left to explore."], "at {to:?}");
            break;
        }
        assert!(steps < 200, "exploring ends");
        // The next step goes to a cell ann was told of before taking it.
        if let Ok(step) = Order::Explore.step(&d.rules, ANN) {
            let Action::Move(dir) = step else { panic!("{step:?}") };
            assert!(remembers(&d, to.step(dir).unwrap()), "a step into the unknown");
        }
    }
    let level = &d.rules.level;
    let open = level.grid.cells().iter().enumerate().filter(|(_, t)| t.is_open());
    for (i, _) in open {
        assert!(remembers(&d, level.grid.pos_of(i)), "{:?} left unexplored", level.grid.pos_of(i));
    }
    assert!(steps > 20, "the far room was walked to: {steps} steps");
}

#[test]
fn the_stairs_key_away_from_stairs_travels_to_the_nearest_known_and_stops_on_them() {
    let mut d = rooms();
    let outcome = d.play(ANN, Action::Descend);
    assert_eq!(notes(&outcome), ["You know of no stairs down."]);
    assert!(!outcome.going_on.contains(&ANN));
    standing(&mut d, Action::Explore, 200);
    standing(&mut d, Action::Travel(Pos::new(1, 1)), 100);
    let turns = standing(&mut d, Action::Descend, 100);
    assert_eq!(d.rules.level.terrain(pos(&d)), Terrain::StairsDown);
    assert!(d.rules.player(ANN).is_some(), "standing on them, not down them yet");
    assert_eq!(turns.len(), 24, "the shortest walk from the arrival");
}

#[test]
fn travel_goes_to_a_remembered_cell_and_refuses_an_unknown_one() {
    let mut d = rooms();
    let far = Pos::new(27, 9);
    let outcome = d.play(ANN, Action::Travel(far));
    assert_eq!(notes(&outcome), ["You do not know the way there."]);
    let near = Pos::new(5, 4);
    assert!(remembers(&d, near));
    standing(&mut d, Action::Travel(near), 20);
    assert_eq!(pos(&d), near);
}

#[test]
fn a_monster_coming_into_view_stops_exploring_and_is_said() {
    let mut d = rooms();
    let jackal = d.rules.bestiary.find("jackal").unwrap();
    let id = d.spawn(jackal, Pos::new(17, 5)).unwrap();
    d.rules.monsters.lull(id).unwrap();
    let turns = standing(&mut d, Action::Explore, 200);
    let last = turns.last().unwrap();
    assert_eq!(notes(last), ["A jackal comes into view, asleep."]);
    // Awake in view, nothing starts.
    d.rules.monsters.wake(id).unwrap();
    let outcome = d.play(ANN, Action::Explore);
    assert_eq!(notes(&outcome), ["Not with a jackal in view."]);
    assert!(matches!(outcome.out.last().map(|o| &o.msg), Some(ServerMsg::Sight(_))));
}

#[test]
fn resting_waits_until_healed_and_not_when_whole() {
    let mut d = rooms();
    let outcome = d.play(ANN, Action::Rest);
    assert_eq!(notes(&outcome), ["You are at full health."]);
    let rounds = d.rounds();
    d.rules.occupancy.get_mut(ANN).unwrap().vitals.hp = 5;
    let turns = standing(&mut d, Action::Rest, 2000);
    let p = d.rules.player(ANN).unwrap();
    assert_eq!(p.vitals.hp, p.vitals.max_hp);
    assert_eq!(notes(turns.last().unwrap()), ["You feel rested."]);
    assert_eq!(d.rounds() - rounds, turns.len() as u64, "one round a step");
}

fn chebyshev(a: Pos, b: Pos) -> u16 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

/// A travel goes by what the player remembers, not by a shorter way it
/// never saw: here the gap on the left, which ann's memory lacks.
#[test]
fn travel_never_takes_a_way_the_player_does_not_know() {
    const LOOP: &[&str] = &["#########", "#...<...#", "#.#####.#", "#.......#", "#########"];
    let level = level_from(LOOP);
    let mut d = DepthState::with_bestiary(
        3,
        level.clone(),
        1,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(3),
    );
    let mut known = gloam_protocol::CellSet::default();
    for (i, t) in level.grid.cells().iter().enumerate() {
        let p = level.grid.pos_of(i);
        if t.is_open() && p != Pos::new(1, 2) {
            known.insert(i);
        }
    }
    let mut ann = Player::new(ANN, "ann".into());
    *ann.memory_mut(3) = crate::character::Memory::from_explored(known);
    d.come(ann, Arrival::Resume(Pos::new(4, 1)));
    let outcome = d.play(ANN, Action::Travel(Pos::new(1, 3)));
    assert!(outcome.going_on.contains(&ANN));
    assert_eq!(pos(&d), Pos::new(5, 1), "round by the right, the way ann knows");
}

#[test]
fn a_monster_coming_into_view_stops_resting() {
    let mut d = rooms();
    d.rules.occupancy.get_mut(ANN).unwrap().vitals.hp = 5;
    let first = d.play(ANN, Action::Rest);
    assert!(first.going_on.contains(&ANN));
    // A kobold wanders in while ann rests.
    let kobold = d.rules.bestiary.find("kobold").unwrap();
    let id = d.spawn(kobold, Pos::new(4, 3)).unwrap();
    d.rules.monsters.lull(id).unwrap();
    let outcome = d.play(ANN, Action::Rest);
    assert!(!outcome.going_on.contains(&ANN));
    // Said as it came into view, whether or not it woke later in the round.
    assert_eq!(notes(&outcome), ["A kobold comes into view, asleep."]);
}

/// What ann notices of the changes `change` makes to the depth, as the
/// rules tell a standing order's step.
fn noticed(d: &mut DepthState, change: impl FnOnce(&mut DepthState)) -> Vec<Notice> {
    let mut watch = super::rules::flow::Watch::of(&d.rules, ANN, d.views.monsters_told(ANN));
    change(d);
    watch.look(&d.rules);
    watch
        .notices()
        .into_iter()
        .map(|(id, n)| {
            assert_eq!(id, ANN);
            n
        })
        .collect()
}

#[test]
fn being_hurt_or_seeing_an_item_interrupts_and_a_quiet_step_does_not() {
    let mut d = rooms();
    assert_eq!(noticed(&mut d, |_| {}), []);
    fn vitals(d: &mut DepthState) -> &mut crate::character::Vitals {
        &mut d.rules.occupancy.get_mut(ANN).unwrap().vitals
    }
    assert_eq!(noticed(&mut d, |d| vitals(d).hp -= 3), [Notice::Hurt]);
    assert_eq!(noticed(&mut d, |d| vitals(d).hp += 1), [], "healing is no news");
    let (kind, _) = d.rules.items.placeable_at(1).next().unwrap();
    let top = gloam_protocol::Lying { kind, count: 1, more: false };
    let at = Pos::new(3, 3);
    let see = |d: &mut DepthState| {
        let ann = d.rules.occupancy.get_mut(ANN).unwrap();
        ann.memory_mut(3).see_pile(at, Some(top));
    };
    assert_eq!(noticed(&mut d, see), [Notice::SawItem { at, top }]);
    assert_eq!(noticed(&mut d, see), [], "a pile it knows is no news");
    let what = d.rules.items.kind(kind).described(1);
    let line = views::lines::notice(&d.rules, ANN, Notice::SawItem { at, top });
    assert_eq!(line, Some(format!("You see {what}.")));
    assert_eq!(views::lines::notice(&d.rules, ANN, Notice::Hurt), None, "the blow says so");
}

#[test]
fn an_item_stops_exploring_once() {
    let mut d = rooms();
    d.set_items(Arc::new(crate::items::Catalogue::built_in()));
    let (kind, _) = d.rules.items.placeable_at(1).next().unwrap();
    d.lay(Pos::new(17, 5), crate::items::Item { kind, count: 1 });
    let mut stops = Vec::new();
    for _ in 0..5 {
        let turns = standing(&mut d, Action::Explore, 200);
        let last = turns.last().unwrap();
        stops.push(notes(last).join(" "));
        if stops.last().unwrap().contains("Nothing left") {
            break;
        }
    }
    eprintln!("{stops:?}");
    assert_eq!(stops.len(), 2, "{stops:?}");
}

#[test]
fn a_monster_waking_in_view_stops_the_order_with_the_line_that_says_so() {
    let mut d = rooms();
    let kobold = d.rules.bestiary.find("kobold").unwrap();
    let id = d.spawn(kobold, Pos::new(4, 3)).unwrap();
    d.rules.monsters.lull(id).unwrap();
    // Its client was told of it, asleep.
    let mut watch = super::rules::flow::Watch::of(&d.rules, ANN, vec![(id, false)]);
    d.rules.monsters.wake(id).unwrap();
    watch.look(&d.rules);
    assert_eq!(watch.notices(), [(ANN, Notice::Woke)]);
    assert_eq!(
        views::lines::notice(&d.rules, ANN, Notice::Woke),
        None,
        "'The kobold wakes up.' says so"
    );
}
