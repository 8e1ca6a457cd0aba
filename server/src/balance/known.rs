//! What a character knows of a level, in the forms its walking wants: the
//! open cells it explored, as rows of bits (for the walk by waves), and
//! the edge of them, the open cells next to a cell it has not explored,
//! where exploring goes on. Worked out again only when it learns a cell,
//! which most rounds it does not (it fights, rests or walks over known
//! ground).

use gloam_protocol::walk::{DistanceMap, ROWS_MAX_HEIGHT, ROWS_MAX_WIDTH};
use gloam_protocol::{CellSet, Pos};

use crate::level::Level;

#[derive(Debug, Default)]
pub(super) struct Known {
    /// The explored cells when the rest was last worked out.
    explored: CellSet,
    /// Bit `x` of row `y`: cell (x, y) is open and explored.
    open: Vec<u128>,
    edge: Vec<Pos>,
}

impl Known {
    /// Takes in what it has explored of `level` now; true when that is
    /// more than before.
    pub(super) fn update(&mut self, level: &Level, explored: &CellSet) -> bool {
        if *explored == self.explored && !self.open.is_empty() {
            return false;
        }
        self.explored = explored.clone();
        let grid = &level.grid;
        let (w, h) = (usize::from(grid.width()), usize::from(grid.height()));
        let mut known = vec![0u128; h];
        for i in explored.iter().filter(|&i| i < w * h) {
            known[i / w] |= 1 << (i % w);
        }
        let all = if w >= 128 { u128::MAX } else { (1 << w) - 1 };
        // A cell is on the edge when it or a neighbour is unknown.
        let near = |row: u128| row | row << 1 | row >> 1;
        let unknown = |y: usize| known.get(y).map_or(0, |k| near(!k & all) & all);
        self.open = grid.open_rows().iter().zip(&known).map(|(open, known)| open & known).collect();
        self.edge.clear();
        for (y, &open) in self.open.iter().enumerate() {
            let mut edge = open & (unknown(y.wrapping_sub(1)) | unknown(y) | unknown(y + 1));
            while edge != 0 {
                self.edge.push(Pos::new(edge.trailing_zeros() as u16, y as u16));
                edge &= edge - 1;
            }
        }
        true
    }

    /// The cells of the edge.
    pub(super) fn edge(&self) -> impl Iterator<Item = Pos> + '_ {
        self.edge.iter().copied()
    }

    /// Walking distances from `from` over the open cells it knows.
    pub(super) fn walk_from(&self, level: &Level, from: Pos) -> DistanceMap {
        let (w, h) = (level.width(), level.height());
        if w <= ROWS_MAX_WIDTH && h <= ROWS_MAX_HEIGHT {
            return DistanceMap::over_rows(w, h, &self.open, &[from]);
        }
        let open = |i: usize| self.explored.contains(i) && level.grid.cells()[i].is_open();
        DistanceMap::new(w, h, &[from], open)
    }
}
