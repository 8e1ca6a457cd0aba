//! BSP interior, after the second seed text: the map is cut into rooms that
//! fill their pieces and share walls with their neighbours, and every cut
//! gets a door, so the rooms form a tree of doorways.

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap_cells};
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
    steps: Option<&mut Steps>,
) -> (Grid, Pos) {
    let cells = vec![Terrain::Wall; usize::from(width) * usize::from(height)];
    let mut map = Map { width: usize::from(width), cells, rooms: Vec::new(), steps };
    map.split(rng, Piece { x0: 0, y0: 0, x1: width - 1, y1: height - 1 });
    let room = map.rooms[rng.random_range(0..map.rooms.len())];
    let start = Pos::new((room.x0 + room.x1) / 2, (room.y0 + room.y1) / 2);
    (Grid::from_cells(width, height, map.cells), start)
}

/// The map while it is cut: its cells worked on bare (a grid is made of
/// them at the end, and for each frame when the steps are recorded).
struct Map<'a> {
    width: usize,
    cells: Vec<Terrain>,
    rooms: Vec<Piece>,
    steps: Option<&'a mut Steps>,
}

impl Map<'_> {
    fn split(&mut self, rng: &mut LevelRng, p: Piece) {
        let (w, h) = (p.x1 - p.x0 - 1, p.y1 - p.y0 - 1);
        let can_cut_x = w > 2 * MIN_ROOM;
        let can_cut_y = h > 2 * MIN_ROOM;
        // Small pieces sometimes stay whole, so room sizes vary.
        let stop = (w <= SMALL && h <= SMALL && rng.random_bool(0.5)) || (!can_cut_x && !can_cut_y);
        if stop {
            for y in usize::from(p.y0) + 1..usize::from(p.y1) {
                let row = y * self.width;
                self.cells[row + usize::from(p.x0) + 1..row + usize::from(p.x1)]
                    .fill(Terrain::Floor);
            }
            self.rooms.push(p);
            snap_cells(&mut self.steps, self.width as u16, &self.cells, || {
                format!("room {}x{} at ({}, {})", w, h, p.x0 + 1, p.y0 + 1)
            });
            return;
        }
        let across = if can_cut_x && can_cut_y { w < h } else { can_cut_y };
        // The dividing wall's cells by index, and the step across it.
        let (wall, across_step) = if across {
            let c = rng.random_range(p.y0 + 1 + MIN_ROOM..=p.y1 - 1 - MIN_ROOM);
            self.split(rng, Piece { y1: c, ..p });
            self.split(rng, Piece { y0: c, ..p });
            let row = usize::from(c) * self.width;
            ((row + usize::from(p.x0) + 1..row + usize::from(p.x1)).step_by(1), self.width)
        } else {
            let c = rng.random_range(p.x0 + 1 + MIN_ROOM..=p.x1 - 1 - MIN_ROOM);
            self.split(rng, Piece { x1: c, ..p });
            self.split(rng, Piece { x0: c, ..p });
            let (first, last) = (usize::from(p.y0) + 1, usize::from(p.y1));
            let c = usize::from(c);
            ((first * self.width + c..last * self.width + c).step_by(self.width), 1)
        };
        let door = self.door_along(rng, wall, across_step);
        self.cells[door] = Terrain::Floor;
        snap_cells(&mut self.steps, self.width as u16, &self.cells, || "door".into());
    }

    /// A cell of the dividing `wall` (by index) with floor on both sides
    /// (a step of `across` either way), chosen at random.
    fn door_along(
        &self,
        rng: &mut LevelRng,
        wall: std::iter::StepBy<std::ops::Range<usize>>,
        across: usize,
    ) -> usize {
        let open = |i: usize| self.cells[i - across].is_open() && self.cells[i + across].is_open();
        let count = wall.clone().filter(|&i| open(i)).count();
        if count == 0 {
            // Cannot happen with rooms at least 3 wide; the finishing steps
            // would cull whatever this leaves unreachable.
            return wall.clone().next().expect("a dividing wall has cells");
        }
        let k = rng.random_range(0..count);
        wall.filter(|&i| open(i)).nth(k).expect("k is below the count")
    }
}
