//! Who lives on a level: the monsters placed when a depth is built, drawn
//! from the level's own seed, so the same world seed and depth always give
//! the same monsters in the same cells.
//!
//! Rules: monsters stand on open floor, never on stairs, never in sight of
//! the arrival point and never within a few steps of it (a newcomer is not
//! ambushed on arriving); rooms and open areas are preferred to corridors;
//! deeper levels hold more groups, of the kinds living that deep, and a
//! kind that comes in packs is placed with its pack around it.

#[cfg(doc)]
use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{Dir, Pos, SIGHT_RADIUS};
use rand::RngExt;

use super::bits::Count;
use super::vaults::{Content, PlacedVault};
use crate::bestiary::{Bestiary, KindId};
use crate::level::{Grid, Level};
use crate::seeds::{DepthSeeds, LevelRng};

/// Walking steps from the arrival point inside which nothing is placed.
pub const CLEAR_STEPS: u16 = 12;

/// One monster as placed on a fresh level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub kind: KindId,
    pub pos: Pos,
}

/// How many groups (a lone monster or a pack) a level at `depth` holds.
pub fn groups_at(depth: u16) -> usize {
    (3 + usize::from(depth) / 2).min(14)
}

/// The monsters of the level of `depth`, placed from its monsters' stream,
/// then the `uniques` living there (see `mapgen::uniques`), each alone on
/// a cell drawn from a stream of their own, so that the others stand where
/// they would without them.
pub fn populate(
    level: &Level,
    bestiary: &Bestiary,
    seeds: DepthSeeds,
    depth: u16,
    uniques: &[KindId],
) -> Vec<Placed> {
    let mut rng = seeds.monsters();
    let mut habitat = Habitat::of(level, bestiary, depth);
    let mut placed = Vec::new();
    if let Some(vault) = &level.vault {
        habitat.place_guardians(vault, &mut seeds.vault_guards(), &mut placed);
    }
    if !habitat.is_barren() {
        for _ in 0..groups_at(depth) {
            habitat.place_group(&mut rng, usize::MAX, &mut placed);
        }
    }
    let mut cells = seeds.unique_cells();
    for &kind in uniques {
        habitat.place_alone(kind, &mut cells, &mut placed);
    }
    placed
}

/// Where and what a level's monsters may be, by the rules of this module:
/// the cells allowed, those a group may start from, the kinds living at the
/// depth by weight, and the cells already taken. A level's first monsters
/// are placed by it, and so are those a depth left alone regains
/// (`world::depth::rules::restock`), so both follow one rule.
#[derive(Debug)]
pub struct Habitat<'a> {
    level: &'a Level,
    bestiary: &'a Bestiary,
    allowed: Vec<bool>,
    starts: Vec<usize>,
    kinds: Vec<(KindId, u32)>,
    total: u32,
    taken: Vec<bool>,
    around: Around<'a>,
}

impl<'a> Habitat<'a> {
    /// The habitat of the level of `depth`, with no cell taken yet.
    pub fn of(level: &'a Level, bestiary: &'a Bestiary, depth: u16) -> Self {
        let rows = allowed_rows(level);
        let (w, open) = (usize::from(level.width()), &level.walk.reached);
        let mut allowed = vec![false; level.grid.cells().len()];
        let (mut anywhere, mut roomy) = (Vec::new(), Vec::new());
        for (y, &row) in rows.iter().enumerate() {
            let mut left = row;
            while left != 0 {
                let i = y * w + left.trailing_zeros() as usize;
                allowed[i] = true;
                anywhere.push(i);
                left &= left - 1;
            }
            // A cell in a room or open area: at least six of its eight
            // neighbours open. Allowed cells are open, so never on the rim.
            if row != 0 {
                let mut left = row & Count::around(open[y - 1], open[y], open[y + 1]).at_least(6);
                while left != 0 {
                    roomy.push(y * w + left.trailing_zeros() as usize);
                    left &= left - 1;
                }
            }
        }
        // A maze has no rooms: anywhere allowed will do there.
        let starts = if roomy.len() >= 20 { roomy } else { anywhere };
        let kinds: Vec<(KindId, u32)> =
            bestiary.living_at(depth).map(|(id, k)| (id, k.weight())).collect();
        let total: u32 = kinds.iter().map(|&(_, w)| w).sum();
        let taken = vec![false; allowed.len()];
        let around = Around::new(&level.grid);
        Self { level, bestiary, allowed, starts, kinds, total, taken, around }
    }

    /// True when no monster can be placed: no cell to start a group from,
    /// or no kind living at the depth.
    pub fn is_barren(&self) -> bool {
        self.starts.is_empty() || self.total == 0
    }

    /// Marks `pos` taken (a monster or a player stands there).
    pub fn take(&mut self, pos: Pos) {
        if self.level.grid.contains(pos) {
            let i = usize::from(pos.y) * usize::from(self.level.width()) + usize::from(pos.x);
            self.taken[i] = true;
        }
    }

    /// Places the monsters a vault's drawing names on their cells (a kind
    /// not in the bestiary, or `any`, drawn by weight from those living at
    /// the depth), on those of its cells the rules allow.
    pub fn place_guardians(
        &mut self,
        vault: &PlacedVault,
        rng: &mut LevelRng,
        placed: &mut Vec<Placed>,
    ) {
        for (pos, content) in &vault.contents {
            let Content::Monster(name) = content else { continue };
            // A unique lives only where the world's seed puts it.
            let named = name
                .as_deref()
                .and_then(|n| self.bestiary.find(n))
                .filter(|&k| !self.bestiary.kind(k).unique);
            let kind = match named {
                Some(kind) => kind,
                None if self.total > 0 => {
                    crate::tuning::pick(&self.kinds, rng.random_range(0..self.total))
                }
                None => continue,
            };
            let i = self.level.grid.index(*pos);
            if self.allowed[i] && !self.taken[i] {
                self.taken[i] = true;
                placed.push(Placed { kind, pos: *pos });
            }
        }
    }

    /// Draws one group from `rng` (its kind by weight, its size, its
    /// leader's cell) and places it around its leader, at most `most` of it,
    /// into `placed`; nothing when the leader's cell is taken. Must not be
    /// called on a barren habitat.
    pub fn place_group(&mut self, rng: &mut LevelRng, most: usize, placed: &mut Vec<Placed>) {
        let kind = crate::tuning::pick(&self.kinds, rng.random_range(0..self.total));
        let (least, most_of_kind) = self.bestiary.kind(kind).pack;
        let size = rng.random_range(least..=most_of_kind);
        let leader = self.starts[rng.random_range(0..self.starts.len())];
        if self.taken[leader] {
            return;
        }
        self.around.start(leader);
        let (allowed, taken) = (&self.allowed, &mut self.taken);
        for _ in 0..usize::from(size).min(most) {
            let Some(i) = self.around.next_where(|i| allowed[i] && !taken[i]) else { break };
            taken[i] = true;
            placed.push(Placed { kind, pos: self.level.grid.pos_of(i) });
        }
    }
}

impl Habitat<'_> {
    /// Places one monster of `kind` alone, on the free cell nearest a start
    /// drawn from `rng`; nothing when no cell is free.
    pub fn place_alone(&mut self, kind: KindId, rng: &mut LevelRng, placed: &mut Vec<Placed>) {
        if self.starts.is_empty() {
            return;
        }
        let start = self.starts[rng.random_range(0..self.starts.len())];
        self.around.start(start);
        let (allowed, taken) = (&self.allowed, &mut self.taken);
        if let Some(i) = self.around.next_where(|i| allowed[i] && !taken[i]) {
            taken[i] = true;
            placed.push(Placed { kind, pos: self.level.grid.pos_of(i) });
        }
    }
}

/// The open cells around a pack's leader in walking order, nearest first
/// (ties in the order a [`DistanceMap`] walk reaches them), the leader
/// first. A pack member takes the first free cell in that order; a cell
/// passed over once stays unfit (cells are only ever taken), so the next
/// member's search goes on from where the last one stopped, and one walk
/// serves the whole pack. Its buffers serve every pack of the level.
#[derive(Debug)]
struct Around<'a> {
    grid: &'a Grid,
    /// The pack each cell was last reached for.
    seen: Vec<u32>,
    pack: u32,
    /// Cells reached, packed as (y << 16 | x), read from `head` on.
    queue: Vec<u32>,
    head: usize,
}

impl<'a> Around<'a> {
    fn new(grid: &'a Grid) -> Self {
        let cells = grid.cells().len();
        Self { grid, seen: vec![0; cells], pack: 0, queue: Vec::with_capacity(64), head: 0 }
    }

    /// Starts a walk from `leader`, by index.
    fn start(&mut self, leader: usize) {
        self.pack += 1;
        self.queue.clear();
        self.head = 0;
        self.seen[leader] = self.pack;
        let pos = self.grid.pos_of(leader);
        self.queue.push(u32::from(pos.y) << 16 | u32::from(pos.x));
    }

    /// The next cell in walking order that `fit` accepts, by index.
    fn next_where(&mut self, fit: impl Fn(usize) -> bool) -> Option<usize> {
        let (w, h) = (i32::from(self.grid.width()), i32::from(self.grid.height()));
        while let Some(&cell) = self.queue.get(self.head) {
            self.head += 1;
            let (x, y) = ((cell & 0xffff) as i32, (cell >> 16) as i32);
            // Reaching its neighbours before asking about it leaves the
            // queue as a walk that stopped here would go on to fill it.
            for dir in Dir::ALL {
                let (dx, dy) = dir.delta();
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let n = (ny * w + nx) as usize;
                if self.seen[n] != self.pack && self.grid.cells()[n].is_open() {
                    self.seen[n] = self.pack;
                    self.queue.push((ny as u32) << 16 | nx as u32);
                }
            }
            let i = (y * w + x) as usize;
            if fit(i) {
                return Some(i);
            }
        }
        None
    }
}

/// Cells a monster may be placed on, as bits, a row each (bit x for
/// column x): open floor, not stairs, out of sight of the arrival point and
/// at least [`CLEAR_STEPS`] from it.
fn allowed_rows(level: &Level) -> Vec<u128> {
    let walk = &level.walk;
    // Reached cells are open: floor, and the two staircases, of which the
    // arrival is near and the other is struck out below.
    let mut rows: Vec<u128> = walk.reached.iter().zip(&walk.near).map(|(&r, &n)| r & !n).collect();
    // Only cells near the arrival can be in its sight: those the sight
    // holds are struck out, not every cell asked.
    let grid = &level.grid;
    let sight = grid.fov(level.arrival, SIGHT_RADIUS);
    for p in sight.cells().chain([level.stairs_down]).filter(|&p| grid.contains(p)) {
        rows[usize::from(p.y)] &= !(1 << p.x);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapgen::{Generator, build, level_seed};
    use crate::seeds::DepthSeeds;
    use gloam_protocol::Terrain;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn generator() -> impl Strategy<Value = Generator> {
        prop::sample::select(Generator::ALL.to_vec())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Every monster stands on open floor, off the stairs, out of sight of
        /// the arrival and away from it, one to a cell, of a kind living at
        /// the depth (or one a vault names); the same seed places the same
        /// monsters.
        #[test]
        fn monsters_are_placed_fairly_and_deterministically(seed: u64, depth in 1u16..16, generator in generator()) {
            let bestiary = Bestiary::default();
            let level = build(generator, level_seed(seed, depth), depth);
            let placed = populate(&level, &bestiary, DepthSeeds::from_level_seed(level_seed(seed, depth)), depth, &[]);
            let sight = level.grid.fov(level.arrival, SIGHT_RADIUS);
            let mut cells = HashSet::new();
            for m in &placed {
                prop_assert_eq!(level.terrain(m.pos), Terrain::Floor);
                prop_assert!(!sight.sees(m.pos), "{:?} is in sight of the arrival", m);
                prop_assert!(cells.insert(m.pos), "two monsters on {:?}", m.pos);
                // A vault's drawing may name a kind from another depth.
                let named = level.vault.as_ref().is_some_and(|v| v.covers(m.pos));
                prop_assert!(named || bestiary.kind(m.kind).lives_at(depth));
            }
            prop_assert!(!placed.is_empty(), "a level holds monsters");
            prop_assert_eq!(&placed, &populate(&level, &bestiary, DepthSeeds::from_level_seed(level_seed(seed, depth)), depth, &[]));
        }
    }

    #[test]
    fn deeper_levels_hold_more_and_tougher_monsters() {
        let bestiary = Bestiary::default();
        let summary = |depth: u16| {
            let (mut count, mut hp) = (0usize, 0u32);
            for seed in 0..20 {
                let level = build(Generator::Bsp, level_seed(seed, depth), depth);
                for m in populate(
                    &level,
                    &bestiary,
                    DepthSeeds::from_level_seed(level_seed(seed, depth)),
                    depth,
                    &[],
                ) {
                    count += 1;
                    hp += u32::from(bestiary.kind(m.kind).hp);
                }
            }
            (count, hp as f64 / count as f64)
        };
        let (shallow, deep) = (summary(1), summary(10));
        assert!(deep.0 > shallow.0, "more at depth 10: {deep:?} vs {shallow:?}");
        assert!(deep.1 > 2.0 * shallow.1, "tougher at depth 10: {deep:?} vs {shallow:?}");
    }
}
