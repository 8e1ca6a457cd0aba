//! How long each depth has stood empty, in game time: the rounds closed on
//! every depth of the world since its last player left (a lone player's
//! every action closes one, see `docs/turns.md`), never the wall clock, so
//! a depth regains monsters (`depth::rules::restock`) for play elsewhere,
//! not for a server left running overnight, and tests need no sleeps.
//!
//! The registry keeps the count and when each depth was left for as long as
//! the server runs, whatever its depths' tasks do (one retires when it has
//! stood empty, and the next one built there asks here). A depth nobody
//! left since the server started counts from its start. What a restock
//! brought is in the depth's log, so a replay needs none of this.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::depth::DepthState;

/// The rounds played in the world, and when each depth was last left.
#[derive(Debug, Default)]
pub(super) struct Absences {
    /// Rounds closed on every depth since the server started.
    played: AtomicU64,
    /// `played` when each depth last stood empty.
    left: Mutex<HashMap<u16, u64>>,
}

impl Absences {
    /// `rounds` more closed on some depth.
    pub(super) fn played(&self, rounds: u64) {
        self.played.fetch_add(rounds, Ordering::Relaxed);
    }

    /// The last player on `depth` is gone: its absence starts now.
    pub(super) fn emptied(&self, depth: u16) {
        let now = self.played.load(Ordering::Relaxed);
        self.lock().insert(depth, now);
    }

    /// Someone comes to `depth`, which stands empty: the rounds played
    /// since it was left (since the server started if it was not), and
    /// its absence counted afresh from now.
    pub(super) fn end(&self, depth: u16) -> u64 {
        let now = self.played.load(Ordering::Relaxed);
        let since = self.lock().insert(depth, now).unwrap_or(0);
        now.saturating_sub(since)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u16, u64>> {
        self.left.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The restock periods of `every` rounds in an absence of `away` rounds
/// (none when `every` is 0: restocking is off).
pub(super) fn periods(away: u64, every: u64) -> u32 {
    match away.checked_div(every) {
        Some(n) => u32::try_from(n).unwrap_or(u32::MAX),
        None => 0,
    }
}

/// What one depth's task tells the [`Absences`] after each command: the
/// rounds its depth closed, and when it came to stand empty.
#[derive(Debug)]
pub(super) struct PlayedRounds {
    rounds: u64,
    empty: bool,
}

impl PlayedRounds {
    /// The rounds a task counts from its depth as built (its history replayed: those
    /// rounds were played before, and are not counted again).
    pub(super) fn of(state: &DepthState) -> Self {
        Self { rounds: state.rounds(), empty: state.is_empty() }
    }

    /// Counts the rounds `state` closed since last noted, and notes when
    /// its last player went.
    pub(super) fn note(&mut self, state: &DepthState, absences: &Absences) {
        let rounds = state.rounds();
        absences.played(rounds.saturating_sub(self.rounds));
        self.rounds = rounds;
        let empty = state.is_empty();
        if empty && !self.empty {
            absences.emptied(state.depth());
        }
        self.empty = empty;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absence_is_the_rounds_played_since_the_depth_was_left() {
        let absences = Absences::default();
        absences.played(40);
        assert_eq!(absences.end(3), 40, "never left: since the server started");
        absences.played(7);
        absences.emptied(3);
        absences.played(100);
        absences.emptied(5);
        absences.played(25);
        assert_eq!(absences.end(3), 125);
        assert_eq!(absences.end(3), 0, "ended: counted afresh");
        assert_eq!(absences.end(5), 25);
    }

    #[test]
    fn a_period_is_whole_and_none_when_restocking_is_off() {
        assert_eq!(periods(299, 300), 0, "less than a period: none");
        assert_eq!(periods(300, 300), 1);
        assert_eq!(periods(1_000, 300), 3);
        assert_eq!(periods(u64::MAX, 1), u32::MAX);
        assert_eq!(periods(1_000, 0), 0);
    }
}
