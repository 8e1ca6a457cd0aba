//! The body of the `connection` fuzz target (`server/fuzz`), shared with
//! its bounded run under `cargo test` (`tests/integration/accept_fuzz.rs`): bytes fed
//! to the server's accept path from the first byte, as the accept loop
//! feeds it a socket (the request head read and told apart, then the page
//! answered or the WebSocket handshake and the game), over an in-memory
//! pipe whose other end reads all the server answers. The connection's
//! task must end, closing the connection, without panicking.
//!
//! Time is paused: the timeouts (the head's, a send's, the lingering close
//! of a page) pass as soon as nothing else can run, so an input costs no
//! waiting and a task that hangs is caught by the deadline below.

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use gloam_server::store::{Store, Writer};
use gloam_server::world::World;
use gloam_server::{Config, net};
use tokio::io::AsyncWriteExt;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// How long (of paused time) the connection is given after its last byte,
/// before the server stops.
const CHEW: Duration = Duration::from_millis(200);

/// How long (of paused time) the task may take to end once the server
/// stops: far past every timeout it has.
const DEADLINE: Duration = Duration::from_secs(30);

/// One store in memory for the whole run: its thread outlives every input.
fn store() -> &'static Writer {
    static STORE: OnceLock<Writer> = OnceLock::new();
    STORE.get_or_init(|| Store::in_memory().start().0)
}

/// Feeds `pieces` to a fresh connection's accept path in turn, `pause`
/// (of paused time) after each, then stops the server; panics if the
/// connection's task panicked or did not end.
pub fn feed(pieces: &[&[u8]], pause: Duration) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let config =
            Config { handshake_timeout: Duration::from_millis(100), ..Config::with_seed(1) };
        let hellos = Arc::new(net::Hellos::new(config.hello_pace));
        let world = Arc::new(World::new(config, store().handle(), Vec::new()));
        let (client, server) = tokio::io::duplex(64 * 1024);
        let (mut answers, mut client) = tokio::io::split(client);
        let reader = tokio::spawn(async move {
            let _ = tokio::io::copy(&mut answers, &mut tokio::io::sink()).await;
        });
        let stop = CancellationToken::new();
        let peer = SocketAddr::from(([127, 0, 0, 1], 9));
        let slot = Arc::new(Semaphore::new(1)).try_acquire_owned().ok();
        let task = tokio::spawn(net::receive(server, peer, slot, world, hellos, stop.clone()));
        for piece in pieces {
            let _ = client.write_all(piece).await;
            tokio::time::sleep(pause).await;
        }
        tokio::time::sleep(CHEW).await;
        stop.cancel();
        let _ = client.shutdown().await;
        let ended = tokio::time::timeout(DEADLINE, task).await;
        assert!(matches!(ended, Ok(Ok(()))), "the connection task panicked or hung: {ended:?}");
        reader.abort();
    });
}
