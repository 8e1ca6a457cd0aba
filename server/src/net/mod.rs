//! The network edge: the accept loop, one task per connection, and a clean
//! shutdown that saves every player, tells each client the server restarts
//! and closes it with 1012 (or, for a world that is gone, "going away"; see
//! `Config::farewell`). A connection's
//! frames are `connection`'s; what it says, from the hello to the close,
//! is its session's (`session`); `hellos` paces hellos per address.
//!
//! One port serves both the game and the web client's page. A connection's
//! request head is read once (`head`: at most 8 KiB, within the handshake
//! timeout) and parsed with `httparse`: a WebSocket upgrade (`Upgrade:
//! websocket`) is a game connection, handed to tungstenite with the same
//! bytes replayed, so its handshake is checked as before; anything else is
//! a request for the page (`page`), or for the host's page of the world
//! (`status`), answered and closed. Either counts
//! against `max_connections` from its accept to its close; over the cap an
//! upgrade is closed with "try again later", a page request gets a 503.

mod chat;
mod connection;
mod head;
mod hellos;
mod morgue;
mod pacer;
mod page;
mod ping;
mod session;
mod status;

pub use hellos::Hellos;
pub use page::page_url;
pub use session::serve;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
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
/// accepting, saves every player, tells every client the server restarts
/// and closes it (as `Config::farewell` says), and returns once
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
                    let slot = slots.clone().try_acquire_owned().ok();
                    let (world, hellos) = (world.clone(), hellos.clone());
                    tracker.spawn(receive(stream, peer, slot, world, hellos, stop.clone()));
                }
                // Running out of file descriptors and the like: log and keep serving.
                Err(e) => warn!(error = %e, "accept failed"),
            },
        }
    }
    drop(listener);
    info!(connections = tracker.len(), farewell = ?world.config().farewell, "shutting down");
    // Before anyone leaves: no step onto a cell a leaver has just freed.
    world.freeze().await;
    stop.cancel();
    tracker.close();
    if tokio::time::timeout(grace, tracker.wait()).await.is_err() {
        warn!(left = tracker.len(), "connections still open after the grace period");
    }
    world.close().await;
    stop_backups.cancel();
    let _ = backups.await;
    // Every connection that closed has sent its save; commit them.
    tokio::task::spawn_blocking(move || writer.close()).await.map_err(std::io::Error::other)?;
    info!("stopped");
    Ok(())
}

/// Serves one accepted connection from its first byte: its request head,
/// then a game session or the page. `slot` is its place among
/// `max_connections`, held until it closes; without one it is turned away.
/// Public for the fuzz target and its bounded test, which feed it any
/// bytes over an in-memory pipe as the accept loop feeds it a socket.
pub async fn receive<S>(
    mut stream: S,
    peer: std::net::SocketAddr,
    slot: Option<OwnedSemaphorePermit>,
    world: Arc<World>,
    hellos: Arc<Hellos>,
    stop: CancellationToken,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let (handshake_timeout, send_timeout) =
        (world.config().handshake_timeout, world.config().send_timeout);
    let head = tokio::select! {
        () = stop.cancelled() => return,
        head = head::read_head(&mut stream, handshake_timeout) => head,
    };
    let head = match head {
        Ok(head) => head,
        Err(error) => return page::refuse(stream, peer, error, send_timeout).await,
    };
    match head.request {
        head::Request::Upgrade => {
            let stream = head::Replay::new(head.bytes, stream);
            match slot {
                Some(_) => serve(stream, peer, world, hellos, stop).await,
                None => connection::turn_away(stream, peer).await,
            }
        }
        head::Request::Page(request) => match (status::asked(&request), morgue::asked(&request)) {
            (Some(form), _) if slot.is_some() => {
                status::serve(stream, peer, &request, form, &world, send_timeout).await;
            }
            (_, Some(asked)) if slot.is_some() => {
                morgue::serve(stream, peer, &request, asked, &world, send_timeout).await;
            }
            _ => page::serve(stream, peer, &request, slot.is_none(), send_timeout).await,
        },
    }
    drop(slot);
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
