//! A reconnect storm (issue 38): a crowd, each player with its key, plays
//! the real binary, which is restarted as a host restarts it (SIGTERM, then
//! the same command on the same port and data folder). Every player comes
//! back by itself with the window's rules of trying again
//! (`gloam_tests::storm`): all within 30 s of the SIGTERM, none refused
//! (a name still held by the old session, a full server), none made a new
//! character, each where its client last saw it. `gloam-bot --storm` runs
//! the same storm at 1,000 (BENCHMARKS.md).

#![cfg(unix)]

use std::time::{Duration, Instant};

use gloam_tests::process::ServerProcess;
use gloam_tests::storm::{Settings, Storm};

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");

const PLAYERS: usize = 200;

/// The promise: everyone back within 30 s of a restart.
const BACK_WITHIN: Duration = Duration::from_secs(30);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnect_storm_brings_every_player_back_as_itself_within_30_s() {
    let data = tempfile::tempdir().unwrap();
    // No monsters: a death would make a new character, not a return.
    let args = ["--seed", "5", "--generator", "bsp", "--bestiary", gloam_tests::QUIET_BESTIARY];
    let server = ServerProcess::start(SERVER, data.path(), &args);
    let bind = server.url.trim_start_matches("ws://").to_owned();
    let settings = Settings { clients: PLAYERS, rate: 2.0, warm_up: 3, ..Settings::default() };
    let storm = Storm::join(&server.url, &settings, Duration::from_secs(120))
        .await
        .expect("the crowd joins and plays");

    let began = Instant::now();
    let folder = data.path().to_owned();
    let restarted = tokio::task::spawn_blocking(move || {
        assert!(server.process.signal("TERM").success(), "a clean stop exits 0");
        ServerProcess::start_at(SERVER, &bind, &folder, &args)
    });
    let report = storm.until_back(Some(began), Duration::from_secs(60), BACK_WITHIN).await;
    let server = restarted.await.expect("the server started again");
    eprintln!("{PLAYERS} players across a restart:\n{report}");

    assert_eq!(report.lost, PLAYERS, "every link ended with the restart:\n{report}");
    assert_eq!(report.back, PLAYERS, "everyone is back within {BACK_WITHIN:?}:\n{report}");
    assert!(report.refusals.is_empty(), "nobody is refused on the way back:\n{report}");
    assert!(report.out.is_empty(), "nobody gave up:\n{report}");
    assert_eq!(report.made_anew, 0, "each came back as its own character:\n{report}");
    assert!(report.moved.is_empty(), "each where it stood:\n{report}");
    assert!(report.last.is_some_and(|last| last < BACK_WITHIN), "{report}");
    assert!(server.process.signal("TERM").success());
}
