//! The window's connection against a real server: quitting is a goodbye
//! and a closing handshake, which the server logs as a normal close, not
//! as "Connection reset without closing handshake".
//!
//! A test binary of its own, outside `tests/integration/`: it sets the
//! process's tracing subscriber, once, to read the server's log, which
//! beside the other tests would also hold what their servers log.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gloam_client::net::{self, NetEvent};
use gloam_protocol::ServerMsg;
use gloam_server::Config;
use gloam_tests::TestServer;

/// How long the test waits for anything before it fails.
const PATIENCE: Duration = Duration::from_secs(30);

/// Everything the server logs, kept for the test to read.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap()
}

/// Esc in the window: by the time `quit` returns the server has closed the
/// connection as a goodbye, and nothing in its log speaks of a reset.
#[test]
fn the_server_logs_a_goodbye_not_a_reset_when_the_window_quits() {
    let log = Log::default();
    let writer = log.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .init();
    let (server_side, window_side) = (runtime(), runtime());
    let server = server_side.block_on(TestServer::start(Config::default())).unwrap();

    let hello = net::hello("ann".into(), None, None);
    let connection = net::connect(window_side.handle(), server.url(), hello, || {});
    let welcome = connection.events.recv_timeout(PATIENCE).expect("an answer in time");
    assert!(matches!(welcome, NetEvent::Msg(ServerMsg::Welcome { .. })), "{welcome:?}");
    assert!(connection.quit(), "closed within the wait");

    let log = log.text();
    let closed: Vec<&str> = log.lines().filter(|l| l.contains("connection closed")).collect();
    assert_eq!(closed.len(), 1, "{log}");
    assert!(closed[0].contains("reason=goodbye"), "{log}");
    assert!(!log.contains("reset"), "{log}");
    drop(server);
}
