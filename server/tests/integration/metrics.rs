//! `--metrics`: the real binary serves Prometheus text on /metrics, and the
//! figures move as play goes on: players per depth, actions and rounds,
//! bytes sent, the command and commit latencies, connections closed by
//! reason.

#![cfg(unix)]

use std::collections::HashMap;

use gloam_protocol::{Action, ClientMsg, Pos};
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_tests::SimClient;
use gloam_tests::process::ServerProcess;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");

/// Fetches `path` from `addr` (a plain HTTP/1.1 GET); gives the status
/// line and the body.
async fn get(addr: &str, path: &str) -> (String, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("the metrics port answers");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    let read = stream.read_to_string(&mut response);
    tokio::time::timeout(std::time::Duration::from_secs(10), read).await.unwrap().unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    (head.lines().next().unwrap().to_owned(), body.to_owned())
}

/// Every sample of the scrape, by its name with labels (`name{a="b"}`).
async fn scrape(addr: &str) -> HashMap<String, f64> {
    let (status, body) = get(addr, "/metrics").await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    body.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| {
            let (name, value) = l.rsplit_once(' ')?;
            Some((name.to_owned(), value.parse().ok()?))
        })
        .collect()
}

fn value(figures: &HashMap<String, f64>, name: &str) -> f64 {
    figures.get(name).copied().unwrap_or(0.0)
}

/// A floor cell four steps from the arrival of depth 1, in its sight.
fn beside_the_arrival(seed: u64, setting: GeneratorSetting) -> Pos {
    gloam_tests::floor_in_sight_of_arrival(seed, setting, 4).1[0]
}

#[tokio::test]
async fn the_figures_move_as_players_play() {
    let data = tempfile::tempdir().unwrap();
    // A kobold that sees both players by the arrival: they share a danger,
    // so ann's every action waits for bob's.
    let setting = GeneratorSetting::One(Generator::Bsp);
    let kobold = beside_the_arrival(3, setting);
    let place = format!("kobold@1:{},{}", kobold.x, kobold.y);
    let args = [
        "--metrics",
        "127.0.0.1:0",
        "--seed",
        "3",
        "--generator",
        "bsp",
        "--bestiary",
        gloam_tests::ARENA_BESTIARY,
        "--place",
        &place,
    ];
    let server = ServerProcess::start(SERVER, data.path(), &args);
    let addr = server
        .banner()
        .lines()
        .find_map(|l| l.strip_prefix("gloam-server metrics on http://"))
        .and_then(|l| l.strip_suffix("/metrics"))
        .expect("the server says where its figures are")
        .to_owned();
    let (status, _) = get(&addr, "/elsewhere").await;
    assert_eq!(status, "HTTP/1.1 404 Not Found");
    let before = scrape(&addr).await;

    let mut ann = SimClient::join(&server.url, "ann", None).await.unwrap();
    let mut bob = SimClient::join(&server.url, "bob", None).await.unwrap();
    for _ in 0..10 {
        ann.act(Action::Wait).await.unwrap();
        bob.act(Action::Wait).await.unwrap();
    }
    let during = scrape(&addr).await;
    assert_eq!(value(&during, "gloam_players{depth=\"1\"}"), 2.0, "{during:?}");
    let actions = value(&during, "gloam_actions_total") - value(&before, "gloam_actions_total");
    assert_eq!(actions, 20.0);
    let rounds = value(&during, "gloam_rounds_total") - value(&before, "gloam_rounds_total");
    assert_eq!(rounds, 10.0, "bob's every action closes the round they share");
    let waits = value(&during, "gloam_round_wait_seconds_count");
    assert_eq!(waits, 10.0, "ann waited for bob in each of them");
    assert!(
        value(&during, "gloam_bytes_sent_total") > 400.0,
        "two welcomes and levels: {during:?}"
    );
    assert!(value(&during, "gloam_command_seconds_count") >= 22.0, "two arrivals, twenty actions");
    // Each action waited in its depth's queue, came in a batch, and was
    // answered: to its connection, and on its socket.
    assert_eq!(value(&during, "gloam_depth_queue_seconds_count"), 20.0);
    let batched = value(&during, "gloam_batch_actions_sum");
    assert_eq!(batched, 20.0, "every action in a batch: {during:?}");
    let batches = value(&during, "gloam_batch_seconds_count");
    assert!((1.0..=20.0).contains(&batches), "{batches} batches");
    assert_eq!(value(&during, "gloam_answer_seconds_count"), 20.0);
    // Counted once its write is done: bob may read the last before then.
    let turnarounds = value(&during, "gloam_turnaround_seconds_count");
    assert!((19.0..=20.0).contains(&turnarounds), "{turnarounds} turnarounds");
    assert!(value(&during, "gloam_store_commit_seconds_count") >= 1.0, "the arrivals were saved");
    assert_eq!(value(&during, "gloam_store_commit_failures_total"), 0.0);

    // Ann leaves; bob floods and is closed for it.
    ann.quit().await.unwrap();
    for _ in 0..200 {
        if bob.send(&ClientMsg::Act(Action::Wait)).await.is_err() {
            break;
        }
    }
    bob.closed().await.ok();
    // The depth counts ann gone once its next command is done: bob's
    // flood may race it, so a third player's arrival settles the count.
    let mut cy = SimClient::join(&server.url, "cy", None).await.unwrap();
    cy.act(Action::Wait).await.unwrap();
    let after = scrape(&addr).await;
    assert_eq!(value(&after, "gloam_players{depth=\"1\"}"), 1.0, "{after:?}");
    assert_eq!(value(&after, "gloam_connections_closed_total{reason=\"normal\"}"), 1.0);
    assert_eq!(value(&after, "gloam_connections_closed_total{reason=\"policy\"}"), 1.0);
    assert!(value(&after, "gloam_bytes_sent_total") > value(&during, "gloam_bytes_sent_total"));
}
