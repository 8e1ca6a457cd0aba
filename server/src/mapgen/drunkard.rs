//! Drunkard's walks, after the second seed text: walkers stagger about
//! carving floor until enough of the map is open. Three moods: one open
//! area dug from the middle, open halls dug from anywhere already open, and
//! winding passages dug by short-lived walkers.

use gloam_protocol::{Dir, Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap_cells};
use crate::level::Grid;

/// How a drunkard's walk behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mood {
    /// Every walker starts from the middle (else from a random open cell).
    pub from_centre: bool,
    /// Steps a walker takes before it gives up.
    pub lifetime: u32,
    /// The share of the map to open, in percent.
    pub floor_percent: u32,
}

pub(crate) const OPEN_AREA: Mood = Mood { from_centre: true, lifetime: 400, floor_percent: 50 };
pub(crate) const OPEN_HALLS: Mood = Mood { from_centre: false, lifetime: 400, floor_percent: 50 };
pub(crate) const WINDING: Mood = Mood { from_centre: false, lifetime: 100, floor_percent: 40 };

pub(crate) fn carve(
    rng: &mut LevelRng,
    width: u16,
    height: u16,
    mood: Mood,
    mut steps: Option<&mut Steps>,
) -> (Grid, Pos) {
    let (w, h) = (i32::from(width), i32::from(height));
    let centre = Pos::new(width / 2, height / 2);
    let inner = usize::from(width - 2) * usize::from(height - 2);
    let target = inner * mood.floor_percent as usize / 100;
    let lifetime = mood.lifetime as usize;
    let mut digger = Digger::new(width, height, centre, lifetime);
    // Bounded: even unlucky walkers reach the target long before this.
    for walker in 1..=10_000 {
        if digger.dug >= target {
            break;
        }
        let from =
            if mood.from_centre { centre } else { digger.open[rng.random_range(0..digger.dug)] };
        let (mut x, mut y) = (i32::from(from.x), i32::from(from.y));
        digger.make_room(lifetime);
        // Two bits of one draw per step: 32 steps a draw.
        for first in (0..lifetime).step_by(32) {
            let mut bits: u64 = rng.random();
            let mut left = lifetime.min(first + 32) - first;
            while left > 0 {
                // Five cells or more from the rim, four steps cannot reach
                // it: they are taken at once, by the next byte of the draw.
                if left >= 4 && (5..w - 5).contains(&x) && (5..h - 5).contains(&y) {
                    let four = &FOUR_STEPS[(bits & 0xff) as usize];
                    digger.visit(x, y);
                    for &(dx, dy) in &four[..3] {
                        digger.visit(x + dx, y + dy);
                    }
                    x += four[3].0;
                    y += four[3].1;
                    bits >>= 8;
                    left -= 4;
                    continue;
                }
                digger.visit(x, y);
                let (dx, dy) = STEPS[(bits & 3) as usize];
                bits >>= 2;
                left -= 1;
                // A step onto the rim of rock is not taken (a step moves
                // one cell along one axis, so this is each axis kept in).
                x = (x + dx).max(1).min(w - 2);
                y = (y + dy).max(1).min(h - 2);
            }
        }
        snap_cells(&mut steps, width, &digger.cells, || format!("walker {walker}"));
    }
    (Grid::from_cells(width, height, digger.cells), centre)
}

/// Each step's (dx, dy), by the two bits that choose it: N, E, S, W.
const STEPS: [(i32, i32); 4] = [Dir::N.delta(), Dir::E.delta(), Dir::S.delta(), Dir::W.delta()];

/// For each byte of a draw, the four steps it chooses (lowest two bits
/// first), away from the rim: where the walker stands after each, from
/// where it stood before the first.
const FOUR_STEPS: [[(i32, i32); 4]; 256] = {
    let mut table = [[(0, 0); 4]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut x, mut y) = (0, 0);
        let mut k = 0;
        while k < 4 {
            let (dx, dy) = STEPS[(byte >> (2 * k)) & 3];
            (x, y) = (x + dx, y + dy);
            table[byte][k] = (x, y);
            k += 1;
        }
        byte += 1;
    }
    table
};

/// The map as the walkers dig it: the cells by index, worked on bare (a
/// grid is made of them at the end, and for each frame when the steps are
/// recorded), and the cells dug in the order they were.
struct Digger {
    width: i32,
    cells: Vec<Terrain>,
    /// The cells dug are the first `dug`. Every step writes its cell after
    /// them and counts it only if it was rock, so steps take no branch on
    /// what they find; [`Digger::make_room`] keeps room for a walker.
    open: Vec<Pos>,
    dug: usize,
}

impl Digger {
    /// Solid rock but for `centre`, with room for a walker of `lifetime` steps.
    fn new(width: u16, height: u16, centre: Pos, lifetime: usize) -> Self {
        let mut cells = vec![Terrain::Wall; usize::from(width) * usize::from(height)];
        let width = i32::from(width);
        cells[(i32::from(centre.y) * width + i32::from(centre.x)) as usize] = Terrain::Floor;
        Self { width, cells, open: vec![centre; 1 + lifetime], dug: 1 }
    }

    /// Room after the cells dug for `steps` more.
    fn make_room(&mut self, steps: usize) {
        self.open.resize(self.dug + steps, Pos::new(0, 0));
    }

    /// Digs the cell (x, y), which is inside the rim, if it is rock.
    #[inline(always)]
    fn visit(&mut self, x: i32, y: i32) {
        let i = (y * self.width + x) as usize;
        let rock = self.cells[i] == Terrain::Wall;
        self.cells[i] = Terrain::Floor;
        self.open[self.dug] = Pos::new(x as u16, y as u16);
        self.dug += usize::from(rock);
    }
}
