//! Wands: a wand holds charges, and each zap uses one; zapped empty,
//! nothing happens. A wand's charges are kept in its count (one more than
//! the charges: see [`Item`]), and are never told: a client is told one
//! wand, however full.

use super::{Catalogue, Class, Item};

/// The first edition whose worlds hold wands.
pub const WANDS_SINCE: u16 = 4;

impl Item {
    /// A wand of kind `kind` holding `charges`.
    pub fn wand(kind: super::ItemKindId, charges: u16) -> Self {
        Item { kind, count: charges.saturating_add(1) }
    }
}

impl Catalogue {
    /// The charges left in `item`; none for an item that is no wand.
    pub fn charges(&self, item: Item) -> Option<u16> {
        match self.kind(item.kind).class {
            Class::Wand { .. } => Some(item.count.saturating_sub(1)),
            _ => None,
        }
    }

    /// How many of `item` anyone is told of: one for a wand (its count
    /// holds its charges), its count for the rest.
    pub fn told_count(&self, item: Item) -> u16 {
        match self.kind(item.kind).class {
            Class::Wand { .. } => 1,
            _ => item.count,
        }
    }
}
