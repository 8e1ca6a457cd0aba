//! Who is walking which way: what lets friends in single file follow each
//! other down a corridor instead of swapping places forever.
//!
//! Stepping into another player swaps the two, so that nobody can block a
//! corridor by standing in it. But two friends walking the same way, one
//! behind the other, would swap at every step and never advance. So a
//! player who steps into someone already walking that way (its last step
//! went within 45 degrees of this one, and came after the stepper's own
//! last action) follows instead: its action is spent waiting a step behind.
//! Someone who stopped is passed at the next try, since its step is then
//! older than the waiting player's wait.

use std::collections::BTreeMap;

use gloam_protocol::{Dir, PlayerId};

/// Each player's last action and last step, numbered in the order the
/// depth applied them.
#[derive(Debug, Default)]
pub(crate) struct Walks {
    /// Actions applied on the depth so far.
    count: u64,
    /// The number of each player's last action.
    last_action: BTreeMap<PlayerId, u64>,
    /// Each player's last step that moved it, and the number of its action.
    last_step: BTreeMap<PlayerId, (Dir, u64)>,
}

impl Walks {
    /// `id` acts: numbers its action, and gives the number of the one
    /// before it, if any.
    pub fn acts(&mut self, id: PlayerId) -> Option<u64> {
        self.count += 1;
        self.last_action.insert(id, self.count)
    }

    /// `id`'s action was a step `dir` that moved it.
    pub fn stepped(&mut self, id: PlayerId, dir: Dir) {
        if let Some(&n) = self.last_action.get(&id) {
            self.last_step.insert(id, (dir, n));
        }
    }

    /// Whether a player stepping `dir` into `other`, whose action before
    /// this one was numbered `previous`, follows it rather than swapping:
    /// `other` has stepped much the same way since then.
    pub fn follows(&self, previous: Option<u64>, other: PlayerId, dir: Dir) -> bool {
        self.last_step
            .get(&other)
            .is_some_and(|&(went, n)| same_way(went, dir) && Some(n) > previous)
    }

    /// Everything above as numbers, in a fixed order, for the depth's checksum.
    pub fn numbers(&self) -> impl Iterator<Item = u64> + '_ {
        let actions = self.last_action.iter().flat_map(|(id, &n)| [u64::from(id.0), n]);
        let steps =
            self.last_step.iter().flat_map(|(id, &(dir, n))| [u64::from(id.0), dir as u64, n]);
        std::iter::once(self.count).chain(actions).chain(steps)
    }

    /// Forgets a player who left the depth.
    pub fn forget(&mut self, id: PlayerId) {
        self.last_action.remove(&id);
        self.last_step.remove(&id);
    }
}

/// Whether two directions are within 45 degrees of each other.
fn same_way(a: Dir, b: Dir) -> bool {
    let ((ax, ay), (bx, by)) = (a.delta(), b.delta());
    ax * bx + ay * by > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANN: PlayerId = PlayerId(1);
    const BOB: PlayerId = PlayerId(2);

    #[test]
    fn one_follows_a_walker_going_its_way_since_its_own_last_action() {
        let mut walks = Walks::default();
        let ann_before = walks.acts(ANN);
        walks.acts(BOB);
        walks.stepped(BOB, Dir::N);
        assert!(walks.follows(ann_before, BOB, Dir::N));
        assert!(walks.follows(ann_before, BOB, Dir::NE), "within 45 degrees");
        assert!(!walks.follows(ann_before, BOB, Dir::E), "a right angle is another way");
        assert!(!walks.follows(ann_before, BOB, Dir::S));
        // Ann waited behind bob; bob has not stepped since: ann passes.
        walks.acts(ANN);
        let ann_waited = walks.acts(ANN);
        assert!(!walks.follows(ann_waited, BOB, Dir::N));
    }

    #[test]
    fn a_step_before_ones_own_last_action_is_not_followed() {
        let mut walks = Walks::default();
        walks.acts(BOB);
        walks.stepped(BOB, Dir::N);
        walks.acts(ANN);
        let ann_before = walks.acts(ANN);
        assert!(!walks.follows(ann_before, BOB, Dir::N));
        walks.forget(BOB);
        assert!(!walks.follows(None, BOB, Dir::N), "forgotten on leaving");
    }
}
