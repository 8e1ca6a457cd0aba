//! Drunkard's walks, after the second seed text: walkers stagger about
//! carving floor until enough of the map is open. Three moods: one open
//! area dug from the middle, open halls dug from anywhere already open, and
//! winding passages dug by short-lived walkers.

use gloam_protocol::{Dir, Pos, Terrain};
use rand::RngExt;

use super::LevelRng;
use super::steps::{Steps, snap};
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
    let mut grid = Grid::filled(width, height);
    let centre = Pos::new(width / 2, height / 2);
    grid.set(centre, Terrain::Floor);
    let inner = usize::from(width - 2) * usize::from(height - 2);
    let target = inner * mood.floor_percent as usize / 100;
    let mut open: Vec<Pos> = vec![centre];
    // Each step's (dx, dy), by the two bits that choose it: N, E, S, W.
    let deltas = [0, 2, 4, 6].map(|k| Dir::ALL[k].delta());
    let (w, h) = (i32::from(width), i32::from(height));
    // Bounded: even unlucky walkers reach the target long before this.
    for walker in 1..=10_000 {
        if open.len() >= target {
            break;
        }
        let at = if mood.from_centre { centre } else { open[rng.random_range(0..open.len())] };
        let (mut x, mut y) = (i32::from(at.x), i32::from(at.y));
        // Two bits of one draw per step: 32 steps a draw.
        let mut bits = 0u64;
        for step in 0..mood.lifetime {
            if step % 32 == 0 {
                bits = rng.random();
            }
            let here = Pos::new(x as u16, y as u16);
            if grid.dig(here) {
                open.push(here);
            }
            let (dx, dy) = deltas[(bits & 3) as usize];
            bits >>= 2;
            // A step onto the rim of rock is not taken.
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 1 && ny >= 1 && nx < w - 1 && ny < h - 1 {
                (x, y) = (nx, ny);
            }
        }
        snap(&mut steps, &grid, || format!("walker {walker}"));
    }
    (grid, centre)
}
