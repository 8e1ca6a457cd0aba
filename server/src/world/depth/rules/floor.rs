//! What lies on a depth's floor: a pile of items on some cells, the last
//! put down on top.

use gloam_protocol::{Lying, Pos};

use super::CellMap;
use crate::items::{Catalogue, Item};

/// The piles of a depth, by cell. A pile is never empty.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Floor {
    #[serde(serialize_with = "super::snapshot::in_order")]
    piles: CellMap<Vec<Item>>,
}

impl Floor {
    /// The top of the pile on `pos`, as a player sees it.
    pub(crate) fn top(&self, pos: Pos, items: &Catalogue) -> Option<Lying> {
        crate::items::top_of(self.piles.get(&pos)?, items)
    }

    /// Puts `item` on top of the pile on `pos`; onto the top's own stack
    /// when it is of the same kind and `stacks`.
    pub(crate) fn put(&mut self, pos: Pos, item: Item, stacks: bool) {
        crate::items::pile_onto(self.piles.entry(pos).or_default(), item, stacks);
    }

    /// Takes the top item of the pile on `pos`.
    pub(crate) fn take_top(&mut self, pos: Pos) -> Option<Item> {
        let pile = self.piles.get_mut(&pos)?;
        let item = pile.pop();
        if pile.is_empty() {
            self.piles.remove(&pos);
        }
        item
    }

    /// The cells with a pile, in no particular order.
    pub(crate) fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.piles.keys().copied()
    }

    /// Every pile, sorted by cell: for the checksum.
    pub(crate) fn sorted(&self) -> Vec<(Pos, &[Item])> {
        let mut piles: Vec<(Pos, &[Item])> =
            self.piles.iter().map(|(&p, pile)| (p, pile.as_slice())).collect();
        piles.sort_unstable_by_key(|&(p, _)| (p.y, p.x));
        piles
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pile_shows_its_top_and_stacks_only_what_stacks() {
        let mut floor = Floor::default();
        let items = Catalogue::built_in();
        let at = Pos::new(3, 3);
        floor.put(at, Item { kind: 1, count: 1 }, false);
        floor.put(at, Item { kind: 1, count: 1 }, false);
        assert_eq!(floor.top(at, &items), Some(Lying { kind: 1, count: 1, more: true }));
        floor.put(at, Item { kind: 2, count: 5 }, true);
        floor.put(at, Item { kind: 2, count: 7 }, true);
        assert_eq!(floor.top(at, &items), Some(Lying { kind: 2, count: 12, more: true }));
        assert_eq!(floor.take_top(at), Some(Item { kind: 2, count: 12 }));
        floor.take_top(at);
        assert_eq!(floor.top(at, &items), Some(Lying { kind: 1, count: 1, more: false }));
        floor.take_top(at);
        assert_eq!(
            (floor.top(at, &items), floor.cells().count()),
            (None, 0),
            "an empty pile is gone"
        );
        assert_eq!(floor.take_top(at), None);
    }
}
