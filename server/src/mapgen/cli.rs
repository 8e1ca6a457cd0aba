//! `mapgen`: a level as text, and optionally every step of its building, so
//! a host can see how a level came to be and rebuild the one a player
//! reports from the world seed and depth. Shared by `gloam-server mapgen`
//! and `gloam mapgen` (which can also draw the steps as images).

use super::{Generator, GeneratorSetting, Mix, Steps, build_recorded, generator_with, level_seed};
use crate::level::Level;

/// The arguments both binaries take.
#[derive(Debug, Clone, clap::Args)]
pub struct MapgenArgs {
    /// The generator; `mixed` picks the one a mixed world would at this depth.
    #[arg(long, value_enum, default_value_t = GeneratorSetting::Mixed)]
    pub generator: GeneratorSetting,
    /// The world seed.
    #[arg(long)]
    pub seed: u64,
    /// The depth (levels differ per depth; depth 1 has no up staircase).
    #[arg(long, default_value_t = 1)]
    pub depth: u16,
    /// Also show every intermediate step the generator recorded.
    #[arg(long)]
    pub steps: bool,
}

/// The level those arguments name, with its steps when asked for.
pub fn build(args: &MapgenArgs) -> (Generator, Level, Steps) {
    let generator = generator_with(args.generator, &Mix::default(), args.seed, args.depth);
    let mut steps = Steps::default();
    let record = args.steps.then_some(&mut steps);
    let level = build_recorded(generator, level_seed(args.seed, args.depth), args.depth, record);
    (generator, level, steps)
}

/// The text `mapgen` prints.
pub fn report(args: &MapgenArgs) -> String {
    let (generator, level, steps) = build(args);
    let mut out = String::new();
    for (i, (what, grid)) in steps.frames.iter().enumerate() {
        out.push_str(&format!("step {} of {}: {what}\n", i + 1, steps.frames.len()));
        out.push_str(&grid.to_ascii());
        out.push('\n');
    }
    out.push_str(&format!(
        "{} level, world seed {}, depth {}: arrival {:?}, stairs down {:?}\n",
        generator.name(),
        args.seed,
        args.depth,
        (level.arrival.x, level.arrival.y),
        (level.stairs_down.x, level.stairs_down.y)
    ));
    out.push_str(&level.grid.to_ascii());
    out
}
