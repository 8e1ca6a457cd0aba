//! Walking distances: one breadth-first search shared by every generator.

use gloam_protocol::{Dir, Pos};

use crate::level::Grid;

/// What a cell no walk reaches is given.
pub const UNREACHABLE: u16 = u16::MAX;

/// Steps from `from` to every cell, walking in 8 directions over open ground
/// (as players do), or [`UNREACHABLE`].
pub fn walking_distances(grid: &Grid, from: Pos) -> Vec<u16> {
    let cells = grid.cells();
    let mut dist = vec![UNREACHABLE; cells.len()];
    if !grid.contains(from) || !grid.is_open(from) {
        return dist;
    }
    let (w, h) = (usize::from(grid.width()), usize::from(grid.height()));
    let row = w as isize;
    let steps = [-row - 1, -row, -row + 1, -1, 1, row - 1, row, row + 1];
    // Every cell enters the queue at most once, so a Vec read from the front
    // by an index is the whole queue.
    let mut queue: Vec<u32> = Vec::with_capacity(cells.len() / 2);
    let start = grid.index(from);
    dist[start] = 0;
    queue.push(start as u32);
    let mut head = 0;
    while let Some(&i) = queue.get(head) {
        head += 1;
        let i = i as usize;
        let next = dist[i] + 1;
        let (x, y) = (i % w, i / w);
        if x > 0 && y > 0 && x + 1 < w && y + 1 < h {
            // Inside the border every neighbour index is valid.
            for step in steps {
                let n = i.wrapping_add_signed(step);
                if dist[n] == UNREACHABLE && cells[n].is_open() {
                    dist[n] = next;
                    queue.push(n as u32);
                }
            }
        } else {
            for dir in Dir::ALL {
                let Some(n) = grid.pos_of(i).step(dir).filter(|&n| grid.contains(n)) else {
                    continue;
                };
                let n = grid.index(n);
                if dist[n] == UNREACHABLE && cells[n].is_open() {
                    dist[n] = next;
                    queue.push(n as u32);
                }
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
    fn open_cells_on_the_edge_are_walked_without_stepping_off() {
        let grid = grid_from(&["...", "...", "..."]);
        let dist = walking_distances(&grid, Pos::new(0, 0));
        assert_eq!(dist[grid.index(Pos::new(2, 2))], 2);
        assert!(dist.iter().all(|&d| d != UNREACHABLE));
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
