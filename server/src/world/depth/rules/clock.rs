//! The round bookkeeping of one depth (see `docs/turns.md`): who has acted
//! in its party's current round, whose next action is held until the round
//! closes, who is away, and when a quiet round is due. Parties themselves
//! are worked out by the depth from where everyone stands; this only keeps
//! the states.

use std::collections::{BTreeMap, BTreeSet};

use gloam_protocol::{Action, PlayerId};

/// Where a player is in its party's current round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// May act in this round; the round waits for it.
    Ready,
    /// Has acted in this round; its next action is held until it closes.
    Acted,
    /// Missed a deadline: nobody waits for it until it acts again.
    Away,
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Clock {
    phase: BTreeMap<PlayerId, Phase>,
    /// The players in [`Phase::Acted`], kept apart so that finding the
    /// rounds that may close costs the few waiting, not the whole depth.
    acted: BTreeSet<PlayerId>,
    held: BTreeMap<PlayerId, Action>,
    /// Present players who have not had a round close since the last quiet
    /// round: when none is left, the monsters nobody sees take theirs.
    quiet_pending: BTreeSet<PlayerId>,
    /// Rounds closed on this depth, by any party.
    pub rounds: u64,
}

impl Clock {
    pub(crate) fn join(&mut self, id: PlayerId) {
        self.phase.insert(id, Phase::Ready);
        self.quiet_pending.insert(id);
    }

    pub(crate) fn leave(&mut self, id: PlayerId) {
        self.phase.remove(&id);
        self.acted.remove(&id);
        self.held.remove(&id);
        self.quiet_pending.remove(&id);
    }

    pub(crate) fn phase(&self, id: PlayerId) -> Phase {
        self.phase.get(&id).copied().unwrap_or(Phase::Away)
    }

    /// The player's action was applied in the current round.
    pub(crate) fn acted(&mut self, id: PlayerId) {
        if let Some(phase) = self.phase.get_mut(&id) {
            *phase = Phase::Acted;
            self.acted.insert(id);
        }
    }

    /// The player's action was refused: it is back in the phase it had
    /// `before`, as if it had not acted.
    pub(crate) fn take_back(&mut self, id: PlayerId, before: Phase) {
        if let Some(phase) = self.phase.get_mut(&id) {
            *phase = before;
            if before != Phase::Acted {
                self.acted.remove(&id);
            }
        }
    }

    /// Keeps an action of a player who already acted this round, for the next.
    pub(crate) fn hold(&mut self, id: PlayerId, action: Action) {
        self.held.insert(id, action);
    }

    /// The players who acted and wait for their round to close.
    pub(crate) fn waiting(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.acted.iter().copied()
    }

    /// A round closes once someone in it acted and nobody it waits for is left.
    pub(crate) fn is_complete(&self, party: &[PlayerId]) -> bool {
        party.iter().any(|&id| self.phase(id) == Phase::Acted)
            && party.iter().all(|&id| self.phase(id) != Phase::Ready)
    }

    /// Those of `party` the round still waits for.
    pub(crate) fn ready<'a>(
        &'a self,
        party: &'a [PlayerId],
    ) -> impl Iterator<Item = PlayerId> + 'a {
        party.iter().copied().filter(|&id| self.phase(id) == Phase::Ready)
    }

    /// The deadline passed: those of `party` who have not acted are away
    /// (those who were not already: given).
    pub(crate) fn count_away(&mut self, party: &[PlayerId]) -> Vec<PlayerId> {
        let mut away = Vec::new();
        for &id in party {
            if let Some(phase @ Phase::Ready) = self.phase.get_mut(&id) {
                *phase = Phase::Away;
                self.quiet_pending.remove(&id);
                away.push(id);
            }
        }
        away
    }

    /// Closes `party`'s round: those who acted may act again. Gives the
    /// held actions to apply first in the new round, in player order, and
    /// whether a quiet round is due.
    pub(crate) fn close(&mut self, party: &[PlayerId]) -> (Vec<(PlayerId, Action)>, bool) {
        self.rounds += 1;
        for id in party {
            if let Some(phase @ Phase::Acted) = self.phase.get_mut(id) {
                *phase = Phase::Ready;
            }
            self.acted.remove(id);
            self.quiet_pending.remove(id);
        }
        let held = party.iter().filter_map(|id| self.held.remove(id).map(|a| (*id, a))).collect();
        let quiet = self.quiet_pending.is_empty();
        if quiet {
            let present = self.phase.iter().filter(|(_, p)| **p != Phase::Away).map(|(id, _)| *id);
            self.quiet_pending = present.collect();
        }
        (held, quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANN: PlayerId = PlayerId(1);
    const BOB: PlayerId = PlayerId(2);

    #[test]
    fn a_round_waits_for_everyone_present_and_no_longer_for_the_away() {
        let mut clock = Clock::default();
        clock.join(ANN);
        clock.join(BOB);
        let both = [ANN, BOB];
        assert!(!clock.is_complete(&both), "nobody acted");
        clock.acted(ANN);
        assert!(!clock.is_complete(&both), "bob has not acted");
        assert_eq!(clock.ready(&both).collect::<Vec<_>>(), [BOB]);
        clock.hold(ANN, Action::Wait);
        clock.count_away(&both);
        assert_eq!(clock.phase(BOB), Phase::Away);
        assert!(clock.is_complete(&both));
        let (held, _) = clock.close(&both);
        assert_eq!(held, [(ANN, Action::Wait)], "ann's held action opens the next round");
        assert_eq!((clock.phase(ANN), clock.phase(BOB)), (Phase::Ready, Phase::Away));
        // Nobody acting closes nothing, even with everyone away.
        clock.count_away(&both);
        assert!(!clock.is_complete(&both));
        clock.acted(BOB);
        assert!(clock.is_complete(&both), "bob is back, and alone present");
    }

    #[test]
    fn a_quiet_round_is_due_once_everyone_present_had_a_round() {
        let mut clock = Clock::default();
        clock.join(ANN);
        clock.join(BOB);
        clock.acted(ANN);
        assert!(!clock.close(&[ANN]).1, "bob has had no round yet");
        clock.acted(ANN);
        assert!(!clock.close(&[ANN]).1, "nor now");
        clock.acted(BOB);
        assert!(clock.close(&[BOB]).1, "both have had one");
        clock.acted(ANN);
        assert!(!clock.close(&[ANN]).1, "and it starts over");
    }
}
