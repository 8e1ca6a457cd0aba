//! Level building: each generator carves a grid and names a start, then the
//! shared finishing steps cull what cannot be reached and place the stairs
//! by walking distance. Everything is driven by one seeded RNG per level,
//! derived from the world seed and the depth.

pub(crate) mod bits;
pub mod bsp;
pub(crate) mod caves;
pub(crate) mod drunkard;
pub(crate) mod interior;
pub mod maze;
pub mod populate;
pub(crate) mod steps;
pub mod stock;
pub mod uniques;
pub mod vaults;

pub use steps::Steps;
pub use vaults::{PlacedVault, Vaults};

use gloam_protocol::{Pos, Terrain};
use rand::RngExt;

use crate::level::{Grid, Level, MAP_HEIGHT, MAP_WIDTH};
use crate::seeds::{DepthSeeds, Seeds};

/// The RNG every generator draws from: a named algorithm, so the same seed
/// builds the same level on every machine and with every rand release.
pub use crate::seeds::LevelRng;

/// One way of building a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Generator {
    /// Rooms in the pieces of a binary space partition, joined by L-shaped corridors.
    Bsp,
    /// A perfect maze of one-cell corridors.
    Maze,
    /// Rooms filling their pieces, sharing walls, with doors between neighbours.
    Interior,
    /// Cellular-automata caves.
    Caves,
    /// A drunkard's walk from the middle: one wide open area.
    DrunkArea,
    /// A drunkard's walk from anywhere open: open halls.
    DrunkHalls,
    /// Short-lived drunkards: winding passages.
    DrunkPassages,
}

impl Generator {
    pub const ALL: [Generator; 7] = [
        Generator::Bsp,
        Generator::Maze,
        Generator::Interior,
        Generator::Caves,
        Generator::DrunkArea,
        Generator::DrunkHalls,
        Generator::DrunkPassages,
    ];

    /// The name `--generator` and `--mix` use.
    pub fn name(self) -> &'static str {
        match self {
            Generator::Bsp => "bsp",
            Generator::Maze => "maze",
            Generator::Interior => "interior",
            Generator::Caves => "caves",
            Generator::DrunkArea => "drunk-area",
            Generator::DrunkHalls => "drunk-halls",
            Generator::DrunkPassages => "drunk-passages",
        }
    }

    /// The generator called `name`, as `--generator` and `--mix` spell it.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The share of the map inside its border that a finished level of this
    /// kind opens, in percent: what the property tests hold each one to.
    pub fn floor_percent(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Generator::Bsp => 20..=60,
            Generator::Maze => 48..=52,
            Generator::Interior => 65..=85,
            Generator::Caves => 15..=75,
            Generator::DrunkArea | Generator::DrunkHalls => 50..=57,
            Generator::DrunkPassages => 38..=45,
        }
    }
}

/// What the host asked for with `--generator`: one generator for every
/// depth, or a mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GeneratorSetting {
    One(Generator),
    /// A generator per depth, drawn by the weights of `--mix`; a maze at
    /// most one depth in five, and never depth 1.
    #[default]
    Mixed,
}

impl GeneratorSetting {
    /// Every setting: each generator alone, then mixed.
    pub fn all() -> impl Iterator<Item = GeneratorSetting> {
        Generator::ALL.into_iter().map(GeneratorSetting::One).chain([GeneratorSetting::Mixed])
    }

    /// The name `--generator` takes.
    pub fn name(self) -> &'static str {
        match self {
            GeneratorSetting::One(generator) => generator.name(),
            GeneratorSetting::Mixed => "mixed",
        }
    }

    /// The setting named `name`, as `--generator` spells it.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::all().find(|s| s.name() == name)
    }
}

impl From<Generator> for GeneratorSetting {
    fn from(generator: Generator) -> Self {
        GeneratorSetting::One(generator)
    }
}

impl std::str::FromStr for GeneratorSetting {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Self::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Self::all().map(|s| s.name()).collect();
            format!("unknown generator {name:?}; one of {}", names.join(", "))
        })
    }
}

impl std::fmt::Display for GeneratorSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The weights a mixed world draws its generators by (mazes apart: they
/// come by the block rule, weighted only to switch them off with 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mix {
    pub weights: Vec<(Generator, u32)>,
}

impl Default for Mix {
    fn default() -> Self {
        Self {
            weights: vec![
                (Generator::Bsp, 4),
                (Generator::Interior, 2),
                (Generator::Caves, 2),
                (Generator::DrunkArea, 1),
                (Generator::DrunkHalls, 1),
                (Generator::DrunkPassages, 1),
                (Generator::Maze, 1),
            ],
        }
    }
}

impl std::str::FromStr for Mix {
    type Err = String;

    /// `bsp=4,caves=2,...`: generators not named keep weight 0.
    fn from_str(text: &str) -> Result<Self, String> {
        let mut weights = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, weight) =
                part.split_once('=').ok_or_else(|| format!("{part:?} is not NAME=WEIGHT"))?;
            let generator = Generator::from_name(name.trim())
                .ok_or_else(|| format!("unknown generator {name:?}"))?;
            let weight: u32 =
                weight.trim().parse().map_err(|_| format!("{weight:?} is not a whole number"))?;
            weights.push((generator, weight));
        }
        if !weights.iter().any(|&(g, w)| g != Generator::Maze && w > 0) {
            return Err("at least one generator other than maze needs a weight above 0".into());
        }
        Ok(Self { weights })
    }
}

impl std::fmt::Display for Mix {
    /// The form `from_str` reads back: `bsp=4,caves=2,...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (generator, weight)) in self.weights.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(f, "{comma}{}={weight}", generator.name())?;
        }
        Ok(())
    }
}

/// Depths come in blocks of this many; a mixed world has at most one maze per block.
const MAZE_BLOCK: u16 = 5;

/// The seed of one depth's level, derived from the world seed (see
/// [`Seeds`]).
pub fn level_seed(world_seed: u64, depth: u16) -> u64 {
    Seeds::of_world(world_seed).depth(depth).level_seed()
}

/// Which generator builds a depth. In a mixed world each block of five
/// depths draws one slot and a coin from the world seed: the slot's depth is
/// a maze when the coin says so, so mazes stay rare and never crowd
/// together; every other depth draws by weight from its own seed.
pub fn generator_for(setting: GeneratorSetting, world_seed: u64, depth: u16) -> Generator {
    generator_with(setting, &Mix::default(), world_seed, depth)
}

/// [`generator_for`] with the host's weights.
pub fn generator_with(
    setting: GeneratorSetting,
    weights: &Mix,
    world_seed: u64,
    depth: u16,
) -> Generator {
    if let GeneratorSetting::One(generator) = setting {
        return generator;
    }
    if depth <= 1 {
        return Generator::Bsp;
    }
    let mazes_allowed = weights.weights.iter().any(|&(g, w)| g == Generator::Maze && w > 0);
    let block = (depth - 1) / MAZE_BLOCK;
    let seeds = Seeds::of_world(world_seed);
    let mut rng = seeds.maze_slots(block);
    let slot = rng.random_range(0..MAZE_BLOCK);
    let coin = rng.random_bool(0.5);
    if mazes_allowed && coin && (depth - 1) % MAZE_BLOCK == slot {
        return Generator::Maze;
    }
    let choices: Vec<(Generator, u32)> =
        weights.weights.iter().copied().filter(|&(g, w)| g != Generator::Maze && w > 0).collect();
    let total: u32 = choices.iter().map(|&(_, w)| w).sum();
    if total == 0 {
        return Generator::Bsp;
    }
    let mut pick = seeds.depth(depth).generator().random_range(0..total);
    for (generator, weight) in choices {
        if pick < weight {
            return generator;
        }
        pick -= weight;
    }
    Generator::Bsp
}

/// The level of `depth` in the world of `world_seed`, with the default weights.
pub fn build_level(world_seed: u64, depth: u16, setting: GeneratorSetting) -> Level {
    build_level_with(world_seed, depth, setting, &Mix::default())
}

/// The level of `depth` in the world of `world_seed`.
pub fn build_level_with(
    world_seed: u64,
    depth: u16,
    setting: GeneratorSetting,
    weights: &Mix,
) -> Level {
    let generator = generator_with(setting, weights, world_seed, depth);
    build(generator, level_seed(world_seed, depth), depth)
}

/// One level from one generator and seed, with the built-in vaults.
pub fn build(generator: Generator, seed: u64, depth: u16) -> Level {
    build_with(generator, seed, depth, Vaults::built_in(), None)
}

/// One level with the built-in vaults, recording every step into `steps`
/// when given.
pub fn build_recorded(
    generator: Generator,
    seed: u64,
    depth: u16,
    steps: Option<&mut Steps>,
) -> Level {
    build_with(generator, seed, depth, Vaults::built_in(), steps)
}

/// One level, its vault (if any) drawn from `vaults`, recording every
/// step into `steps` when given.
pub fn build_with(
    generator: Generator,
    seed: u64,
    depth: u16,
    vaults: &Vaults,
    mut steps: Option<&mut Steps>,
) -> Level {
    let mut rng = DepthSeeds::from_level_seed(seed).layout();
    let (w, h) = (MAP_WIDTH, MAP_HEIGHT);
    let (grid, start) = match generator {
        Generator::Bsp => {
            let plan = bsp::carve(&mut rng, w, h, steps.as_deref_mut());
            (plan.grid, plan.start)
        }
        Generator::Maze => {
            let plan = maze::carve(&mut rng, w, h, steps.as_deref_mut());
            (plan.grid, plan.start)
        }
        Generator::Interior => interior::carve(&mut rng, w, h, steps.as_deref_mut()),
        Generator::Caves => caves::carve(&mut rng, w, h, steps.as_deref_mut()),
        Generator::DrunkArea => {
            drunkard::carve(&mut rng, w, h, drunkard::OPEN_AREA, steps.as_deref_mut())
        }
        Generator::DrunkHalls => {
            drunkard::carve(&mut rng, w, h, drunkard::OPEN_HALLS, steps.as_deref_mut())
        }
        Generator::DrunkPassages => {
            drunkard::carve(&mut rng, w, h, drunkard::WINDING, steps.as_deref_mut())
        }
    };
    let mut grid = grid;
    let mut vault_rng = DepthSeeds::from_level_seed(seed).vaults();
    let vault = vaults.place(&mut grid, start, depth, &mut vault_rng);
    if let Some(v) = &vault {
        steps::snap(&mut steps, &grid, || format!("a vault cut in: {}", v.name));
    }
    let mut level = finish(grid, start, depth);
    level.vault = vault;
    steps::snap(&mut steps, &level.grid, || "finished: unreachable culled, stairs placed".into());
    level
}

/// Makes `level` the dungeon's last: no way further down (its down
/// staircase becomes floor; the cell is still where one would arrive from
/// below, which nobody can).
pub fn make_bottom(level: &mut Level) {
    level.grid.set(level.stairs_down, Terrain::Floor);
}

/// The steps every generator shares: turn floor that cannot be reached from
/// the arrival point back into rock, mark the up staircase below depth 1,
/// and put the down staircase at the greatest walking distance.
pub(crate) fn finish(mut grid: Grid, arrival: Pos, depth: u16) -> Level {
    let open = grid.open_rows();
    let walk = grid.walk_rows_from(&open, arrival, populate::CLEAR_STEPS);
    grid.wall_unreached(&open, &walk.reached);
    let (stairs_down, _) = walk.farthest.expect("the arrival point is open ground");
    if depth > 1 {
        grid.set(arrival, Terrain::StairsUp);
    }
    grid.set(stairs_down, Terrain::StairsDown);
    Level { grid, arrival, stairs_down, walk, vault: None }
}
