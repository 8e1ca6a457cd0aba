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
    // Bounded: even unlucky walkers reach the target long before this.
    for walker in 1..=10_000 {
        if open.len() >= target {
            break;
        }
        let mut at = if mood.from_centre { centre } else { open[rng.random_range(0..open.len())] };
        // Two bits of one draw per step: 32 steps a draw.
        let mut bits = 0u64;
        for step in 0..mood.lifetime {
            if step % 32 == 0 {
                bits = rng.random();
            }
            if grid.get(at) == Terrain::Wall {
                grid.set(at, Terrain::Floor);
                open.push(at);
            }
            let dir = Dir::ALL[2 * (bits & 3) as usize];
            bits >>= 2;
            let next = at.step(dir).expect("walkers stay inside the border");
            if next.x >= 1 && next.y >= 1 && next.x < width - 1 && next.y < height - 1 {
                at = next;
            }
        }
        snap(&mut steps, &grid, || format!("walker {walker}"));
    }
    (grid, centre)
}
