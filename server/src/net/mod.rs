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
//! (`status`), or for its health (`health`: probes, and the drain a host
//! asks for), answered and closed. Either counts
//! against `max_connections` from its accept to its close; over the cap an
//! upgrade is closed with "try again later", a page request gets a 503.

mod chat;
mod connection;
mod head;
mod health;
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

/// Serves the world on `listener` until `shutdown` completes; see [`host`].
pub async fn run_with_store(
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
    config: Config,
    store: Store,
) -> std::io::Result<()> {
    let listeners = Listeners { game: listener, health: None };
    host(listeners, shutdown, std::future::pending(), config, store).await
}

/// The ports a server listens on: the game's (which serves the page and
/// the health endpoints too), and optionally one for the health endpoints
/// alone (`--health`), where `POST /drain` is taken from loopback.
#[derive(Debug)]
pub struct Listeners {
    pub game: TcpListener,
    pub health: Option<TcpListener>,
}

/// Serves the world on `listeners` until `shutdown` completes, or until
/// the world has drained: once `drain` completes (SIGUSR2 for
/// `gloam-server`) or a host posts `/drain`, newcomers are refused and
/// the server stops when the last player has left. Then it stops
/// accepting, saves every player, tells every client left the server
/// restarts and closes it (as `Config::farewell` says), and returns once
/// they are closed (or the grace period has passed) and every character is
/// saved in `store`.
pub async fn host(
    listeners: Listeners,
    shutdown: impl Future<Output = ()>,
    drain: impl Future<Output = ()>,
    config: Config,
    store: Store,
) -> std::io::Result<()> {
    let addr = listeners.game.local_addr()?;
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
    let serving = Serving { world: world.clone(), hellos, stop: stop.clone(), tracker: &tracker };
    serving.accept_until(&listeners, shutdown, drain).await;
    drop(listeners);
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

/// What the accept loop hands each connection.
struct Serving<'t> {
    world: Arc<World>,
    hellos: Arc<Hellos>,
    stop: CancellationToken,
    tracker: &'t TaskTracker,
}

impl Serving<'_> {
    /// Accepts connections on both ports until `shutdown` completes or the
    /// world has drained (`drain` begins a drain).
    async fn accept_until(
        &self,
        listeners: &Listeners,
        shutdown: impl Future<Output = ()>,
        drain: impl Future<Output = ()>,
    ) {
        let slots = Arc::new(Semaphore::new(self.world.config().max_connections));
        let probes = Arc::new(Semaphore::new(health::MOST_AT_ONCE));
        let drained = self.world.drained();
        tokio::pin!(shutdown, drain, drained);
        let mut signalled = false;
        loop {
            tokio::select! {
                () = &mut shutdown => return,
                () = &mut drained => return info!("drained: nobody plays; the world closes"),
                () = &mut drain, if !signalled => {
                    signalled = true;
                    self.world.drain("the drain signal (SIGUSR2)");
                }
                accepted = listeners.game.accept() => match accepted {
                    Ok((stream, peer)) => {
                        let _ = stream.set_nodelay(true);
                        let _ = socket2::SockRef::from(&stream)
                            .set_send_buffer_size(self.world.config().socket_send_buffer);
                        let slot = slots.clone().try_acquire_owned().ok();
                        let (world, hellos) = (self.world.clone(), self.hellos.clone());
                        let stop = self.stop.clone();
                        self.tracker.spawn(receive(stream, peer, slot, world, hellos, stop));
                    }
                    // Running out of file descriptors and the like: log and keep serving.
                    Err(e) => warn!(error = %e, "accept failed"),
                },
                accepted = accept_on(listeners.health.as_ref()) => match accepted {
                    // Over the cap a connection is closed unanswered: a
                    // probe tries again, a flood costs nothing.
                    Ok((stream, peer)) => if let Ok(probe) = probes.clone().try_acquire_owned() {
                        let (world, stop) = (self.world.clone(), self.stop.clone());
                        self.tracker.spawn(async move {
                            health::receive(stream, peer, world, stop).await;
                            drop(probe);
                        });
                    },
                    Err(e) => warn!(error = %e, "accept failed on the health port"),
                },
            }
        }
    }
}

/// The next connection on `listener`, if there is one: none ever comes
/// without it.
async fn accept_on(
    listener: Option<&TcpListener>,
) -> std::io::Result<(tokio::net::TcpStream, std::net::SocketAddr)> {
    match listener {
        Some(listener) => listener.accept().await,
        None => std::future::pending().await,
    }
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
        head::Request::Page(request) if slot.is_some() => {
            answer_page(stream, peer, &request, &world, send_timeout).await;
        }
        head::Request::Page(request) => {
            page::serve(stream, peer, &request, true, send_timeout).await;
        }
    }
    drop(slot);
}

/// Answers a request on the game's port that is not a game connection:
/// the host's page of the world, a morgue file, the world's health, or
/// the web client's page.
async fn answer_page<S>(
    stream: S,
    peer: std::net::SocketAddr,
    request: &head::PageRequest,
    world: &World,
    send_timeout: Duration,
) where
    S: AsyncRead + AsyncWrite + Unpin,
{
    if let Some(form) = status::asked(request) {
        status::serve(stream, peer, request, form, world, send_timeout).await;
    } else if let Some(asked) = morgue::asked(request) {
        morgue::serve(stream, peer, request, asked, world, send_timeout).await;
    } else if let Some(asked) = health::asked(request) {
        let asked = (asked, health::Port::Game);
        health::serve(stream, peer, request, asked, world, send_timeout).await;
    } else {
        page::serve(stream, peer, request, false, send_timeout).await;
    }
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
