//! The world's store: one redb file in the data folder holding the world's
//! seed and generator setting, and every character: its token's hash, where
//! it stands, and the cells it has explored on each depth. Levels are not
//! stored: they are rebuilt from the seed.
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
//! [`GATHER`] and the writes that come meanwhile wait to go together: a
//! burst of saves (a crowd arriving or leaving together) costs a few
//! commits, not one (and one fsync) per player.

mod backup;
mod open;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gloam_protocol::{DeathRecord, Pos};
use redb::backends::InMemoryBackend;
use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition, TableError};
use tokio::sync::oneshot;
use tracing::{debug, error};

pub use open::{LOCK_FILE, STORE_FILE};

use crate::character::{Credential, Snapshot, Vitals};
use crate::config::{WorldSpec, WorldWish};
use crate::mapgen::GeneratorSetting;

/// The layout of the tables below. A store of another version is refused,
/// never rewritten.
pub(crate) const STORE_VERSION: u32 = 1;

/// `version`, `world-id`, then the world: `seed`, `generator`, `mix`.
pub const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Name to the SHA-256 of the character's secret token.
const TOKENS: TableDefinition<&str, &[u8]> = TableDefinition::new("tokens");
/// Name to (depth, x, y): where the character stands or last stood.
const PLACES: TableDefinition<&str, (u16, u16, u16)> = TableDefinition::new("places");
/// (name, depth) to the explored cells of that depth: a row-major bitset,
/// trailing zero bytes left off.
const EXPLORED: TableDefinition<(&str, u16), &[u8]> = TableDefinition::new("explored");
/// Name to (hp, max hp, kills, rounds, deepest depth). A store written
/// before monsters has no such table: its characters start unhurt.
const VITALS: TableDefinition<&str, (u16, u16, u32, u64, u16)> = TableDefinition::new("vitals");
/// (when it died in nanoseconds since 1970, name) to (deepest depth,
/// rounds, kills, killed by): the dead.
const GRAVEYARD: TableDefinition<(u64, &str), (u16, u64, u32, &str)> =
    TableDefinition::new("graveyard");
/// (depth, entry number) to one entry of the depth's log: every command the
/// depth applied, in order, encoded by the world.
const DEPTH_LOG: TableDefinition<(u16, u64), &[u8]> = TableDefinition::new("depth-log");
/// Depth to (entries kept, the depth's checksum after the last of them).
const DEPTH_SUM: TableDefinition<u16, (u64, u64)> = TableDefinition::new("depth-sum");

/// Why a data folder could not be used. Each names the file concerned; none
/// of them changes it.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "{file} is in use by another Gloam server (process {holder}); stop that server, or give \
         this one another --data folder"
    )]
    Locked { file: PathBuf, holder: String },
    #[error(
        "{file} is not a readable Gloam store ({detail}); it was left untouched: restore it from \
         a backup, or give the server another --data folder"
    )]
    Corrupt { file: PathBuf, detail: String },
    #[error(
        "{file} is a {found}, and this server reads Gloam store version {STORE_VERSION}; it was \
         left untouched: run the server version that wrote it, or give this one another --data \
         folder"
    )]
    OtherVersion { file: PathBuf, found: String },
    #[error("cannot use {file}: {cause}")]
    Io { file: PathBuf, cause: std::io::Error },
    #[error(
        "{file} holds a world of {stored}, but the server was started with {asked}; leave the \
         option out to play the stored world, or give another --data folder for a new one"
    )]
    OtherWorld { file: PathBuf, stored: String, asked: String },
}

/// A depth's stored log (its encoded entries, in order) and, if it was
/// ever played, (entries kept, the live depth's checksum after them).
pub type DepthHistory = (Vec<Vec<u8>>, Option<(u64, u64)>);

enum Cmd {
    Create {
        known: Credential,
        done: oneshot::Sender<Result<(), String>>,
    },
    Save {
        name: String,
        snapshot: Snapshot,
    },
    Load {
        name: String,
        reply: oneshot::Sender<Result<Option<Snapshot>, String>>,
    },
    /// The character died: into the graveyard, and out of play (its name
    /// and token stay, for a new character).
    Bury {
        record: DeathRecord,
    },
    Graveyard {
        reply: oneshot::Sender<Result<Vec<DeathRecord>, String>>,
    },
    /// More of a depth's log: entries numbered from `first`, and the
    /// depth's checksum after the last.
    AppendLog {
        depth: u16,
        first: u64,
        entries: Vec<Vec<u8>>,
        checksum: u64,
    },
    LoadLog {
        depth: u16,
        reply: mpsc::Sender<Result<Vec<Vec<u8>>, String>>,
    },
    Flush {
        done: oneshot::Sender<()>,
    },
    Backup {
        keep: usize,
        done: oneshot::Sender<Result<PathBuf, String>>,
    },
    Close,
    /// Test hook: the thread does nothing until this is answered or dropped.
    #[cfg(test)]
    Pause(std::sync::mpsc::Receiver<()>),
}

/// An open store, before the game starts writing to it.
#[derive(Debug)]
pub struct Store {
    db: Database,
    /// The file, or None for a store in memory.
    file: Option<PathBuf>,
    /// Held for as long as the store is open.
    lock: Option<File>,
    /// The characters it holds, read when it opened.
    known: Vec<Credential>,
    /// How to open the database again after an I/O error (None: never fails).
    reopen: Option<Reopen>,
    /// How long writes wait for others to go with them ([`GATHER`]).
    gather: Duration,
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
        let db = open::open_file(&file)?;
        let known = read_known(&db).map_err(|e| open::failed(&file, e))?;
        let path = file.clone();
        let reopen = Some(Reopen(Box::new(move || Ok(Database::create(&path)?))));
        Ok(Self { db, file: Some(file), lock: Some(lock), known, reopen, gather: GATHER })
    }

    /// A store that lives in memory and ends with the server: for tests and
    /// throwaway worlds.
    pub fn in_memory() -> Self {
        let db = Database::builder()
            .create_with_backend(InMemoryBackend::new())
            .expect("a database in memory always opens");
        open::mark_new(&db).expect("a database in memory takes its version mark");
        Self { db, file: None, lock: None, known: Vec::new(), reopen: None, gather: GATHER }
    }

    /// Test hook: a store on a disk that fills up when the returned switch
    /// is set (every write then fails, as on a full disk) and has room again
    /// when it is cleared.
    #[cfg(test)]
    pub(crate) fn on_a_disk_that_fills() -> (Self, std::sync::Arc<std::sync::atomic::AtomicBool>) {
        let disk = std::sync::Arc::new(tests::FillingDisk::default());
        let full = disk.full.clone();
        let open = {
            let disk = disk.clone();
            move || Database::builder().create_with_backend(tests::Shared(disk.clone()))
        };
        let db = open().expect("a database in memory always opens");
        open::mark_new(&db).expect("a database in memory takes its version mark");
        let reopen = Some(Reopen(Box::new(move || Ok(open()?))));
        let store = Self { db, file: None, lock: None, known: Vec::new(), reopen, gather: GATHER };
        (store, full)
    }

    /// Test hook: writes wait `gather` after a commit for others to go
    /// with them, instead of [`GATHER`].
    #[cfg(test)]
    pub(crate) fn gathering(self, gather: Duration) -> Self {
        Self { gather, ..self }
    }

    /// The store's file (an absolute path), or None when it lives in memory.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    fn path(&self) -> &Path {
        self.file.as_deref().unwrap_or(Path::new(":memory:"))
    }

    /// A name for this world that stays with the file wherever it is moved
    /// or copied: 16 hex digits, drawn when the store was made.
    pub fn world_id(&self) -> Result<String, StoreError> {
        let read = || -> Result<String, redb::Error> {
            let txn = self.db.begin_read()?;
            let meta = txn.open_table(META)?;
            let id = meta
                .get("world-id")?
                .ok_or_else(|| redb::Error::Corrupted("the store has no world id".into()))?;
            Ok(id.value().iter().map(|b| format!("{b:02x}")).collect())
        };
        read().map_err(|e| open::failed(self.path(), e))
    }

    /// The world this store was made for, if it was given one yet.
    pub fn world(&self) -> Result<Option<WorldSpec>, StoreError> {
        let read = || -> Result<Option<WorldSpec>, redb::Error> {
            let txn = self.db.begin_read()?;
            let meta = txn.open_table(META)?;
            let text = |key: &str| -> Result<Option<String>, redb::Error> {
                Ok(meta.get(key)?.map(|v| String::from_utf8_lossy(v.value()).into_owned()))
            };
            let Some(seed) = meta.get("seed")? else { return Ok(None) };
            let seed = <[u8; 8]>::try_from(seed.value())
                .map(u64::from_le_bytes)
                .map_err(|_| redb::Error::Corrupted("the world seed is not 8 bytes".into()))?;
            let generator = text("generator")?
                .and_then(|name| GeneratorSetting::from_name(&name))
                .ok_or_else(|| redb::Error::Corrupted("unknown generator setting".into()))?;
            let mix = text("mix")?
                .and_then(|mix| mix.parse().ok())
                .ok_or_else(|| redb::Error::Corrupted("unreadable generator weights".into()))?;
            Ok(Some(WorldSpec { seed, generator, mix }))
        };
        read().map_err(|e| open::failed(self.path(), e))
    }

    /// Settles which world this store holds: the stored one if there is
    /// one (a part the host named that differs is an error), else the one
    /// `asked` for, written now (`new_seed` and the defaults for what it
    /// leaves out).
    pub fn settle_world(
        &self,
        asked: &WorldWish,
        new_seed: impl FnOnce() -> u64,
    ) -> Result<WorldSpec, StoreError> {
        let Some(stored) = self.world()? else {
            let world = WorldSpec {
                seed: asked.seed.unwrap_or_else(new_seed),
                generator: asked.generator.unwrap_or_default(),
                mix: asked.mix.clone().unwrap_or_default(),
            };
            self.write_world(&world).map_err(|e| open::failed(self.path(), e))?;
            return Ok(world);
        };
        let mut clashes = Vec::new();
        if let Some(seed) = asked.seed.filter(|&s| s != stored.seed) {
            clashes.push((format!("seed {}", stored.seed), format!("--seed {seed}")));
        }
        if let Some(generator) = asked.generator.filter(|&g| g != stored.generator) {
            clashes.push((
                format!("generator {}", stored.generator.name()),
                format!("--generator {}", generator.name()),
            ));
        }
        if let Some(mix) = asked.mix.as_ref().filter(|&m| *m != stored.mix) {
            clashes.push((format!("mix {}", stored.mix), format!("--mix {mix}")));
        }
        if clashes.is_empty() {
            return Ok(stored);
        }
        let (stored_text, asked): (Vec<_>, Vec<_>) = clashes.into_iter().unzip();
        Err(StoreError::OtherWorld {
            file: self.path().to_path_buf(),
            stored: stored_text.join(", "),
            asked: asked.join(" "),
        })
    }

    fn write_world(&self, spec: &WorldSpec) -> Result<(), redb::Error> {
        let txn = self.db.begin_write()?;
        {
            let mut meta = txn.open_table(META)?;
            meta.insert("seed", spec.seed.to_le_bytes().as_slice())?;
            meta.insert("generator", spec.generator.name().as_bytes())?;
            meta.insert("mix", spec.mix.to_string().as_bytes())?;
        }
        txn.commit()?;
        Ok(())
    }

    /// A depth's log as the store holds it now, and how many entries the
    /// live depth had handed over at its last save with its checksum then.
    pub fn depth_history(&self, depth: u16) -> Result<DepthHistory, StoreError> {
        let read =
            || Ok::<_, redb::Error>((depth_log(&self.db, depth)?, depth_sum(&self.db, depth)?));
        read().map_err(|e| open::failed(self.path(), e))
    }

    /// The dead, deepest first, as the store holds them now.
    pub fn graveyard(&self) -> Result<Vec<DeathRecord>, StoreError> {
        graveyard(&self.db).map_err(|e| open::failed(self.path(), e))
    }

    /// Every character the store knows.
    pub fn known(&self) -> &[Credential] {
        &self.known
    }

    /// Hands the store to its writing thread; gives the characters it holds.
    pub fn start(self) -> (Writer, Vec<Credential>) {
        let (tx, rx) = mpsc::channel();
        let Store { db, file, lock, known, reopen, gather } = self;
        let label = file.clone().unwrap_or_else(|| PathBuf::from(MEMORY));
        let (saving, saving_rx) = tokio::sync::watch::channel(true);
        let commits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let keeper = Keeper {
            commits: commits.clone(),
            db: Some(db),
            file: label,
            reopen,
            failed: Vec::new(),
            saving,
            gather,
            last_commit: None,
            pace: None,
        };
        // The thread holds the folder's lock: it is let go only once the
        // last commit is done, however the writer ends.
        let thread = std::thread::Builder::new()
            .name("gloam-store".into())
            .spawn(move || {
                keeper.serve(rx);
                drop(lock);
            })
            .expect("the store's thread starts");
        let handle = StoreHandle { tx, saving: saving_rx };
        (Writer { handle, thread: Some(thread), commits }, known)
    }
}

/// The running store: its thread, which holds the lock on its folder.
///
/// [`Writer::close`] is the hand-over: it commits everything sent before
/// and waits for the thread, so it blocks (from async code, call it through
/// `spawn_blocking`). Dropping a writer instead never blocks, so an aborted
/// server task cannot stall an async worker: the thread is told to close
/// and left to finish its commits and let the folder go by itself.
#[derive(Debug)]
pub struct Writer {
    handle: StoreHandle,
    thread: Option<JoinHandle<()>>,
    /// The commits that worked so far.
    commits: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Writer {
    pub fn handle(&self) -> StoreHandle {
        self.handle.clone()
    }

    /// Commits what was sent before, ends the thread, closes the file and
    /// lets the folder go; blocks until all that is done.
    pub fn close(mut self) {
        let _ = self.handle.tx.send(Cmd::Close);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            error!("the store's thread panicked");
        }
    }

    /// The commits that worked so far.
    pub fn commits(&self) -> usize {
        self.commits.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Test hook: the thread stops until the returned sender is used or dropped.
    #[cfg(test)]
    fn pause(&self) -> std::sync::mpsc::Sender<()> {
        let (release, paused) = std::sync::mpsc::channel();
        let _ = self.handle.tx.send(Cmd::Pause(paused));
        release
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        if self.thread.take().is_some() {
            // Not joined: the thread commits what it has and ends alone.
            let _ = self.handle.tx.send(Cmd::Close);
        }
    }
}

/// The way the game reaches the store. Saves are sent and forgotten (the
/// thread logs a failure); creating and loading wait for the answer.
#[derive(Debug, Clone)]
pub struct StoreHandle {
    tx: mpsc::Sender<Cmd>,
    /// Whether the last commit worked: false while the disk fails.
    saving: tokio::sync::watch::Receiver<bool>,
}

const CLOSED: &str = "the store is closed";

/// What a store in memory calls its file.
const MEMORY: &str = ":memory:";

impl StoreHandle {
    /// Records a new character; done once it is committed.
    pub async fn create(&self, known: Credential) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.tx.send(Cmd::Create { known, done }).map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// Saves where a character is and what it explored, at the next commit
    /// (at once, unless the store is busy: then within [`GATHER`]).
    pub fn save(&self, name: &str, snapshot: Snapshot) {
        if self.tx.send(Cmd::Save { name: name.to_owned(), snapshot }).is_err() {
            debug!(player = name, "not saved: the store is closed");
        }
    }

    /// Where a character was and everything it explored; None if it never
    /// entered the world. Sees every save sent before it.
    pub async fn load(&self, name: &str) -> Result<Option<Snapshot>, String> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Load { name: name.to_owned(), reply }).map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// Puts a dead character in the graveyard and takes it out of play:
    /// its name and token stay, and its next join starts a new character.
    pub fn bury(&self, record: DeathRecord) {
        if self.tx.send(Cmd::Bury { record }).is_err() {
            error!("the store has stopped: a death was not recorded");
        }
    }

    /// Keeps more of a depth's log (see [`Cmd::AppendLog`]).
    pub fn append_log(&self, depth: u16, first: u64, entries: Vec<Vec<u8>>, checksum: u64) {
        let cmd = Cmd::AppendLog { depth, first, entries, checksum };
        if self.tx.send(cmd).is_err() {
            error!(depth, "the store has stopped: a depth's log was not kept");
        }
    }

    /// A depth's log as kept, in order. Sees every entry sent before it.
    /// Blocks the calling thread until the store answers (a read of one
    /// depth's entries): it is called where a depth's level is built,
    /// which blocks as long already.
    pub fn depth_log(&self, depth: u16) -> Result<Vec<Vec<u8>>, String> {
        let (reply, answer) = mpsc::channel();
        self.tx.send(Cmd::LoadLog { depth, reply }).map_err(|_| CLOSED.to_owned())?;
        answer.recv().map_err(|_| CLOSED.to_owned())?
    }

    /// The dead, deepest first. Sees every death sent before it.
    pub async fn graveyard(&self) -> Result<Vec<DeathRecord>, String> {
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Graveyard { reply }).map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// Writes a consistent copy of the store (everything sent before
    /// included) into the data folder's `backups/`, keeping the newest
    /// `keep`; gives the copy's path.
    pub async fn backup(&self, keep: usize) -> Result<PathBuf, String> {
        let (done, answer) = oneshot::channel();
        self.tx.send(Cmd::Backup { keep, done }).map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// True unless the last commit failed (a full or failing disk); saves
    /// are then kept and tried again until one works.
    pub fn is_saving(&self) -> bool {
        *self.saving.borrow()
    }

    /// Follows [`is_saving`](Self::is_saving) as it changes.
    pub fn saving(&self) -> tokio::sync::watch::Receiver<bool> {
        self.saving.clone()
    }

    /// Waits until everything sent before is committed.
    pub async fn flush(&self) {
        let (done, answer) = oneshot::channel();
        if self.tx.send(Cmd::Flush { done }).is_ok() {
            let _ = answer.await;
        }
    }
}

/// Commands applied at once, at most: enough to make a burst cheap, few
/// enough that a load waits little behind them.
const BATCH: usize = 1024;

/// How often the store commits while it is busy, gathering the writes that
/// come meanwhile: when a crowd arrives or leaves, each player's save (and
/// each new character) committed by itself cost an fsync each and a fifth
/// of the server's core (BENCHMARKS.md, session 11).
const GATHER: Duration = Duration::from_millis(25);

/// Commits that may go at once, one after another, before the store
/// gathers: a player's joining, leaving or taking the stairs is saved at
/// once (a few saves in a row), not up to [`GATHER`] later.
pub(crate) const AT_ONCE: u32 = 4;

/// How soon a failed commit is tried again (on a reopened database).
const RETRY: Duration = Duration::from_secs(1);

/// Saves kept for a retry while the disk fails, at most; older ones are
/// dropped (each player's newer saves carry its place anyway).
const KEPT_WHILE_FAILING: usize = 1 << 16;

/// How the store's thread opens its database again after an I/O error
/// (redb refuses all work on a database that saw one until it is reopened).
pub(crate) struct Reopen(Box<dyn Fn() -> Result<Database, redb::Error> + Send>);

impl std::fmt::Debug for Reopen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reopen")
    }
}

/// The store's thread and what it owns: the database (None while it
/// cannot be reopened), the saves a failed commit left, and the flag the
/// game watches to know whether saving works.
struct Keeper {
    db: Option<Database>,
    file: PathBuf,
    reopen: Option<Reopen>,
    failed: Vec<Cmd>,
    saving: tokio::sync::watch::Sender<bool>,
    /// How often it commits while busy ([`GATHER`]).
    gather: Duration,
    /// When the last commit ended (None: none yet).
    last_commit: Option<Instant>,
    /// The commits that worked so far (see [`Writer::commits`]).
    commits: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// The pace of commits, as a leaky bucket: when the next commit would
    /// be due had every commit waited `gather` after the one before (None:
    /// long ago). A commit may go at once while that is no more than
    /// [`AT_ONCE`] - 1 gatherings ahead of now.
    pace: Option<Instant>,
}

impl Keeper {
    /// The database, reopened first if a failure closed it.
    fn db(&mut self) -> Result<&Database, String> {
        if self.db.is_none()
            && let Some(reopen) = &self.reopen
        {
            match (reopen.0)() {
                Ok(db) => self.db = Some(db),
                Err(e) => return Err(format!("cannot reopen the store: {e}")),
            }
        }
        self.db.as_ref().ok_or_else(|| "the store is unavailable".to_owned())
    }

    /// Takes every waiting command and applies the writes in one
    /// transaction, when one is due (see [`Keeper::due`]); answers loads
    /// after the writes before them that they would see. While a commit has
    /// failed, tries again every [`RETRY`].
    fn serve(mut self, rx: mpsc::Receiver<Cmd>) {
        let mut writes = Vec::new();
        loop {
            let first = match self.due(&writes) {
                None => match rx.recv() {
                    Ok(cmd) => cmd,
                    Err(_) => break,
                },
                Some(at) => match rx.recv_timeout(at.saturating_duration_since(Instant::now())) {
                    Ok(cmd) => cmd,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        self.commit(&mut writes);
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                },
            };
            let mut batch = vec![first];
            while batch.len() < BATCH {
                match rx.try_recv() {
                    Ok(cmd) => batch.push(cmd),
                    Err(_) => break,
                }
            }
            for cmd in batch {
                if !self.apply(cmd, &mut writes) {
                    debug!(file = %self.file.display(), "store closed");
                    return;
                }
            }
            if self.due(&writes).is_some_and(|at| at <= Instant::now()) {
                self.commit(&mut writes);
            }
        }
        self.commit(&mut writes);
    }

    /// When the next commit is due: at once unless [`AT_ONCE`] commits
    /// went in the last gatherings (then when the pace allows another), or
    /// [`RETRY`] after the last while failing; None when nothing waits to
    /// be committed.
    fn due(&self, writes: &[Cmd]) -> Option<Instant> {
        if writes.is_empty() && self.failed.is_empty() {
            return None;
        }
        let now = Instant::now();
        if !self.failed.is_empty() {
            return Some(self.last_commit.map_or(now, |at| at + RETRY));
        }
        let ahead = self.gather * (AT_ONCE - 1);
        Some(self.pace.and_then(|pace| pace.checked_sub(ahead)).map_or(now, |at| at.max(now)))
    }

    /// One command; false when it was the last.
    fn apply(&mut self, cmd: Cmd, writes: &mut Vec<Cmd>) -> bool {
        match cmd {
            Cmd::Create { .. } | Cmd::Save { .. } | Cmd::Bury { .. } | Cmd::AppendLog { .. } => {
                writes.push(cmd)
            }
            Cmd::Load { name, reply } => {
                // Only a write of its own character changes what it reads.
                if writes.iter().chain(&self.failed).any(|w| w.concerns(&name)) {
                    self.commit(writes);
                }
                let loaded = self.db().and_then(|db| load(db, &name).map_err(|e| e.to_string()));
                let _ = reply.send(loaded);
            }
            Cmd::Graveyard { reply } => {
                self.commit(writes);
                let dead = self.db().and_then(|db| graveyard(db).map_err(|e| e.to_string()));
                let _ = reply.send(dead);
            }
            Cmd::LoadLog { depth, reply } => {
                self.commit(writes);
                let log = self.db().and_then(|db| depth_log(db, depth).map_err(|e| e.to_string()));
                let _ = reply.send(log);
            }
            Cmd::Flush { done } => {
                self.commit(writes);
                let _ = done.send(());
            }
            Cmd::Backup { keep, done } => {
                self.commit(writes);
                let file = self.file.clone();
                let _ = done.send(self.db().and_then(|db| back_up(db, &file, keep)));
            }
            Cmd::Close => {
                self.commit(writes);
                return false;
            }
            #[cfg(test)]
            Cmd::Pause(until) => {
                let _ = until.recv();
            }
        }
        true
    }

    /// Commits the saves a failure left and `writes` in one transaction,
    /// answers those that wait, and keeps the saves for a retry if it fails.
    fn commit(&mut self, writes: &mut Vec<Cmd>) {
        if writes.is_empty() && self.failed.is_empty() {
            return;
        }
        let mut all = std::mem::take(&mut self.failed);
        all.append(writes);
        let started = Instant::now();
        let count = all.len();
        let result = self.db().and_then(|db| apply(db, &all).map_err(|e| e.to_string()));
        metrics::histogram!(crate::telemetry::COMMIT_SECONDS).record(started.elapsed());
        match &result {
            Ok(()) => {
                self.commits.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                debug!(count, took = ?started.elapsed(), "store commit")
            }
            Err(e) => {
                metrics::counter!(crate::telemetry::COMMIT_FAILURES).increment(1);
                error!(file = %self.file.display(), error = %e, count, "store commit failed")
            }
        }
        for cmd in all {
            match cmd {
                Cmd::Create { done, .. } => {
                    let _ = done.send(result.clone());
                }
                save @ (Cmd::Save { .. } | Cmd::Bury { .. } | Cmd::AppendLog { .. })
                    if result.is_err() =>
                {
                    self.failed.push(save)
                }
                _ => {}
            }
        }
        if result.is_err() {
            let over = self.failed.len().saturating_sub(KEPT_WHILE_FAILING);
            self.failed.drain(..over);
            if self.reopen.is_some() {
                // redb takes no more work from a database that saw an I/O error.
                self.db = None;
            }
        }
        self.saving
            .send_if_modified(|saving| std::mem::replace(saving, result.is_ok()) != result.is_ok());
        let now = Instant::now();
        self.last_commit = Some(now);
        self.pace = Some(self.pace.map_or(now, |pace| pace.max(now)) + self.gather);
    }
}

impl Cmd {
    /// Whether this write changes what loading `name` reads.
    fn concerns(&self, name: &str) -> bool {
        match self {
            Cmd::Save { name: saved, .. } => saved == name,
            Cmd::Bury { record } => record.name == name,
            _ => false,
        }
    }
}

/// A backup of the store kept in `file` (a store in memory has no folder).
fn back_up(db: &Database, file: &Path, keep: usize) -> Result<PathBuf, String> {
    if file == Path::new(MEMORY) {
        return Err("a store in memory has no folder to back up into".into());
    }
    let started = Instant::now();
    let path = backup::write(db, &backup::folder_of(file), keep)?;
    tracing::info!(file = %path.display(), took = ?started.elapsed(), "backup written");
    Ok(path)
}

fn apply(db: &Database, writes: &[Cmd]) -> Result<(), redb::Error> {
    let txn = db.begin_write()?;
    {
        let mut tokens = txn.open_table(TOKENS)?;
        let mut places = txn.open_table(PLACES)?;
        let mut explored = txn.open_table(EXPLORED)?;
        let mut vitals = txn.open_table(VITALS)?;
        let mut graveyard = txn.open_table(GRAVEYARD)?;
        for cmd in writes {
            match cmd {
                Cmd::Create { known, .. } => {
                    tokens.insert(known.name.as_str(), known.token_hash.as_slice())?;
                }
                Cmd::Save { name, snapshot } => {
                    let Snapshot { depth, pos, vitals: v, explored: depths } = snapshot;
                    places.insert(name.as_str(), (*depth, pos.x, pos.y))?;
                    vitals.insert(name.as_str(), (v.hp, v.max_hp, v.kills, v.rounds, v.deepest))?;
                    for (depth, bits) in depths {
                        explored.insert((name.as_str(), *depth), bits.as_slice())?;
                    }
                }
                Cmd::Bury { record } => {
                    let name = record.name.as_str();
                    places.remove(name)?;
                    vitals.remove(name)?;
                    explored.retain_in((name, 0)..=(name, u16::MAX), |_, _| false)?;
                    let key = (record.when, name);
                    let value =
                        (record.depth, record.rounds, record.kills, record.killed_by.as_str());
                    graveyard.insert(key, value)?;
                }
                Cmd::AppendLog { depth, first, entries, checksum } => {
                    let mut log = txn.open_table(DEPTH_LOG)?;
                    for (i, entry) in entries.iter().enumerate() {
                        log.insert((*depth, first + i as u64), entry.as_slice())?;
                    }
                    let mut sums = txn.open_table(DEPTH_SUM)?;
                    sums.insert(*depth, (first + entries.len() as u64, *checksum))?;
                }
                Cmd::Load { .. }
                | Cmd::Graveyard { .. }
                | Cmd::LoadLog { .. }
                | Cmd::Flush { .. }
                | Cmd::Backup { .. }
                | Cmd::Close => {}
                #[cfg(test)]
                Cmd::Pause(_) => {}
            }
        }
    }
    txn.commit()?;
    Ok(())
}

fn load(db: &Database, name: &str) -> Result<Option<Snapshot>, redb::Error> {
    let txn = db.begin_read()?;
    let places = match txn.open_table(PLACES) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let Some(place) = places.get(name)? else { return Ok(None) };
    let (depth, x, y) = place.value();
    let mut depths = Vec::new();
    if let Ok(explored) = txn.open_table(EXPLORED) {
        for entry in explored.range((name, 0)..=(name, u16::MAX))? {
            let (key, bits) = entry?;
            depths.push((key.value().1, bits.value().to_vec()));
        }
    }
    let vitals = match txn.open_table(VITALS) {
        Ok(table) => table.get(name)?.map(|v| v.value()),
        Err(TableError::TableDoesNotExist(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let vitals = vitals.map_or_else(Vitals::default, |(hp, max_hp, kills, rounds, deepest)| {
        Vitals { hp, max_hp, kills, rounds, deepest }
    });
    Ok(Some(Snapshot { depth, pos: Pos { x, y }, vitals, explored: depths }))
}

/// A depth's log, in order: the entries numbered from 0 without a gap
/// (after a gap nothing can be replayed, so nothing after one is given).
fn depth_log(db: &Database, depth: u16) -> Result<Vec<Vec<u8>>, redb::Error> {
    let txn = db.begin_read()?;
    let table = match txn.open_table(DEPTH_LOG) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut entries = Vec::new();
    for entry in table.range((depth, 0)..=(depth, u64::MAX))? {
        let (key, bytes) = entry?;
        if key.value().1 != entries.len() as u64 {
            break;
        }
        entries.push(bytes.value().to_vec());
    }
    Ok(entries)
}

/// How many of a depth's entries are kept, and the depth's checksum after
/// the last of them.
fn depth_sum(db: &Database, depth: u16) -> Result<Option<(u64, u64)>, redb::Error> {
    let txn = db.begin_read()?;
    match txn.open_table(DEPTH_SUM) {
        Ok(t) => Ok(t.get(depth)?.map(|v| v.value())),
        Err(TableError::TableDoesNotExist(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The dead, deepest first (then the longest lived, then the earliest).
fn graveyard(db: &Database) -> Result<Vec<DeathRecord>, redb::Error> {
    let txn = db.begin_read()?;
    let table = match txn.open_table(GRAVEYARD) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut dead = Vec::new();
    for entry in table.iter()? {
        let (key, value) = entry?;
        let (when, name) = key.value();
        let (depth, rounds, kills, killed_by) = value.value();
        let (name, killed_by) = (name.to_owned(), killed_by.to_owned());
        dead.push(DeathRecord { name, depth, rounds, kills, killed_by, when });
    }
    dead.sort_by(|a, b| {
        b.depth.cmp(&a.depth).then(b.rounds.cmp(&a.rounds)).then(a.when.cmp(&b.when))
    });
    Ok(dead)
}

fn read_known(db: &Database) -> Result<Vec<Credential>, redb::Error> {
    let txn = db.begin_read()?;
    let tokens = match txn.open_table(TOKENS) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut known = Vec::new();
    for entry in tokens.iter()? {
        let (name, hash) = entry?;
        let token_hash = <[u8; 32]>::try_from(hash.value()).map_err(|_| {
            redb::Error::Corrupted(format!("the token hash of {} is damaged", name.value()))
        })?;
        known.push(Credential { name: name.value().to_owned(), token_hash });
    }
    Ok(known)
}

#[cfg(test)]
mod tests;
