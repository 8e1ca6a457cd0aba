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

pub(crate) fn carve(
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
    let (w, h) = (usize::from(width), usize::from(height));
    let mut wall = vec![0u8; w * h];
    for pass in 1..=PASSES {
        for (i, t) in grid.cells().iter().enumerate() {
            wall[i] = u8::from(*t == Terrain::Wall);
        }
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                let i = y * w + x;
                let walls = wall[i - w - 1]
                    + wall[i - w]
                    + wall[i - w + 1]
                    + wall[i - 1]
                    + wall[i + 1]
                    + wall[i + w - 1]
                    + wall[i + w]
                    + wall[i + w + 1];
                let t = match walls {
                    5.. => Terrain::Wall,
                    4 => grid.cells()[i],
                    _ => Terrain::Floor,
                };
                grid.set(Pos::new(x as u16, y as u16), t);
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

/// A cell of the largest 8-connected open region (its first in row order),
/// found with one flood fill over the whole map.
fn largest_cave(grid: &Grid) -> Option<Pos> {
    let (w, h) = (usize::from(grid.width()), usize::from(grid.height()));
    let cells = grid.cells();
    let mut seen = vec![false; cells.len()];
    let mut stack = Vec::with_capacity(cells.len() / 2);
    let mut best: Option<(usize, usize)> = None;
    for first in 0..cells.len() {
        if seen[first] || !cells[first].is_open() {
            continue;
        }
        seen[first] = true;
        stack.push(first);
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = (i % w, i / w);
            for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                    let n = ny * w + nx;
                    if !seen[n] && cells[n].is_open() {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        if best.is_none_or(|(s, _)| size > s) {
            best = Some((size, first));
        }
    }
    best.map(|(_, i)| grid.pos_of(i))
}
