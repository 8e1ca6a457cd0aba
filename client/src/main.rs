//! `gloam`: the Gloam window. With no `--connect` it hosts a world in this
//! process and joins it, so one command plays.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;
use gloam_server::mapgen::GeneratorSetting;
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(version, about = "Play Gloam: host a world and join it, or join a friend's")]
struct Args {
    /// Join the server at this address (ws://HOST:PORT) instead of hosting one.
    #[arg(long, conflicts_with = "host")]
    connect: Option<String>,
    /// Host on this address and join; 0.0.0.0:7777 lets friends join too.
    #[arg(long, default_value = "127.0.0.1:0")]
    host: SocketAddr,
    /// Your name in the game (letters, digits, '-' and '_'; at most 16).
    #[arg(long)]
    name: Option<String>,
    /// World seed when hosting; random when absent.
    #[arg(long)]
    seed: Option<u64>,
    /// How levels are built when hosting.
    #[arg(long, value_enum, default_value_t = GeneratorSetting::Mixed)]
    generator: GeneratorSetting,
    /// The font to draw with (a monospace TrueType file).
    #[arg(long)]
    font: Option<PathBuf>,
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
    let options = gloam_client::app::Options {
        connect: args.connect,
        host: args.host,
        name: args.name.unwrap_or_else(default_name),
        seed: args.seed,
        generator: args.generator,
        font: args.font,
    };
    if let Err(e) = gloam_client::app::run(options) {
        eprintln!("gloam: {e:#}");
        std::process::exit(1);
    }
}
