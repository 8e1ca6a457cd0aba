//! Cellular-automata caves, after the second seed text: fill the map with
//! random rock and floor, smooth it a few times (a cell becomes rock when
//! most of its neighbours are), and keep the largest cave; the finishing
//! steps turn every other pocket to rock.
//!
//! The map is worked on as one bitset of rock per row: a smoothing pass
//! counts every cell's rocky neighbours at once with bit-sliced adders, and
//! the caves are found as runs of floor joined row to row.

use gloam_protocol::{Pos, Terrain};
use rand::distr::{Bernoulli, Distribution};

use super::LevelRng;
use super::bits::Count;
use super::steps::{Steps, snap};
use crate::level::Grid;

const FLOOR_CHANCE: f64 = 0.55;
const PASSES: usize = 5;

/// Rock, bit `x` of row `y` for the cell (x, y); rows are at most 128 cells.
type Rock = Vec<u128>;

pub(crate) fn carve(
    rng: &mut LevelRng,
    width: u16,
    height: u16,
    mut steps: Option<&mut Steps>,
) -> (Grid, Pos) {
    let (w, h) = (usize::from(width), usize::from(height));
    assert!(w <= 128, "caves are carved in rows of at most 128 cells");
    let mut rock: Rock = vec![u128::MAX; h];
    // The same draws as a `random_bool` a cell, without a branch on each.
    let floor_chance = Bernoulli::new(FLOOR_CHANCE).expect("a probability");
    for row in rock.iter_mut().take(h - 1).skip(1) {
        let mut floor = 0u128;
        for x in 1..w - 1 {
            floor |= u128::from(floor_chance.sample(rng)) << x;
        }
        *row &= !floor;
    }
    if steps.is_some() {
        snap(&mut steps, &grid_of(&rock, width, height), || "random fill".into());
    }
    // Only the inside is smoothed: the rim stays rock.
    let inside = (u128::MAX >> (128 - (w - 1))) & !1;
    for pass in 1..=PASSES {
        rock = smoothed(&rock, inside);
        if steps.is_some() {
            snap(&mut steps, &grid_of(&rock, width, height), || format!("smoothing pass {pass}"));
        }
    }
    let mut grid = grid_of(&rock, width, height);
    let start = largest_cave(&rock, w).unwrap_or_else(|| {
        // A map with no floor at all: open one cell so the level exists.
        let c = Pos::new(width / 2, height / 2);
        grid.set(c, Terrain::Floor);
        c
    });
    (grid, start)
}

/// One pass: a cell inside becomes rock when five or more of its eight
/// neighbours are, floor when three or fewer are, and stays as it was on four.
fn smoothed(rock: &Rock, inside: u128) -> Rock {
    let mut next = rock.clone();
    for y in 1..rock.len() - 1 {
        let b = rock[y];
        let count = Count::around(rock[y - 1], b, rock[y + 1]);
        let smoothed = count.at_least(5) | count.exactly(4) & b;
        next[y] = smoothed & inside | b & !inside;
    }
    next
}

fn grid_of(rock: &Rock, width: u16, height: u16) -> Grid {
    let w = usize::from(width);
    let mut cells = Vec::with_capacity(w * usize::from(height));
    for &row in rock {
        cells.extend((0..w).map(|x| [Terrain::Floor, Terrain::Wall][(row >> x & 1) as usize]));
    }
    Grid::from_cells(width, height, cells)
}

/// The first cell (in row order) of the largest 8-connected stretch of
/// floor, ties going to the one whose first cell comes first. Runs of floor
/// along each row are joined to the runs they touch in the row above.
fn largest_cave(rock: &Rock, w: usize) -> Option<Pos> {
    // (row, first x, last x) of every run, in row order.
    let mut runs: Vec<(usize, u32, u32)> = Vec::new();
    let mut joined = Joins::default();
    let mut above = 0..0;
    let floor_mask = u128::MAX >> (128 - w);
    for (y, &row) in rock.iter().enumerate() {
        let floor = !row & floor_mask;
        let (mut firsts, mut lasts) = (floor & !(floor << 1), floor & !(floor >> 1));
        let here = runs.len()..runs.len();
        let mut here_end = here.start;
        let mut look = above.start;
        while firsts != 0 {
            let (first, last) = (firsts.trailing_zeros(), lasts.trailing_zeros());
            firsts &= firsts - 1;
            lasts &= lasts - 1;
            let me = runs.len();
            runs.push((y, first, last));
            joined.add();
            here_end += 1;
            // Runs above that end left of this one's reach touch nothing later.
            while look < above.end && runs[look].2 + 1 < first {
                look += 1;
            }
            let mut k = look;
            while k < above.end && runs[k].1 <= last + 1 {
                joined.union(k, me);
                k += 1;
            }
        }
        above = here.start..here_end;
    }
    let mut size = vec![0u32; runs.len()];
    for (i, &(_, first, last)) in runs.iter().enumerate() {
        size[joined.root(i)] += last - first + 1;
    }
    let mut best: Option<(u32, usize)> = None;
    for (i, &s) in size.iter().enumerate() {
        if s > 0 && best.is_none_or(|(b, _)| s > b) {
            best = Some((s, i));
        }
    }
    best.map(|(_, i)| Pos::new(runs[i].1 as u16, runs[i].0 as u16))
}

/// Union-find over runs; a set's root is its earliest run.
#[derive(Default)]
struct Joins {
    parent: Vec<usize>,
}

impl Joins {
    fn add(&mut self) {
        self.parent.push(self.parent.len());
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        let (low, high) = (ra.min(rb), ra.max(rb));
        self.parent[high] = low;
    }
}
