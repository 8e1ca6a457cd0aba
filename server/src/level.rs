//! A built level: its terrain and where its stairs and arrival point are.

use std::sync::OnceLock;

use gloam_protocol::walk::{DistanceMap, ROWS_MAX_HEIGHT, ROWS_MAX_WIDTH, RowWalk};
use gloam_protocol::{Pos, Terrain};

use crate::fov::{Fov, Opacity, open_bits};

/// The map size every level has, in cells.
pub const MAP_WIDTH: u16 = 80;
pub const MAP_HEIGHT: u16 = 40;

/// A rectangle of terrain; everything outside it reads as wall.
#[derive(Debug, Clone)]
pub struct Grid {
    width: u16,
    height: u16,
    cells: Vec<Terrain>,
    /// The walls as bits for sight, worked out the first time anyone looks
    /// and forgotten whenever a cell changes.
    opacity: OnceLock<Opacity>,
}

impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height, &self.cells) == (other.width, other.height, &other.cells)
    }
}

impl Eq for Grid {}

impl Grid {
    /// A grid of solid rock.
    pub(crate) fn filled(width: u16, height: u16) -> Self {
        let cells = vec![Terrain::Wall; usize::from(width) * usize::from(height)];
        Self { width, height, cells, opacity: OnceLock::new() }
    }

    /// A grid of `cells`, row by row.
    pub(crate) fn from_cells(width: u16, height: u16, cells: Vec<Terrain>) -> Self {
        assert_eq!(cells.len(), usize::from(width) * usize::from(height), "cells fill the grid");
        Self { width, height, cells, opacity: OnceLock::new() }
    }

    pub fn width(&self) -> u16 {
        self.width
    }

    pub fn height(&self) -> u16 {
        self.height
    }

    pub fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The row-major index of a cell inside the grid.
    pub fn index(&self, pos: Pos) -> usize {
        debug_assert!(self.contains(pos));
        usize::from(pos.y) * usize::from(self.width) + usize::from(pos.x)
    }

    pub fn pos_of(&self, index: usize) -> Pos {
        let w = usize::from(self.width);
        Pos::new((index % w) as u16, (index / w) as u16)
    }

    pub fn get(&self, pos: Pos) -> Terrain {
        if self.contains(pos) { self.cells[self.index(pos)] } else { Terrain::Wall }
    }

    /// True when the cell stops sight: a wall, or anywhere off the grid.
    /// The hot path of every field of view.
    #[inline]
    pub fn blocks_sight(&self, x: i32, y: i32) -> bool {
        // Negative coordinates wrap to huge ones and fail the bounds test.
        let (x, y) = (x as u32 as usize, y as u32 as usize);
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        x >= w || y >= h || self.cells[y * w + x] == Terrain::Wall
    }

    pub(crate) fn set(&mut self, pos: Pos, terrain: Terrain) {
        let i = self.index(pos);
        self.cells[i] = terrain;
        self.opacity.take();
    }

    /// Turns to rock every open cell a walk never reached: `open` is what
    /// [`Grid::open_rows`] gave and `reached` what the walk did.
    pub(crate) fn wall_unreached(&mut self, open: &[u128], reached: &[u128]) {
        let w = usize::from(self.width);
        for (y, (&open, &reached)) in open.iter().zip(reached).enumerate() {
            let mut left = open & !reached;
            while left != 0 {
                self.cells[y * w + left.trailing_zeros() as usize] = Terrain::Wall;
                left &= left - 1;
            }
        }
        self.opacity.take();
    }

    /// Which cells stop sight, as bits.
    pub fn opacity(&self) -> &Opacity {
        self.opacity.get_or_init(|| Opacity::of(self.width, self.height, &self.cells))
    }

    /// What a viewer at `centre` sees within `radius`.
    pub fn fov(&self, centre: Pos, radius: u8) -> Fov {
        if !self.contains(centre) {
            return Fov::compute(centre, radius, |x, y| self.blocks_sight(x, y));
        }
        Fov::in_window(centre, radius, &self.opacity().window(centre))
    }

    pub fn is_open(&self, pos: Pos) -> bool {
        self.get(pos).is_open()
    }

    pub fn cells(&self) -> &[Terrain] {
        &self.cells
    }

    /// Every cell with its position, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (Pos, Terrain)> + '_ {
        self.cells.iter().enumerate().map(|(i, &t)| (self.pos_of(i), t))
    }

    /// Walking distances from `from` over open ground, in the 8 directions
    /// players step in; nothing is reached from a closed cell.
    pub fn walk_from(&self, from: Pos) -> DistanceMap {
        let start = [from];
        let starts: &[Pos] = if self.is_open(from) { &start } else { &[] };
        if self.width > ROWS_MAX_WIDTH || self.height > ROWS_MAX_HEIGHT {
            return DistanceMap::new(self.width, self.height, starts, |i| self.cells[i].is_open());
        }
        DistanceMap::over_rows(self.width, self.height, &self.open_rows(), starts)
    }

    /// The walk from `from` kept as bits, noting the cells fewer than
    /// `near` steps away; `open` is what [`Grid::open_rows`] gave.
    pub(crate) fn walk_rows_from(&self, open: &[u128], from: Pos, near: u16) -> RowWalk {
        let start = [from];
        let starts: &[Pos] = if self.is_open(from) { &start } else { &[] };
        RowWalk::new(self.width, self.height, open, starts, near)
    }

    /// The open cells as bits, a row each (bit x for column x); only for
    /// grids at most [`ROWS_MAX_WIDTH`] cells wide.
    pub(crate) fn open_rows(&self) -> Vec<u128> {
        assert!(self.width <= ROWS_MAX_WIDTH, "a row of {} cells in a u128", self.width);
        self.cells
            .chunks_exact(usize::from(self.width).max(1))
            .map(|row| {
                let (low, high) = row.split_at(row.len().min(64));
                u128::from(open_bits(low)) | u128::from(open_bits(high)) << 64
            })
            .collect()
    }

    /// The map as text, one line per row, with each terrain's glyph.
    pub fn to_ascii(&self) -> String {
        let mut out = String::with_capacity(self.cells.len() + usize::from(self.height));
        for row in self.cells.chunks(usize::from(self.width)) {
            out.extend(row.iter().map(|t| t.glyph()));
            out.push('\n');
        }
        out
    }
}

/// A finished level: every open cell is reachable from `arrival`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    pub grid: Grid,
    /// Where players coming down (or starting, on depth 1) appear; on deeper
    /// levels this is the up staircase.
    pub arrival: Pos,
    /// The down staircase, where players coming up appear.
    pub stairs_down: Pos,
    /// The walk from `arrival` as the finishing steps made it: every open
    /// cell, and those fewer than [`CLEAR_STEPS`] steps from the arrival
    /// (monsters are placed by them).
    ///
    /// [`CLEAR_STEPS`]: ../mapgen/populate/constant.CLEAR_STEPS.html
    pub walk: RowWalk,
    /// The vault cut into it, if any, with what lies in it.
    pub vault: Option<crate::mapgen::PlacedVault>,
}

impl Level {
    pub fn width(&self) -> u16 {
        self.grid.width()
    }

    pub fn height(&self) -> u16 {
        self.grid.height()
    }

    pub fn terrain(&self, pos: Pos) -> Terrain {
        self.grid.get(pos)
    }
}
