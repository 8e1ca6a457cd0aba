//! Who is walking which way: what lets friends in single file follow each
//! other down a corridor instead of swapping places forever.
//!
//! Stepping into another player swaps the two, so that nobody can block a
//! corridor by standing in it. But two friends walking the same way, one
//! behind the other, would swap at every step and never advance. So a
//! player who steps into someone walking its way (whose last action was a
//! step that moved it within 45 degrees of this one) follows instead: its
//! action is spent a step behind. It follows the same player at most once
//! while that player does nothing more: someone who stopped on a step is
//! passed at the next try.

use std::collections::BTreeMap;

use gloam_protocol::{Dir, PlayerId};

/// A player's last action, as far as walking goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Last {
    /// Its number, in the order the depth applied actions.
    number: u64,
    /// The way it moved the player, when it was a step that did.
    stepped: Option<Dir>,
    /// Whom it followed, when it was a step into someone walking.
    followed: Option<PlayerId>,
}

/// Every player's last action.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Walks {
    /// Actions applied on the depth so far.
    count: u64,
    last: BTreeMap<PlayerId, Last>,
}

impl Walks {
    /// `id` acts: numbers its action, and gives the one before it, if any.
    pub(super) fn acts(&mut self, id: PlayerId) -> Option<Last> {
        self.count += 1;
        self.last.insert(id, Last { number: self.count, ..Last::default() })
    }

    /// `id`'s action was refused: its last action is again `previous`
    /// (the number given to the refused one is not given again).
    pub(super) fn take_back(&mut self, id: PlayerId, previous: Option<Last>) {
        match previous {
            Some(last) => self.last.insert(id, last),
            None => self.last.remove(&id),
        };
    }

    /// `id`'s action was a step `dir` that moved it.
    pub(super) fn stepped(&mut self, id: PlayerId, dir: Dir) {
        if let Some(last) = self.last.get_mut(&id) {
            last.stepped = Some(dir);
        }
    }

    /// `id`'s action was spent a step behind `other`.
    pub(super) fn followed(&mut self, id: PlayerId, other: PlayerId) {
        if let Some(last) = self.last.get_mut(&id) {
            last.followed = Some(other);
        }
    }

    /// Whether a player stepping `dir` into `other`, whose action before
    /// this one was `previous`, follows it rather than swapping: `other`'s
    /// last action was a step much the same way, and this player did not
    /// already follow it since.
    pub(super) fn follows(&self, previous: Option<Last>, other: PlayerId, dir: Dir) -> bool {
        let Some(theirs) = self.last.get(&other) else { return false };
        let walking = theirs.stepped.is_some_and(|went| same_way(went, dir));
        let waited_already = previous
            .is_some_and(|mine| mine.followed == Some(other) && mine.number > theirs.number);
        walking && !waited_already
    }

    /// Everything above as numbers, in a fixed order, for the depth's checksum.
    pub(super) fn numbers(&self) -> impl Iterator<Item = u64> + '_ {
        let last = self.last.iter().flat_map(|(id, last)| {
            let stepped = last.stepped.map_or(u64::MAX, |d| d as u64);
            let followed = last.followed.map_or(u64::MAX, |p| u64::from(p.0));
            [u64::from(id.0), last.number, stepped, followed]
        });
        std::iter::once(self.count).chain(last)
    }

    /// Forgets a player who left the depth.
    pub(super) fn forget(&mut self, id: PlayerId) {
        self.last.remove(&id);
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
    fn one_follows_a_player_whose_last_action_was_a_step_its_way() {
        let mut walks = Walks::default();
        walks.acts(BOB);
        walks.stepped(BOB, Dir::N);
        let ann_before = walks.acts(ANN);
        assert!(walks.follows(ann_before, BOB, Dir::N));
        assert!(walks.follows(ann_before, BOB, Dir::NE), "within 45 degrees");
        assert!(!walks.follows(ann_before, BOB, Dir::E), "a right angle is another way");
        assert!(!walks.follows(ann_before, BOB, Dir::S));
        walks.acts(BOB);
        assert!(!walks.follows(ann_before, BOB, Dir::N), "bob waited: he is not walking");
    }

    #[test]
    fn one_follows_a_walker_once_while_it_does_nothing_more() {
        let mut walks = Walks::default();
        walks.acts(BOB);
        walks.stepped(BOB, Dir::N);
        walks.acts(ANN);
        walks.followed(ANN, BOB);
        let ann_followed = walks.acts(ANN);
        assert!(!walks.follows(ann_followed, BOB, Dir::N), "bob has not acted since");
        walks.acts(BOB);
        walks.stepped(BOB, Dir::N);
        assert!(walks.follows(ann_followed, BOB, Dir::N), "bob stepped on since");
        walks.forget(BOB);
        assert!(!walks.follows(None, BOB, Dir::N), "forgotten on leaving");
    }
}
