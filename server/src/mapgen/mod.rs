//! Level building: each generator carves a grid and names a start, then the
//! shared finishing steps cull what cannot be reached and place the stairs
//! by walking distance. Everything is driven by one seeded RNG per level,
//! derived from the world seed and the depth.

pub mod bsp;
pub mod distance;
pub mod maze;

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;
use rand::SeedableRng;

use crate::level::{Grid, Level, MAP_HEIGHT, MAP_WIDTH};
use distance::{UNREACHABLE, farthest, walking_distances};

/// The RNG every generator draws from: a named algorithm, so the same seed
/// builds the same level on every machine and with every rand release.
pub type LevelRng = rand_pcg::Pcg64Mcg;

/// One way of building a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Generator {
    Bsp,
    Maze,
}

/// What the host asked for with `--generator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum GeneratorSetting {
    Bsp,
    Maze,
    /// BSP mostly, a maze at most one depth in five (never depth 1).
    #[default]
    Mixed,
}

/// Depths come in blocks of this many; a mixed world has at most one maze per block.
const MAZE_BLOCK: u16 = 5;

/// splitmix64's finaliser: spreads nearby inputs over the whole range.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of one depth's level, derived from the world seed.
pub fn level_seed(world_seed: u64, depth: u16) -> u64 {
    mix(world_seed ^ mix(u64::from(depth)))
}

/// Which generator builds a depth. In a mixed world each block of five depths
/// draws one slot and a coin from the world seed: the slot's depth is a maze
/// when the coin says so, so mazes stay rare and never crowd together.
pub fn generator_for(setting: GeneratorSetting, world_seed: u64, depth: u16) -> Generator {
    match setting {
        GeneratorSetting::Bsp => Generator::Bsp,
        GeneratorSetting::Maze => Generator::Maze,
        GeneratorSetting::Mixed => {
            if depth <= 1 {
                return Generator::Bsp;
            }
            let block = (depth - 1) / MAZE_BLOCK;
            let mut rng = LevelRng::seed_from_u64(mix(world_seed ^ 0x6d61_7a65) ^ u64::from(block));
            let slot = rng.random_range(0..MAZE_BLOCK);
            let coin = rng.random_bool(0.5);
            if coin && (depth - 1) % MAZE_BLOCK == slot { Generator::Maze } else { Generator::Bsp }
        }
    }
}

/// The level of `depth` in the world of `world_seed`.
pub fn build_level(world_seed: u64, depth: u16, setting: GeneratorSetting) -> Level {
    let generator = generator_for(setting, world_seed, depth);
    build(generator, level_seed(world_seed, depth), depth)
}

/// One level from one generator and seed.
pub fn build(generator: Generator, seed: u64, depth: u16) -> Level {
    let mut rng = LevelRng::seed_from_u64(seed);
    let (grid, start) = match generator {
        Generator::Bsp => {
            let plan = bsp::carve(&mut rng, MAP_WIDTH, MAP_HEIGHT);
            (plan.grid, plan.start)
        }
        Generator::Maze => {
            let plan = maze::carve(&mut rng, MAP_WIDTH, MAP_HEIGHT);
            (plan.grid, plan.start)
        }
    };
    finish(grid, start, depth)
}

/// The steps every generator shares: turn floor that cannot be reached from
/// the arrival point back into rock, mark the up staircase below depth 1,
/// and put the down staircase at the greatest walking distance.
pub fn finish(mut grid: Grid, arrival: Pos, depth: u16) -> Level {
    let dist = walking_distances(&grid, arrival);
    for (i, &d) in dist.iter().enumerate() {
        if d == UNREACHABLE {
            let pos = grid.pos_of(i);
            if grid.is_open(pos) {
                grid.set(pos, Terrain::Wall);
            }
        }
    }
    let stairs_down = farthest(&grid, &dist).expect("the arrival point is open ground");
    if depth > 1 {
        grid.set(arrival, Terrain::StairsUp);
    }
    grid.set(stairs_down, Terrain::StairsDown);
    Level { grid, arrival, stairs_down }
}
