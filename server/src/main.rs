//! `gloam-server`: hosts a Gloam world until Ctrl-C or SIGTERM.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};
use gloam_server::Config;
use gloam_server::cli::{self, MapgenArgs, WorldChoice};
use gloam_server::store::{Reading, Store};
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(version, about = "Host a Gloam world")]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Address to listen on; 0.0.0.0:7777 lets other machines join.
    #[arg(long, default_value = "127.0.0.1:7777")]
    bind: SocketAddr,
    /// Serve live figures (players per depth, actions, rounds, latencies,
    /// bytes, dropped connections, store commits) for Prometheus on
    /// http://ADDR/metrics, e.g. 127.0.0.1:9477 [default: off].
    #[arg(long, value_name = "ADDR")]
    metrics: Option<SocketAddr>,
    #[command(flatten)]
    world: WorldChoice,
    /// Sustained actions per second one player may take.
    #[arg(long, default_value_t = 20)]
    actions_per_second: u32,
    /// New characters one client address may create in an hour.
    #[arg(long, default_value_t = 10)]
    new_characters_per_hour: u32,
    /// Characters the world keeps at most; new names are refused beyond.
    #[arg(long, default_value_t = 10_000)]
    max_characters: usize,
    /// Write a backup of the store this often while serving (e.g. 30m, 6h,
    /// 90s); `kill -USR1 PID` writes one at any time.
    #[arg(long, value_parser = cli::parse_duration)]
    backup_every: Option<std::time::Duration>,
    /// Backups kept in the data folder's backups/.
    #[arg(long, default_value_t = 5)]
    backups_kept: usize,
    /// The folder holding the world and its characters (created if missing).
    /// A stored world's seed and generator are used; back the folder up to
    /// keep them.
    #[arg(long, default_value = "gloam-data", global = true)]
    data: PathBuf,
    /// Keep the world in PostgreSQL instead of --data's file: the address
    /// of a database of its own, postgres://USER[:PASSWORD]@HOST[:PORT]/DB
    /// (its tables are made on first use; see README, "Hosting on
    /// PostgreSQL") [default: the redb file in --data].
    #[arg(long, value_name = "URL", global = true)]
    store: Option<String>,
    /// The world's name, shown in the page's and the window's titles and
    /// on /status (1 to 40 characters) [default: none].
    #[arg(long, value_parser = cli::world_name)]
    name: Option<String>,
    #[command(flatten)]
    rules: cli::HostRules,
    /// Also serve the world's health on ADDR, e.g. 127.0.0.1:9000, for an
    /// orchestrator: GET /health (JSON), /health/live, /health/ready (503
    /// while draining), and POST /drain from this machine only. The game's
    /// port answers the GETs too [default: off]. See docs/hosting.md.
    #[arg(long, value_name = "ADDR")]
    health: Option<SocketAddr>,
    /// Where a draining world sends newcomers: an address told in the
    /// refusal, e.g. ws://gloam-2.example.org:7777. `kill -USR2 PID` (or
    /// POST /drain on --health) drains the world: newcomers are refused,
    /// those playing go on, and the server exits 0 once the last has left.
    #[arg(long, value_name = "ADDR", value_parser = cli::drain_to)]
    drain_to: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Copy the (stopped) world in the folder --from, its morgue files
    /// too, into the empty PostgreSQL database --to, to host it there with
    /// --store.
    Migrate {
        /// The world's data folder (its world.redb).
        #[arg(long)]
        from: PathBuf,
        /// The database: postgres://USER[:PASSWORD]@HOST[:PORT]/DB.
        #[arg(long)]
        to: String,
    },
    /// Print a level as text (and, with --steps, how it was built) without serving.
    Mapgen(MapgenArgs),
    /// List the dead of the world in --data, deepest first.
    Graveyard,
    /// Rebuild a depth of the (stopped) world in --data from its seed and
    /// its log, and print its checksum beside the live depth's. Give the
    /// same --bestiary, --place, --pvp and --max-depth the server played with.
    Replay {
        /// The depth to rebuild.
        #[arg(long)]
        depth: u16,
        /// Replay its whole history from its start, passing over its
        /// snapshots (a server starts from the newest).
        #[arg(long)]
        whole: bool,
    },
    /// Print what a player was sent on a depth of the (stopped) world in
    /// --data, made again from the depth's log (see docs/recordings.md),
    /// and how long that took. Give the rules the server played with, as
    /// for replay.
    Record {
        /// The depth.
        #[arg(long)]
        depth: u16,
        /// The player's name.
        #[arg(long)]
        player: String,
        /// The first round.
        #[arg(long, default_value_t = 0)]
        from: u64,
        /// The last round.
        #[arg(long, default_value_t = u64::MAX)]
        to: u64,
        /// From the history's start, not from the newest snapshot before
        /// the first round (to compare the two).
        #[arg(long)]
        whole: bool,
    },
}

fn main() -> std::process::ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("gloam-server: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // One plain line that says what is wrong and with which file.
            eprintln!("gloam-server: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The subcommands that read a world's store without serving it: the
/// graveyard, and a depth replayed from its log.
fn look_back(command: &Command, rules: Config, store: &Store) -> anyhow::Result<()> {
    match command {
        Command::Graveyard => print!("{}", cli::graveyard_report(&store.graveyard()?)),
        Command::Replay { depth, whole } => {
            let world = store.world()?.context("the data folder holds no world yet")?;
            let config = rules.playing(world);
            let reading = if *whole { Reading::Whole } else { Reading::FromSnapshot };
            print!("{}", cli::replay_report(store, &config, *depth, reading)?);
        }
        Command::Record { depth, player, from, to, whole } => {
            let world = store.world()?.context("the data folder holds no world yet")?;
            let config = rules.playing(world);
            let (rounds, depth) = (*from..=*to, *depth);
            let report =
                gloam_server::world::record_report(store, &config, depth, player, rounds, *whole)?;
            print!("{report}");
        }
        Command::Mapgen(_) | Command::Migrate { .. } => {}
    }
    Ok(())
}

/// Copies the world in the data folder `from`, its morgue files too, into
/// the empty database at `to` (the folder's lock is taken: a world being
/// played is refused).
fn migrate(from: &std::path::Path, to: &str) -> anyhow::Result<()> {
    let file = from.join(gloam_server::store::STORE_FILE);
    anyhow::ensure!(
        file.exists(),
        "{} holds no world ({} is missing)",
        from.display(),
        file.display()
    );
    let source = Store::open(from)?;
    let target = Store::connect(to)?;
    if target.world()?.is_some() || !target.known().is_empty() || !target.graveyard()?.is_empty() {
        anyhow::bail!(
            "{} already holds a world; give migrate an empty database",
            target.place().display()
        );
    }
    let copied = source.copy_into(&target)?;
    println!(
        "gloam-server: moved the world in {} to {} ({} writes, {} morgue files); host it with --store and that address",
        source.place().display(),
        target.place().display(),
        copied.writes,
        copied.morgue_files,
    );
    Ok(())
}

/// The game's port, and the health port when asked for.
async fn bind(
    args: &Args,
) -> anyhow::Result<(tokio::net::TcpListener, Option<tokio::net::TcpListener>)> {
    let listener = tokio::net::TcpListener::bind(args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    let health = match args.health {
        Some(addr) => Some(
            tokio::net::TcpListener::bind(addr)
                .await
                .with_context(|| format!("cannot serve health on {addr}"))?,
        ),
        None => None,
    };
    Ok((listener, health))
}

async fn serve() -> anyhow::Result<()> {
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
        let _ = std::io::stdout().write_all(cli::report(mapgen)?.as_bytes());
        return Ok(());
    }
    // The rules first: a bad bestiary is reported before the store is touched.
    let rules = args.rules.apply(Config::default())?;
    if let Some(Command::Migrate { from, to }) = &args.command {
        return migrate(from, to);
    }
    let store = match &args.store {
        Some(url) => Store::connect(url)?,
        None => Store::open(&args.data)?,
    };
    if let Some(command) = &args.command {
        return look_back(command, rules, &store);
    }
    let world = store.settle_world(&args.world.wish(), gloam_server::fresh_seed)?;
    println!(
        "gloam-server data: {} ({} characters; world seed {}, generator {})",
        store.place().display(),
        store.known().len(),
        world.seed,
        world.generator.name(),
    );
    let config = Config {
        actions_per_second: args.actions_per_second,
        action_burst: args.actions_per_second,
        backup_every: args.backup_every,
        backups_kept: args.backups_kept,
        new_characters_per_address_per_hour: args.new_characters_per_hour,
        max_characters: args.max_characters,
        world_name: args.name.clone().unwrap_or_default(),
        drain_to: args.drain_to.clone(),
        ..rules.playing(world)
    };
    if let Some(addr) = args.metrics {
        let serving = gloam_server::telemetry::start(addr).await?;
        println!("gloam-server metrics on http://{serving}/metrics");
    }
    let (listener, health) = bind(&args).await?;
    // Caught before the address is told: a host may signal at once.
    let drain = gloam_server::drain_signal();
    if let Some(health) = &health {
        println!("gloam-server health on http://{}/health", health.local_addr()?);
    }
    let addr = listener.local_addr()?;
    // One plain line on stdout for hosts (and scripts) to read the address from.
    println!("gloam-server listening on ws://{addr}");
    println!("gloam-server: friends join in a browser at {}", gloam_server::net::page_url(addr));
    let listeners = gloam_server::Listeners { game: listener, health };
    gloam_server::host(listeners, gloam_server::shutdown_signal(), drain, config, store).await?;
    Ok(())
}
