//! Moving a world between backends (`gloam-server migrate`): a redb store
//! read whole, as the writes that make every record of it again, then
//! written into another store in one transaction. The dead are buried
//! first, in the order the graveyard lists them (so the other store lists
//! them alike), then the characters are created and saved, then the
//! depths' logs, histories, snapshots and the uniques slain follow. The
//! morgue files beside the store (`morgue/`) are read with them, and kept
//! by the other store once its records are in.

use redb::{Database, ReadableDatabase, ReadableTable};

use super::DepthSnapshot;
use super::backend::Fault;
use super::command::Cmd;
use super::morgue::Morgue;
use super::tables::UNIQUES_SLAIN;
use super::tables::{self, DEPTH_HISTORY, DEPTH_LOG, DEPTH_SNAPSHOTS, DEPTH_SUM, LIFE_ENDS, META};

/// Entries of a depth's log in one write, at most.
const ENTRIES_PER_WRITE: usize = 4096;

/// A whole store as writes: its `meta` (but its layout's version), the
/// commands that make everything else again, and its morgue files.
#[derive(Default)]
pub(super) struct Export {
    pub(super) meta: Vec<(String, Vec<u8>)>,
    pub(super) writes: Vec<Cmd>,
    pub(super) morgues: Vec<Morgue>,
}

/// Everything `db` holds, as an [`Export`].
pub(super) fn export(db: &Database) -> Result<Export, Fault> {
    let mut export = Export::default();
    let txn = db.begin_read().map_err(redb::Error::from)?;
    for row in txn.open_table(META).map_err(redb::Error::from)?.iter().map_err(redb::Error::from)? {
        let (key, value) = row.map_err(redb::Error::from)?;
        if key.value() != "version" {
            export.meta.push((key.value().to_owned(), value.value().to_vec()));
        }
    }
    drop(txn);
    let writes = &mut export.writes;
    for record in tables::graveyard(db)? {
        writes.push(Cmd::Bury { record });
    }
    for known in tables::read_known(db)? {
        let name = known.name.clone();
        let (done, _) = tokio::sync::oneshot::channel();
        writes.push(Cmd::Create { known, done });
        if let Some(snapshot) = tables::load(db, &name)? {
            writes.push(Cmd::Save { name, snapshot });
        }
    }
    depths(db, writes).map_err(Fault::from)?;
    Ok(export)
}

/// The ends of lives, the depths' logs, sums, histories and snapshots, and
/// the uniques slain, as writes.
fn depths(db: &Database, writes: &mut Vec<Cmd>) -> Result<(), redb::Error> {
    let txn = db.begin_read()?;
    if let Ok(table) = txn.open_table(LIFE_ENDS) {
        for row in table.iter()? {
            let (key, value) = row?;
            let ((name, life), (depth, round)) = (key.value(), value.value());
            writes.push(Cmd::EndLife { name: name.to_owned(), life, depth, round });
        }
    }
    if let Ok(table) = txn.open_table(DEPTH_LOG) {
        let mut run: Option<(u16, u64, Vec<Vec<u8>>)> = None;
        for row in table.iter()? {
            let (key, bytes) = row?;
            let (depth, entry) = key.value();
            match &mut run {
                Some((d, first, entries))
                    if *d == depth
                        && *first + entries.len() as u64 == entry
                        && entries.len() < ENTRIES_PER_WRITE =>
                {
                    entries.push(bytes.value().to_vec())
                }
                _ => {
                    writes.extend(run.take().map(append));
                    run = Some((depth, entry, vec![bytes.value().to_vec()]));
                }
            }
        }
        writes.extend(run.map(append));
    }
    // The sums last: each log's run above set its depth's sum in passing.
    if let Ok(table) = txn.open_table(DEPTH_SUM) {
        for row in table.iter()? {
            let (depth, value) = row?;
            let (kept, checksum) = value.value();
            let depth = depth.value();
            let checksum = Some(checksum);
            writes.push(Cmd::AppendLog { depth, first: kept, entries: Vec::new(), checksum });
        }
    }
    if let Ok(table) = txn.open_table(DEPTH_HISTORY) {
        for row in table.iter()? {
            let (depth, value) = row?;
            let (start, rules) = value.value();
            writes.push(Cmd::StartHistory { depth: depth.value(), start, rules });
        }
    }
    if let Ok(table) = txn.open_table(DEPTH_SNAPSHOTS) {
        for row in table.iter()? {
            let (key, value) = row?;
            let ((depth, after), (rules, checksum, bytes)) = (key.value(), value.value());
            let snapshot = DepthSnapshot { after, rules, checksum, bytes: bytes.to_vec() };
            writes.push(Cmd::KeepSnapshot { depth, snapshot });
        }
    }
    if let Ok(table) = txn.open_table(UNIQUES_SLAIN) {
        for row in table.iter()? {
            let (kind, by) = row?;
            let (kind, by) = (kind.value().to_owned(), by.value().to_owned());
            writes.push(Cmd::SlayUnique { kind, by });
        }
    }
    Ok(())
}

fn append((depth, first, entries): (u16, u64, Vec<Vec<u8>>)) -> Cmd {
    Cmd::AppendLog { depth, first, entries, checksum: None }
}
