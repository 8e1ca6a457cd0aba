//! A perfect maze, after the second seed text: a recursive backtracker on a
//! grid of half the map's resolution, so that walls are whole cells. Maze
//! cell (i, j) is map cell (2i + 1, 2j + 1); carving a passage opens the cell
//! between two maze cells. The backtrack list is a real stack (push and pop
//! at its end), not the seed's queue from the front.

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap_cells};
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
    // The cells worked on bare: a grid is made of them at the end (and for
    // each frame when the steps are recorded).
    let w = usize::from(width);
    let mut cells = vec![Terrain::Wall; w * usize::from(height)];
    // Maze cell (i, j) is (i + 1, j + 1) in a grid with a ring of cells
    // marked visited around it, so that no neighbour is off the maze.
    let stride = usize::from(cw) + 2;
    let mut visited = vec![true; stride * (usize::from(ch) + 2)];
    for j in 1..=usize::from(ch) {
        visited[j * stride + 1..j * stride + 1 + usize::from(cw)].fill(false);
    }
    // West, east, north, south: from one maze cell to the next, and from
    // one tile to the next.
    let to_cell = [-1, 1, -(stride as isize), stride as isize];
    let to_tile = [-2, 2, -2 * w as isize, 2 * w as isize];

    let first = (rng.random_range(0..cw), rng.random_range(0..ch));
    let start = Pos::new(2 * first.0 + 1, 2 * first.1 + 1);
    let at = (usize::from(first.1) + 1) * stride + usize::from(first.0) + 1;
    let tile = usize::from(start.y) * w + usize::from(start.x);
    visited[at] = true;
    cells[tile] = Terrain::Floor;
    // (maze cell, tile) of each cell on the way back.
    let mut stack = Vec::with_capacity(visited.len());
    stack.push((at, tile));
    while let Some(&(at, tile)) = stack.last() {
        // The unvisited neighbours in that order, without a branch on each.
        let mut options = [0; 4];
        let mut count = 0;
        for (k, step) in to_cell.into_iter().enumerate() {
            options[count] = k;
            count += usize::from(!visited[at.wrapping_add_signed(step)]);
        }
        if count == 0 {
            stack.pop();
            continue;
        }
        let k = options[rng.random_range(0..count)];
        let next = (at.wrapping_add_signed(to_cell[k]), tile.wrapping_add_signed(to_tile[k]));
        visited[next.0] = true;
        cells[tile.wrapping_add_signed(to_tile[k] / 2)] = Terrain::Floor;
        cells[next.1] = Terrain::Floor;
        stack.push(next);
        // One frame per 40 passages: a whole maze step by step is 740 frames.
        if stack.len() % 40 == 0 {
            snap_cells(&mut steps, width, &cells, || {
                format!("backtracker {} cells deep", stack.len())
            });
        }
    }
    let grid = Grid::from_cells(width, height, cells);
    MazePlan { grid, cells_wide: cw, cells_high: ch, start }
}
