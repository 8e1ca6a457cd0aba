//! Many well-behaved players alongside flooders and clients that never
//! read: the well-behaved keep getting prompt answers, the misbehaving are
//! closed, and memory stays bounded.

use std::time::{Duration, Instant};

use gloam_protocol::{Action, ClientMsg, Dir, codec};
use gloam_server::Config;
use gloam_server::mapgen::{Generator, GeneratorSetting};
use gloam_tests::raw::{self, Ending};
use gloam_tests::{SimClient, TestServer};
use tokio::io::AsyncWriteExt;

const PLAYERS: usize = 40;
const ACTIONS: usize = 25;
const FLOODERS: usize = 5;
const SILENT: usize = 5;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn well_behaved_players_stay_prompt_among_misbehaving_ones() {
    let config = Config {
        seed: 5,
        generator: GeneratorSetting::One(Generator::Bsp),
        actions_per_second: 200,
        action_burst: 50,
        ..Config::default()
    };
    let server = TestServer::start(config).await.unwrap();
    let url = server.url();
    let before = rss_kib();

    // Clients that never read, with tiny receive buffers, parked in the crowd.
    let mut silent = Vec::new();
    for i in 0..SILENT {
        let mut s = raw::connect(server.addr, Some(2048)).await.unwrap();
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
            let addr = server.addr;
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
    let grown = rss_kib().saturating_sub(before);
    eprintln!(
        "{PLAYERS} players x {ACTIONS} actions beside {FLOODERS} flooders and {SILENT} silent clients: \
         slowest answer {worst:?}, memory grew {grown} KiB"
    );
    assert!(worst < Duration::from_secs(2), "a well-behaved player waited {worst:?}");
    assert!(grown < 200 * 1024, "memory grew by {grown} KiB");
    assert!(server.is_running());
    drop(silent);
}
