//! Cellular-automata caves, after the second seed text: fill the map with
//! random rock and floor, smooth it a few times (a cell becomes rock when
//! most of its neighbours are), and keep the largest cave; the finishing
//! steps turn every other pocket to rock.

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap};
use crate::level::Grid;

const FLOOR_CHANCE: f64 = 0.55;
const PASSES: usize = 5;

pub fn carve(
    rng: &mut LevelRng,
    width: u16,
    height: u16,
    mut steps: Option<&mut Steps>,
) -> (Grid, Pos) {
    let mut grid = Grid::filled(width, height);
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            if rng.random_bool(FLOOR_CHANCE) {
                grid.set(Pos::new(x, y), Terrain::Floor);
            }
        }
    }
    snap(&mut steps, &grid, || "random fill".into());
    for pass in 1..=PASSES {
        let before = grid.clone();
        for y in 1..height - 1 {
            for x in 1..width - 1 {
                let walls = (-1..=1)
                    .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
                    .filter(|&(dx, dy)| (dx, dy) != (0, 0))
                    .filter(|&(dx, dy)| before.blocks_sight(i32::from(x) + dx, i32::from(y) + dy))
                    .count();
                let t = if walls > 4 {
                    Terrain::Wall
                } else if walls < 4 {
                    Terrain::Floor
                } else {
                    before.get(Pos::new(x, y))
                };
                grid.set(Pos::new(x, y), t);
            }
        }
        snap(&mut steps, &grid, || format!("smoothing pass {pass}"));
    }
    let start = largest_cave(&grid).unwrap_or_else(|| {
        // A map with no floor at all: open one cell so the level exists.
        let c = Pos::new(width / 2, height / 2);
        grid.set(c, Terrain::Floor);
        c
    });
    (grid, start)
}

/// A cell of the largest 8-connected open region (its first in row order).
fn largest_cave(grid: &Grid) -> Option<Pos> {
    let mut region = vec![u32::MAX; grid.cells().len()];
    let mut best: Option<(usize, Pos)> = None;
    for (i, t) in grid.cells().iter().enumerate() {
        if !t.is_open() || region[i] != u32::MAX {
            continue;
        }
        let dist = super::distance::walking_distances(grid, grid.pos_of(i));
        let size = dist.iter().filter(|&&d| d != super::distance::UNREACHABLE).count();
        for (j, d) in dist.iter().enumerate() {
            if *d != super::distance::UNREACHABLE {
                region[j] = i as u32;
            }
        }
        if best.is_none_or(|(s, _)| size > s) {
            best = Some((size, grid.pos_of(i)));
        }
    }
    best.map(|(_, p)| p)
}
