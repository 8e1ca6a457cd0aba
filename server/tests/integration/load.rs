//! Many well-behaved players alongside flooders and clients that never
//! read: the well-behaved keep getting prompt answers, the misbehaving are
//! closed, and the memory of the server (the real binary, measured alone)
//! stays bounded.

#![cfg(unix)]

use std::time::{Duration, Instant};

use gloam_protocol::{Action, ClientMsg, Dir, codec};
use gloam_tests::SimClient;
use gloam_tests::process::ServerProcess;
use gloam_tests::raw::{self, Ending};
use tokio::io::AsyncWriteExt;

const PLAYERS: usize = 40;
const ACTIONS: usize = 25;
const FLOODERS: usize = 5;
const SILENT: usize = 5;

/// The resident memory of process `pid`, from /proc. Where there is no
/// such measure the test fails rather than passing on a zero.
fn rss_kib(pid: u32) -> u64 {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot measure the server's memory ({path}: {e})"));
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS line in {path}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn well_behaved_players_stay_prompt_among_misbehaving_ones() {
    let data = tempfile::tempdir().unwrap();
    let args = ["--seed", "5", "--generator", "bsp", "--actions-per-second", "200"];
    let server = ServerProcess::start(env!("CARGO_BIN_EXE_gloam-server"), data.path(), &args);
    let url = server.url.clone();
    let addr: std::net::SocketAddr =
        url.trim_start_matches("ws://").parse().expect("the server's address");
    let pid = server.process.pid();
    let before = rss_kib(pid);

    // Clients that never read, with tiny receive buffers, parked in the crowd.
    let mut silent = Vec::new();
    for i in 0..SILENT {
        let mut s = raw::connect(addr, Some(2048)).await.unwrap();
        s.write_all(raw::upgrade_request("13", "").as_bytes()).await.unwrap();
        assert!(raw::read_head(&mut s).await.unwrap().starts_with("HTTP/1.1 101"));
        s.write_all(&raw::hello(&format!("silent{i}"))).await.unwrap();
        silent.push(s);
    }

    let mut players = Vec::new();
    for i in 0..PLAYERS {
        let url = url.clone();
        players.push(tokio::spawn(async move {
            let mut sim = SimClient::join(&url, &format!("p{i}"), None).await.expect("joins");
            let mut worst = Duration::ZERO;
            for _ in 0..ACTIONS {
                let dir = sim.first_step(|p| sim.is_frontier(p)).unwrap_or(Dir::ALL[i % 8]);
                let t = Instant::now();
                sim.act(Action::Move(dir)).await.expect("answered");
                worst = worst.max(t.elapsed());
            }
            worst
        }));
    }
    let flooders: Vec<_> = (0..FLOODERS)
        .map(|i| {
            tokio::spawn(async move {
                let mut s = raw::open(addr).await;
                s.write_all(&raw::hello(&format!("flood{i}"))).await.unwrap();
                let wait = raw::binary(&codec::encode(&ClientMsg::Act(Action::Wait)));
                let flood: Vec<u8> = std::iter::repeat_n(wait, 5_000).flatten().collect();
                let _ = s.write_all(&flood).await;
                raw::ending(&mut s).await
            })
        })
        .collect();

    let mut worst = Duration::ZERO;
    for p in players {
        worst = worst.max(p.await.expect("a well-behaved player finished"));
    }
    for f in flooders {
        match f.await.unwrap() {
            Ending::Closed { code: 1008, reason } => {
                assert!(reason.contains("flooding"), "{reason}")
            }
            other => panic!("a flooder was not closed for flooding: {other:?}"),
        }
    }
    let grown = rss_kib(pid).saturating_sub(before);
    eprintln!(
        "{PLAYERS} players x {ACTIONS} actions beside {FLOODERS} flooders and {SILENT} silent clients: \
         slowest answer {worst:?}, memory grew {grown} KiB"
    );
    assert!(worst < Duration::from_secs(2), "a well-behaved player waited {worst:?}");
    assert!(grown < 200 * 1024, "memory grew by {grown} KiB");
    // Still serving: a newcomer is answered.
    let mut late = SimClient::join(&url, "late", None).await.expect("the server still serves");
    late.sync().await.unwrap();
    drop(silent);
}
