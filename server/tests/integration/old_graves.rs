//! A world folder made before graves were numbered (when the graveyard
//! was keyed by the second and the name) opens as it was: its graves are
//! listed, new deaths join them, and a backup keeps both.
//!
//! `fixtures/world-graves-by-second.redb` was written by the store as of
//! commit 78319f5: world seed 7; characters ann, bob and cy (cy saved on
//! depth 2); ann died on depth 3 (120 rounds, 4 kills, an orc) and bob on
//! depth 1 (7 rounds, 0 kills, a jackal) in second 1,760,000,000, and ann
//! again on depth 2 (40 rounds, 1 kill, a rat) 100 seconds later.

use gloam_protocol::DeathRecord;
use gloam_server::store::{STORE_FILE, Store};

const FIXTURE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/world-graves-by-second.redb");

fn grave(name: &str, depth: u16, rounds: u64, kills: u32, by: &str, when: u64) -> DeathRecord {
    let killed_by = by.into();
    DeathRecord {
        name: name.into(),
        depth,
        rounds,
        kills,
        killed_by,
        when,
        level: 1,
        escaped: false,
        morgue: 0,
    }
}

fn old_graves() -> Vec<DeathRecord> {
    vec![
        grave("ann", 3, 120, 4, "an orc", 1_760_000_000),
        grave("ann", 2, 40, 1, "a rat", 1_760_000_100),
        grave("bob", 1, 7, 0, "a jackal", 1_760_000_000),
    ]
}

#[test]
fn a_world_made_before_graves_were_numbered_keeps_its_graves() {
    let data = tempfile::tempdir().unwrap();
    std::fs::copy(FIXTURE, data.path().join(STORE_FILE)).unwrap();
    let store = Store::open(data.path()).expect("the old world opens");
    assert_eq!(store.graveyard().unwrap(), old_graves(), "its graves are listed");
    assert_eq!(store.known().len(), 3);

    let (writer, _) = store.start();
    let handle = writer.handle();
    let new = [
        grave("cy", 2, 60, 2, "a rat", 1_760_000_000),
        grave("cy", 2, 60, 2, "a rat", 1_760_000_000),
    ];
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let backup = rt.block_on(async {
        for record in &new {
            handle.bury(record.clone());
        }
        let dead = handle.graveyard(usize::MAX).await.unwrap();
        let names: Vec<&str> = dead.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["ann", "cy", "cy", "ann", "bob"], "old and new together, deepest first");
        assert!(handle.load("cy").await.unwrap().is_none(), "cy died");
        handle.backup(1).await.unwrap()
    });
    drop(handle);
    writer.close();

    let mut all = old_graves();
    all.splice(1..1, new.iter().cloned());
    assert_eq!(Store::open(data.path()).unwrap().graveyard().unwrap(), all, "kept on disk");
    let restored = tempfile::tempdir().unwrap();
    std::fs::copy(&backup, restored.path().join(STORE_FILE)).unwrap();
    assert_eq!(Store::open(restored.path()).unwrap().graveyard().unwrap(), all, "and in a backup");
}
