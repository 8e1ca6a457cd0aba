//! What lies on a level: the items placed when a depth is built, drawn
//! from the level's own seed (a stream of their own, so monsters and
//! layouts are as they were), so the same world seed and depth always give
//! the same items on the same cells.
//!
//! Rules: items lie on open cells a player can walk to, never on stairs
//! or the arrival point; deeper levels hold more of them, of the kinds
//! that lie that deep, drawn by rarity; a missile lies in a stack of its
//! kind's size. Two may fall on one cell: they make a pile.

use gloam_protocol::Pos;
use rand::RngExt;

use crate::items::{Catalogue, Class, Item, ItemKindId};
use crate::level::Level;
use crate::mapgen::vaults::{Content, PlacedVault};
use crate::seeds::DepthSeeds;

/// How many items a level at `depth` holds.
pub fn items_at(depth: u16) -> usize {
    4 + usize::from(depth.min(40)) / 2
}

/// The items a fresh level at `depth` holds, and where.
pub fn stock(level: &Level, items: &Catalogue, seeds: DepthSeeds, depth: u16) -> Vec<(Pos, Item)> {
    let mut rng = seeds.items();
    let cells = open_cells(level);
    let draw = Draw::at(items, depth);
    if cells.is_empty() || draw.total == 0 {
        return Vec::new();
    }
    let mut placed = Vec::with_capacity(items_at(depth));
    for _ in 0..items_at(depth) {
        let item = draw.one(items, &mut rng);
        let pos = cells[rng.random_range(0..cells.len())];
        placed.push((pos, item));
    }
    placed
}

/// The items a vault's drawing names, on their cells: a kind not in the
/// catalogue, or `any`, drawn by rarity from those lying at the depth.
/// Drawn from a stream of their own, so the stock is the same with or
/// without a vault.
fn loot(vault: &PlacedVault, items: &Catalogue, seeds: DepthSeeds, depth: u16) -> Vec<(Pos, Item)> {
    let mut rng = seeds.vault_loot();
    let draw = Draw::at(items, depth);
    let mut loot = Vec::new();
    for (pos, content) in &vault.contents {
        let Content::Item(name) = content else { continue };
        let item = match name.as_deref().and_then(|n| items.find(n)) {
            Some(kind) => Some(Draw { kinds: vec![(kind, 1)], total: 1 }.one(items, &mut rng)),
            None => draw.maybe_one(items, &mut rng),
        };
        loot.extend(item.map(|item| (*pos, item)));
    }
    loot
}

/// The kinds of item that lie at one depth, weighed by rarity, to draw
/// from: a level's stock, and what a monster drops there.
#[derive(Debug)]
pub struct Draw {
    kinds: Vec<(ItemKindId, u32)>,
    total: u32,
}

impl Draw {
    /// The kinds that lie at `depth`.
    pub fn at(items: &Catalogue, depth: u16) -> Self {
        let kinds: Vec<(ItemKindId, u32)> =
            items.placeable_at(depth).map(|(id, k)| (id, k.weight())).collect();
        let total = kinds.iter().map(|&(_, w)| w).sum();
        Self { kinds, total }
    }

    /// One item drawn by rarity (a missile in a stack of its kind's size, a
    /// wand with its charges);
    /// `None` when nothing lies at the depth.
    pub fn maybe_one(&self, items: &Catalogue, rng: &mut impl rand::Rng) -> Option<Item> {
        (self.total > 0).then(|| self.one(items, rng))
    }

    fn one(&self, items: &Catalogue, rng: &mut impl rand::Rng) -> Item {
        let kind = crate::tuning::pick(&self.kinds, rng.random_range(0..self.total));
        let count = match items.kind(kind).class {
            Class::Missile { stack: (least, most), .. } => {
                u16::from(rng.random_range(least..=most))
            }
            Class::Wand { charges: (least, most), .. } => {
                return Item::wand(kind, u16::from(rng.random_range(least..=most)));
            }
            _ => 1,
        };
        Item { kind, count }
    }
}

/// Where the artifact lies on the bottom level: the open cell farthest
/// from the arrival on foot (the first such, row by row).
pub fn artifact_cell(level: &Level) -> Option<Pos> {
    let walk = level.grid.walk_from(level.arrival);
    let far = |&p: &Pos| walk.get(p).unwrap_or(0);
    let cells = open_cells(level);
    let most = cells.iter().map(far).max()?;
    cells.into_iter().find(|p| far(p) == most)
}

/// What a fresh level at `depth` holds, and where, in the order laid:
/// its stock, and on the `bottom` level the artifact last.
pub fn placed(
    level: &Level,
    items: &Catalogue,
    seeds: DepthSeeds,
    depth: u16,
    bottom: bool,
) -> Vec<(Pos, Item)> {
    let mut placed = stock(level, items, seeds, depth);
    if let Some(vault) = &level.vault {
        placed.extend(loot(vault, items, seeds, depth));
    }
    if bottom && let Some(at) = artifact_cell(level) {
        placed.push((at, Item { kind: items.artifact(), count: 1 }));
    }
    placed
}

/// Every pile a fresh level at `depth` holds (the `bottom` one with the
/// artifact), bottom item first, as the items laid there stack.
pub fn piles(
    level: &Level,
    items: &Catalogue,
    seeds: DepthSeeds,
    depth: u16,
    bottom: bool,
) -> std::collections::BTreeMap<Pos, Vec<Item>> {
    let mut piles: std::collections::BTreeMap<Pos, Vec<Item>> = Default::default();
    for (pos, item) in placed(level, items, seeds, depth, bottom) {
        let stacks = items.kind(item.kind).stacks();
        crate::items::pile_onto(piles.entry(pos).or_default(), item, stacks);
    }
    piles
}

/// The top of every pile a fresh level at `depth` holds (the `bottom` one
/// with the artifact), as a player who sees it is told: what the truth of
/// the floor is before anyone touches it.
pub fn tops(
    level: &Level,
    items: &Catalogue,
    seeds: DepthSeeds,
    depth: u16,
    bottom: bool,
) -> std::collections::BTreeMap<Pos, gloam_protocol::Lying> {
    piles(level, items, seeds, depth, bottom)
        .into_iter()
        .filter_map(|(pos, pile)| Some((pos, crate::items::top_of(&pile, items)?)))
        .collect()
}

/// The cells an item may lie on: reached from the arrival, not stairs,
/// not the arrival itself.
fn open_cells(level: &Level) -> Vec<Pos> {
    let w = usize::from(level.width());
    let mut cells = Vec::new();
    for (y, &row) in level.walk.reached.iter().enumerate() {
        let mut left = row;
        while left != 0 {
            let pos = level.grid.pos_of(y * w + left.trailing_zeros() as usize);
            left &= left - 1;
            let stairs = !matches!(level.terrain(pos), gloam_protocol::Terrain::Floor);
            if !stairs && pos != level.arrival {
                cells.push(pos);
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapgen::{Generator, build, level_seed};
    use gloam_protocol::Terrain;
    use proptest::prelude::*;

    fn generator() -> impl Strategy<Value = Generator> {
        prop_oneof![
            Just(Generator::Bsp),
            Just(Generator::Maze),
            Just(Generator::Caves),
            Just(Generator::Interior),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Items lie on reachable floor, never on stairs or the arrival,
        /// the same ones for the same seed, of kinds that lie that deep.
        #[test]
        fn items_lie_on_reachable_floor_and_follow_the_seed(seed: u64, depth in 1u16..27, generator in generator()) {
            let seeds = DepthSeeds::from_level_seed(level_seed(seed, depth));
            let level = build(generator, level_seed(seed, depth), depth);
            let items = Catalogue::built_in();
            let placed = stock(&level, &items, seeds, depth);
            prop_assert_eq!(placed.len(), items_at(depth));
            prop_assert_eq!(&placed, &stock(&level, &items, seeds, depth));
            for (pos, item) in placed {
                prop_assert_eq!(level.terrain(pos), Terrain::Floor);
                prop_assert!(pos != level.arrival);
                let found = items.kind(item.kind).class.found();
                prop_assert!(found.is_some_and(|f| f.lies_at(depth)), "{:?} at depth {}", item, depth);
                prop_assert!(item.count >= 1);
                let (x, y) = (usize::from(pos.x), usize::from(pos.y));
                prop_assert!(level.walk.reached[y] & (1 << x) != 0, "reachable");
            }
        }
    }

    #[test]
    fn deeper_levels_hold_more_items() {
        assert!(items_at(1) < items_at(10) && items_at(10) < items_at(26));
    }
}
