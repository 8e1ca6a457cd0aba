//! The server on PostgreSQL (`--store postgres://...`), each test on a
//! database (or a whole PostgreSQL) of its own from `gloam_tests::postgres`:
//! a SIGKILL mid-play loses at most the last second, a PostgreSQL restart
//! while playing loses nothing the server was sent (it reconnects and plays
//! on), and `migrate` moves a redb world that then plays on PostgreSQL.
//! Each says so and passes where PostgreSQL is not installed (never in
//! `tests/run-all`, which requires it).

#![cfg(unix)]

use std::time::{Duration, Instant};

use gloam_protocol::Terrain;
use gloam_tests::postgres::{Cluster, database};

use crate::persist::{join, killed_in_play, start};

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");

#[tokio::test]
async fn a_killed_server_on_postgres_loses_at_most_the_last_second() {
    let Some(url) = database() else { return };
    killed_in_play(&["--store", &url]).await;
}

/// PostgreSQL stops and starts again while a player walks: the game goes
/// on meanwhile, and once the server has stopped cleanly every step sent
/// before is kept (the store retried its commits until the database was
/// back).
#[tokio::test]
async fn a_postgres_restart_while_playing_loses_nothing_and_play_goes_on() {
    let Some(mut cluster) = Cluster::start() else { return };
    let url = cluster.database();
    let data = tempfile::tempdir().unwrap();
    let store = ["--store", url.as_str()];
    let server = start(data.path(), &[&["--seed", "5", "--generator", "bsp"][..], &store].concat());
    let mut ann = join(&server.url, "ann", None).await.unwrap();
    let token = ann.token;
    ann.explore(30).await.unwrap();
    cluster.stop();
    // Played while the database is away: these steps wait in the store.
    ann.explore(30).await.unwrap();
    cluster.start_again();
    ann.explore(10).await.unwrap();
    let (depth, at, known) = (ann.state.depth, ann.at(), ann.known());
    ann.quit().await.unwrap();
    assert!(server.process.signal("TERM").success(), "the server stopped cleanly");
    let server = start(data.path(), &store);
    let back = join(&server.url, "ann", token).await.unwrap();
    assert_eq!((back.state.depth, back.at()), (depth, at), "where it stood when it left");
    assert_eq!(back.known().len(), known.len(), "all it knew, the outage's steps too");
    assert!(server.process.signal("TERM").success());
}

/// A world played on redb, moved with `gloam-server migrate`, plays on
/// PostgreSQL: the same world, its character where it stood with what it
/// knew, its dead in the graveyard, and the morgue files of its folder
/// served from the database.
#[tokio::test]
async fn a_world_moved_to_postgres_plays_on_there() {
    let Some(url) = database() else { return };
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path(), &["--seed", "9", "--generator", "bsp"]);
    let mut ann = join(&server.url, "ann", None).await.unwrap();
    let token = ann.token;
    ann.explore_until(|s| s.find(Terrain::StairsDown).is_some(), 400).await.unwrap();
    ann.explore(20).await.unwrap();
    let (depth, at, known) = (ann.state.depth, ann.at(), ann.known());
    ann.quit().await.unwrap();
    assert!(server.process.signal("TERM").success());
    let dead = graveyard(&["--data", &data.path().to_string_lossy()]);
    let morgue = |name: &str| data.path().join("morgue").join(name);
    for (name, file) in [("ann", "1.txt"), ("bob", "2.txt")] {
        std::fs::create_dir_all(morgue(name)).unwrap();
        std::fs::write(morgue(name).join(file), format!("{name}'s morgue file\n")).unwrap();
    }

    let moved = std::process::Command::new(SERVER)
        .args(["migrate", "--from"])
        .arg(data.path())
        .args(["--to", &url])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&moved.stdout);
    assert!(moved.status.success(), "{said}{}", String::from_utf8_lossy(&moved.stderr));
    assert!(said.contains("moved the world"), "{said}");
    assert!(said.contains("2 morgue files"), "{said}");
    let again = std::process::Command::new(SERVER)
        .args(["migrate", "--from"])
        .arg(data.path())
        .args(["--to", &url])
        .output()
        .unwrap();
    assert!(!again.status.success(), "a database that holds a world is not written over");

    let elsewhere = tempfile::tempdir().unwrap();
    assert_eq!(graveyard(&["--store", &url]), dead, "the same graveyard");
    let server = start(elsewhere.path(), &["--store", &url]);
    assert!(server.banner().contains("world seed 9, generator bsp"), "{}", server.banner());
    let back = join(&server.url, "ann", token).await.unwrap();
    assert_eq!((back.state.depth, back.at()), (depth, at), "same depth and cell");
    assert_eq!(back.known(), known, "the same cells known");
    let addr = server.url.trim_start_matches("ws://").parse().expect("an address");
    let get = |path: &str| {
        let request = format!("GET {path} HTTP/1.1\r\nHost: gloam\r\n\r\n");
        async move { gloam_tests::raw::http(addr, request.as_bytes()).await }
    };
    for (name, file) in [("ann", "1.txt"), ("bob", "2.txt")] {
        let answer = get(&format!("/morgue/{name}/{file}")).await;
        assert_eq!(answer.status, 200, "{name}'s morgue file is served from the database");
        assert_eq!(answer.body, format!("{name}'s morgue file\n").as_bytes());
    }
    assert_eq!(get("/morgue/ann/2.txt").await.status, 404);
    assert!(server.process.signal("TERM").success());
}

/// What `gloam-server graveyard` prints for the store `store` names.
fn graveyard(store: &[&str]) -> String {
    let started = Instant::now();
    let out = std::process::Command::new(SERVER).arg("graveyard").args(store).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(started.elapsed() < Duration::from_secs(60));
    String::from_utf8_lossy(&out.stdout).into_owned()
}
