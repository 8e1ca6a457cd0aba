//! `gloam`: the Gloam window. With no `--connect` it hosts a world in this
//! process and joins it, so one command plays.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use gloam_server::cli::{HostRules, MapgenArgs, WorldChoice};
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(version, about = "Play Gloam: host a world and join it, or join a friend's")]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Join the server at this address (ws://HOST:PORT) instead of hosting one.
    #[arg(long, conflicts_with = "host")]
    connect: Option<String>,
    /// Host on this address and join; 0.0.0.0:7777 lets friends join too.
    #[arg(long, default_value = "127.0.0.1:0")]
    host: SocketAddr,
    /// Your name in the game (letters, digits, '-' and '_'; at most 16).
    #[arg(long)]
    name: Option<String>,
    /// Watch the player of this name instead of playing: see what it sees,
    /// talk with it and its other watchers (needs --connect).
    #[arg(long, requires = "connect", value_name = "PLAYER")]
    watch: Option<String>,
    /// A new character's background (fighter, skirmisher, ...: the host's
    /// list), instead of choosing it on the first screen. A character
    /// already made keeps its own; a watcher has none.
    #[arg(long, value_name = "NAME")]
    background: Option<String>,
    #[command(flatten)]
    world: WorldChoice,
    /// When hosting: the monsters, the clock, player-vs-player, the depth.
    #[command(flatten)]
    rules: HostRules,
    /// The folder the hosted world and its characters are kept in
    /// [default: the user's data directory, e.g. ~/.local/share/gloam/world].
    #[arg(long, conflicts_with = "connect")]
    data: Option<PathBuf>,
    /// The font to draw with (a monospace TrueType file).
    #[arg(long)]
    font: Option<PathBuf>,
    /// The colours: default, or colourblind (Okabe and Ito's colour-blind-safe set).
    #[arg(long, default_value = "default", value_name = "NAME")]
    palette: String,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a level as text (and, with --steps, how it was built); with
    /// --png DIR, draw each step as an image instead.
    Mapgen {
        #[command(flatten)]
        level: MapgenArgs,
        /// Write step-NNN.png and level.png into this folder.
        #[arg(long)]
        png: Option<PathBuf>,
        /// The font to draw with.
        #[arg(long)]
        font: Option<PathBuf>,
    },
}

/// A name from the login name, cleaned to what the server accepts.
fn default_name() -> String {
    let user = std::env::var("USER").unwrap_or_default();
    let name: String = user
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .take(gloam_protocol::MAX_NAME_CHARS)
        .collect();
    if name.is_empty() { "player".into() } else { name }
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let args = Args::parse();
    if let Some(Command::Mapgen { level, png, font }) = &args.command {
        let result = match png {
            Some(dir) => {
                let font = font.clone().unwrap_or_else(gloam_client::app::default_font);
                gloam_client::mapgen::write_pngs(level, dir, &font)
                    .map(|n| println!("wrote {n} images to {}", dir.display()))
            }
            None => gloam_server::cli::report(level).map_err(anyhow::Error::from).map(|text| {
                use std::io::Write;
                let _ = std::io::stdout().write_all(text.as_bytes());
            }),
        };
        if let Err(e) = result {
            eprintln!("gloam: {e:#}");
            std::process::exit(1);
        }
        return;
    }
    // The palette and the rules first: a mistake is one line, before any window.
    let palette = match gloam_client::palette::Palette::named(&args.palette) {
        Ok(palette) => palette,
        Err(e) => {
            eprintln!("gloam: {e}");
            std::process::exit(2);
        }
    };
    let rules = match args.rules.apply(gloam_server::Config::default()) {
        Ok(rules) => rules,
        Err(e) => {
            eprintln!("gloam: {e:#}");
            std::process::exit(1);
        }
    };
    let options = gloam_client::app::Options {
        connect: args.connect,
        host: args.host,
        name: args.name.unwrap_or_else(default_name),
        watch: args.watch,
        background: args.background,
        world: args.world,
        rules,
        data: args.data.unwrap_or_else(gloam_client::app::default_data),
        font: args.font,
        palette,
    };
    if let Err(e) = gloam_client::app::run(options) {
        eprintln!("gloam: {e:#}");
        std::process::exit(1);
    }
}
