//! The real binary's threads: the store's gives way to the game's (it runs
//! at a low priority, nice 10), and the game's keep the priority the
//! server was started with.

#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use gloam_tests::process::{DEADLINE, ServerProcess};

/// The nice value of each of process `pid`'s threads named `name`, from
/// /proc.
fn nices(pid: u32, name: &str) -> Vec<i32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("the server's threads");
    let mut nices = Vec::new();
    for task in tasks.flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim_end() != name {
            continue;
        }
        nices.extend(nice_of(&task.path()));
    }
    nices
}

/// The nice value of the thread whose /proc folder is `task` (field 19 of
/// its `stat`, counted past the name); `None` once it has ended.
fn nice_of(task: &std::path::Path) -> Option<i32> {
    let stat = std::fs::read_to_string(task.join("stat")).ok()?;
    let after_name = &stat[stat.rfind(')').expect("a stat line names its thread") + 1..];
    let nice = after_name.split_whitespace().nth(16).and_then(|n| n.parse().ok());
    Some(nice.expect("a stat line gives the nice value"))
}

#[test]
fn the_store_thread_gives_way_to_the_game() {
    let data = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_gloam-server");
    let server = ServerProcess::start(binary, &data.path().join("w"), &["--seed", "1"]);
    let pid = server.process.pid();
    // The main thread, found by its id (other threads a library starts
    // unnamed bear the binary's name too).
    let started_at = nice_of(std::path::Path::new(&format!("/proc/{pid}/task/{pid}")))
        .expect("the server's main thread runs");
    let deadline = Instant::now() + DEADLINE;
    // The store's thread lowers its own priority as it starts.
    while nices(pid, "gloam-store") != [10] {
        let now = nices(pid, "gloam-store");
        assert!(Instant::now() < deadline, "the store's thread runs at nice {now:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
    let workers = nices(pid, "tokio-rt-worker");
    assert!(!workers.is_empty(), "the game's threads are tokio's workers");
    assert!(workers.iter().all(|&n| n == started_at), "the game's threads at {workers:?}");
}
