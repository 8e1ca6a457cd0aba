//! The world's store: one redb file in the data folder holding the world's
//! seed and generator setting, every character (its token's hash, where it
//! stands, and the cells it has explored on each depth), the graveyard (a
//! grave per death) and each depth's log. Levels are not stored: they are
//! rebuilt from the seed.
//!
//! redb rather than SQLite: it is pure Rust, so building the server needs no
//! C compiler step; each commit is atomic and survives a crash (copy-on-write
//! pages, checksums, two commit slots, fsync); and what is kept is a few
//! keyed records that no query ever joins, which a typed key-value store
//! fits with no schema text to keep in step.
//!
//! One thread owns the database. The game sends it commands and goes on;
//! it applies every command waiting at once in one transaction. A few
//! commits in a row go at once; beyond those, commits come one per
//! `GATHER` and the writes that come meanwhile wait to go together: a
//! burst of saves (a crowd arriving or leaving together) costs a few
//! commits, not one (and one fsync) per player. A new character is
//! committed at once, ahead of everything else waiting, and a read that
//! must see a write not yet committed is answered after the commit that
//! ends its batch: a burst of rejoins costs a commit a batch, not one a
//! rejoin. Whoever keeps asking waits for room when the thread falls
//! behind; the depths never do (see `queue.rs`).
//!
//! Where each part lives:
//! - this file: [`Store`], a store opened and not yet played, and
//!   [`Store::start`], which hands it to its thread;
//! - `open.rs`: taking the folder's lock, opening the file, checking it;
//! - `world.rs`: which world the store holds (its id, seed and generator);
//! - `tables.rs`: the tables, their layout's version, and how commands
//!   read and write them;
//! - `command.rs`: what the game asks of the thread, one command each;
//! - `queue.rs`: the lanes commands take to the thread: new characters
//!   first, then the rest in order, bounded;
//! - `handle.rs`: the running store: the [`Writer`] (its thread) and the
//!   [`StoreHandle`] the game clones, with a verb per command;
//! - `keeper.rs`: the thread's loop, which gathers and commits;
//! - `morgue.rs`: morgue files, and the shelf a redb store keeps them on
//!   (a store on PostgreSQL keeps them in a table);
//! - `backup.rs`: online backups into the folder's `backups/`;
//! - `error.rs`: why a data folder could not be used.

mod backend;
mod backup;
mod command;
mod embedded;
mod error;
mod export;
mod handle;
mod keeper;
mod morgue;
mod open;
mod postgres;
mod queue;
mod tables;
mod world;

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gloam_protocol::DeathRecord;
use redb::Database;
use redb::backends::InMemoryBackend;

pub use error::StoreError;
pub use handle::{StoreHandle, Writer};
pub use open::{LOCK_FILE, STORE_FILE};
pub use tables::{DepthHistory, DepthSnapshot, META, Reading};

use crate::character::Credential;
use backend::{Backend, Fault};
use embedded::Redb;
use keeper::{GATHER, Keeper, MEMORY, Reopen};
use queue::{CloseOnDrop, Queue};

/// What [`Store::copy_into`] copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copied {
    /// The writes that made the records and the world's settings again.
    pub writes: usize,
    /// The morgue files.
    pub morgue_files: usize,
}

/// An open store, before the game starts writing to it.
#[derive(Debug)]
pub struct Store {
    /// What keeps it (see `backend.rs`); behind a lock only so that the
    /// reads before the start can take `&self`.
    backend: Mutex<Box<dyn Backend>>,
    /// Where it is kept, as printed: its file, its database, or `MEMORY`.
    place: PathBuf,
    /// The redb file, or None for a store in memory or on PostgreSQL.
    file: Option<PathBuf>,
    /// Held for as long as the store is open.
    lock: Option<File>,
    /// The characters it holds, read when it opened.
    known: Vec<Credential>,
    /// How long writes wait for others to go with them (`GATHER`).
    gather: Duration,
    /// The lives that ended under each name, as the graveyard numbers
    /// their morgue files.
    lives: HashMap<String, u32>,
}

impl Store {
    /// Opens the store in `dir`, creating the folder and the store when
    /// missing. Fails, changing nothing, when the store is locked by another
    /// server, damaged, or of another version.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|source| StoreError::Io { file: dir.to_path_buf(), cause: source })?;
        // Absolute, so that what is printed and logged says where it is.
        let file = std::path::absolute(dir.join(STORE_FILE))
            .map_err(|cause| StoreError::Io { file: dir.to_path_buf(), cause })?;
        let lock = open::lock_folder(dir, &file)?;
        backup::remove_unfinished(&backup::folder_of(&file), None);
        let db = open::open_file(&file)?;
        let path = file.clone();
        let reopen = Some(Reopen(Box::new(move || Ok(Database::create(&path)?))));
        let backend = Redb::new(db, Some(file.clone()), reopen);
        Self::on(Box::new(backend), file.clone(), Some(file), Some(lock))
    }

    /// The store in the PostgreSQL database at `url` (`postgres://...`),
    /// its tables made or brought up to date (see `postgres.rs`). Fails,
    /// changing nothing, when another server plays the world or the
    /// database was made by a newer server.
    pub fn connect(url: &str) -> Result<Self, StoreError> {
        let (backend, place) = self::postgres::Postgres::connect(url)?;
        Self::on(Box::new(backend), place, None, None)
    }

    /// A store that lives in memory and ends with the server: for tests and
    /// throwaway worlds.
    pub fn in_memory() -> Self {
        let db = Database::builder()
            .create_with_backend(InMemoryBackend::new())
            .expect("a database in memory always opens");
        open::mark_new(&db).expect("a database in memory takes its version mark");
        let backend = Box::new(Redb::new(db, None, None));
        Self::on(backend, PathBuf::from(MEMORY), None, None).expect("a new store in memory reads")
    }

    /// The store kept by `backend` at `place`, its characters and lives read.
    fn on(
        backend: Box<dyn Backend>,
        place: PathBuf,
        file: Option<PathBuf>,
        lock: Option<File>,
    ) -> Result<Self, StoreError> {
        let mut store = Self {
            backend: Mutex::new(backend),
            place,
            file,
            lock,
            known: Vec::new(),
            gather: GATHER,
            lives: HashMap::new(),
        };
        store.known = store.with(|b| b.known())?;
        store.lives = lives(&store.graveyard()?);
        Ok(store)
    }

    /// `read` done by the backend, its fault told as the store's error.
    fn with<T>(
        &self,
        read: impl FnOnce(&mut dyn Backend) -> Result<T, Fault>,
    ) -> Result<T, StoreError> {
        let mut backend = self.backend.lock().unwrap_or_else(PoisonError::into_inner);
        read(backend.as_mut()).map_err(|fault| self.failed(fault))
    }

    /// A backend's fault as the store's error, naming where it is kept.
    fn failed(&self, fault: Fault) -> StoreError {
        let file = self.place.clone();
        match fault {
            Fault::Io(cause) => StoreError::Io { file, cause },
            Fault::Damaged(detail) => StoreError::Corrupt { file, detail },
            Fault::Unreachable(detail) => StoreError::Unreachable { file, detail },
        }
    }

    /// Copies everything this store holds into `to`, a store that holds
    /// nothing yet (see `export.rs`): everything is read first, so a file
    /// that cannot be read stops it before `to` is touched; then its
    /// morgue files go in one transaction (kept again harmlessly by a
    /// second try, so a failure here leaves `to` fit for one), its records
    /// in another, and the world's settings and id last. Gives what was
    /// copied.
    pub fn copy_into(&self, to: &Store) -> Result<Copied, StoreError> {
        let export = self.with(|b| b.export())?;
        to.with(|b| b.keep_morgues(&export.morgues))?;
        to.with(|b| b.write(&export.writes))?;
        let meta: Vec<(&str, Option<Vec<u8>>)> =
            export.meta.iter().map(|(key, value)| (key.as_str(), Some(value.clone()))).collect();
        to.with(|b| b.set_meta(&meta))?;
        Ok(Copied { writes: export.writes.len() + meta.len(), morgue_files: export.morgues.len() })
    }

    /// Where the store is kept, as printed: its file, its database's
    /// address (without a password), or `:memory:`.
    pub fn place(&self) -> &Path {
        &self.place
    }

    /// The store's file (an absolute path), or None when it lives in memory.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    fn path(&self) -> &Path {
        &self.place
    }

    /// A depth's history as the store holds it now (see [`DepthHistory`]).
    pub fn depth_history(&self, depth: u16) -> Result<DepthHistory, StoreError> {
        self.read_history(depth, Reading::Whole)
    }

    /// [`depth_history`](Self::depth_history), as much of it as `reading` says.
    pub fn read_history(&self, depth: u16, reading: Reading) -> Result<DepthHistory, StoreError> {
        self.with(|b| b.depth_history(depth, reading))
    }

    /// The dead, deepest first, as the store holds them now.
    pub fn graveyard(&self) -> Result<Vec<DeathRecord>, StoreError> {
        self.with(|b| b.graveyard())
    }

    /// Every character the store knows.
    pub fn known(&self) -> &[Credential] {
        &self.known
    }

    /// Hands the store to its writing thread; gives the characters it holds.
    pub fn start(self) -> (Writer, Vec<Credential>) {
        let queue = Arc::new(Queue::default());
        let Store { backend, place, file: _, lock, known, gather, lives } = self;
        let backend = backend.into_inner().unwrap_or_else(PoisonError::into_inner);
        let (keeper, saving, commits) = Keeper::new(backend, place, gather);
        // The thread holds the folder's lock: it is let go only once the
        // last commit is done, however the writer ends.
        let thread = std::thread::Builder::new()
            .name("gloam-store".into())
            .spawn({
                let queue = CloseOnDrop(queue.clone());
                move || {
                    keeper::give_way();
                    keeper.serve(&queue.0);
                    drop(lock);
                    drop(queue);
                }
            })
            .expect("the store's thread starts");
        let lives = Arc::new(std::sync::Mutex::new(lives));
        let handle = StoreHandle { queue, saving, lives };
        (Writer { handle, thread: Some(thread), commits }, known)
    }
}

/// The lives that ended under each name in `graves`: the highest
/// morgue file number of each.
fn lives(graves: &[DeathRecord]) -> HashMap<String, u32> {
    let mut lives: HashMap<String, u32> = HashMap::new();
    for grave in graves {
        let ended = lives.entry(grave.name.clone()).or_default();
        *ended = (*ended).max(grave.morgue);
    }
    lives
}

#[cfg(test)]
mod tests;
