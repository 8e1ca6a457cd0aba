//! Rounds, monsters and fights on a depth, without tasks or time: the rules
//! of `docs/turns.md` command by command.

use proptest::prelude::*;

use std::collections::{BTreeMap, BTreeSet};

use gloam_protocol::Dir;

use super::rules::combat;
use super::testing::{PlayAndTell, commands_of};
use super::tests::level_from;
use super::views::still::{SHIFTS, shift_of};
use super::*;
use crate::character as player;
use crate::seeds::DepthSeeds;
use gloam_protocol::{MonsterChange, PlayerChange};

/// One hall, 20 wide, with a pillar; '<' is where arrivals stand.
const HALL: &[&str] = &[
    "######################",
    "#<...................#",
    "#....................#",
    "#.........##.........#",
    "#....................#",
    "#...................>#",
    "######################",
];

const ANN: PlayerId = PlayerId(1);
const BOB: PlayerId = PlayerId(2);

fn hall() -> DepthState {
    DepthState::with_bestiary(
        3,
        level_from(HALL),
        8,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(7),
    )
}

fn kind(d: &DepthState, name: &str) -> KindId {
    d.rules.bestiary.find(name).unwrap()
}

/// Puts a player on `at`.
fn put(d: &mut DepthState, id: PlayerId, name: &str, at: Pos) {
    d.come(Player::new(id, name.into()), Arrival::Resume(at));
    assert_eq!(d.rules.occupancy.players()[&id].pos, at);
}

/// An awake monster of `name` on `at`.
fn awake(d: &mut DepthState, name: &str, at: Pos) -> MonsterId {
    let id = d.spawn(kind(d, name), at).unwrap();
    d.rules.monsters.wake(id).unwrap();
    id
}

fn to(outcome: &Outcome, id: PlayerId) -> Vec<&ServerMsg> {
    outcome.out.iter().filter(|o| o.to == id).map(|o| &o.msg).collect()
}

fn said(outcome: &Outcome, id: PlayerId, text: &str) -> bool {
    to(outcome, id).iter().any(|m| matches!(m, ServerMsg::Combat(t) | ServerMsg::Note(t) | ServerMsg::Others(t) if t == text))
}

#[test]
fn alone_every_action_is_answered_at_once_and_closes_the_round() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    let orc = awake(&mut d, "orc", Pos::new(7, 2));
    let before = d.rounds();
    let outcome = d.play(ANN, Action::Wait);
    assert_eq!(outcome.flow.answered, [ANN]);
    assert_eq!(d.phase(ANN), Phase::Ready, "the round closed: ann may act again");
    assert_eq!(d.rounds(), before + 1);
    assert_eq!(d.rules.monsters[&orc].rounds, 1, "the orc had its round");
    assert_eq!(d.rules.monsters[&orc].pos, Pos::new(6, 2), "and took one step, straight at ann");
    assert!(d.waiting().is_empty());
}

/// Ann, alone at the hall's north-west corner with an orc awake in view,
/// and the depth's clock before anything she does.
fn ann_in_the_corner_with_an_orc() -> (DepthState, MonsterId, u64) {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(1, 1));
    let orc = awake(&mut d, "orc", Pos::new(7, 2));
    let before = d.rounds();
    (d, orc, before)
}

#[test]
fn a_refused_action_is_answered_and_costs_nothing() {
    let (mut d, orc, before) = ann_in_the_corner_with_an_orc();
    let refused = [
        Action::Move(Dir::N),  // a wall
        Action::Move(Dir::NW), // a wall
        Action::PickUp,        // nothing lies here
        Action::Quaff(0),      // an empty pack
        Action::Throw { slot: 0, at: Pos::new(3, 3) },
    ];
    for action in refused {
        let outcome = d.play(ANN, action);
        assert_eq!(outcome.flow.answered, [ANN], "{action:?} is answered");
        assert_eq!(outcome.flow.refused, [ANN], "{action:?} is refused");
        assert_eq!(d.phase(ANN), Phase::Ready, "{action:?}: ann may act again this round");
        assert_eq!(d.rounds(), before, "{action:?} spent no round");
        assert_eq!(d.rules.monsters[&orc].rounds, 0, "{action:?}: the orc did not act");
        assert!(d.waiting().is_empty());
    }
    let moved = d.play(ANN, Action::Move(Dir::E));
    assert!(moved.flow.refused.is_empty());
    assert_eq!((d.rounds(), d.rules.monsters[&orc].rounds), (before + 1, 1), "a step spends it");
}

#[test]
fn a_refused_action_leaves_the_round_waiting_for_its_player() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 1));
    put(&mut d, BOB, "bob", Pos::new(2, 3));
    let orc = awake(&mut d, "orc", Pos::new(8, 3));
    assert_eq!(d.party_of(ANN), [ANN, BOB]);
    d.play(BOB, Action::Wait);
    let bumped = d.play(ANN, Action::Move(Dir::N));
    assert_eq!(bumped.flow.answered, [ANN], "answered, not held");
    assert_eq!(d.rules.monsters[&orc].rounds, 0, "the round still waits for ann");
    assert_eq!((d.phase(ANN), d.phase(BOB)), (Phase::Ready, Phase::Acted));
    // Her next action is applied in the same round, not held for the next.
    let closed = d.play(ANN, Action::Move(Dir::E));
    assert_eq!(closed.flow.answered, [ANN]);
    assert_eq!(d.rules.occupancy.players()[&ANN].pos, Pos::new(3, 1));
    assert_eq!(d.rules.monsters[&orc].rounds, 1, "the round closed with it");
}

#[test]
fn an_away_player_whose_action_is_refused_stays_away() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 3));
    put(&mut d, BOB, "bob", Pos::new(2, 1));
    awake(&mut d, "orc", Pos::new(8, 3));
    d.play(ANN, Action::Wait);
    d.time_out(ANN);
    assert_eq!(d.phase(BOB), Phase::Away);
    d.play(BOB, Action::Move(Dir::N));
    assert_eq!(d.phase(BOB), Phase::Away, "a wall bumped is not coming back");
}

#[test]
fn sharing_a_danger_the_fast_player_waits_for_the_other_and_the_monster_acts_once() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    put(&mut d, BOB, "bob", Pos::new(2, 4));
    let orc = awake(&mut d, "orc", Pos::new(8, 3));
    assert_eq!(d.party_of(ANN), [ANN, BOB], "the orc sees both");
    let first = d.play(ANN, Action::Wait);
    assert_eq!(first.flow.answered, [ANN]);
    assert!(to(&first, ANN).contains(&&ServerMsg::Waiting(vec!["bob".into()])));
    assert_eq!(d.rules.monsters[&orc].rounds, 0, "the round is open: the orc waits too");
    for _ in 0..9 {
        let held = d.play(ANN, Action::Move(Dir::E));
        assert!(held.flow.answered.is_empty() && held.out.is_empty(), "held until bob acts");
    }
    assert_eq!(d.rules.occupancy.players()[&ANN].pos, Pos::new(2, 2));
    let closed = d.play(BOB, Action::Wait);
    assert_eq!(closed.flow.answered, [BOB, ANN], "bob's action, then ann's held one");
    assert_eq!(d.rules.monsters[&orc].rounds, 1, "one round for the orc");
    assert_eq!(d.rules.occupancy.players()[&ANN].pos, Pos::new(3, 2), "one held action, not ten");
    assert_eq!((d.phase(ANN), d.phase(BOB)), (Phase::Acted, Phase::Ready));
}

#[test]
fn a_missed_deadline_counts_the_absent_away_until_they_act() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    put(&mut d, BOB, "bob", Pos::new(2, 4));
    let orc = awake(&mut d, "orc", Pos::new(8, 3));
    d.play(ANN, Action::Wait);
    assert_eq!(d.waiting(), [ANN]);
    let outcome = d.time_out(ANN);
    assert_eq!(d.phase(BOB), Phase::Away);
    assert_eq!(d.rules.monsters[&orc].rounds, 1, "the round closed without bob");
    assert!(to(&outcome, ANN).contains(&&ServerMsg::Waiting(vec![])));
    assert!(said(&outcome, ANN, "bob is away."), "the party is told");
    let counted = "You were counted away: the round went on without you.";
    assert!(said(&outcome, BOB, counted), "and so is bob");
    // Ann now plays at her own pace: each action is a round.
    for round in 2..5 {
        let outcome = d.play(ANN, Action::Wait);
        assert!(!said(&outcome, BOB, counted), "once");
        assert_eq!(outcome.flow.answered, [ANN]);
        assert_eq!(d.rules.monsters[&orc].rounds, round);
    }
    // Bob is back with his next action, and the round waits for him again.
    d.play(BOB, Action::Wait);
    assert_eq!((d.phase(ANN), d.phase(BOB)), (Phase::Ready, Phase::Acted));
    assert_eq!(d.waiting(), [BOB]);
}

#[test]
fn players_who_share_no_danger_each_play_at_their_own_pace() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    put(&mut d, BOB, "bob", Pos::new(4, 2));
    // An awake orc out of their sight is no danger to them.
    awake(&mut d, "orc", Pos::new(20, 5));
    assert_eq!(d.party_of(ANN), [ANN]);
    for _ in 0..5 {
        assert_eq!(d.play(ANN, Action::Wait).flow.answered, [ANN]);
        assert_eq!(d.phase(ANN), Phase::Ready);
    }
    assert_eq!(d.phase(BOB), Phase::Ready, "bob was never waited for");
}

/// The hall with `--pvp`, ann one step west of bob.
fn ann_beside_bob_with_pvp() -> DepthState {
    let mut d = hall();
    d.set_rules(HostRules { pvp: true });
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    put(&mut d, BOB, "bob", Pos::new(3, 2));
    d
}

#[test]
fn with_pvp_players_who_see_each_other_share_rounds_and_bumping_strikes() {
    let mut d = ann_beside_bob_with_pvp();
    assert_eq!(d.party_of(ANN), [ANN, BOB]);
    let outcome = d.play(ANN, Action::Move(Dir::E));
    assert_eq!(d.rules.occupancy.players()[&ANN].pos, Pos::new(2, 2), "no swap: a blow");
    let landed = d.rules.occupancy.players()[&BOB].vitals.hp < player::START_HP;
    let text = if landed { "You hit bob" } else { "You miss bob." };
    assert!(
        to(&outcome, ANN).iter().any(|m| matches!(m, ServerMsg::Combat(t) if t.starts_with(text))),
        "{outcome:?}"
    );
    assert_eq!(d.phase(ANN), Phase::Acted, "bob's turn before ann's next");
}

/// A blow from a player (no monster changes) still tells the one it hurt
/// its hit points, in the same command.
#[test]
fn a_player_hurt_by_another_is_told_its_hit_points() {
    let mut d = ann_beside_bob_with_pvp();
    for _ in 0..20 {
        let outcome = d.play(ANN, Action::Move(Dir::E));
        let hp = d.rules.occupancy.players()[&BOB].vitals.hp;
        if hp < player::START_HP {
            let told = ServerMsg::Vitals { hp, max: player::START_HP };
            assert!(to(&outcome, BOB).contains(&&told), "{:?}", to(&outcome, BOB));
            return;
        }
        d.play(BOB, Action::Wait);
    }
    panic!("no blow landed in twenty");
}

#[test]
fn bumping_a_monster_fights_it_until_it_dies_and_the_kill_is_counted() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    put(&mut d, BOB, "bob", Pos::new(2, 4));
    let rat = d.spawn(kind(&d, "rat"), Pos::new(3, 2)).unwrap();
    let shown = d.play(BOB, Action::Wait);
    let appeared =
        |c: &MonsterChange| matches!(c, MonsterChange::Appeared { id, .. } if *id == rat);
    assert!(
        to(&shown, ANN)
            .iter()
            .any(|m| matches!(m, ServerMsg::Monsters(c) if c.iter().any(appeared)))
    );
    let mut killed = None;
    for _ in 0..40 {
        let outcome = d.play(ANN, Action::Move(Dir::E));
        d.play(BOB, Action::Wait);
        if said(&outcome, ANN, "You kill the rat.") {
            killed = Some(outcome);
            break;
        }
        assert!(d.rules.monsters.contains_key(&rat), "alive until the kill is told");
    }
    let outcome = killed.expect("the rat dies within forty blows");
    assert!(said(&outcome, BOB, "ann kills the rat."), "bob saw it");
    assert!(!d.rules.monsters.contains_key(&rat) && !d.rules.monsters.is_at(Pos::new(3, 2)));
    assert_eq!(d.rules.occupancy.players()[&ANN].vitals.kills, 1);
    let by_kind: Vec<(&str, u32)> =
        d.rules.occupancy.players()[&ANN].slain.iter().map(|(k, &n)| (k.as_str(), n)).collect();
    assert_eq!(by_kind, [("rat", 1)], "counted by kind, for the morgue file");
    let vanished = |id| {
        to(&outcome, id).iter().any(|m| match m {
            ServerMsg::Sight(s) | ServerMsg::Displaced(s) => {
                s.monsters.contains(&MonsterChange::Vanished { id: rat })
            }
            ServerMsg::Monsters(c) => c.contains(&MonsterChange::Vanished { id: rat }),
            _ => false,
        })
    };
    assert!(vanished(ANN) && vanished(BOB));
}

#[test]
fn a_monster_bites_until_the_player_dies_and_the_death_is_handed_back() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    put(&mut d, BOB, "bob", Pos::new(2, 4));
    awake(&mut d, "ogre", Pos::new(3, 2));
    d.rules.occupancy.get_mut(ANN).unwrap().vitals.hp = 1;
    let mut death = None;
    for _ in 0..60 {
        if !d.rules.occupancy.players().contains_key(&ANN) {
            break;
        }
        let mut outcome = d.play(ANN, Action::Wait);
        let bob = d.play(BOB, Action::Wait);
        outcome.out.extend(bob.out);
        outcome.flow.deaths.extend(bob.flow.deaths);
        if let Some(dead) = outcome.flow.deaths.pop() {
            assert!(said(&outcome, BOB, "ann dies."), "{:?}", to(&outcome, BOB));
            assert!(
                to(&outcome, ANN).iter().any(
                    |m| matches!(m, ServerMsg::Combat(t) if t.starts_with("The ogre clubs you"))
                )
            );
            // Her hit points are told run out, her last word on them.
            let told_hp: Vec<&ServerMsg> = to(&outcome, ANN)
                .into_iter()
                .filter(|m| matches!(m, ServerMsg::Vitals { .. }))
                .collect();
            let max = dead.player.vitals.max_hp;
            assert_eq!(told_hp.last(), Some(&&ServerMsg::Vitals { hp: 0, max }));
            death = Some(dead);
        }
    }
    let dead = death.expect("an ogre kills a player of one hit point");
    assert_eq!(dead.player.name, "ann");
    assert!(matches!(dead.end, End::Killed(Killer::Monster(_))), "{:?}", dead.end);
    assert_eq!(d.end_in_words(&dead.end), "an ogre");
    assert!(!d.contains(ANN) && d.phase(BOB) == Phase::Ready);
}

/// A player whose hit points come back in a command in which monsters out
/// of everyone's sight wander is told them, though nobody is told of those
/// monsters (those near them are found by their cells, in a crowd).
#[test]
fn hit_points_come_back_while_monsters_out_of_sight_wander() {
    // Sight of one cell: nobody sees the monsters, who wander on the
    // quiet rounds, one of which ann's wait closes (she acts last).
    let mut d = hall_seen_within(0, 5, HostRules::default());
    let mut ann = Player::new(ANN, "ann".into());
    ann.vitals.hp = 10;
    d.come(ann, Arrival::Join);
    let others: Vec<PlayerId> = (2..=30).map(PlayerId).collect();
    for &id in &others {
        d.come(Player::new(id, format!("p{}", id.0)), Arrival::Join);
    }
    let (mut told, mut changed) = (Vec::new(), 0);
    for _ in 0..(combat::REGEN_EVERY * 2) {
        for &id in &others {
            d.play(id, Action::Wait);
        }
        let before: Vec<Pos> = d.rules.monsters.values().map(|m| m.pos).collect();
        for o in d.play(ANN, Action::Wait).out {
            if let (ANN, ServerMsg::Vitals { hp, .. }) = (o.to, o.msg) {
                told.push(hp);
                changed += usize::from(d.rules.monsters.values().map(|m| m.pos).ne(before.clone()));
            }
        }
    }
    assert_eq!(told, [11, 12], "one point every {} rounds", combat::REGEN_EVERY);
    assert!(changed > 0, "monsters wandered as ann's hit points came back");
}

#[test]
fn hit_points_are_told_when_they_change_and_come_back_over_rounds() {
    let mut d = hall();
    let mut player = Player::new(ANN, "ann".into());
    player.vitals.hp = 10;
    let out = d.come(player, Arrival::Join);
    assert!(out.contains(&Outgoing { to: ANN, msg: ServerMsg::Vitals { hp: 10, max: 30 } }));
    let mut told = Vec::new();
    for _ in 0..(combat::REGEN_EVERY * 2) {
        for o in d.play(ANN, Action::Wait).out {
            if let ServerMsg::Vitals { hp, .. } = o.msg {
                told.push(hp);
            }
        }
    }
    assert_eq!(told, [11, 12], "one point every {} rounds", combat::REGEN_EVERY);
}

#[test]
fn a_monster_out_of_sight_is_never_told_and_one_in_sight_is() {
    let mut d = DepthState::with_bestiary(
        2,
        level_from(&["##########", "#<..#....#", "#...#....#", "#...#...>#", "##########"]),
        8,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(1),
    );
    let hidden = d.spawn(kind(&d, "kobold"), Pos::new(6, 2)).unwrap();
    let seen = d.spawn(kind(&d, "kobold"), Pos::new(3, 3)).unwrap();
    let out = d.come(Player::new(ANN, "ann".into()), Arrival::Join);
    let told: Vec<MonsterChange> = out
        .iter()
        .filter_map(|o| match &o.msg {
            ServerMsg::Sight(s) => Some(s.monsters.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(told.len(), 1);
    assert!(
        matches!(told[0], MonsterChange::Appeared { id, wound: gloam_protocol::Wound::Unhurt, .. } if id == seen)
    );
    assert!(!told.iter().any(|c| matches!(c, MonsterChange::Appeared { id, .. } if *id == hidden)));
}

/// Runs `actions` (a player and what it does, or a deadline) on a hall
/// with two players and a few monsters; gives a summary of the end state
/// after checking that nobody ever shares a cell.
fn play_out(actions: &[(bool, u8)]) -> Vec<(u32, Pos, u16)> {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 2));
    put(&mut d, BOB, "bob", Pos::new(2, 4));
    for (name, at) in
        [("jackal", Pos::new(12, 1)), ("jackal", Pos::new(13, 1)), ("orc", Pos::new(18, 5))]
    {
        awake(&mut d, name, at);
    }
    d.spawn(kind(&d, "fruit bat"), Pos::new(15, 4));
    for &(ann, what) in actions {
        let id = if ann { ANN } else { BOB };
        let _ = match what {
            0..=7 => d.play(id, Action::Move(Dir::ALL[usize::from(what)])),
            8 => d.play(id, Action::Wait),
            _ => d.time_out(id),
        };
        let mut cells = std::collections::HashSet::new();
        for p in d.rules.occupancy.players().values() {
            assert!(cells.insert(p.pos), "two on {:?}", p.pos);
        }
        for m in d.rules.monsters.values() {
            assert!(cells.insert(m.pos), "a monster on a taken cell {:?}", m.pos);
            assert!(d.rules.level.terrain(m.pos).is_open());
            assert_eq!(d.rules.monsters.at(m.pos), Some(m.id));
        }
        assert!(d.rules.occupancy.agrees() && d.rules.monsters.agrees());
    }
    let mut summary: Vec<(u32, Pos, u16)> =
        d.rules.monsters.values().map(|m| (m.id.0, m.pos, m.hp)).collect();
    summary
        .extend(d.rules.occupancy.players().values().map(|p| (1000 + p.id.0, p.pos, p.vitals.hp)));
    summary
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the players do and whenever deadlines pass: nobody ever
    /// shares a cell or stands in a wall, and the same commands in the
    /// same order give the same depth.
    #[test]
    fn rounds_are_deterministic_and_nobody_shares_a_cell(
        actions in proptest::collection::vec((any::<bool>(), 0u8..10), 0..150)
    ) {
        prop_assert_eq!(play_out(&actions), play_out(&actions));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A monster's death regroups the parties from the links they were
    /// found with (`Parties::lose`): always the parties found afresh.
    #[test]
    fn parties_regrouped_after_a_death_are_the_parties_found_afresh(
        players in proptest::collection::btree_set((1u16..21, 1u16..6), 1..5),
        monsters in proptest::collection::btree_set((1u16..21, 1u16..6), 1..9),
        deaths in proptest::collection::vec(any::<proptest::sample::Index>(), 1..9),
    ) {
        let mut d = DepthState::with_bestiary(
            3,
            level_from(HALL),
            3,
            Arc::new(Bestiary::default()),
            DepthSeeds::from_level_seed(7),
        );
        let mut ids = Vec::new();
        for (i, &(x, y)) in players.iter().enumerate() {
            let id = PlayerId(i as u32 + 1);
            let at = Pos::new(x, y);
            if d.rules.level.terrain(at).is_open() {
                d.come(Player::new(id, format!("p{i}")), Arrival::Resume(at));
                ids.push(id);
            }
        }
        let mut alive: Vec<MonsterId> = monsters
            .iter()
            .filter_map(|&(x, y)| d.spawn(kind(&d, "orc"), Pos::new(x, y)))
            .collect();
        for &m in &alive {
            d.rules.monsters.wake(m).unwrap();
        }
        for death in deaths {
            if alive.is_empty() {
                break;
            }
            // Parties found, then a death regroups them; the stamp grows
            // whenever they changed.
            let _ = d.party_of(ids.first().copied().unwrap_or(ANN));
            let before: Vec<_> = ids.iter().map(|&p| d.party_of(p)).collect();
            let stamp = d.rules.parties_stamp();
            let m = alive.remove(death.index(alive.len()));
            d.rules.monsters.remove(m).unwrap();
            let stamp_after = d.rules.parties_stamp();
            let regrouped: Vec<_> = ids.iter().map(|&p| d.party_of(p)).collect();
            prop_assert!(stamp_after >= stamp);
            prop_assert!(regrouped == before || stamp_after > stamp, "{before:?} {regrouped:?}");
            d.rules.parties.forget();
            let afresh: Vec<_> = ids.iter().map(|&p| d.party_of(p)).collect();
            prop_assert_eq!(regrouped, afresh);
        }
    }
}

/// A hall seen within `radius` with players on `players` (those on open
/// cells) and awake orcs on `monsters`; forgetting its parties at every
/// leaving, as before they were kept past it, when `old`.
pub(super) fn crowd(
    radius: u8,
    players: &BTreeSet<(u16, u16)>,
    monsters: &BTreeSet<(u16, u16)>,
    old: bool,
) -> (DepthState, Vec<PlayerId>, Vec<MonsterId>) {
    let mut d = DepthState::with_bestiary(
        3,
        level_from(HALL),
        radius,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(7),
    );
    d.keep_log();
    d.rules.parties.forget_at_leaving = old;
    let mut ids = Vec::new();
    for (i, &(x, y)) in players.iter().enumerate() {
        let id = PlayerId(i as u32 + 1);
        let at = Pos::new(x, y);
        if d.rules.level.terrain(at).is_open() {
            d.come(Player::new(id, format!("p{i}")), Arrival::Resume(at));
            ids.push(id);
        }
    }
    let alive: Vec<MonsterId> =
        monsters.iter().filter_map(|&(x, y)| d.spawn(kind(&d, "orc"), Pos::new(x, y))).collect();
    for &m in &alive {
        d.rules.monsters.wake(m).unwrap();
    }
    (d, ids, alive)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Players leaving (and monsters dying) between two askings lose
    /// themselves from the parties found (`Parties::leave`): always the
    /// parties found afresh, with the stamp the parties had when every
    /// leaving forgot them.
    #[test]
    fn parties_kept_past_a_leaving_are_the_parties_found_afresh(
        players in proptest::collection::btree_set((1u16..21, 1u16..6), 1..12),
        monsters in proptest::collection::btree_set((1u16..21, 1u16..6), 1..9),
        steps in proptest::collection::vec((0u8..3, any::<proptest::sample::Index>()), 1..24),
    ) {
        let (mut kept, mut ids, mut alive) = crowd(3, &players, &monsters, false);
        let (mut old, _, _) = crowd(3, &players, &monsters, true);
        let (mut afresh, _, _) = crowd(3, &players, &monsters, false);
        for (what, which) in steps {
            match what {
                0 if !ids.is_empty() => {
                    let id = ids.remove(which.index(ids.len()));
                    for d in [&mut kept, &mut old, &mut afresh] {
                        d.rules.leave(id, Leaving::Quit, &mut Nobody);
                    }
                }
                1 if !alive.is_empty() => {
                    let m = alive.remove(which.index(alive.len()));
                    for d in [&mut kept, &mut old, &mut afresh] {
                        d.rules.monsters.remove(m).unwrap();
                    }
                }
                _ => {
                    let parties: Vec<_> = ids.iter().map(|&p| kept.party_of(p)).collect();
                    let before: Vec<_> = ids.iter().map(|&p| old.party_of(p)).collect();
                    afresh.rules.parties.forget();
                    let found: Vec<_> = ids.iter().map(|&p| afresh.party_of(p)).collect();
                    prop_assert_eq!(&parties, &found);
                    prop_assert_eq!(&parties, &before);
                }
            }
            prop_assert_eq!(kept.rules.parties_stamp(), old.rules.parties_stamp());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Taking off the players a crash left on a depth, some of them
    /// waiting for their round to close, ends in the same depth and the
    /// same log as when every leaving forgot the parties found.
    #[test]
    fn a_crowd_taken_off_at_a_resume_ends_as_taken_off_the_old_way(
        players in proptest::collection::btree_set((1u16..21, 1u16..6), 1..16),
        monsters in proptest::collection::btree_set((1u16..21, 1u16..6), 1..9),
        acting in proptest::collection::vec(any::<bool>(), 16),
    ) {
        let (mut kept, ids, _) = crowd(3, &players, &monsters, false);
        let (mut old, _, _) = crowd(3, &players, &monsters, true);
        for d in [&mut kept, &mut old] {
            for (&id, _) in ids.iter().zip(&acting).filter(|(_, acts)| **acts) {
                let _ = d.play(id, Action::Wait);
            }
            d.resume(0, &[]).unwrap();
        }
        prop_assert_eq!(kept.checksum(), old.checksum());
        prop_assert_eq!(kept.log(), old.log());
        prop_assert_eq!(kept.player_count(), 0);
    }
}

/// A crowd in one party, half of it waiting for its round to close, taken
/// off at a resume: the parties are found once, not again at every
/// leaving (which made it quadratic in the crowd).
#[test]
fn a_crowd_taken_off_at_a_resume_finds_its_parties_once() {
    let players: BTreeSet<(u16, u16)> = (1..21).flat_map(|x| [(x, 1), (x, 5)]).collect();
    // Each orc noticed by half of them, and both by those in the middle.
    let monsters: BTreeSet<(u16, u16)> = [(5, 3), (15, 3)].into();
    let (mut kept, ids, _) = crowd(8, &players, &monsters, false);
    let (mut old, _, _) = crowd(8, &players, &monsters, true);
    assert_eq!(kept.party_of(ids[0]), ids, "one party");
    for d in [&mut kept, &mut old] {
        for &id in ids.iter().step_by(2) {
            let _ = d.play(id, Action::Wait);
        }
        assert!(d.rules.clock.waiting().count() >= 10, "half of them wait");
        d.rules.parties.findings.set(0);
        d.resume(0, &[]).unwrap();
    }
    assert_eq!(kept.checksum(), old.checksum());
    assert!(old.rules.parties.findings.get() >= 10, "the old way finds them at each leaving");
    assert!(kept.rules.parties.findings.get() <= 2, "{}", kept.rules.parties.findings.get());
}

/// A kill that splits no party leaves the parties' stamp as it was, so the
/// views tell no party panels for it (every kill in a fight did, before);
/// one that splits a party makes it grow.
#[test]
fn only_a_death_that_splits_a_party_changes_the_parties_stamp() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(2, 1));
    put(&mut d, BOB, "bob", Pos::new(2, 3));
    // Three orcs, each seen by both: each links them.
    let last = awake(&mut d, "orc", Pos::new(8, 3));
    let second = awake(&mut d, "orc", Pos::new(9, 1));
    let first = awake(&mut d, "orc", Pos::new(9, 2));
    assert_eq!(d.party_of(ANN), [ANN, BOB]);
    let before = d.rules.parties_stamp();
    d.rules.monsters.remove(first).unwrap();
    assert_eq!(d.party_of(ANN), [ANN, BOB]);
    assert_eq!(d.rules.parties_stamp(), before, "the party stands: nothing to tell");
    d.rules.monsters.remove(second).unwrap();
    assert_eq!(d.rules.parties_stamp(), before);
    d.rules.monsters.remove(last).unwrap();
    assert!(d.rules.parties_stamp() > before, "the last link gone: the party split");
    assert_eq!(d.party_of(ANN), [ANN]);
}

/// The hall of `play_out` with its monsters, keeping its log, before anyone came.
fn hall_with_monsters(seed: u64, rules: HostRules) -> DepthState {
    hall_seen_within(8, seed, rules)
}

/// [`hall_with_monsters`] with another sight radius.
fn hall_seen_within(radius: u8, seed: u64, rules: HostRules) -> DepthState {
    let mut d = DepthState::with_bestiary(
        3,
        level_from(HALL),
        radius,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(seed),
    );
    d.set_rules(rules);
    d.keep_log();
    for (name, at) in
        [("jackal", Pos::new(12, 1)), ("orc", Pos::new(18, 5)), ("fruit bat", Pos::new(15, 4))]
    {
        awake(&mut d, name, at);
    }
    d.spawn(kind(&d, "kobold"), Pos::new(8, 5));
    d.mark_full();
    let items = crate::items::Catalogue::built_in();
    for (name, count, at) in
        [("potion of healing", 1, (4, 2)), ("dart", 7, (5, 2)), ("dagger", 1, (5, 2))]
    {
        let kind = items.find(name).expect("a built-in item");
        d.lay(Pos::new(at.0, at.1), crate::items::Item { kind, count });
    }
    d
}

/// What a player of `play_commands` arrives with: something of every
/// class to use, the dagger wielded.
fn kit() -> crate::items::Pack {
    let items = crate::items::Catalogue::built_in();
    let kit = [
        ("dagger", 1),
        ("dart", 6),
        ("potion of healing", 2),
        ("scroll of teleportation", 1),
        ("scroll of slumber", 1),
        ("scroll of magic mapping", 1),
        ("leather armour", 1),
        ("potion of vigour", 1),
    ];
    let kit =
        kit.map(|(name, count)| crate::items::Item { kind: items.find(name).unwrap(), count });
    crate::items::Pack::with_gear(kit.to_vec(), Some(0), None)
}

/// Player `id` as `play_commands` brings it in, with its kit.
fn newcomer(id: PlayerId) -> Player {
    let mut player = Player::new(id, format!("p{}", id.0));
    player.pack = kit();
    player
}

/// The action with an item of code `what` (13 to 20) by `who`.
fn item_action(who: u8, what: u8) -> Action {
    let slot = who % 9;
    match what {
        13 => Action::PickUp,
        14 => Action::Drop(who % 3),
        15 => Action::Quaff(slot),
        16 => Action::Read(slot),
        17 => Action::Wield(slot),
        18 => Action::Wear(slot),
        19 => Action::TakeOff(slot),
        _ => {
            let at = Pos::new(1 + u16::from(who) % 20, 1 + u16::from(who / 20) % 5);
            Action::Throw { slot: who % 2, at }
        }
    }
}

/// [`hall_with_monsters`] after it lost four monsters in the far end of
/// the hall (out of the log: taken off as it was built), so that a restock
/// has some to bring back.
pub(super) fn hall_that_lost_monsters(seed: u64, rules: HostRules) -> DepthState {
    let mut d = hall_with_monsters(seed, rules);
    let kobold = kind(&d, "kobold");
    let lost: Vec<MonsterId> = (1..5).filter_map(|y| d.spawn(kobold, Pos::new(17, y))).collect();
    d.mark_full();
    for id in lost {
        d.rules.monsters.remove(id).unwrap();
    }
    d
}

/// Plays `commands` (who, and what: arrive, leave, a step, a wait, a
/// deadline, picking up, dropping and using items, and on an empty depth
/// a restock) with up to `cast` players.
pub(super) fn play_commands(d: &mut DepthState, commands: &[(u8, u8)], cast: u8) {
    for &(who, what) in commands {
        let id = PlayerId(u32::from(who % cast) + 1);
        match what {
            0 if !d.contains(id) => {
                let at = Pos::new(2 + u16::from(who % cast), 2);
                d.come(newcomer(id), Arrival::Resume(at));
            }
            1 => {
                d.go(id, Leaving::Quit);
            }
            2..=9 => {
                d.play(id, Action::Move(Dir::ALL[usize::from(what - 2)]));
            }
            10 => {
                d.play(id, Action::Wait);
            }
            13..=20 => {
                d.play(id, item_action(who, what));
            }
            21 if d.player_count() == 0 => {
                d.restock(u32::from(who % 4));
            }
            _ => {
                d.time_out(id);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A depth rebuilt from its seed and its log is the live depth: the
    /// same checksum, the same log; also when it regained monsters.
    #[test]
    fn a_depth_replayed_from_its_log_is_the_live_depth(
        commands in proptest::collection::vec((any::<u8>(), 0u8..23), 0..200),
        pvp in any::<bool>(),
    ) {
        let rules = HostRules { pvp };
        let mut live = hall_that_lost_monsters(7, rules);
        play_commands(&mut live, &commands, 3);
        let mut again = hall_that_lost_monsters(7, rules);
        again.replay(live.log()).unwrap();
        prop_assert_eq!(again.checksum(), live.checksum());
        // The same commands (the marks of what the views did are the
        // live depth's alone: a replay tells nobody).
        prop_assert_eq!(again.log(), commands_of(live.log()));
    }
}

#[test]
fn the_checksum_tells_another_history_apart() {
    let script: Vec<(u8, u8)> =
        (0..120u8).map(|i| (i, [0, 10, 3, 10, 5, 12, 10][usize::from(i % 7)])).collect();
    let mut live = hall_with_monsters(7, HostRules::default());
    play_commands(&mut live, &script, 3);
    assert!(live.rounds() > 20 && !live.log().is_empty());
    // Another seed: other dice.
    let mut other = hall_with_monsters(8, HostRules::default());
    let differs = match other.replay(live.log()) {
        Ok(()) => other.checksum() != live.checksum(),
        Err(_) => true,
    };
    assert!(differs, "another seed's dice give another depth");
    // The same log short of its last command.
    let mut short = hall_with_monsters(7, HostRules::default());
    short.replay(&live.log()[..live.log().len() - 1]).unwrap();
    assert_ne!(short.checksum(), live.checksum());
}

#[test]
fn a_badly_hurt_cutpurse_runs_and_a_wolf_keeps_off_healthy_prey() {
    let chebyshev = |a: Pos, b: Pos| a.x.abs_diff(b.x).max(a.y.abs_diff(b.y));
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(8, 2));
    let thief = awake(&mut d, "cutpurse", Pos::new(9, 2));
    d.rules.monsters.get_mut(&thief).unwrap().hp = 1;
    d.play(ANN, Action::Wait);
    assert!(chebyshev(d.rules.monsters[&thief].pos, Pos::new(8, 2)) >= 2, "it ran");

    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(8, 2));
    let wolf = awake(&mut d, "wolf", Pos::new(10, 2));
    for _ in 0..4 {
        d.play(ANN, Action::Wait);
        let off = chebyshev(d.rules.monsters[&wolf].pos, Pos::new(8, 2));
        assert!((3..=5).contains(&off), "it circles {off} cells off");
    }
    // Badly hurt, ann is prey: the wolf closes in.
    d.rules.occupancy.get_mut(ANN).unwrap().vitals.hp = 5;
    d.play(ANN, Action::Wait);
    d.play(ANN, Action::Wait);
    assert_eq!(chebyshev(d.rules.monsters[&wolf].pos, Pos::new(8, 2)), 1, "it closed in");
}

/// Two rooms with a wall between: ann arrives in the west one, and whatever
/// is in the east one is out of her sight.
fn walled_room() -> DepthState {
    let rooms = ["############", "#<...#.....#", "#....#.....#", "#....#....>#", "############"];
    DepthState::with_bestiary(
        2,
        level_from(&rooms),
        8,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(1),
    )
}

/// A sleeper in sight wakes by chance, one round in [`monsters::WAKE_ONE_IN`]
/// on average (so within a few rounds), says so to those who see it, and
/// then comes; one that nobody sees sleeps on however long it lasts.
#[test]
fn a_sleeper_in_sight_wakes_by_chance_and_one_out_of_sight_sleeps_on() {
    let mut d = walled_room();
    let unseen = d.spawn(kind(&d, "kobold"), Pos::new(8, 2)).unwrap();
    let seen = d.spawn(kind(&d, "kobold"), Pos::new(4, 3)).unwrap();
    assert!(
        !d.rules.monsters[&seen].is_awake() && !d.rules.monsters[&unseen].is_awake(),
        "kobolds sleep"
    );
    put(&mut d, ANN, "ann", Pos::new(1, 1));
    let mut woke_after = None;
    for round in 1..=40 {
        let outcome = d.play(ANN, Action::Wait);
        if woke_after.is_none() && d.rules.monsters[&seen].is_awake() {
            assert!(said(&outcome, ANN, "The kobold wakes up."), "told as it wakes");
            woke_after = Some(round);
        }
    }
    woke_after.expect("a kobold in sight for 40 rounds wakes");
    assert!(
        !d.rules.monsters[&unseen].is_awake(),
        "behind the wall, nobody to notice: it sleeps on"
    );
    assert_ne!(d.rules.monsters[&seen].pos, Pos::new(4, 3), "awake, it came");
}

/// A wanderer that sees nobody roams (a hunter that sees nobody stays put).
#[test]
fn a_wanderer_nobody_sees_roams_and_a_hunter_waits() {
    let mut d = walled_room();
    let bat = awake(&mut d, "fruit bat", Pos::new(8, 2));
    let jackal = awake(&mut d, "jackal", Pos::new(7, 1));
    let (bat_was, jackal_was) = (d.rules.monsters[&bat].pos, d.rules.monsters[&jackal].pos);
    put(&mut d, ANN, "ann", Pos::new(1, 1));
    let mut bat_moves = 0;
    let mut at = bat_was;
    for _ in 0..20 {
        d.play(ANN, Action::Wait);
        if d.rules.monsters[&bat].pos != at {
            bat_moves += 1;
            at = d.rules.monsters[&bat].pos;
        }
    }
    assert!(bat_moves >= 3, "the bat flits about: {bat_moves} moves in 20 rounds");
    assert_eq!(d.rules.monsters[&jackal].pos, jackal_was, "the jackal has nobody to hunt");
}

/// What one client was told of the others and the monsters, and who else
/// is on its depth, kept from its messages as a client keeps it.
#[derive(Debug, Default, Clone, PartialEq)]
struct Mirror {
    at: Option<Pos>,
    players: BTreeMap<PlayerId, Pos>,
    monsters: BTreeMap<MonsterId, Pos>,
    roster: BTreeSet<String>,
}

impl Mirror {
    /// Applies `msg` as a client does, refusing (as a client does) a change
    /// to a player or monster it does not hold, or an appearance of one it
    /// does.
    fn apply(&mut self, msg: &ServerMsg) -> Result<(), String> {
        let (players, monsters) = match msg {
            ServerMsg::Sight(d) | ServerMsg::Displaced(d) => {
                self.at = Some(d.at);
                (&d.players[..], &d.monsters[..])
            }
            ServerMsg::Players(p) => (&p[..], &[][..]),
            ServerMsg::Monsters(m) => (&[][..], &m[..]),
            ServerMsg::EnterLevel { .. } => {
                *self = Mirror::default();
                return Ok(());
            }
            _ => return self.apply_roster(msg),
        };
        let refused = |what: &dyn std::fmt::Debug| Err(format!("a client refuses {what:?}"));
        for change in players {
            let known = |id| self.players.contains_key(id);
            match change {
                PlayerChange::Appeared { id, .. } if known(id) => return refused(change),
                PlayerChange::Moved { id, .. } | PlayerChange::Vanished { id } if !known(id) => {
                    return refused(change);
                }
                PlayerChange::Appeared { id, at, .. } | PlayerChange::Moved { id, at } => {
                    self.players.insert(*id, *at);
                }
                PlayerChange::Vanished { id } => {
                    self.players.remove(id);
                }
            }
        }
        self.apply_monsters(monsters)
    }

    /// Who else is on the depth. Told in order, an arrival is never one
    /// it holds already, nor a going one it does not.
    fn apply_roster(&mut self, msg: &ServerMsg) -> Result<(), String> {
        match msg {
            ServerMsg::Roster(names) => self.roster = names.iter().cloned().collect(),
            ServerMsg::Joined(names) => {
                for name in names {
                    if !self.roster.insert(name.clone()) {
                        return Err(format!("told {name} arrived, who is in its roster"));
                    }
                }
            }
            ServerMsg::Left(names) => {
                for name in names {
                    if !self.roster.remove(name) {
                        return Err(format!("told {name} went, who is not in its roster"));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn apply_monsters(&mut self, monsters: &[MonsterChange]) -> Result<(), String> {
        let refused = |what: &dyn std::fmt::Debug| Err(format!("a client refuses {what:?}"));
        for change in monsters {
            let known = |id| self.monsters.contains_key(id);
            match change {
                MonsterChange::Appeared { id, .. } if known(id) => return refused(change),
                MonsterChange::Moved { id, .. }
                | MonsterChange::Hurt { id, .. }
                | MonsterChange::Slept { id, .. }
                | MonsterChange::Vanished { id }
                    if !known(id) =>
                {
                    return refused(change);
                }
                MonsterChange::Appeared { id, at, .. } | MonsterChange::Moved { id, at } => {
                    self.monsters.insert(*id, *at);
                }
                MonsterChange::Hurt { .. } | MonsterChange::Slept { .. } => {}
                MonsterChange::Vanished { id } => {
                    self.monsters.remove(id);
                }
            }
        }
        Ok(())
    }

    /// Two things shown on one cell (a monster and a player, two players,
    /// or either on the player itself): the client mixes two moments.
    fn crowded(&self) -> Option<Pos> {
        let mut cells: Vec<Pos> =
            self.players.values().chain(self.monsters.values()).chain(&self.at).copied().collect();
        cells.sort_by_key(|p| (p.x, p.y));
        cells.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
    }
}

/// What `viewer` truly sees of the others and the monsters.
fn truly_seen(d: &DepthState, viewer: PlayerId) -> Mirror {
    let p = &d.rules.occupancy.players()[&viewer];
    let memory = p.memory(d.rules.depth).unwrap();
    Mirror {
        at: Some(p.pos),
        players: d
            .rules
            .players()
            .values()
            .filter(|o| o.id != viewer && memory.sees(o.pos))
            .map(|o| (o.id, o.pos))
            .collect(),
        monsters: d
            .rules
            .monsters
            .values()
            .filter(|m| m.shown_to(p.pos, memory))
            .map(|m| (m.id, m.pos))
            .collect(),
        roster: d
            .rules
            .occupancy
            .players()
            .values()
            .filter(|o| o.id != viewer)
            .map(|o| o.name.clone())
            .collect(),
    }
}

/// Applies `out` to each client's mirror, failing when one shows two
/// things on one cell; also when one that `exact` picks shows anything but
/// what its player sees.
fn check_mirrors(
    d: &DepthState,
    out: &[Outgoing],
    mirrors: &mut BTreeMap<PlayerId, Mirror>,
    exact: impl Fn(PlayerId) -> bool,
) -> Result<(), String> {
    for o in out {
        let mirror = mirrors.entry(o.to).or_default();
        mirror.apply(&o.msg).map_err(|e| format!("{:?}: {e}", o.to))?;
        if let Some(cell) = mirror.crowded() {
            return Err(format!("{:?} shows two things on {cell:?}: {mirror:?}", o.to));
        }
    }
    mirrors.retain(|id, _| d.contains(*id));
    for (&id, mirror) in mirrors.iter().filter(|(id, _)| exact(**id)) {
        if *mirror != truly_seen(d, id) {
            return Err(format!("{id:?} shows {mirror:?}, sees {:?}", truly_seen(d, id)));
        }
    }
    Ok(())
}

/// A player told everyone around it with its answer is passed by once by
/// its shift of the still: it would hear nothing it will not hear with its
/// next answer. If it acts no more, its shift's next turn tells it everyone
/// around it anew, though nobody moved since and every shift has heard the
/// move (so the shift's list of movers no longer holds it).
#[test]
fn a_shift_passes_by_once_a_player_told_everyone_with_its_answer() {
    let mut d = hall();
    put(&mut d, ANN, "ann", Pos::new(3, 2));
    put(&mut d, BOB, "bob", Pos::new(6, 2));
    d.tell_all();
    let answer = d.act_all(vec![(ANN, Action::Wait)]);
    assert!(!to(&answer, ANN).is_empty(), "ann is answered");
    let _ = d.act_all(vec![(BOB, Action::Move(Dir::E))]);
    let mut heard = Vec::new();
    for shift in 0..SHIFTS {
        heard.extend(d.tell_shift(shift));
    }
    assert!(heard.iter().all(|o| o.to != ANN), "her shift passed her by: {heard:?}");
    assert!(d.passed_by(ANN));
    assert!(d.has_untold(), "her shift has her to tell");
    let again = d.tell_shift(shift_of(ANN));
    let stepped = PlayerChange::Moved { id: BOB, at: Pos::new(7, 2) };
    let told = again.iter().any(|o| {
        o.to == ANN && matches!(&o.msg, ServerMsg::Players(changes) if changes.contains(&stepped))
    });
    assert!(told, "its next turn tells her of Bob's step: {again:?}");
    assert!(!d.passed_by(ANN));
    assert!(d.tell_shift(shift_of(ANN)).is_empty(), "and then nothing more");
}

/// How a batch in [`play_batched`] is told to those who stood still.
#[derive(Debug, Clone, Copy)]
enum Telling {
    /// Not yet, nor the comings and goings after it.
    Untold,
    /// Everyone, at its end.
    All,
    /// The players of one shift, at its end (comings and goings after it
    /// untold).
    Shift(usize),
}

impl Telling {
    fn of(code: u8) -> Self {
        match code {
            0 => Telling::Untold,
            1 => Telling::All,
            c => Telling::Shift(usize::from(c - 2) % SHIFTS),
        }
    }

    /// Applies `acts` as one batch on `d`, told so; gives what was sent.
    fn apply(self, d: &mut DepthState, acts: Vec<(PlayerId, Action)>) -> Vec<Outgoing> {
        match self {
            Telling::All => {
                let mut outcome = d.act_all(acts);
                d.tell_the_still(&mut outcome, None);
                outcome.out
            }
            Telling::Untold => d.act_all(acts).out,
            Telling::Shift(s) => {
                let mut out = d.act_all(acts).out;
                out.extend(d.tell_shift(s));
                out
            }
        }
    }

    /// Whether `id`'s client was told all there is after such a batch.
    fn told(self, id: PlayerId) -> bool {
        match self {
            Telling::All => true,
            Telling::Untold => false,
            Telling::Shift(s) => shift_of(id) == s,
        }
    }
}

/// Plays `commands` as [`play_commands`] does, but applies the actions in
/// batches of the sizes `sizes` gives in turn (other commands end a
/// batch), each told to those who stood still, to one shift of them, or
/// left untold (the code, see [`Telling::of`]; all but "everyone" leave
/// the comings and goings after the batch untold too), keeping each
/// client's mirror: after every message no client shows a monster on a
/// player nor hears of a coming or going out of order, and after every
/// told batch each it was told to shows exactly what its player sees and
/// who is on its depth.
fn play_batched(
    d: &mut DepthState,
    commands: &[(u8, u8)],
    sizes: &[(usize, u8)],
    cast: u8,
) -> Result<(), String> {
    let mut mirrors: BTreeMap<PlayerId, Mirror> = BTreeMap::new();
    let mut sizes = sizes.iter().map(|&(n, code)| (n, Telling::of(code))).cycle();
    let mut batch: Vec<(PlayerId, Action)> = Vec::new();
    let (mut want, mut tell) = sizes.next().unwrap_or((1, Telling::All));
    for (i, &(who, what)) in commands.iter().enumerate() {
        let id = PlayerId(u32::from(who % cast) + 1);
        match what {
            2..=9 => batch.push((id, Action::Move(Dir::ALL[usize::from(what - 2)]))),
            10 => batch.push((id, Action::Wait)),
            13..=20 => batch.push((id, item_action(who, what))),
            _ => {}
        }
        let last = i + 1 == commands.len();
        let is_act = (2..=10).contains(&what) || (13..=20).contains(&what);
        if !batch.is_empty() && (batch.len() >= want || !is_act || last) {
            let out = tell.apply(d, std::mem::take(&mut batch));
            // A shift passes by those told everyone around them since it
            // last came, if something they could see moved since: they
            // are told anew at its next turn, and checked then.
            check_mirrors(d, &out, &mut mirrors, |id| tell.told(id) && !d.passed_by(id))?;
            (want, tell) = sizes.next().unwrap_or((1, Telling::All));
        }
        if !is_act {
            let told = matches!(tell, Telling::All);
            let out = match what {
                0 if !d.contains(id) => {
                    let at = Pos::new(2 + u16::from(who % cast), 2);
                    let player = newcomer(id);
                    if told {
                        d.come(player, Arrival::Resume(at))
                    } else {
                        d.arrive(player, Arrival::Resume(at)).out
                    }
                }
                1 if told => d.go(id, Leaving::Quit).1.out,
                1 => d.leave(id, Leaving::Quit).1.out,
                _ => d.time_out(id).out,
            };
            check_mirrors(d, &out, &mut mirrors, |_| told || what > 1)?;
        }
    }
    let out = d.tell_all();
    check_mirrors(d, &out, &mut mirrors, |_| true)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Actions applied in batches make the same depth as one at a time,
    /// and every client shows one moment's truth after every message and
    /// exactly its player's sight after every batch; also in a crowd
    /// (more than twice as many players as cells in a sight, so those who
    /// may see a mover, and those a player may see, are found by cells).
    #[test]
    fn batches_change_nothing_but_how_often_watchers_are_told(
        commands in proptest::collection::vec((any::<u8>(), 0u8..21), 0..200),
        sizes in proptest::collection::vec((1usize..8, 0u8..7), 1..6),
        pvp in any::<bool>(),
        crowd in any::<bool>(),
    ) {
        let rules = HostRules { pvp };
        let (radius, cast) = if crowd { (1, 24) } else { (8, 3) };
        let mut batched = hall_seen_within(radius, 7, rules);
        if crowd {
            prop_assert!(usize::from(cast) > 2 * batched.rules.disc.len());
        }
        let checked = play_batched(&mut batched, &commands, &sizes, cast);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
        let mut alone = hall_seen_within(radius, 7, rules);
        play_commands(&mut alone, &commands, cast);
        prop_assert_eq!(batched.checksum(), alone.checksum());
        // The same commands; the views' marks differ as their telling does.
        prop_assert_eq!(commands_of(batched.log()), commands_of(alone.log()));
    }
}

/// Stepping into the level's vault from outside says so, once: not on
/// each step within it, and again only after leaving it.
#[test]
fn a_player_stepping_into_a_vault_is_told_its_name() {
    let mut level = (*level_from(HALL)).clone();
    level.vault = Some(crate::mapgen::PlacedVault {
        name: "the test vault".into(),
        corner: Pos::new(5, 1),
        width: 3,
        height: 3,
        contents: Vec::new(),
    });
    let mut d = DepthState::with_bestiary(
        3,
        Arc::new(level),
        8,
        Arc::new(Bestiary::default()),
        DepthSeeds::from_level_seed(7),
    );
    put(&mut d, ANN, "ann", Pos::new(3, 2));
    let told = |outcome: &Outcome| said(outcome, ANN, "You enter the test vault.");
    assert!(!told(&d.play(ANN, Action::Move(Dir::E))), "not yet in");
    assert!(told(&d.play(ANN, Action::Move(Dir::E))), "in");
    for _ in 0..2 {
        assert!(!told(&d.play(ANN, Action::Move(Dir::E))), "within");
    }
    assert!(!told(&d.play(ANN, Action::Move(Dir::E))), "out again");
    assert!(told(&d.play(ANN, Action::Move(Dir::W))), "in again");
}
