//! A world drained over real sockets, on the real binary: SIGUSR2 or
//! `POST /drain` (on the `--health` port, from loopback) turns newcomers
//! away with `Refusal::Draining` naming `--drain-to`, while the player in
//! play goes on (its actions answered, its own reconnection let in); the
//! health endpoints say so (`/health/ready` 503); and once the last player
//! has left the process exits 0 with the world saved.

#![cfg(unix)]

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use gloam_protocol::{Action, Refusal};
use gloam_tests::process::{DEADLINE, ServerProcess};
use gloam_tests::raw::{HttpAnswer, http};
use gloam_tests::sim::{SimClient, SimError};

const ELSEWHERE: &str = "ws://gloam-2.example.org:7777";

/// Starts the server on `data` with a health port and `--drain-to`; gives
/// it and the health port's address.
fn start(data: &Path) -> (ServerProcess, SocketAddr) {
    start_with_health(data, "127.0.0.1:0")
}

/// As [`start`], the health port bound to `health`.
fn start_with_health(data: &Path, health: &str) -> (ServerProcess, SocketAddr) {
    let args = ["--seed", "5", "--health", health, "--drain-to", ELSEWHERE];
    let server = ServerProcess::start(env!("CARGO_BIN_EXE_gloam-server"), data, &args);
    let health = server
        .banner()
        .lines()
        .find_map(|l| l.strip_prefix("gloam-server health on http://"))
        .and_then(|rest| rest.strip_suffix("/health"))
        .expect("the health address is told")
        .parse()
        .expect("an address");
    (server, health)
}

/// The game's address, from its URL.
fn game_addr(server: &ServerProcess) -> SocketAddr {
    server.url.trim_start_matches("ws://").parse().expect("an address")
}

async fn get(addr: SocketAddr, path: &str) -> (HttpAnswer, serde_json::Value) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: gloam\r\n\r\n");
    let answer = http(addr, request.as_bytes()).await;
    let json = serde_json::from_slice(&answer.body).unwrap_or(serde_json::Value::Null);
    (answer, json)
}

async fn post_drain(addr: SocketAddr) -> HttpAnswer {
    http(addr, b"POST /drain HTTP/1.1\r\nHost: gloam\r\nContent-Length: 0\r\n\r\n").await
}

/// Waits (bounded) until `/health/ready` on `addr` says 503: the drain,
/// begun by a signal, has been taken.
async fn until_not_ready(addr: SocketAddr) -> serde_json::Value {
    tokio::time::timeout(DEADLINE, async {
        loop {
            let (answer, json) = get(addr, "/health/ready").await;
            if answer.status == 503 {
                return json;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the world drains in time")
}

/// A newcomer is turned away with the typed refusal naming where to go.
async fn newcomer_is_sent_elsewhere(url: &str, name: &str) {
    match SimClient::join(url, name, None).await {
        Err(SimError::Refused(refusal)) => assert_eq!(
            refusal,
            Refusal::Draining { elsewhere: Some(ELSEWHERE.into()) },
            "{name} is told where to go"
        ),
        Ok(_) => panic!("{name} was let into a draining world"),
        Err(e) => panic!("{name}: {e}"),
    }
}

#[tokio::test]
async fn sigusr2_drains_the_world_the_player_plays_on_and_the_server_exits_zero_once_it_leaves() {
    let data = tempfile::tempdir().unwrap();
    let (server, health) = start(&data.path().join("w"));
    let (url, game) = (server.url.clone(), game_addr(&server));
    let mut ann = SimClient::join(&url, "ann", None).await.expect("ann joins");
    let (answer, before) = get(game, "/health/ready").await;
    assert_eq!(
        (answer.status, &before["ready"], &before["players"]),
        (200, &true.into(), &1.into())
    );
    assert_eq!((&before["draining"], &before["saving"]), (&false.into(), &true.into()));
    let kill = std::process::Command::new("kill")
        .args(["-USR2", &server.process.pid().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let during = until_not_ready(game).await;
    assert_eq!(during["draining"], true);
    assert_eq!(during["ready"], false);
    assert_eq!(during["live"], true);
    assert_eq!(during["elsewhere"], ELSEWHERE);
    let (live, _) = get(health, "/health/live").await;
    assert_eq!(live.status, 200, "alive while it drains");
    newcomer_is_sent_elsewhere(&url, "bob").await;
    // The player plays on: its actions are answered.
    ann.act(Action::Wait).await.expect("ann's wait is answered");
    ann.act(Action::Wait).await.expect("and the next");
    let (_, still) = get(health, "/health").await;
    assert_eq!(still["players"], 1, "bob was never counted");
    let token = ann.token.expect("a new character's token");
    let at = ann.at();
    ann.quit().await.expect("ann quits");
    let exit = server.process.wait();
    assert!(exit.success(), "exit status {exit:?}");
    // Saved: the world opens again with ann where she stood.
    let (again, _) = start(&data.path().join("w"));
    let ann = SimClient::join_with_token(&again.url, "ann", Some(token), None).await.unwrap();
    assert_eq!(ann.at(), at, "ann resumes where she left");
}

#[tokio::test]
async fn post_drain_on_the_health_port_drains_and_a_dropped_link_ends_the_world() {
    let data = tempfile::tempdir().unwrap();
    let (server, health) = start(&data.path().join("w"));
    let (url, game) = (server.url.clone(), game_addr(&server));
    let ann = SimClient::join(&url, "ann", None).await.expect("ann joins");
    let token = ann.token;
    // Not on the game's port, which anyone reaches: the world goes on.
    assert_eq!(post_drain(game).await.status, 404);
    let (nothing, _) = get(health, "/").await;
    assert_eq!(nothing.status, 404, "the health port serves no page");
    let (ready, _) = get(game, "/health/ready").await;
    assert_eq!(ready.status, 200, "still ready");
    let drained = post_drain(health).await;
    assert_eq!(drained.status, 202);
    let told: serde_json::Value = serde_json::from_slice(&drained.body).unwrap();
    assert_eq!((&told["draining"], &told["ready"]), (&true.into(), &false.into()));
    let (ready, _) = get(health, "/health/ready").await;
    assert_eq!(ready.status, 503);
    newcomer_is_sent_elsewhere(&url, "bob").await;
    match SimClient::watch(&url, "cy", "ann", None).await {
        Err(SimError::Refused(Refusal::Draining { elsewhere })) => {
            assert_eq!(elsewhere.as_deref(), Some(ELSEWHERE));
        }
        Err(e) => panic!("cy: {e}"),
        Ok(_) => panic!("cy watches in a draining world"),
    }
    // Ann's link breaks and she comes back on a new one: she is in play,
    // not a newcomer, so she is let in and takes her character over.
    let mut ann = SimClient::join_with_token(&url, "ann", token, None).await.expect("ann is back");
    ann.act(Action::Wait).await.expect("and plays");
    assert!(ann.close_cleanly().await.expect("closes"), "the server answers the close");
    let exit = server.process.wait();
    assert!(exit.success(), "exit status {exit:?}");
}

/// An address of this machine other than loopback, if it has one (the one
/// its route out would use; nothing is sent).
fn outward_address() -> Option<std::net::IpAddr> {
    let probe = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    probe.connect("192.0.2.254:9").or_else(|_| probe.connect("198.51.100.1:9")).ok()?;
    Some(probe.local_addr().ok()?.ip()).filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
}

#[tokio::test]
async fn a_drain_from_another_machine_is_refused_and_changes_nothing() {
    let Some(outward) = outward_address() else {
        eprintln!("skipped: this machine has no address but loopback");
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let (server, health) = start_with_health(&data.path().join("w"), "0.0.0.0:0");
    let from_outside = SocketAddr::new(outward, health.port());
    let refused = post_drain(from_outside).await;
    assert_eq!(refused.status, 403, "{outward} is not this machine's loopback");
    let (ready, report) = get(from_outside, "/health/ready").await;
    assert_eq!((ready.status, &report["draining"]), (200, &false.into()), "probes are answered");
    SimClient::join(&server.url, "ann", None).await.expect("the world still takes newcomers");
    assert_eq!(post_drain(health).await.status, 202, "from loopback it drains");
}

/// Watchers do not hold a draining world open: a watcher of the last
/// player is sent away when that player leaves, and the server exits.
#[tokio::test]
async fn a_watcher_does_not_keep_a_drained_world_open() {
    let data = tempfile::tempdir().unwrap();
    let (server, health) = start(&data.path().join("w"));
    let url = server.url.clone();
    let ann = SimClient::join(&url, "ann", None).await.expect("ann joins");
    let mut bob = SimClient::watch(&url, "bob", "ann", None).await.expect("bob watches ann");
    assert_eq!(post_drain(health).await.status, 202);
    let (_, report) = get(health, "/health").await;
    assert_eq!(report["players"], 1, "a watcher is not a player");
    ann.quit().await.expect("ann quits");
    bob.closed().await.expect("bob is sent away");
    let exit = server.process.wait();
    assert!(exit.success(), "exit status {exit:?}");
}

/// The health port serves 64 connections at once (`health::MOST_AT_ONCE`):
/// one more is closed unanswered, and a probe is answered again once they
/// have gone.
#[tokio::test]
async fn the_health_port_serves_a_few_at_once_and_closes_a_flood() {
    use tokio::io::AsyncReadExt;
    let data = tempfile::tempdir().unwrap();
    let (_server, health) = start(&data.path().join("w"));
    let mut idle = Vec::new();
    for _ in 0..64 {
        idle.push(tokio::net::TcpStream::connect(health).await.expect("connects"));
    }
    // Accepted after the 64 (the kernel queues connections in order),
    // while they hold every place.
    let mut over = tokio::net::TcpStream::connect(health).await.expect("connects");
    tokio::io::AsyncWriteExt::write_all(&mut over, b"GET /health HTTP/1.1\r\n\r\n").await.unwrap();
    let mut read = Vec::new();
    let closed =
        tokio::time::timeout(DEADLINE, over.read_to_end(&mut read)).await.expect("in time");
    let said = String::from_utf8_lossy(&read);
    assert!(closed.is_err() || read.is_empty(), "closed unanswered, not {said}");
    drop(idle);
    tokio::time::timeout(DEADLINE, async {
        loop {
            let mut probe = tokio::net::TcpStream::connect(health).await.expect("connects");
            let asked = b"GET /health/live HTTP/1.1\r\n\r\n";
            tokio::io::AsyncWriteExt::write_all(&mut probe, asked).await.unwrap();
            let mut answer = Vec::new();
            if probe.read_to_end(&mut answer).await.is_ok() && answer.starts_with(b"HTTP/1.1 200") {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("answered again once the flood has gone");
}
