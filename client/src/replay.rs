//! Playing a recording back, apart from any window or clock: the
//! recording's messages grouped by the round they were sent in, how many
//! groups are applied, the speed, whether it plays, and what its keys do.
//! The time comes in as a parameter ([`Replay::tick`] and
//! [`Replay::press`] take `now`), so the core is tested without waiting;
//! what to apply is given as a range of groups, which the session applies
//! to a mirror of its own (`session/player.rs`).
//!
//! Rounds with no message are not waited for: playback steps one group at
//! a time, the first at once, then one every [`INTERVAL_AT_X1`] at x1.

use std::ops::Range;
use std::time::{Duration, Instant};

use gloam_protocol::{PlayerId, ServerMsg};

use crate::input::Key;

/// How long a group is shown at x1 before the next.
pub const INTERVAL_AT_X1: Duration = Duration::from_millis(250);

/// The speeds, slowest first, in quarters of x1: x1/4 to x16.
const QUARTERS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Where x1 is in [`QUARTERS`].
const X1: usize = 2;

/// The most groups one tick applies when the clock fell behind (a window
/// held still): the rest of the debt is forgiven, not rushed through.
const MOST_A_TICK: usize = 8;

/// The messages of one round.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub round: u64,
    pub msgs: Vec<ServerMsg>,
}

/// A recording as it came: its head and its messages, grouped by round.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub player: String,
    /// The player's id in the messages.
    pub you: PlayerId,
    pub depth: u16,
    pub from: u64,
    pub to: u64,
    pub groups: Vec<Group>,
    /// It stopped early, at the server's limit of bytes.
    pub cut: bool,
}

impl Recording {
    /// A recording with its head and no message yet.
    pub fn new(player: String, you: PlayerId, depth: u16, from: u64, to: u64) -> Self {
        Self { player, you, depth, from, to, groups: Vec::new(), cut: false }
    }

    /// Adds the message sent in `round`: to the last group when it is of
    /// the same round, else as a new group.
    pub fn push(&mut self, round: u64, msg: ServerMsg) {
        match self.groups.last_mut() {
            Some(group) if group.round == round => group.msgs.push(msg),
            _ => self.groups.push(Group { round, msgs: vec![msg] }),
        }
    }

    /// The size of the first level the recording enters (the map its
    /// welcome would have given), if it enters one.
    pub fn map_size(&self) -> Option<(u16, u16)> {
        self.groups.iter().flat_map(|g| &g.msgs).find_map(|msg| match msg {
            ServerMsg::EnterLevel { width, height, .. } => Some((*width, *height)),
            _ => None,
        })
    }
}

/// What the player page's keys ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Space: pause, or play on; at the end, play again from the start.
    Pause,
    /// `+`, `=`, `>`: the next speed up.
    Faster,
    /// `-`, `<`: the next speed down.
    Slower,
    /// `.`: one group, then pause.
    Step,
    /// Esc: back to the end page.
    Leave,
}

/// The meaning of a key on the player page, with whether Shift is held (a
/// keyboard that reports the unshifted key gives `>` as Shift+`.`, `<` as
/// Shift+`,` and `+` as Shift+`=`).
pub fn control(key: Key, shift: bool) -> Option<Control> {
    match (key, shift) {
        (Key::Escape, _) => Some(Control::Leave),
        (Key::Char(' '), _) => Some(Control::Pause),
        (Key::Char('+' | '=' | '>'), _) | (Key::Char('.'), true) => Some(Control::Faster),
        (Key::Char('-' | '<'), _) | (Key::Char(','), true) => Some(Control::Slower),
        (Key::Char('.'), false) => Some(Control::Step),
        _ => None,
    }
}

/// Whether the recording plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    /// Playing: the next group is due at this instant (none: at once).
    Playing(Option<Instant>),
    Paused,
    /// The last group is applied.
    Ended,
}

/// What a tick asks of its caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// The groups to apply now, in order (empty: none).
    pub apply: Range<usize>,
    /// Call again within this long (none: nothing is due until a key).
    pub next: Option<Duration>,
}

/// A recording being played back: where it stands, how fast, and whether
/// it plays.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    recording: Recording,
    /// How many groups are applied: the next to apply is this one.
    applied: usize,
    /// The speed, an index into [`QUARTERS`].
    speed: usize,
    run: Run,
}

impl Replay {
    /// `recording`, to play from its start at x1: the first tick applies
    /// its first group.
    pub fn new(recording: Recording) -> Self {
        let run = if recording.groups.is_empty() { Run::Ended } else { Run::Playing(None) };
        Self { recording, applied: 0, speed: X1, run }
    }

    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// The groups in `range` (as a tick or a key gave it).
    pub fn groups(&self, range: Range<usize>) -> &[Group] {
        &self.recording.groups[range]
    }

    /// How many groups are applied.
    pub fn applied(&self) -> usize {
        self.applied
    }

    /// How long a group is shown at the speed now.
    pub fn interval(&self) -> Duration {
        Duration::from_micros(1_000_000 / u64::from(QUARTERS[self.speed]))
    }

    /// The speed as the status says it: `x1/4` to `x16`.
    pub fn speed_text(&self) -> &'static str {
        ["x1/4", "x1/2", "x1", "x2", "x4", "x8", "x16"][self.speed]
    }

    /// Whether it plays, as the status says it.
    pub fn state_text(&self) -> &'static str {
        match self.run {
            Run::Playing(_) => "playing",
            Run::Paused => "paused",
            Run::Ended => "ended",
        }
    }

    /// The round of the last group applied (the recording's first round
    /// before any).
    pub fn round(&self) -> u64 {
        match self.applied {
            0 => self.recording.from,
            n => self.recording.groups[n - 1].round,
        }
    }

    /// The status line: `Recording: ann on depth 1, round 12 (3 to 40),
    /// x1, playing`.
    pub fn status(&self) -> String {
        let r = &self.recording;
        format!(
            "Recording: {} on depth {}, round {} ({} to {}), {}, {}",
            r.player,
            r.depth,
            self.round(),
            r.from,
            r.to,
            self.speed_text(),
            self.state_text()
        )
    }

    /// Stops playing: a recording that does not fit its mirror is ended
    /// where it stands.
    pub fn stop(&mut self) {
        self.run = Run::Ended;
    }

    /// Whether every group is applied (or it stopped short).
    pub fn ended(&self) -> bool {
        self.run == Run::Ended
    }

    /// Back to the start, to play again at the speed it had: the next
    /// tick applies the first group. Whoever applied the groups starts
    /// their mirror afresh.
    pub fn restart(&mut self) {
        self.applied = 0;
        self.run = match self.recording.groups.is_empty() {
            true => Run::Ended,
            false => Run::Playing(None),
        };
    }

    /// The groups now due at `now`, and when the next is.
    pub fn tick(&mut self, now: Instant) -> Tick {
        let Run::Playing(due) = self.run else {
            return Tick { apply: self.applied..self.applied, next: None };
        };
        let start = self.applied;
        let mut due = due.unwrap_or(now);
        while due <= now && self.applied < self.recording.groups.len() {
            if self.applied - start == MOST_A_TICK {
                due = now;
                break;
            }
            self.applied += 1;
            due += self.interval();
        }
        let apply = start..self.applied;
        if self.applied == self.recording.groups.len() {
            self.run = Run::Ended;
            return Tick { apply, next: None };
        }
        self.run = Run::Playing(Some(due));
        Tick { apply, next: Some(due.saturating_duration_since(now)) }
    }

    /// A key's control at `now`: the groups it applies (`.` steps one),
    /// and whether it leaves (Esc). Nothing else applies a group.
    pub fn press(&mut self, control: Control, now: Instant) -> Range<usize> {
        let here = self.applied..self.applied;
        match control {
            Control::Pause => {
                self.run = match self.run {
                    Run::Playing(_) => Run::Paused,
                    Run::Paused => Run::Playing(Some(now + self.interval())),
                    Run::Ended => Run::Ended,
                };
            }
            Control::Faster | Control::Slower => {
                let faster = control == Control::Faster;
                self.speed = match faster {
                    true => (self.speed + 1).min(QUARTERS.len() - 1),
                    false => self.speed.saturating_sub(1),
                };
                // A faster speed brings the next group nearer.
                if let Run::Playing(Some(due)) = self.run {
                    self.run = Run::Playing(Some(due.min(now + self.interval())));
                }
            }
            Control::Step if self.run != Run::Ended => {
                self.applied += 1;
                let ended = self.applied == self.recording.groups.len();
                self.run = if ended { Run::Ended } else { Run::Paused };
                return here.start..self.applied;
            }
            Control::Step | Control::Leave => {}
        }
        here
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A recording of ann on depth 2, rounds 10 to 30, with a group (one
    /// note) in each of `rounds`.
    fn recording(rounds: &[u64]) -> Recording {
        let mut r = Recording::new("ann".into(), PlayerId(1), 2, 10, 30);
        for &round in rounds {
            r.push(round, ServerMsg::Note(format!("round {round}")));
        }
        r
    }

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn messages_of_one_round_make_one_group() {
        let mut r = recording(&[]);
        r.push(4, ServerMsg::Stopped);
        r.push(4, ServerMsg::Note("a".into()));
        r.push(6, ServerMsg::Stopped);
        let rounds: Vec<(u64, usize)> = r.groups.iter().map(|g| (g.round, g.msgs.len())).collect();
        assert_eq!(rounds, [(4, 2), (6, 1)]);
    }

    #[test]
    fn the_first_group_comes_at_once_then_one_every_250_ms_at_x1() {
        let mut replay = Replay::new(recording(&[11, 15, 16]));
        let t0 = Instant::now();
        assert_eq!(replay.tick(t0), Tick { apply: 0..1, next: Some(MS(250)) });
        assert_eq!(replay.tick(t0 + MS(249)), Tick { apply: 1..1, next: Some(MS(1)) });
        // Rounds 12 to 14 had no message: not waited for.
        assert_eq!(replay.tick(t0 + MS(250)), Tick { apply: 1..2, next: Some(MS(250)) });
        assert_eq!(replay.round(), 15);
        assert_eq!(replay.tick(t0 + MS(500)), Tick { apply: 2..3, next: None });
        assert_eq!(replay.state_text(), "ended");
        assert_eq!(replay.tick(t0 + MS(5000)), Tick { apply: 3..3, next: None });
    }

    #[test]
    fn a_late_tick_catches_up_but_not_without_bound() {
        let mut replay = Replay::new(recording(&(11..40).collect::<Vec<_>>()));
        let t0 = Instant::now();
        replay.tick(t0);
        assert_eq!(replay.tick(t0 + MS(750)).apply, 1..4, "three were due");
        let held = replay.tick(t0 + MS(60_000));
        assert_eq!(held.apply, 4..4 + MOST_A_TICK);
        assert_eq!(held.next, Some(Duration::ZERO), "the rest comes on the next tick");
    }

    #[test]
    fn the_status_says_each_state() {
        let mut replay = Replay::new(recording(&[11, 12]));
        let t0 = Instant::now();
        assert_eq!(replay.status(), "Recording: ann on depth 2, round 10 (10 to 30), x1, playing");
        replay.tick(t0);
        replay.press(Control::Pause, t0);
        assert_eq!(replay.status(), "Recording: ann on depth 2, round 11 (10 to 30), x1, paused");
        replay.press(Control::Slower, t0);
        replay.press(Control::Step, t0);
        assert_eq!(replay.status(), "Recording: ann on depth 2, round 12 (10 to 30), x1/2, ended");
    }

    #[test]
    fn each_speed_is_named_and_sets_the_interval() {
        let mut replay = Replay::new(recording(&[11]));
        let t0 = Instant::now();
        for _ in 0..3 {
            replay.press(Control::Slower, t0);
        }
        let mut seen = vec![(replay.speed_text(), replay.interval())];
        for _ in 0..8 {
            replay.press(Control::Faster, t0);
            seen.push((replay.speed_text(), replay.interval()));
        }
        seen.dedup();
        let want = [
            ("x1/4", MS(1000)),
            ("x1/2", MS(500)),
            ("x1", MS(250)),
            ("x2", MS(125)),
            ("x4", Duration::from_micros(62_500)),
            ("x8", Duration::from_micros(31_250)),
            ("x16", Duration::from_micros(15_625)),
        ];
        assert_eq!(seen, want);
    }

    #[test]
    fn faster_brings_the_next_group_nearer() {
        let mut replay = Replay::new(recording(&[11, 12, 13]));
        let t0 = Instant::now();
        replay.tick(t0);
        replay.press(Control::Faster, t0);
        assert_eq!(replay.tick(t0).next, Some(MS(125)));
        replay.press(Control::Slower, t0);
        assert_eq!(replay.tick(t0).next, Some(MS(125)), "slower does not put it off");
    }

    #[test]
    fn a_step_applies_one_group_and_pauses() {
        let mut replay = Replay::new(recording(&[11, 12, 13]));
        let t0 = Instant::now();
        assert_eq!(replay.press(Control::Step, t0), 0..1);
        assert_eq!(replay.state_text(), "paused");
        assert_eq!(replay.tick(t0 + MS(10_000)), Tick { apply: 1..1, next: None });
        assert_eq!(replay.press(Control::Step, t0), 1..2);
        assert_eq!(replay.press(Control::Step, t0), 2..3);
        assert_eq!(replay.state_text(), "ended");
        assert_eq!(replay.press(Control::Step, t0), 3..3, "nothing past the end");
        assert_eq!(replay.press(Control::Pause, t0), 3..3);
        assert_eq!(replay.state_text(), "ended", "an ended recording stays ended");
    }

    #[test]
    fn resuming_waits_an_interval_from_where_it_paused() {
        let mut replay = Replay::new(recording(&[11, 12, 13]));
        let t0 = Instant::now();
        replay.tick(t0);
        replay.press(Control::Pause, t0 + MS(100));
        assert_eq!(replay.tick(t0 + MS(5000)).apply, 1..1, "paused");
        replay.press(Control::Pause, t0 + MS(5000));
        assert_eq!(replay.tick(t0 + MS(5000)), Tick { apply: 1..1, next: Some(MS(250)) });
        assert_eq!(replay.tick(t0 + MS(5250)).apply, 1..2);
    }

    #[test]
    fn the_keys_and_their_shifted_forms() {
        let c = |key, shift| control(key, shift);
        assert_eq!(c(Key::Char(' '), false), Some(Control::Pause));
        for (key, shift) in [('+', false), ('=', false), ('=', true), ('>', false), ('.', true)] {
            assert_eq!(c(Key::Char(key), shift), Some(Control::Faster), "{key} {shift}");
        }
        for (key, shift) in [('-', false), ('<', false), (',', true)] {
            assert_eq!(c(Key::Char(key), shift), Some(Control::Slower), "{key} {shift}");
        }
        assert_eq!(c(Key::Char('.'), false), Some(Control::Step));
        assert_eq!(c(Key::Escape, false), Some(Control::Leave));
        assert_eq!(c(Key::Char('x'), false), None);
        assert_eq!(c(Key::Enter, false), None);
    }

    #[test]
    fn a_restart_plays_from_the_first_group_at_the_speed_it_had() {
        let mut replay = Replay::new(recording(&[11, 12]));
        let t0 = Instant::now();
        replay.press(Control::Faster, t0);
        replay.tick(t0);
        replay.press(Control::Step, t0);
        assert!(replay.ended());
        replay.restart();
        assert!(!replay.ended());
        assert_eq!(replay.status(), "Recording: ann on depth 2, round 10 (10 to 30), x2, playing");
        assert_eq!(replay.tick(t0), Tick { apply: 0..1, next: Some(MS(125)) });
        let mut empty = Replay::new(recording(&[]));
        empty.restart();
        assert!(empty.ended(), "nothing to play");
    }

    #[test]
    fn an_empty_recording_has_ended() {
        let mut replay = Replay::new(recording(&[]));
        assert_eq!(replay.tick(Instant::now()), Tick { apply: 0..0, next: None });
        assert_eq!(replay.status(), "Recording: ann on depth 2, round 10 (10 to 30), x1, ended");
    }

    fn any_control() -> impl Strategy<Value = Control> {
        prop_oneof![
            Just(Control::Pause),
            Just(Control::Faster),
            Just(Control::Slower),
            Just(Control::Step),
            Just(Control::Leave),
        ]
    }

    /// A tick after `ms` milliseconds, or a key then.
    fn any_event() -> impl Strategy<Value = (u64, Option<Control>)> {
        (0u64..2000, proptest::option::of(any_control()))
    }

    proptest! {
        /// Whatever the keys and the clock do: the groups applied are each
        /// applied once, in order, never past the end; the speed stays a
        /// speed; a step pauses (or ends); pausing and playing on keep the
        /// position; and the status names the state.
        #[test]
        fn playback_keeps_its_bounds(
            groups in 0usize..30,
            events in proptest::collection::vec(any_event(), 0..80),
        ) {
            let rounds: Vec<u64> = (0..groups as u64).map(|g| 11 + 2 * g).collect();
            let mut replay = Replay::new(recording(&rounds));
            let mut now = Instant::now();
            let mut applied = 0;
            for (ms, control) in events {
                now += MS(ms);
                let before = replay.applied();
                let range = match control {
                    None => replay.tick(now).apply,
                    Some(control) => replay.press(control, now),
                };
                prop_assert_eq!(range.start, applied, "in order, each once");
                applied = range.end;
                prop_assert_eq!(replay.applied(), applied);
                prop_assert!(applied <= groups, "never past the end");
                prop_assert!(replay.speed < QUARTERS.len());
                match control {
                    Some(Control::Step) if before < groups => {
                        prop_assert_eq!(applied, before + 1);
                        let want = if applied == groups { "ended" } else { "paused" };
                        prop_assert_eq!(replay.state_text(), want);
                    }
                    Some(Control::Pause | Control::Faster | Control::Slower | Control::Leave) => {
                        prop_assert_eq!(applied, before, "keys other than . keep the position");
                    }
                    _ => {}
                }
                prop_assert!(replay.status().ends_with(replay.state_text()));
                prop_assert_eq!(replay.state_text() == "ended", applied == groups);
            }
        }
    }
}
