//! Morgue files and what they are made of: lives numbered per name across
//! restarts, files written by the store's thread and read back after it,
//! and kills by kind kept with a character (none for one saved before).

use super::*;

/// Each name's lives are numbered from 1, and the numbering goes on after
/// a restart from the graves (and the hall of the living) it left.
fn lives_are_numbered_per_name_and_the_numbers_survive_a_restart(place: &Place) {
    let rt = runtime();
    {
        let (writer, _) = place.open().start();
        let handle = writer.handle();
        assert_eq!([handle.end_life("ann"), handle.end_life("ann")], [1, 2]);
        assert_eq!(handle.end_life("bob"), 1);
        handle.bury(DeathRecord { morgue: 1, ..death("ann", 2, 10, 100) });
        handle.bury(DeathRecord { morgue: 2, escaped: true, ..death("ann", 1, 20, 200) });
        handle.bury(DeathRecord { morgue: 1, ..death("bob", 1, 5, 300) });
        rt.block_on(handle.flush());
        writer.close();
    }
    let (writer, _) = place.open().start();
    let handle = writer.handle();
    assert_eq!(handle.end_life("ann"), 3, "after the escape kept in the hall of the living");
    assert_eq!(handle.end_life("bob"), 2);
    assert_eq!(handle.end_life("cy"), 1);
    let numbers: Vec<(String, u32)> = rt
        .block_on(handle.graveyard(10))
        .unwrap()
        .into_iter()
        .map(|g| (g.name, g.morgue))
        .collect();
    assert_eq!(numbers, [("ann".into(), 2), ("ann".into(), 1), ("bob".into(), 1)]);
    writer.close();
}

/// A morgue file sent to the store is in the data folder's `morgue/`, and
/// a read sent after it finds it (a store in memory keeps it too).
#[test]
fn a_morgue_file_kept_is_read_back_from_the_folder_or_memory() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    for store in [Store::open(dir.path()).unwrap(), Store::in_memory()] {
        let (writer, _) = store.start();
        let handle = writer.handle();
        handle.keep_morgue("Zoë", 3, "Gloam morgue file: Zoë, life 3\n".into());
        let read = rt.block_on(handle.morgue("Zoë", 3)).unwrap();
        assert_eq!(read.as_deref(), Some("Gloam morgue file: Zoë, life 3\n"));
        assert_eq!(rt.block_on(handle.morgue("Zoë", 2)).unwrap(), None);
        assert_eq!(rt.block_on(handle.morgue("ann", 3)).unwrap(), None);
        writer.close();
    }
    let file = dir.path().join("morgue").join("Zoë").join("3.txt");
    assert!(std::fs::read_to_string(file).unwrap().starts_with("Gloam morgue file"));
}

/// Kills by kind are saved with a character and loaded back; a character
/// saved by a store from before kills by kind (no `slain` table) loads
/// with none, its other records as they were.
#[test]
fn kills_by_kind_are_kept_and_an_older_store_loads_with_none() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    let kept = {
        let (writer, _) = Store::open(dir.path()).unwrap().start();
        let handle = writer.handle();
        rt.block_on(handle.create(Credential { name: "ann".into(), token_hash: [1; 32] })).unwrap();
        handle.save("ann", snapshot(2, 4));
        let kept = rt.block_on(handle.load("ann")).unwrap().unwrap();
        assert_eq!(kept.slain, [("jackal".into(), 4), ("kobold".into(), 1)]);
        writer.close();
        kept
    };
    {
        let db = Database::open(dir.path().join(STORE_FILE)).unwrap();
        let txn = db.begin_write().unwrap();
        assert!(txn.delete_table(tables::SLAIN).unwrap(), "the table was there");
        txn.commit().unwrap();
    }
    let (writer, _) = Store::open(dir.path()).unwrap().start();
    let old = rt.block_on(writer.handle().load("ann")).unwrap().unwrap();
    assert_eq!(old, Snapshot { slain: Vec::new(), ..kept });
    writer.close();
}

on_both_backends!(lives_are_numbered_per_name_and_the_numbers_survive_a_restart,);
