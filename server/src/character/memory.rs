//! What one player knows of one level, and what its client has been told.

use std::collections::BTreeMap;

use gloam_protocol::{CellSet, Disc, FloorChange, Lying, Pos, SightDiff, Terrain};

use crate::fov::Fov;
use crate::level::Level;

/// A player's knowledge of one depth. The server sends every change as soon
/// as it happens, so what the player has seen is also what its client holds:
/// `explored` is every cell whose terrain the client was sent, and `sight`
/// the view the client was last told about.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Memory {
    explored: CellSet,
    sight: Option<Fov>,
    /// The top of every pile it last saw, by cell (what its client draws
    /// there, dim when out of sight).
    floor: BTreeMap<Pos, Lying>,
}

impl Memory {
    /// A memory of the cells in `explored` alone, with nothing in sight
    /// (for tests that draw a memory by hand).
    #[cfg(test)]
    pub(crate) fn from_explored(explored: CellSet) -> Self {
        Self::from_kept(explored, BTreeMap::new())
    }

    /// A memory of the cells in `explored` and the piles on `floor` (as
    /// the store keeps them), with nothing in sight.
    pub(crate) fn from_kept(explored: CellSet, floor: BTreeMap<Pos, Lying>) -> Self {
        Self { explored, sight: None, floor }
    }

    /// The top of every pile it remembers, by cell.
    pub(crate) fn floor(&self) -> &BTreeMap<Pos, Lying> {
        &self.floor
    }

    /// Every cell whose terrain the client was sent.
    pub(crate) fn explored(&self) -> &CellSet {
        &self.explored
    }

    pub fn sight(&self) -> Option<&Fov> {
        self.sight.as_ref()
    }

    /// The client is about to clear its view: nothing is in sight for it now.
    pub(crate) fn forget_sight(&mut self) {
        self.sight = None;
    }

    /// The remembered cells as the `EnterLevel` message carries them: a
    /// row-major bitset (trailing empty bytes dropped) and each set cell's terrain.
    pub(crate) fn recall(&self, level: &Level) -> (Vec<u8>, Vec<Terrain>) {
        let cells = level.grid.cells();
        let terrain = self.explored.iter().filter_map(|i| cells.get(i).copied()).collect();
        (self.explored.to_bytes(), terrain)
    }

    /// Moves the told view to `now` and says what changed: cells that left
    /// sight, known cells back in sight, and cells seen for the first time
    /// (which become explored). Players are left for the caller to fill in.
    pub(crate) fn update_sight(&mut self, level: &Level, disc: &Disc, now: Fov) -> SightDiff {
        let mut diff = SightDiff { at: now.centre(), ..SightDiff::default() };
        // Only the cells that changed are looked at, found a row of bits at
        // a time; each list in the disc's order.
        if let Some(old) = &self.sight {
            let c = old.centre();
            diff.hidden = (old.offsets_not_in(Some(&now)))
                .filter(|&(dx, dy)| c.offset(dx, dy).is_some())
                .filter_map(|(dx, dy)| disc.index(dx, dy))
                .collect();
        }
        let c = now.centre();
        for (dx, dy) in now.offsets_not_in(self.sight.as_ref()) {
            let Some(i) = disc.index(dx, dy) else {
                continue;
            };
            let Some(pos) = c.offset(dx, dy).filter(|&p| level.grid.contains(p)) else {
                continue;
            };
            let index = level.grid.index(pos);
            if self.explored.contains(index) {
                diff.shown.push(i);
            } else {
                self.explored.insert(index);
                diff.revealed.push((i, level.terrain(pos)));
            }
        }
        self.sight = Some(now);
        diff
    }

    /// The piles it remembers, for a client entering the level.
    pub(crate) fn recall_floor(&self) -> Vec<FloorChange> {
        self.floor.iter().map(|(&at, &top)| FloorChange { at, top: Some(top) }).collect()
    }

    /// Looks at the piles in sight now: those on `piles` (every cell with
    /// one) and those it remembers, whose top is `top`. Gives the cells
    /// whose top is not what it last saw there, by cell, and remembers them.
    pub(crate) fn see_floor(
        &mut self,
        piles: impl Iterator<Item = Pos>,
        top: impl Fn(Pos) -> Option<Lying>,
    ) -> Vec<FloorChange> {
        let Some(sight) = &self.sight else { return Vec::new() };
        let mut cells: Vec<Pos> = piles.filter(|&p| sight.sees(p)).collect();
        cells.extend(self.floor.keys().copied().filter(|&p| sight.sees(p)));
        cells.sort_unstable_by_key(|p| (p.y, p.x));
        cells.dedup();
        cells.into_iter().filter_map(|at| self.see_pile(at, top(at))).collect()
    }

    /// Sees `top` on `at` (a cell in sight): the change, if it is one.
    pub(crate) fn see_pile(&mut self, at: Pos, top: Option<Lying>) -> Option<FloorChange> {
        let known = self.floor.get(&at).copied();
        if known == top {
            return None;
        }
        match top {
            Some(top) => self.floor.insert(at, top),
            None => self.floor.remove(&at),
        };
        Some(FloorChange { at, top })
    }

    /// A wand of light: learns the cells of `lit` (those seen from where
    /// it shone), without seeing them. Gives the cells learnt now.
    pub(crate) fn light(&mut self, level: &Level, lit: &Fov) -> CellSet {
        let mut learnt = CellSet::new();
        for pos in lit.cells().filter(|&p| level.grid.contains(p)) {
            let index = level.grid.index(pos);
            if !self.explored.contains(index) {
                self.explored.insert(index);
                learnt.insert(index);
            }
        }
        learnt
    }

    /// Magic mapping: learns every open cell of `level` and every cell
    /// next to one (the walls that outline the rooms), without seeing
    /// them. Gives the cells learnt now, as a set over the level's cells.
    pub(crate) fn map_level(&mut self, level: &Level) -> CellSet {
        let grid = &level.grid;
        let mut learnt = CellSet::new();
        for (pos, terrain) in grid.iter() {
            let index = grid.index(pos);
            if self.explored.contains(index) {
                continue;
            }
            let outlines = || {
                (-1..=1).any(|dy| {
                    (-1..=1).any(|dx| {
                        pos.offset(dx, dy).is_some_and(|n| grid.contains(n) && grid.is_open(n))
                    })
                })
            };
            if terrain.is_open() || outlines() {
                self.explored.insert(index);
                learnt.insert(index);
            }
        }
        learnt
    }

    /// True when the told view includes `pos`.
    pub(crate) fn sees(&self, pos: Pos) -> bool {
        self.sight.as_ref().is_some_and(|s| s.sees(pos))
    }
}
