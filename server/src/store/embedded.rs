//! The embedded backend: the store as one redb file (`tables.rs` lays its
//! tables out), or a redb database in memory for tests and throwaway
//! worlds. redb refuses all work on a database that saw an I/O error until
//! it is opened again, so after a failed commit the next call reopens it.

use std::path::PathBuf;

use gloam_protocol::DeathRecord;
use redb::{Database, ReadableDatabase};

use super::backend::{Backend, Fault};
use super::command::Cmd;
use super::export::Export;
use super::keeper::Reopen;
use super::morgue::{Morgue, Shelf};
use super::tables::{self, META};
use super::{DepthHistory, Reading, backup};
use crate::character::{Credential, Snapshot};

/// A redb database (None while a failure closed it and it could not be
/// opened again), how to open it again, and its morgue files.
#[derive(Debug)]
pub(super) struct Redb {
    db: Option<Database>,
    /// How to open it again after an I/O error (None: it never fails).
    reopen: Option<Reopen>,
    /// Its file, None in memory.
    file: Option<PathBuf>,
    /// Its morgue files: in the folder beside its file, or in memory.
    morgues: Shelf,
}

impl Redb {
    pub(super) fn new(db: Database, file: Option<PathBuf>, reopen: Option<Reopen>) -> Self {
        let morgues = Shelf::beside(file.as_deref());
        Self { db: Some(db), reopen, file, morgues }
    }

    /// The database, reopened first if a failure closed it.
    fn db(&mut self) -> Result<&Database, Fault> {
        if self.db.is_none()
            && let Some(reopen) = &self.reopen
        {
            match (reopen.0)() {
                Ok(db) => self.db = Some(db),
                Err(e) => return Err(Fault::Unreachable(format!("cannot reopen the store: {e}"))),
            }
        }
        self.db.as_ref().ok_or_else(|| Fault::Unreachable("the store is unavailable".to_owned()))
    }
}

impl Backend for Redb {
    fn write(&mut self, writes: &[Cmd]) -> Result<(), Fault> {
        Ok(tables::write(self.db()?, writes)?)
    }

    fn load(&mut self, name: &str) -> Result<Option<Snapshot>, Fault> {
        Ok(tables::load(self.db()?, name)?)
    }

    fn graveyard(&mut self) -> Result<Vec<DeathRecord>, Fault> {
        Ok(tables::graveyard(self.db()?)?)
    }

    fn depth_history(&mut self, depth: u16, reading: Reading) -> Result<DepthHistory, Fault> {
        Ok(tables::depth_history(self.db()?, depth, reading)?)
    }

    fn life_end(&mut self, name: &str, life: u32) -> Result<Option<(u16, u64)>, Fault> {
        Ok(tables::life_end(self.db()?, name, life)?)
    }

    fn known(&mut self) -> Result<Vec<Credential>, Fault> {
        Ok(tables::read_known(self.db()?)?)
    }

    fn meta(&mut self, key: &str) -> Result<Option<Vec<u8>>, Fault> {
        let read = |db: &Database| -> Result<Option<Vec<u8>>, redb::Error> {
            let txn = db.begin_read()?;
            let meta = txn.open_table(META)?;
            Ok(meta.get(key)?.map(|v| v.value().to_vec()))
        };
        Ok(read(self.db()?)?)
    }

    fn set_meta(&mut self, values: &[(&str, Option<Vec<u8>>)]) -> Result<(), Fault> {
        let write = |db: &Database| -> Result<(), redb::Error> {
            let txn = db.begin_write()?;
            {
                let mut meta = txn.open_table(META)?;
                for (key, value) in values {
                    match value {
                        Some(value) => _ = meta.insert(*key, value.as_slice())?,
                        None => _ = meta.remove(*key)?,
                    }
                }
            }
            txn.commit()?;
            Ok(())
        };
        Ok(write(self.db()?)?)
    }

    fn keep_morgues(&mut self, files: &[Morgue]) -> Result<(), Fault> {
        files.iter().try_for_each(|file| self.morgues.keep(file)).map_err(Fault::Io)
    }

    fn morgue(&mut self, name: &str, number: u32) -> Result<Option<String>, Fault> {
        self.morgues.read(name, number).map_err(Fault::Io)
    }

    fn export(&mut self) -> Result<Export, Fault> {
        let mut export = super::export::export(self.db()?)?;
        export.morgues = self.morgues.all().map_err(Fault::Io)?;
        Ok(export)
    }

    fn back_up(&mut self, keep: usize) -> Result<PathBuf, String> {
        let Some(file) = self.file.clone() else {
            return Err("a store in memory has no folder to back up into".into());
        };
        let db = self.db().map_err(|e| e.to_string())?;
        let started = std::time::Instant::now();
        let path = backup::write(db, &backup::folder_of(&file), keep)?;
        tracing::info!(file = %path.display(), took = ?started.elapsed(), "backup written");
        Ok(path)
    }

    fn lost(&mut self) {
        if self.reopen.is_some() {
            // redb takes no more work from a database that saw an I/O error.
            self.db = None;
        }
    }
}
