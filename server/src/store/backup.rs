//! Online backups: a consistent copy of the store, made by the store's own
//! thread inside one read transaction (so it holds exactly what was
//! committed at one moment) while play goes on. The copy is a fresh redb
//! file in the data folder's `backups/`, written under a temporary name and
//! renamed when complete, and only the newest few are kept. A copy left
//! unfinished (`.partial`: the server was killed while writing it) is
//! removed when the store next opens or backs up. To restore one, put it
//! in an empty data folder as `world.redb`.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition, TableError};

use super::tables::{
    BACKGROUNDS, DEPTH_HISTORY, DEPTH_LOG, DEPTH_SNAPSHOTS, DEPTH_SUM, EXPLORED, GRAVE_LEVELS,
    GRAVE_MORGUES, GRAVES, GRAVES_BY_SECOND, KNOWN, LIFE_ENDS, LIVING, LIVING_MORGUES, META, PACKS,
    PILES, PLACES, PROGRESS, SLAIN, TOKENS, UNIQUES_SLAIN, VITALS,
};

/// The folder backups of the store `file` go in.
pub(crate) fn folder_of(file: &Path) -> PathBuf {
    file.parent().unwrap_or(Path::new(".")).join("backups")
}

/// Copies `db` into a new file in `dir`, keeping the newest `keep` backups
/// there: the oldest are removed once the copy is complete and before it
/// takes its final name, so the folder never holds more than `keep`.
/// Gives the new file's path.
pub(crate) fn write(db: &Database, dir: &Path, keep: usize) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let name = format!("world-{:012}-{:09}.redb", stamp.as_secs(), stamp.subsec_nanos());
    let path = dir.join(&name);
    let partial = dir.join(format!("{name}.partial"));
    copy(db, &partial).map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        format!("cannot write {}: {e}", partial.display())
    })?;
    remove_unfinished(dir, Some(&partial));
    prune(dir, keep.max(1) - 1);
    std::fs::rename(&partial, &path)
        .map_err(|e| format!("cannot rename {} to {}: {e}", partial.display(), path.display()))?;
    Ok(path)
}

/// Copies every table of `tables.rs` (a table added there must be added
/// here: a test restores a backup and compares it with the store).
fn copy(db: &Database, to: &Path) -> Result<(), redb::Error> {
    let read = db.begin_read()?;
    let copy = Database::create(to)?;
    let write = copy.begin_write()?;
    copy_table(&read, &write, META)?;
    copy_table(&read, &write, TOKENS)?;
    copy_table(&read, &write, PLACES)?;
    copy_table(&read, &write, EXPLORED)?;
    copy_table(&read, &write, PILES)?;
    copy_table(&read, &write, VITALS)?;
    copy_table(&read, &write, PACKS)?;
    copy_table(&read, &write, PROGRESS)?;
    copy_table(&read, &write, KNOWN)?;
    copy_table(&read, &write, SLAIN)?;
    copy_table(&read, &write, BACKGROUNDS)?;
    copy_table(&read, &write, GRAVES)?;
    copy_table(&read, &write, GRAVE_LEVELS)?;
    copy_table(&read, &write, GRAVE_MORGUES)?;
    copy_table(&read, &write, LIVING)?;
    copy_table(&read, &write, LIVING_MORGUES)?;
    copy_table(&read, &write, GRAVES_BY_SECOND)?;
    copy_table(&read, &write, DEPTH_LOG)?;
    copy_table(&read, &write, DEPTH_SUM)?;
    copy_table(&read, &write, DEPTH_HISTORY)?;
    copy_table(&read, &write, DEPTH_SNAPSHOTS)?;
    copy_table(&read, &write, UNIQUES_SLAIN)?;
    copy_table(&read, &write, LIFE_ENDS)?;
    write.commit()?;
    Ok(())
}

fn copy_table<K, V>(
    read: &redb::ReadTransaction,
    write: &redb::WriteTransaction,
    table: TableDefinition<K, V>,
) -> Result<(), redb::Error>
where
    K: redb::Key + 'static,
    V: redb::Value + 'static,
    for<'a> K::SelfType<'a>: std::borrow::Borrow<K::SelfType<'a>>,
    for<'a> V::SelfType<'a>: std::borrow::Borrow<V::SelfType<'a>>,
{
    let from = match read.open_table(table) {
        Ok(from) => from,
        Err(TableError::TableDoesNotExist(_)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    let mut to = write.open_table(table)?;
    for entry in from.iter()? {
        let (key, value) = entry?;
        to.insert(key.value(), value.value())?;
    }
    Ok(())
}

/// Removes the unfinished backups in `dir` but `writing` (the one being
/// written now): each was left by a server killed while writing it, and is
/// never finished. Only the server holding the data folder's lock writes
/// backups, so no other is in the middle of one.
pub(super) fn remove_unfinished(dir: &Path, writing: Option<&Path>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let unfinished = entries.flatten().map(|e| e.path()).filter(|p| {
        Some(p.as_path()) != writing
            && p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("world-") && n.ends_with(".redb.partial"))
    });
    for path in unfinished {
        match std::fs::remove_file(&path) {
            Ok(()) => tracing::info!(file = %path.display(), "removed an unfinished backup"),
            Err(e) => {
                tracing::warn!(file = %path.display(), error = %e, "cannot remove an unfinished backup")
            }
        }
    }
}

/// Removes all but the newest `keep` finished backups in `dir` (names sort
/// by the time they were made).
fn prune(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut backups: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("world-") && n.ends_with(".redb"))
        })
        .collect();
    backups.sort();
    let old = backups.len().saturating_sub(keep);
    for path in &backups[..old] {
        if let Err(e) = std::fs::remove_file(path) {
            tracing::warn!(file = %path.display(), error = %e, "cannot remove an old backup");
        }
    }
}
