//! `gloam-server`: hosts a Gloam world until Ctrl-C or SIGTERM.

use std::io::IsTerminal;
use std::net::SocketAddr;

use anyhow::Context;
use clap::{Parser, Subcommand};
use gloam_server::Config;
use gloam_server::mapgen::cli::MapgenArgs;
use gloam_server::mapgen::{GeneratorSetting, Mix};
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(version, about = "Host a Gloam world")]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Address to listen on; 0.0.0.0:7777 lets other machines join.
    #[arg(long, default_value = "127.0.0.1:7777")]
    bind: SocketAddr,
    /// World seed; the same seed builds the same levels everywhere. Random when absent.
    #[arg(long)]
    seed: Option<u64>,
    /// How levels are built.
    #[arg(long, value_enum, default_value_t = GeneratorSetting::Mixed)]
    generator: GeneratorSetting,
    /// Weights of a mixed world, e.g. `bsp=4,interior=2,caves=2,maze=1`
    /// (generators not named are left out; `maze=0` means no mazes).
    #[arg(long)]
    mix: Option<Mix>,
    /// Sustained actions per second one player may take.
    #[arg(long, default_value_t = 20)]
    actions_per_second: u32,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a level as text (and, with --steps, how it was built) without serving.
    Mapgen(MapgenArgs),
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let args = Args::parse();
    if let Some(Command::Mapgen(mapgen)) = &args.command {
        use std::io::Write;
        // A closed pipe (`| head`) just ends the output.
        let _ = std::io::stdout().write_all(gloam_server::mapgen::cli::report(mapgen).as_bytes());
        return Ok(());
    }
    let seed = args.seed.unwrap_or_else(gloam_server::fresh_seed);
    let config = Config {
        seed,
        generator: args.generator,
        mix: args.mix.unwrap_or_default(),
        actions_per_second: args.actions_per_second,
        action_burst: args.actions_per_second,
        ..Config::default()
    };
    let listener = tokio::net::TcpListener::bind(args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    // One plain line on stdout for hosts (and scripts) to read the address from.
    println!("gloam-server listening on ws://{}", listener.local_addr()?);
    gloam_server::run(listener, gloam_server::shutdown_signal(), config).await?;
    Ok(())
}
