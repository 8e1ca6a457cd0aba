//! Who stands on each cell of a depth, looked up by the cell's place in a
//! grid: the players near a viewer are found by a look at each cell it
//! sees, a few hundred a look in a crowd, and a hash map's look-up was
//! most of what that cost. The map beside the grid is what is counted,
//! walked and written in a snapshot, in the order it always was.

use gloam_protocol::{PlayerId, Pos};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::occupancy::CellMap;

/// The grid grows by this many cells at least, across or down.
const GROW: usize = 16;

/// The cells players stand on, each with the one named there.
#[derive(Debug, Clone, Default)]
pub(crate) struct Standing {
    map: CellMap<PlayerId>,
    /// The same, by `y * width + x`, over the cells from (0, 0) to the
    /// farthest one named so far (it grows to hold a new one).
    grid: Vec<Option<PlayerId>>,
    width: usize,
}

impl Standing {
    pub(crate) fn get(&self, pos: Pos) -> Option<PlayerId> {
        self.grid.get(self.slot(pos)?).copied().flatten()
    }

    pub(crate) fn insert(&mut self, pos: Pos, id: PlayerId) {
        self.map.insert(pos, id);
        let at = self.index_growing(pos);
        self.grid[at] = Some(id);
    }

    pub(crate) fn remove(&mut self, pos: Pos) {
        if self.map.remove(&pos).is_some()
            && let Some(at) = self.slot(pos)
        {
            self.grid[at] = None;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (Pos, PlayerId)> + '_ {
        self.map.iter().map(|(&pos, &id)| (pos, id))
    }

    /// Where `pos` is in a grid this wide (`None` past its side: the grid
    /// may yet be too short for it, and `get` finds nothing there).
    fn slot(&self, pos: Pos) -> Option<usize> {
        let x = usize::from(pos.x);
        (x < self.width).then(|| usize::from(pos.y) * self.width + x)
    }

    /// Where `pos` is in the grid, once the grid holds it.
    fn index_growing(&mut self, pos: Pos) -> usize {
        let (x, y) = (usize::from(pos.x), usize::from(pos.y));
        let height = self.grid.len().checked_div(self.width).unwrap_or(0);
        if x >= self.width || y >= height {
            // Grown a few cells at a time: players exploring outward would
            // otherwise make it anew at each step past its edge.
            let grown = |n: usize, now: usize| (n + 1).max(now).next_multiple_of(GROW);
            self.regrid(grown(x, self.width), grown(y, height));
        }
        y * self.width + x
    }

    /// The grid made anew, `width` by `height`, from the map.
    fn regrid(&mut self, width: usize, height: usize) {
        self.width = width;
        self.grid = vec![None; width * height];
        for (&pos, &id) in &self.map {
            if usize::from(pos.x) < width && usize::from(pos.y) < height {
                self.grid[usize::from(pos.y) * width + usize::from(pos.x)] = Some(id);
            }
        }
    }

    /// Built from its map (as a snapshot holds it).
    fn of(map: CellMap<PlayerId>) -> Self {
        let width = map.keys().map(|p| usize::from(p.x) + 1).max().unwrap_or(0);
        let height = map.keys().map(|p| usize::from(p.y) + 1).max().unwrap_or(0);
        let mut standing = Self { map, grid: Vec::new(), width: 0 };
        standing.regrid(width, height);
        standing
    }
}

impl Serialize for Standing {
    fn serialize<S: Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        super::snapshot::in_order(&self.map, to)
    }
}

impl<'de> Deserialize<'de> for Standing {
    fn deserialize<D: Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        CellMap::deserialize(from).map(Self::of)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Whatever is put and taken, the grid answers as the map does,
        /// and one read back from its bytes answers the same.
        #[test]
        fn the_grid_answers_as_the_map(ops in prop::collection::vec((0u16..90, 0u16..60, 0u32..20, any::<bool>()), 0..200)) {
            let mut standing = Standing::default();
            let mut map: CellMap<PlayerId> = CellMap::default();
            for (x, y, id, put) in ops {
                let pos = Pos::new(x, y);
                if put {
                    standing.insert(pos, PlayerId(id));
                    map.insert(pos, PlayerId(id));
                } else {
                    standing.remove(pos);
                    map.remove(&pos);
                }
            }
            let bytes = gloam_protocol::codec::encode(&standing);
            let read: Standing = gloam_protocol::codec::decode_snapshot(&bytes).unwrap();
            for x in 0..95 {
                for y in 0..65 {
                    let pos = Pos::new(x, y);
                    prop_assert_eq!(standing.get(pos), map.get(&pos).copied());
                    prop_assert_eq!(read.get(pos), map.get(&pos).copied());
                }
            }
            prop_assert_eq!(standing.len(), map.len());
        }
    }
}
