//! BSP interior, after the second seed text: the map is cut into rooms that
//! fill their pieces and share walls with their neighbours, and every cut
//! gets a door, so the rooms form a tree of doorways.

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap};
use crate::level::Grid;

/// A room's inside is at least this many cells across.
const MIN_ROOM: u16 = 3;
/// Pieces at most this wide and tall are not cut further... usually.
const SMALL: u16 = 9;

/// The walls of a piece: x0 and x1 are wall columns, y0 and y1 wall rows.
#[derive(Debug, Clone, Copy)]
struct Piece {
    x0: u16,
    y0: u16,
    x1: u16,
    y1: u16,
}

pub(crate) fn carve(
    rng: &mut LevelRng,
    width: u16,
    height: u16,
    mut steps: Option<&mut Steps>,
) -> (Grid, Pos) {
    let mut grid = Grid::filled(width, height);
    let mut rooms = Vec::new();
    split(
        &mut grid,
        rng,
        Piece { x0: 0, y0: 0, x1: width - 1, y1: height - 1 },
        &mut rooms,
        &mut steps,
    );
    let room = rooms[rng.random_range(0..rooms.len())];
    let start = Pos::new((room.x0 + room.x1) / 2, (room.y0 + room.y1) / 2);
    (grid, start)
}

fn split(
    grid: &mut Grid,
    rng: &mut LevelRng,
    p: Piece,
    rooms: &mut Vec<Piece>,
    steps: &mut Option<&mut Steps>,
) {
    let (w, h) = (p.x1 - p.x0 - 1, p.y1 - p.y0 - 1);
    let can_cut_x = w > 2 * MIN_ROOM;
    let can_cut_y = h > 2 * MIN_ROOM;
    // Small pieces sometimes stay whole, so room sizes vary.
    let stop = (w <= SMALL && h <= SMALL && rng.random_bool(0.5)) || (!can_cut_x && !can_cut_y);
    if stop {
        for y in p.y0 + 1..p.y1 {
            for x in p.x0 + 1..p.x1 {
                grid.set(Pos::new(x, y), Terrain::Floor);
            }
        }
        rooms.push(p);
        snap(steps, grid, || format!("room {}x{} at ({}, {})", w, h, p.x0 + 1, p.y0 + 1));
        return;
    }
    let across = if can_cut_x && can_cut_y { w < h } else { can_cut_y };
    if across {
        let c = rng.random_range(p.y0 + 1 + MIN_ROOM..=p.y1 - 1 - MIN_ROOM);
        split(grid, rng, Piece { y1: c, ..p }, rooms, steps);
        split(grid, rng, Piece { y0: c, ..p }, rooms, steps);
        let door = door_along(
            grid,
            rng,
            (p.x0 + 1..p.x1).map(|x| (Pos::new(x, c), Pos::new(x, c - 1), Pos::new(x, c + 1))),
        );
        grid.set(door, Terrain::Floor);
    } else {
        let c = rng.random_range(p.x0 + 1 + MIN_ROOM..=p.x1 - 1 - MIN_ROOM);
        split(grid, rng, Piece { x1: c, ..p }, rooms, steps);
        split(grid, rng, Piece { x0: c, ..p }, rooms, steps);
        let door = door_along(
            grid,
            rng,
            (p.y0 + 1..p.y1).map(|y| (Pos::new(c, y), Pos::new(c - 1, y), Pos::new(c + 1, y))),
        );
        grid.set(door, Terrain::Floor);
    }
    snap(steps, grid, || "door".into());
}

/// A cell of the dividing wall with floor on both sides, chosen at random.
fn door_along(grid: &Grid, rng: &mut LevelRng, wall: impl Iterator<Item = (Pos, Pos, Pos)>) -> Pos {
    let mut fallback = None;
    let options: Vec<Pos> = wall
        .inspect(|&(cell, _, _)| {
            fallback.get_or_insert(cell);
        })
        .filter(|&(_, a, b)| grid.is_open(a) && grid.is_open(b))
        .map(|(cell, _, _)| cell)
        .collect();
    if options.is_empty() {
        // Cannot happen with rooms at least 3 wide; the finishing steps
        // would cull whatever this leaves unreachable.
        return fallback.expect("a dividing wall has cells");
    }
    options[rng.random_range(0..options.len())]
}
