//! A connection's whole byte stream: a valid WebSocket upgrade, then any
//! bytes at all, fed to the server's real connection task over an in-memory
//! pipe. The task must end (closing the connection) without panicking.
#![no_main]

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use gloam_server::store::{Store, Writer};
use gloam_server::world::World;
use gloam_server::{Config, net};
use libfuzzer_sys::fuzz_target;
use tokio::io::AsyncWriteExt;
use tokio_util::sync::CancellationToken;

const UPGRADE: &[u8] = b"GET / HTTP/1.1\r\nHost: fuzz\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

/// One store in memory for the whole run: its thread outlives every input.
fn store() -> &'static Writer {
    static STORE: OnceLock<Writer> = OnceLock::new();
    STORE.get_or_init(|| Store::in_memory().start().0)
}

fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().unwrap();
    runtime.block_on(async {
        let config = Config { handshake_timeout: Duration::from_millis(100), ..Config::with_seed(1) };
        let hellos = Arc::new(net::Hellos::new(config.hello_pace));
        let world = Arc::new(World::new(config, store().handle(), Vec::new()));
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        let stop = CancellationToken::new();
        let peer = std::net::SocketAddr::from(([127, 0, 0, 1], 9));
        let task = tokio::spawn(net::serve(server, peer, world, hellos, stop.clone()));
        let _ = client.write_all(UPGRADE).await;
        let _ = client.write_all(data).await;
        // Let the server chew on it, then stop it; the task must finish.
        tokio::time::sleep(Duration::from_millis(200)).await;
        stop.cancel();
        drop(client);
        let ended = tokio::time::timeout(Duration::from_secs(5), task).await;
        assert!(matches!(ended, Ok(Ok(()))), "the connection task panicked or hung");
    });
});
