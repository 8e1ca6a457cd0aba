//! The network edge: the accept loop, one task per connection, and a clean
//! shutdown that closes every client with "going away". A connection's
//! frames are `connection`'s; what it says, from the hello to the close,
//! is its session's (`session`); `hellos` paces hellos per address.

mod chat;
mod connection;
mod hellos;
mod pacer;
mod ping;
mod session;

pub use hellos::Hellos;
pub use session::serve;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{info, warn};

use crate::config::Config;
use crate::store::{Store, StoreHandle};
use crate::world::World;

/// Serves a world whose characters last only as long as the server (a
/// store in memory); see [`run_with_store`].
pub async fn run(
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
    config: Config,
) -> std::io::Result<()> {
    run_with_store(listener, shutdown, config, Store::in_memory()).await
}

/// Serves the world on `listener` until `shutdown` completes, then stops
/// accepting, closes every connection with "going away", and returns once
/// they are closed (or the grace period has passed) and every character is
/// saved in `store`.
pub async fn run_with_store(
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
    config: Config,
    store: Store,
) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    info!(%addr, seed = config.seed, generator = ?config.generator, "listening");
    let grace = config.shutdown_grace;
    let (writer, known) = store.start();
    let stop_backups = CancellationToken::new();
    let backups = tokio::spawn(back_up_when_asked(
        writer.handle(),
        config.backup_every,
        config.backups_kept,
        stop_backups.clone(),
    ));
    let hellos = Arc::new(Hellos::new(config.hello_pace));
    let world = Arc::new(World::new(config, writer.handle(), known));
    let stop = CancellationToken::new();
    let tracker = TaskTracker::new();
    let slots = Arc::new(Semaphore::new(world.config().max_connections));
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let _ = socket2::SockRef::from(&stream)
                        .set_send_buffer_size(world.config().socket_send_buffer);
                    match slots.clone().try_acquire_owned() {
                        Ok(slot) => {
                            let (world, hellos) = (world.clone(), hellos.clone());
                            let serve = serve(stream, peer, world, hellos, stop.clone());
                            tracker.spawn(async move {
                                serve.await;
                                drop(slot);
                            });
                        }
                        Err(_) => {
                            tracker.spawn(connection::turn_away(stream, peer));
                        }
                    }
                }
                // Running out of file descriptors and the like: log and keep serving.
                Err(e) => warn!(error = %e, "accept failed"),
            },
        }
    }
    drop(listener);
    info!(connections = tracker.len(), "shutting down");
    stop.cancel();
    tracker.close();
    if tokio::time::timeout(grace, tracker.wait()).await.is_err() {
        warn!(left = tracker.len(), "connections still open after the grace period");
    }
    world.close();
    stop_backups.cancel();
    let _ = backups.await;
    // Every connection that closed has sent its save; commit them.
    tokio::task::spawn_blocking(move || writer.close()).await.map_err(std::io::Error::other)?;
    info!("stopped");
    Ok(())
}

/// Writes a backup of the store every `every` (when set) and whenever the
/// process is sent SIGUSR1, until `stop`; each result is logged.
async fn back_up_when_asked(
    store: StoreHandle,
    every: Option<Duration>,
    keep: usize,
    stop: CancellationToken,
) {
    let mut timer = every.map(|every| tokio::time::interval_at(Instant::now() + every, every));
    #[cfg(unix)]
    let mut asked =
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::user_defined1()).ok();
    loop {
        let timed = async {
            match timer.as_mut() {
                Some(timer) => drop(timer.tick().await),
                None => std::future::pending().await,
            }
        };
        #[cfg(unix)]
        let signalled = async {
            match asked.as_mut() {
                Some(asked) => drop(asked.recv().await),
                None => std::future::pending().await,
            }
        };
        #[cfg(not(unix))]
        let signalled = std::future::pending::<()>();
        tokio::select! {
            () = stop.cancelled() => return,
            () = timed => {}
            () = signalled => info!("backup asked for (SIGUSR1)"),
        }
        match store.backup(keep).await {
            Ok(path) => info!(file = %path.display(), "backup written"),
            Err(e) => tracing::error!(error = %e, "backup failed"),
        }
    }
}
