//! A perfect maze, after the second seed text: a recursive backtracker on a
//! grid of half the map's resolution, so that walls are whole cells. Maze
//! cell (i, j) is map cell (2i + 1, 2j + 1); carving a passage opens the cell
//! between two maze cells. The backtrack list is a real stack (push and pop
//! at its end), not the seed's queue from the front.

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap};
use crate::level::Grid;

#[derive(Debug, Clone)]
pub struct MazePlan {
    pub grid: Grid,
    /// Maze cells across and down.
    pub cells_wide: u16,
    pub cells_high: u16,
    /// Where the walk began: a maze cell chosen at random.
    pub start: Pos,
}

pub fn carve(
    rng: &mut LevelRng,
    width: u16,
    height: u16,
    mut steps: Option<&mut Steps>,
) -> MazePlan {
    let (cw, ch) = ((width - 1) / 2, (height - 1) / 2);
    let mut grid = Grid::filled(width, height);
    let mut visited = vec![false; usize::from(cw) * usize::from(ch)];
    let cell_index = |(i, j): (u16, u16)| usize::from(j) * usize::from(cw) + usize::from(i);
    let tile = |(i, j): (u16, u16)| Pos::new(2 * i + 1, 2 * j + 1);

    let first = (rng.random_range(0..cw), rng.random_range(0..ch));
    visited[cell_index(first)] = true;
    grid.set(tile(first), Terrain::Floor);
    let mut stack = vec![first];
    let mut options = Vec::with_capacity(4);
    while let Some(&(i, j)) = stack.last() {
        options.clear();
        if i > 0 {
            options.push((i - 1, j));
        }
        if i + 1 < cw {
            options.push((i + 1, j));
        }
        if j > 0 {
            options.push((i, j - 1));
        }
        if j + 1 < ch {
            options.push((i, j + 1));
        }
        options.retain(|&c| !visited[cell_index(c)]);
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let next = options[rng.random_range(0..options.len())];
        visited[cell_index(next)] = true;
        let (a, b) = (tile((i, j)), tile(next));
        grid.set(Pos::new((a.x + b.x) / 2, (a.y + b.y) / 2), Terrain::Floor);
        grid.set(b, Terrain::Floor);
        stack.push(next);
        // One frame per 40 passages: a whole maze step by step is 740 frames.
        if stack.len() % 40 == 0 {
            snap(&mut steps, &grid, || format!("backtracker {} cells deep", stack.len()));
        }
    }
    MazePlan { grid, cells_wide: cw, cells_high: ch, start: tile(first) }
}
