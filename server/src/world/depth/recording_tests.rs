//! Recordings against what was told live: a depth played as its task plays
//! it (batches of actions, standing orders, deadlines, those who stood
//! still told by shifts, lines for everyone, players lost and coming back
//! with what they remember), and each player's recording made from its log
//! alone is every message that player was sent, in order.

use super::views::still::{OLD_SHIFTS, SHIFTS};
use std::collections::{BTreeMap, HashMap};

use gloam_protocol::{Action, Dir, PlayerId, Pos, ServerMsg};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg as SmallRng;

use super::{Arrival, DepthState, Entry, Leaving, Outcome};
use crate::character::Player;
use crate::config::{Config, Placement};
use crate::world::fresh_depth;

const NAMES: [&str; 3] = ["ann", "bob", "cy"];
const SEED: u64 = 9;

/// A depth played live, with every message each player was sent.
struct Live {
    state: DepthState,
    sent: HashMap<PlayerId, Vec<ServerMsg>>,
    /// Players off the depth (left, or not come yet), as they left.
    away: BTreeMap<PlayerId, Player>,
    log: Vec<Entry>,
}

/// The seed's world, with a rat, a kobold and a cutpurse placed a few
/// steps from depth 1's arrival, so that the players share dangers (and
/// wait for each other, and meet deadlines) from the start.
fn config() -> Config {
    let plain = Config::with_seed(SEED);
    let built = fresh_depth(&plain, 1);
    let (level, arrival) = (built.level(), built.level().arrival);
    let near = (0..level.height())
        .flat_map(|y| (0..level.width()).map(move |x| Pos::new(x, y)))
        .filter(|&p| level.terrain(p).is_open() && p != arrival)
        .filter(|&p| (2..=4).contains(&p.x.abs_diff(arrival.x).max(p.y.abs_diff(arrival.y))));
    let placements = ["rat", "kobold", "cutpurse"]
        .iter()
        .zip(near.step_by(3))
        .map(|(kind, pos)| Placement { kind: (*kind).into(), depth: 1, pos })
        .collect();
    Config { placements, ..plain }
}

impl Live {
    fn new() -> Self {
        let mut state = fresh_depth(&config(), 1);
        state.take_log();
        let away = NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let id = PlayerId(i as u32 + 1);
                (id, Player::new(id, (*name).into()))
            })
            .collect();
        Self { state, sent: HashMap::new(), away, log: Vec::new() }
    }

    /// Takes in what a command told, as the task delivers it.
    fn told(&mut self, outcome: Outcome) {
        for o in outcome.out {
            self.sent.entry(o.to).or_default().push(o.msg);
        }
        for death in outcome.flow.deaths {
            // A new life of the same name comes later.
            let id = death.player.id;
            self.away.insert(id, Player::new(id, death.player.name));
        }
        for departure in outcome.flow.departures {
            self.away.insert(departure.player.id, departure.player);
        }
    }

    /// One step of play, as the depth's task might take it.
    fn step(&mut self, rng: &mut SmallRng) {
        let here: Vec<PlayerId> = self.state.rules.players().keys().copied().collect();
        match rng.random_range(0..20) {
            0..=9 if !here.is_empty() => {
                let batch = rng.random_range(1..=3);
                let acts: Vec<(PlayerId, Action)> = (0..batch)
                    .map(|_| (here[rng.random_range(0..here.len())], action(rng)))
                    .collect();
                let outcome = self.state.act_all(acts);
                self.told(outcome);
                if rng.random_bool(0.5) {
                    self.tell_shift(rng.random_range(0..SHIFTS + OLD_SHIFTS));
                }
            }
            10..=12 => {
                if let Some(&id) = self.state.waiting().first() {
                    let mut outcome = self.state.deadline(id);
                    self.state.tell_the_still(&mut outcome, None);
                    self.told(outcome);
                }
            }
            13 => self.tell_shift(rng.random_range(0..SHIFTS + OLD_SHIFTS)),
            14 => {
                let out = self.state.tell_everyone("The server can save again.");
                self.told(Outcome { out, ..Outcome::default() });
            }
            15..=16 if !here.is_empty() => {
                let id = here[rng.random_range(0..here.len())];
                let how = if rng.random_bool(0.5) { Leaving::Quit } else { Leaving::Lost };
                let (player, outcome) = self.state.leave(id, how);
                self.told(outcome);
                if let Some(player) = player {
                    self.away.insert(id, player);
                }
            }
            _ => {
                if let Some((&id, _)) = self.away.iter().next() {
                    let player = self.away.remove(&id).expect("away");
                    let via = if player.vitals.rounds > 0 {
                        Arrival::Resume(player.pos)
                    } else {
                        Arrival::Join
                    };
                    let outcome = self.state.arrive(player, via);
                    self.told(outcome);
                }
            }
        }
        if let Some(part) = self.state.take_log() {
            self.log.extend(part.entries);
        }
    }

    /// Tells a shift of today's, or below [`OLD_SHIFTS`] one of a history
    /// logged before there were [`SHIFTS`] (five of today's each).
    fn tell_shift(&mut self, shift: usize) {
        let mut told = Outcome::default();
        let shift = match shift.checked_sub(OLD_SHIFTS) {
            Some(today) => super::Shift::of_today(today),
            None => super::Shift::named(shift, OLD_SHIFTS).expect("an old shift"),
        };
        self.state.tell_the_still(&mut told, Some(shift));
        self.told(told);
    }

    /// Every message the player called `name` was sent, whatever its id.
    fn sent_to(&self, name: &str) -> Vec<ServerMsg> {
        let i = NAMES.iter().position(|n| *n == name).expect("a name played");
        self.sent.get(&PlayerId(i as u32 + 1)).cloned().unwrap_or_default()
    }
}

fn action(rng: &mut SmallRng) -> Action {
    match rng.random_range(0..12) {
        0..=7 => Action::Move(Dir::ALL[rng.random_range(0..Dir::ALL.len())]),
        8 => Action::Wait,
        9 => Action::Explore,
        10 => Action::PickUp,
        _ => Action::Rest,
    }
}

fn played(seed: u64, steps: usize) -> Live {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut live = Live::new();
    for _ in 0..steps {
        live.step(&mut rng);
    }
    live
}

impl Live {
    /// The server restarts: the depth is built again and takes up its
    /// history, and those who stood on it come back later as they were.
    fn restart(&mut self) {
        // Each as it stood (taken off the old depth, which is let go).
        let ids: Vec<PlayerId> = self.state.rules.players().keys().copied().collect();
        let stranded: Vec<Player> = ids
            .into_iter()
            .filter_map(|id| self.state.rules.leave(id, Leaving::Quit, &mut super::Nobody).0)
            .collect();
        let mut state = fresh_depth(&config(), 1);
        state.resume(0, &self.log).expect("the history replays");
        self.state = state;
        self.away.extend(stranded.into_iter().map(|p| (p.id, p)));
        if let Some(part) = self.state.take_log() {
            self.log.extend(part.entries);
        }
    }
}

fn recording(log: &[Entry], name: &str) -> Vec<ServerMsg> {
    let mut replay = fresh_depth(&config(), 1);
    let made = replay.record(log, name, 0..=u64::MAX).expect("the log replays");
    made.into_iter().map(|r| r.msg).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_recording_is_every_message_its_player_was_sent(seed in any::<u64>()) {
        let live = played(seed, 300);
        for name in NAMES {
            let want = live.sent_to(name);
            let got = recording(&live.log, name);
            prop_assert_eq!(got.len(), want.len(), "{} messages to {}", want.len(), name);
            prop_assert!(got == want, "{name}'s recording differs from what it was sent");
        }
    }
}

#[test]
fn a_recording_goes_on_across_a_restart() {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut live = Live::new();
    for _ in 0..150 {
        live.step(&mut rng);
    }
    assert!(!live.state.rules.players().is_empty(), "someone is stranded by the restart");
    live.restart();
    for _ in 0..150 {
        live.step(&mut rng);
    }
    assert!(live.log.iter().any(|e| e.what == super::Command::Resumed));
    for name in NAMES {
        assert!(recording(&live.log, name) == live.sent_to(name), "{name}'s recording");
    }
}

#[test]
fn the_history_holds_what_the_views_did_and_the_rules_pass_it_over() {
    let live = played(7, 300);
    let marks = |f: fn(&super::Command) -> bool| live.log.iter().filter(|e| f(&e.what)).count();
    assert!(marks(|c| matches!(c, super::Command::Told { joined: false, .. })) > 0);
    assert!(marks(|c| matches!(c, super::Command::Told { joined: true, .. })) > 0);
    assert!(marks(|c| matches!(c, super::Command::Deadline { .. })) > 0);
    assert!(marks(|c| matches!(c, super::Command::Ordered { .. })) > 0);
    assert!(marks(|c| matches!(c, super::Command::Announced { .. })) > 0);
    assert!(marks(|c| matches!(c, super::Command::Lost { .. })) > 0);
    assert!(marks(|c| matches!(c, super::Command::Remembered { memory: Some(_) })) > 0);
    let mut replayed = fresh_depth(&config(), 1);
    replayed.replay(&live.log).expect("the rules replay it");
    assert_eq!(replayed.checksum(), live.state.checksum());
}

#[test]
fn a_later_start_begins_with_the_whole_view_then_goes_on_as_sent() {
    let live = played(11, 300);
    let mid = live.log[live.log.len() / 2].round;
    let mut replay = fresh_depth(&config(), 1);
    let whole = recording(&live.log, "ann");
    let late = replay.record(&live.log, "ann", mid..=u64::MAX).expect("replays");
    assert!(late.iter().all(|r| r.round >= mid));
    // Its tail is the whole recording's tail.
    let tail: Vec<&ServerMsg> = late.iter().map(|r| &r.msg).rev().take(20).collect();
    let whole_tail: Vec<&ServerMsg> = whole.iter().rev().take(20).collect();
    assert_eq!(tail, whole_tail);
}

#[test]
fn a_history_of_another_depth_is_refused_where_it_parts() {
    let live = played(3, 200);
    let mut other = fresh_depth(&Config::with_seed(SEED + 1), 1);
    assert!(other.record(&live.log, "ann", 0..=u64::MAX).is_err());
}

/// A depth played live, with a snapshot of it (views and all) taken as
/// its task saves, every `every` steps: its entries so far, and the bytes.
fn played_with_snapshots(
    seed: u64,
    steps: usize,
    every: usize,
) -> (Live, Vec<(usize, Vec<u8>, u64)>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut live = Live::new();
    let mut snapshots = Vec::new();
    for step in 1..=steps {
        live.step(&mut rng);
        if step % every == 0 {
            snapshots.push((live.log.len(), live.state.snapshot(), live.state.checksum()));
        }
    }
    (live, snapshots)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_recording_from_a_snapshot_is_the_recording_from_the_start(seed in any::<u64>()) {
        let (live, snapshots) = played_with_snapshots(seed, 300, 60);
        for (after, bytes, checksum) in snapshots {
            let Some(next) = live.log.get(after) else { continue };
            let from = next.round + 1;
            for name in NAMES {
                let mut whole = fresh_depth(&config(), 1);
                let want = whole.record(&live.log, name, from..=u64::MAX).expect("replays");
                let mut restored = fresh_depth(&config(), 1);
                restored.restore_watched(&bytes, checksum).expect("the snapshot restores");
                let got = restored
                    .record_restored(&live.log[after..], name, from..=u64::MAX)
                    .expect("replays from the snapshot");
                prop_assert_eq!(got.len(), want.len(), "{}'s messages from round {}", name, from);
                if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
                    prop_assert!(false, "{name}'s recording from round {from} differs at {i}: {:?}\n vs {:?}", got[i], want[i]);
                }
            }
        }
    }
}

#[test]
fn a_recording_wants_a_snapshot_before_its_first_round() {
    let (live, snapshots) = played_with_snapshots(4, 120, 60);
    let (after, bytes, checksum) = &snapshots[0];
    let mut restored = fresh_depth(&config(), 1);
    restored.restore_watched(bytes, *checksum).expect("restores");
    let then = restored.rounds();
    let late = restored.record_restored(&live.log[*after..], "ann", then..=u64::MAX);
    assert!(late.is_err(), "a snapshot of the first round itself is not before it");
}
