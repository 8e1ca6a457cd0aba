//! `gloam-balance`: plays many simulated characters through the depths'
//! rules alone (no sockets, seconds not minutes) with one fixed, simple
//! policy, and prints how deep they got, what killed them and how long
//! they played (see docs/balance.md).

use std::io::Write;
use std::path::PathBuf;

use clap::Parser;
use gloam_server::Config;
use gloam_server::balance::{self, Options};

#[derive(Debug, Parser)]
#[command(version, about = "Play simulated characters through the dungeon and report the curve")]
struct Args {
    /// How many characters, each alone in a world of its own seed.
    #[arg(long, default_value_t = 200)]
    characters: u32,
    /// The first character's world seed; each next one plays the next seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The deepest depth, where the Gloamstone lies.
    #[arg(long, default_value_t = gloam_server::config::DEFAULT_MAX_DEPTH)]
    max_depth: u16,
    /// The most rounds a character plays: enough for the strongest to
    /// reach the bottom (about 45,000).
    #[arg(long, default_value_t = 50_000)]
    max_rounds: u64,
    /// Threads to play on (the result is the same with any number)
    /// [default: one per core].
    #[arg(long)]
    jobs: Option<usize>,
    /// Also print a line for each character (to find a seed worth a look).
    #[arg(long)]
    each: bool,
    /// The kinds of monster [default: the built-in assets/bestiary.toml].
    #[arg(long)]
    bestiary: Option<PathBuf>,
    /// The kinds of item [default: the built-in assets/items.toml].
    #[arg(long)]
    items: Option<PathBuf>,
    /// The backgrounds [default: the built-in assets/backgrounds.toml].
    #[arg(long)]
    backgrounds: Option<PathBuf>,
    /// Make every character of this background (default: of none, as a
    /// plain hello makes).
    #[arg(long, value_name = "NAME", conflicts_with = "compare")]
    background: Option<String>,
    /// Play the characters once per background (and once of none) and
    /// print how often each reached depths 5, 10, 15 and 20.
    #[arg(long)]
    compare: bool,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let items = gloam_server::cli::items(args.items.as_deref())?;
    let backgrounds = gloam_server::cli::backgrounds(args.backgrounds.as_deref(), &items)?;
    let background = match &args.background {
        Some(name) => match backgrounds.find(name) {
            Some(b) => Some(b.clone()),
            None => anyhow::bail!("--background {name}: no such background"),
        },
        None => None,
    };
    let config = Config {
        max_depth: args.max_depth,
        bestiary: std::sync::Arc::new(gloam_server::cli::bestiary(args.bestiary.as_deref())?),
        items: std::sync::Arc::new(items),
        backgrounds: std::sync::Arc::new(backgrounds),
        ..Config::default()
    };
    let options = Options {
        characters: args.characters,
        seed: args.seed,
        max_rounds: args.max_rounds,
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
        background,
    };
    let started = std::time::Instant::now();
    if args.compare {
        let text = balance::compare(&config, &options).to_string();
        let _ = std::io::stdout().write_all(text.as_bytes());
        eprintln!("played in {:.1} s", started.elapsed().as_secs_f64());
        return Ok(());
    }
    let report = balance::run(&config, &options);
    let mut text = report.to_string();
    if args.each {
        text = format!("{text}\n{}", report.each());
    }
    // A closed pipe (`| head`) just ends the output.
    let _ = std::io::stdout().write_all(text.as_bytes());
    eprintln!("played in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}
