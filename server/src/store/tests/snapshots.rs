//! A depth's snapshots: kept beside its log (the newest few), read back
//! with the entries after the newest that belongs to its current history,
//! and copied by a backup.

use super::*;

/// A snapshot after entry `after` of rules `rules`, its bytes saying which.
fn taken(after: u64, rules: u32) -> DepthSnapshot {
    let bytes = format!("state after {after}").into_bytes();
    DepthSnapshot { after, rules, checksum: after * 10, bytes }
}

/// `count` entries of depth `depth` from `first`, each its own number.
fn log(handle: &StoreHandle, depth: u16, first: u64, count: u64) {
    let entries = (first..first + count).map(|n| n.to_le_bytes().to_vec()).collect();
    handle.append_log(depth, first, entries, first + count);
}

fn a_depth_is_read_from_its_newest_snapshot_with_the_entries_after_it(place: &Place) {
    let (writer, _) = place.open().start();
    let handle = writer.handle();
    handle.start_history(2, 0, 5);
    log(&handle, 2, 0, 30);
    handle.keep_snapshot(2, taken(10, 5));
    // Made by the store's thread, as a depth's task hands it over.
    handle.keep_snapshot_made(2, |_| taken(20, 5));
    handle.keep_snapshot(2, taken(25, 4));
    handle.keep_snapshot(7, taken(28, 5));
    let read = handle.read_history(2, Reading::FromSnapshot).unwrap();
    assert_eq!(read.snapshot, Some(taken(20, 5)), "the newest of its rules, of its depth");
    assert_eq!(read.entries.len(), 10, "the entries after it");
    assert_eq!(read.entries[0], 20u64.to_le_bytes(), "from entry 20");
    assert_eq!((read.start, read.next), (0, 30));
    let whole = handle.depth_history(2).unwrap();
    assert_eq!((whole.snapshot, whole.entries.len()), (None, 30), "read whole, as before");
    // For a recording of earlier rounds: the newest taken after at most so
    // many entries.
    let older = handle.read_history(2, Reading::SnapshotAtMost(19)).unwrap();
    assert_eq!((older.snapshot, older.entries.len()), (Some(taken(10, 5)), 20));
    let at = handle.read_history(2, Reading::SnapshotAtMost(20)).unwrap();
    assert_eq!(at.snapshot, Some(taken(20, 5)), "one taken after as many as that");
    let none = handle.read_history(2, Reading::SnapshotAtMost(9)).unwrap();
    assert_eq!((none.snapshot, none.entries.len()), (None, 30), "none so early: all of it");

    // A new history after these: their snapshots are not its own.
    handle.start_history(2, 30, 5);
    let new = handle.read_history(2, Reading::FromSnapshot).unwrap();
    assert_eq!((new.snapshot, new.entries.len()), (None, 0));
    handle.keep_snapshot(2, taken(30, 5));
    let at_start = handle.read_history(2, Reading::FromSnapshot).unwrap();
    assert_eq!(at_start.snapshot, None, "one as old as the start may be of the history before");
    log(&handle, 2, 30, 5);
    handle.keep_snapshot(2, taken(36, 5));
    let beyond = handle.read_history(2, Reading::FromSnapshot).unwrap();
    assert_eq!((beyond.snapshot, beyond.entries.len()), (None, 5), "none after the log's end");
    writer.close();
}

#[test]
fn a_depth_keeps_its_newest_snapshots_and_every_entry() {
    let dir = tempfile::tempdir().unwrap();
    let (writer, _) = Store::open(dir.path()).unwrap().start();
    let handle = writer.handle();
    handle.start_history(1, 0, 5);
    log(&handle, 1, 0, 100);
    for after in (1..=9).map(|n| n * 10) {
        handle.keep_snapshot(1, taken(after, 5));
    }
    writer.close();
    let db = Database::open(dir.path().join(STORE_FILE)).unwrap();
    let txn = redb::ReadableDatabase::begin_read(&db).unwrap();
    let table = txn.open_table(tables::DEPTH_SNAPSHOTS).unwrap();
    let kept: Vec<u64> =
        redb::ReadableTable::iter(&table).unwrap().map(|row| row.unwrap().0.value().1).collect();
    let newest: Vec<u64> = (10 - tables::KEEP_SNAPSHOTS as u64..=9).map(|n| n * 10).collect();
    assert_eq!(kept, newest);
    let log = txn.open_table(tables::DEPTH_LOG).unwrap();
    assert_eq!(redb::ReadableTableMetadata::len(&log).unwrap(), 100, "every entry stays");
}

#[test]
fn a_backup_keeps_the_depths_snapshots() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    store.settle_world(&seed(8), crate::fresh_seed).unwrap();
    let (writer, _) = store.start();
    let handle = writer.handle();
    handle.start_history(3, 0, 5);
    log(&handle, 3, 0, 12);
    handle.keep_snapshot(3, taken(10, 5));
    let made = runtime().block_on(handle.backup(1)).unwrap();
    writer.close();
    let restored = tempfile::tempdir().unwrap();
    std::fs::copy(made, restored.path().join(STORE_FILE)).unwrap();
    let store = Store::open(restored.path()).unwrap();
    let read = store.read_history(3, Reading::FromSnapshot).unwrap();
    assert_eq!((read.snapshot, read.entries.len()), (Some(taken(10, 5)), 2));
}

on_both_backends!(a_depth_is_read_from_its_newest_snapshot_with_the_entries_after_it,);
