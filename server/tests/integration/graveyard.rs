//! `gloam-server graveyard` lists the world's dead, as the real binary
//! keeps them: a character killed in play is there after the server stops,
//! deepest first, and its name plays on as a new character.

#![cfg(unix)]

use std::process::Command;

use gloam_protocol::{Action, Dir, Terrain};
use gloam_server::mapgen::{self, Generator, GeneratorSetting};
use gloam_tests::process::ServerProcess;
use gloam_tests::{ARENA_BESTIARY, SimClient, SimError};

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");

fn graveyard(data: &std::path::Path) -> String {
    let out = Command::new(SERVER)
        .args(["graveyard", "--data"])
        .arg(data)
        .output()
        .expect("gloam-server runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("text")
}

#[tokio::test]
async fn the_dead_are_listed_after_the_server_stops() {
    let data = tempfile::tempdir().unwrap();
    assert!(graveyard(data.path()).contains("nobody has died"), "an empty graveyard says so");

    // A giant beside the arrival of a seeded level: one blow kills.
    let level = mapgen::build_level(5, 1, GeneratorSetting::One(Generator::Bsp));
    let beside = Dir::ALL
        .into_iter()
        .filter_map(|d| level.arrival.step(d))
        .find(|&p| level.terrain(p) == Terrain::Floor)
        .expect("floor beside the arrival");
    let place = format!("giant@1:{},{}", beside.x, beside.y);
    let args =
        ["--seed", "5", "--generator", "bsp", "--bestiary", ARENA_BESTIARY, "--place", &place];
    let server = ServerProcess::start(SERVER, data.path(), &args);
    let mut ann = SimClient::join(&server.url, "ann", None).await.unwrap();
    match ann.act(Action::Wait).await {
        Err(SimError::Died(record)) => assert_eq!(record.killed_by, "a giant"),
        other => panic!("ann should have died: {other:?}"),
    }
    let again = SimClient::join_with_token(&server.url, "ann", ann.token, None).await;
    assert!(again.is_ok(), "the name plays on");
    drop(again);
    assert!(server.process.signal("TERM").success());

    let text = graveyard(data.path());
    let row = text.lines().find(|l| l.starts_with("ann ")).unwrap_or_else(|| panic!("{text}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[..2], ["ann", "1"], "{row}");
    assert!(row.ends_with("a giant") && row.contains("UTC"), "{row}");
}
