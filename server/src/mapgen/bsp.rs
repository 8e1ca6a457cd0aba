//! Rooms and corridors by binary space partitioning, after the first seed
//! text: cut the map across its longer side until the pieces are small or
//! deep enough, put a room inside each piece, and chain the rooms with
//! L-shaped corridors in the order they were made.

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap};
use crate::level::Grid;

/// Every cut leaves at least this many cells on each side.
pub const MIN_LEAF: u16 = 10;
/// No piece is cut more often than this, counting from the whole map.
pub(crate) const MAX_CUTS: u32 = 6;
pub const MIN_ROOM_W: u16 = 4;
pub const MIN_ROOM_H: u16 = 3;

/// A rectangle of cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x: u16,
    pub y: u16,
    pub w: u16,
    pub h: u16,
}

impl Rect {
    pub(crate) fn centre(self) -> Pos {
        Pos::new(self.x + self.w / 2, self.y + self.h / 2)
    }

    /// True when `inner` lies inside `self` with at least `margin` cells to spare on every side.
    pub fn holds_with_margin(self, inner: Rect, margin: u16) -> bool {
        inner.x >= self.x + margin
            && inner.y >= self.y + margin
            && inner.x + inner.w + margin <= self.x + self.w
            && inner.y + inner.h + margin <= self.y + self.h
    }

    pub fn overlaps(self, other: Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }
}

/// What the BSP builder made, kept apart so tests can check its rules.
#[derive(Debug, Clone)]
pub struct BspPlan {
    pub grid: Grid,
    /// The pieces that got rooms, in the order the rooms were made.
    pub leaves: Vec<Rect>,
    /// One room per leaf, same order.
    pub rooms: Vec<Rect>,
    /// The middle of a room chosen at random.
    pub start: Pos,
}

pub fn carve(
    rng: &mut LevelRng,
    width: u16,
    height: u16,
    mut steps: Option<&mut Steps>,
) -> BspPlan {
    let mut plan = BspPlan {
        grid: Grid::filled(width, height),
        leaves: Vec::new(),
        rooms: Vec::new(),
        start: Pos::default(),
    };
    split(&mut plan, rng, Rect { x: 0, y: 0, w: width, h: height }, 0, &mut steps);
    for i in 1..plan.rooms.len() {
        let (from, to) = (plan.rooms[i - 1].centre(), plan.rooms[i].centre());
        carve_corridor(&mut plan.grid, rng, from, to);
        snap(&mut steps, &plan.grid, || format!("corridor from room {i} to room {}", i + 1));
    }
    plan.start = plan.rooms[rng.random_range(0..plan.rooms.len())].centre();
    plan
}

fn split(
    plan: &mut BspPlan,
    rng: &mut LevelRng,
    area: Rect,
    cuts: u32,
    steps: &mut Option<&mut Steps>,
) {
    let across = area.h > area.w;
    let length = if across { area.h } else { area.w };
    if cuts >= MAX_CUTS || length < 2 * MIN_LEAF {
        add_room(plan, rng, area);
        snap(steps, &plan.grid, || {
            format!("room {} in a {}x{} piece", plan.rooms.len(), area.w, area.h)
        });
        return;
    }
    let cut = rng.random_range(MIN_LEAF..=length - MIN_LEAF);
    let (first, second) = if across {
        (Rect { h: cut, ..area }, Rect { y: area.y + cut, h: area.h - cut, ..area })
    } else {
        (Rect { w: cut, ..area }, Rect { x: area.x + cut, w: area.w - cut, ..area })
    };
    split(plan, rng, first, cuts + 1, steps);
    split(plan, rng, second, cuts + 1, steps);
}

/// A room of random size inside `area`, with at least one wall cell between
/// it and the area's edge, so rooms in neighbouring areas never touch.
fn add_room(plan: &mut BspPlan, rng: &mut LevelRng, area: Rect) {
    let w = rng.random_range(MIN_ROOM_W..=area.w - 2);
    let h = rng.random_range(MIN_ROOM_H..=area.h - 2);
    let x = rng.random_range(area.x + 1..=area.x + area.w - w - 1);
    let y = rng.random_range(area.y + 1..=area.y + area.h - h - 1);
    let room = Rect { x, y, w, h };
    carve_box(&mut plan.grid, Pos::new(x, y), Pos::new(x + w - 1, y + h - 1));
    plan.leaves.push(area);
    plan.rooms.push(room);
}

/// Two straight runs with a corner between them, the corner picked by a coin toss.
fn carve_corridor(grid: &mut Grid, rng: &mut LevelRng, from: Pos, to: Pos) {
    let corner = if rng.random_bool(0.5) { Pos::new(to.x, from.y) } else { Pos::new(from.x, to.y) };
    carve_box(grid, from, corner);
    carve_box(grid, corner, to);
}

/// Turns every cell of the box with corners `a` and `b` into floor.
fn carve_box(grid: &mut Grid, a: Pos, b: Pos) {
    for y in a.y.min(b.y)..=a.y.max(b.y) {
        for x in a.x.min(b.x)..=a.x.max(b.x) {
            grid.set(Pos::new(x, y), Terrain::Floor);
        }
    }
}
