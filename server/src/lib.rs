//! The authoritative Gloam server.
//!
//! `net` accepts WebSocket connections and runs one task per connection: the
//! handshake, then decoding actions and writing the messages the world sends.
//! `world` is the game itself: one task per depth owns that depth's level and
//! the players on it and applies their actions in arrival order, through
//! synchronous code that knows nothing of sockets. `mapgen` builds levels
//! from seeds and `fov` computes sight.

#![warn(unreachable_pub)]
pub mod backgrounds;
pub mod balance;
pub mod bestiary;
pub mod character;
pub mod cli;
pub mod config;
pub mod fov;
pub mod items;
pub mod level;
pub mod mapgen;
pub mod morgue;
pub mod motd;
pub mod net;
pub mod seeds;
pub mod store;
pub mod telemetry;
pub(crate) mod tuning;
pub mod world;

pub use config::Config;
pub use net::{Listeners, host, run, run_with_store};

/// Completes on Ctrl-C or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("Ctrl-C received"),
        () = term => tracing::info!("SIGTERM received"),
    }
}

/// Completes when the process is sent SIGUSR2 (on Unix; never elsewhere):
/// `gloam-server`'s signal to drain the world (see `net::host`). The
/// signal is caught from this call on, not from the first poll: a SIGUSR2
/// that came before would end the process.
pub fn drain_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    let caught = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::user_defined2()).ok();
    async move {
        #[cfg(unix)]
        if let Some(mut caught) = caught {
            caught.recv().await;
            tracing::info!("SIGUSR2 received");
            return;
        }
        std::future::pending::<()>().await;
    }
}

/// A world seed for a host who gave none: from the clock and the process id,
/// mixed. Logged at start, so any world can be rebuilt.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    mapgen::level_seed(nanos ^ u64::from(std::process::id()).rotate_left(32), 0)
}
