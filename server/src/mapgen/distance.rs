//! Walking distances: one breadth-first search shared by every generator.

use std::collections::VecDeque;

use gloam_protocol::{Dir, Pos};

use crate::level::Grid;

/// What a cell no walk reaches is given.
pub const UNREACHABLE: u16 = u16::MAX;

/// Steps from `from` to every cell, walking in 8 directions over open ground
/// (as players do), or [`UNREACHABLE`].
pub fn walking_distances(grid: &Grid, from: Pos) -> Vec<u16> {
    let mut dist = vec![UNREACHABLE; grid.cells().len()];
    if !grid.is_open(from) {
        return dist;
    }
    let mut queue = VecDeque::with_capacity(grid.cells().len() / 4);
    dist[grid.index(from)] = 0;
    queue.push_back(from);
    while let Some(pos) = queue.pop_front() {
        let next = dist[grid.index(pos)] + 1;
        for dir in Dir::ALL {
            let Some(n) = pos.step(dir) else { continue };
            if !grid.contains(n) || !grid.is_open(n) {
                continue;
            }
            let i = grid.index(n);
            if dist[i] == UNREACHABLE {
                dist[i] = next;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The reachable cell farthest from where `dist` was measured; ties go to the
/// first in row-major order, so the choice is deterministic.
pub fn farthest(grid: &Grid, dist: &[u16]) -> Option<Pos> {
    let mut best: Option<(u16, usize)> = None;
    for (i, &d) in dist.iter().enumerate() {
        if d != UNREACHABLE && best.is_none_or(|(b, _)| d > b) {
            best = Some((d, i));
        }
    }
    best.map(|(_, i)| grid.pos_of(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gloam_protocol::Terrain;

    fn grid_from(rows: &[&str]) -> Grid {
        let mut grid = Grid::filled(rows[0].len() as u16, rows.len() as u16);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == '.' {
                    grid.set(Pos::new(x as u16, y as u16), Terrain::Floor);
                }
            }
        }
        grid
    }

    #[test]
    fn diagonal_steps_count_as_one() {
        let grid = grid_from(&["#####", "#...#", "#...#", "#...#", "#####"]);
        let dist = walking_distances(&grid, Pos::new(1, 1));
        assert_eq!(dist[grid.index(Pos::new(3, 3))], 2);
        assert_eq!(farthest(&grid, &dist), Some(Pos::new(3, 1)));
    }

    #[test]
    fn walls_make_the_walk_longer_and_pockets_unreachable() {
        let grid = grid_from(&["#########", "#..#..#.#", "##.#.####", "#.....#.#", "#########"]);
        let dist = walking_distances(&grid, Pos::new(1, 1));
        assert_eq!(dist[grid.index(Pos::new(5, 1))], 4);
        assert_eq!(dist[grid.index(Pos::new(7, 1))], UNREACHABLE, "a closed pocket");
        assert_eq!(dist[grid.index(Pos::new(7, 3))], UNREACHABLE, "a closed pocket");
    }
}
