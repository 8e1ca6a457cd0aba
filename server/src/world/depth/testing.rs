//! The depth as its tests play it: each command followed at once by
//! telling those who stood still what they have not heard, into the same
//! outcome, as a depth's task does when a shift of the still is due.

use gloam_protocol::{Action, PlayerId};

use super::{Arrival, DepthState, Entry, Leaving, Outcome, Outgoing};
use crate::character::Player;

pub(super) trait PlayAndTell {
    /// [`DepthState::act`], then everyone told.
    fn play(&mut self, id: PlayerId, action: Action) -> Outcome;
    /// [`DepthState::arrive`], then everyone told.
    fn come(&mut self, player: Player, via: Arrival) -> Vec<Outgoing>;
    /// [`DepthState::leave`], then everyone told.
    fn go(&mut self, id: PlayerId, how: Leaving) -> (Option<Player>, Outcome);
    /// [`DepthState::deadline`], then everyone told.
    fn time_out(&mut self, id: PlayerId) -> Outcome;
    /// Everyone told what they have not heard, alone.
    fn tell_all(&mut self) -> Vec<Outgoing>;
    /// The players of `shift` told what they have not heard, alone.
    fn tell_shift(&mut self, shift: usize) -> Vec<Outgoing>;
}

impl PlayAndTell for DepthState {
    fn play(&mut self, id: PlayerId, action: Action) -> Outcome {
        let mut outcome = self.act(id, action);
        self.tell_the_still(&mut outcome, None);
        outcome
    }

    fn come(&mut self, player: Player, via: Arrival) -> Vec<Outgoing> {
        let mut outcome = self.arrive(player, via);
        self.tell_the_still(&mut outcome, None);
        outcome.out
    }

    fn go(&mut self, id: PlayerId, how: Leaving) -> (Option<Player>, Outcome) {
        let (player, mut outcome) = self.leave(id, how);
        self.tell_the_still(&mut outcome, None);
        (player, outcome)
    }

    fn time_out(&mut self, id: PlayerId) -> Outcome {
        let mut outcome = self.deadline(id);
        self.tell_the_still(&mut outcome, None);
        outcome
    }

    fn tell_all(&mut self) -> Vec<Outgoing> {
        let mut outcome = Outcome::default();
        self.tell_the_still(&mut outcome, None);
        outcome.out
    }

    fn tell_shift(&mut self, shift: usize) -> Vec<Outgoing> {
        let mut outcome = Outcome::default();
        self.tell_the_still(&mut outcome, Some(super::Shift::of_today(shift)));
        outcome.out
    }
}

/// The entries of `log` that the rules apply, the marks of what the views
/// did left out (a replay tells nobody, so logs none).
pub(super) fn commands_of(log: &[Entry]) -> Vec<Entry> {
    log.iter().filter(|e| !e.what.is_mark()).cloned().collect()
}
