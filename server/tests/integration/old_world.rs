//! A world folder made before items opens and plays on: its characters
//! load with an empty pack and no remembered pile, its depths' histories are taken up, and a
//! newcomer joins, is told the kinds of item and its (empty) pack, and acts.
//!
//! `fixtures/world-before-items.redb` was written by the server as of
//! commit 533b68b: `gloam-server --seed 2025 --place ogre@1:26,6 --place
//! troll@1:10,5 --place ogre@1:20,4`, then `gloam-bot --clients 8 --rate 20
//! --duration 20` (characters bot0 to bot7, some on depth 2) and SIGTERM.

#![cfg(unix)]

use gloam_protocol::Action;
use gloam_server::store::{STORE_FILE, Store};
use gloam_tests::SimClient;
use gloam_tests::process::ServerProcess;

const SERVER: &str = env!("CARGO_BIN_EXE_gloam-server");
const FIXTURE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/world-before-items.redb");

fn old_world() -> tempfile::TempDir {
    let data = tempfile::tempdir().unwrap();
    std::fs::copy(FIXTURE, data.path().join(STORE_FILE)).unwrap();
    data
}

#[test]
fn its_characters_load_carrying_nothing() {
    let data = old_world();
    let store = Store::open(data.path()).expect("the old world opens");
    assert_eq!(store.known().len(), 8, "bot0 to bot7");
    let (writer, _) = store.start();
    let handle = writer.handle();
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    rt.block_on(async {
        for i in 0..8 {
            let saved = handle.load(&format!("bot{i}")).await.unwrap().expect("a saved character");
            assert!(saved.pack.is_empty(), "bot{i} carries {:?}", saved.pack);
            assert!(!saved.explored.is_empty(), "bot{i} remembers what it explored");
            assert!(saved.piles.is_empty(), "bot{i} remembers no pile: none were stored");
        }
    });
    drop(handle);
    writer.close();
}

#[tokio::test]
async fn a_newcomer_plays_on_in_it() {
    let data = old_world();
    let places = ["--place", "ogre@1:26,6", "--place", "troll@1:10,5", "--place", "ogre@1:20,4"];
    let server = ServerProcess::start(SERVER, data.path(), &places);
    assert!(server.banner().contains("world seed 2025"), "{}", server.banner());
    assert!(server.banner().contains("(8 characters"), "{}", server.banner());
    let mut cy = SimClient::join(&server.url, "cy", None).await.expect("a newcomer joins");
    assert!(!cy.state.item_kinds.is_empty(), "told the kinds of item");
    cy.act(Action::Wait).await.expect("its action is answered");
    assert!(cy.state.pack.is_empty());
    assert!(cy.state.log.iter().all(|l| !l.text.contains("Refused")));
}
