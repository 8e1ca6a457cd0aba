//! Morgue files and what they are made of: lives numbered per name across
//! restarts, files written by the store's thread and read back after it
//! and after a restart (on both backends), moved by `migrate`, and kills
//! by kind kept with a character (none for one saved before).

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

/// A morgue file is kept by the store: a read sent after it finds it, and
/// after the store is closed and opened again (a server restarted) it is
/// still there; a file never kept reads as None. On PostgreSQL they were
/// once kept in memory and lost with the process.
fn a_morgue_file_outlives_a_restart(place: &Place) {
    let rt = runtime();
    let text = "Gloam morgue file: Zoë, life 3\n";
    {
        let (writer, _) = place.open().start();
        let handle = writer.handle();
        handle.keep_morgue("Zoë", 3, text.into());
        handle.keep_morgue("ann", 1, "first\n".into());
        handle.keep_morgue("ann", 1, "written again\n".into());
        assert_eq!(rt.block_on(handle.morgue("Zoë", 3)).unwrap().as_deref(), Some(text));
        writer.close();
    }
    let (writer, _) = place.open().start();
    let handle = writer.handle();
    assert_eq!(rt.block_on(handle.morgue("Zoë", 3)).unwrap().as_deref(), Some(text), "kept");
    let ann = rt.block_on(handle.morgue("ann", 1)).unwrap();
    assert_eq!(ann.as_deref(), Some("written again\n"), "the newest");
    assert_eq!(rt.block_on(handle.morgue("Zoë", 2)).unwrap(), None);
    assert_eq!(rt.block_on(handle.morgue("bob", 3)).unwrap(), None);
    writer.close();
}

/// `gloam-server migrate` moves the morgue files of a redb world's folder
/// into PostgreSQL with its records, so the graveyard's links still work.
#[test]
fn morgue_files_move_with_a_world_into_postgres() {
    let Some(target) = Place::postgres() else { return };
    let source = Place::redb();
    let rt = runtime();
    let (writer, _) = source.open().start();
    let handle = writer.handle();
    handle.bury(DeathRecord { morgue: 2, ..death("ann", 4, 10, 800) });
    handle.keep_morgue("ann", 1, "ann's first life\n".into());
    handle.keep_morgue("ann", 2, "ann's second life\n".into());
    handle.keep_morgue("bob", 1, "bob's\n".into());
    writer.close();

    let copied = source.open().copy_into(&target.open()).unwrap();
    assert_eq!(copied.morgue_files, 3);
    let (writer, _) = target.open().start();
    let handle = writer.handle();
    let read = |name: &str, number| rt.block_on(handle.morgue(name, number)).unwrap();
    assert_eq!(read("ann", 1).as_deref(), Some("ann's first life\n"));
    assert_eq!(read("ann", 2).as_deref(), Some("ann's second life\n"));
    assert_eq!(read("bob", 1).as_deref(), Some("bob's\n"));
    assert_eq!(read("bob", 2), None);
    let grave = rt.block_on(handle.graveyard(1)).unwrap();
    assert_eq!(read(&grave[0].name, grave[0].morgue).as_deref(), Some("ann's second life\n"));
    writer.close();
}

/// While PostgreSQL is away a morgue file cannot be kept: the store says
/// so in its log and goes on (the file reads as None, as one never kept);
/// once the database is back the next file is kept.
#[test]
fn a_morgue_file_that_cannot_reach_postgres_is_lost_and_the_store_goes_on() {
    let Some(mut cluster) = gloam_tests::postgres::Cluster::start() else { return };
    let store = Store::connect(&cluster.database()).unwrap();
    let (writer, _) = store.start();
    let handle = writer.handle();
    let rt = runtime();
    cluster.stop();
    handle.keep_morgue("ann", 1, "lost\n".into());
    assert_eq!(rt.block_on(handle.morgue("ann", 1)).unwrap(), None, "not kept, not read");
    cluster.start_again();
    handle.keep_morgue("ann", 2, "kept\n".into());
    assert_eq!(rt.block_on(handle.morgue("ann", 2)).unwrap().as_deref(), Some("kept\n"));
    assert_eq!(rt.block_on(handle.morgue("ann", 1)).unwrap(), None);
    writer.close();
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

on_both_backends!(
    lives_are_numbered_per_name_and_the_numbers_survive_a_restart,
    a_morgue_file_outlives_a_restart,
);
