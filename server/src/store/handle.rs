//! The running store as the game holds it: the [`Writer`] (its thread,
//! which holds the folder's lock) and the [`StoreHandle`] every part of the
//! game clones, whose verbs send the thread a command each, by the lane
//! `queue.rs` says.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;

use gloam_protocol::DeathRecord;
use tokio::sync::oneshot;
use tracing::{debug, error};

use super::command::Cmd;
use super::queue::Queue;
use super::{DepthHistory, DepthSnapshot, Reading};
use crate::character::{Credential, Snapshot};

/// The running store: its thread, which holds the lock on its folder.
///
/// [`Writer::close`] is the hand-over: it commits everything sent before
/// and waits for the thread, so it blocks (from async code, call it through
/// `spawn_blocking`). Dropping a writer instead never blocks, so an aborted
/// server task cannot stall an async worker: the thread is told to close
/// and left to finish its commits and let the folder go by itself.
#[derive(Debug)]
pub struct Writer {
    pub(super) handle: StoreHandle,
    pub(super) thread: Option<JoinHandle<()>>,
    /// The commits that worked so far.
    pub(super) commits: Arc<AtomicUsize>,
}

impl Writer {
    pub fn handle(&self) -> StoreHandle {
        self.handle.clone()
    }

    /// Commits what was sent before, ends the thread, closes the file and
    /// lets the folder go; blocks until all that is done.
    pub fn close(mut self) {
        let _ = self.handle.queue.send(Cmd::Close);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            error!("the store's thread panicked");
        }
    }

    /// The commits that worked so far.
    pub fn commits(&self) -> usize {
        self.commits.load(Ordering::SeqCst)
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        if self.thread.take().is_some() {
            // Not joined: the thread commits what it has and ends alone.
            let _ = self.handle.queue.send(Cmd::Close);
        }
    }
}

/// The way the game reaches the store. Saves are sent and forgotten (the
/// thread logs a failure); creating and loading wait for the answer.
#[derive(Debug, Clone)]
pub struct StoreHandle {
    pub(super) queue: Arc<Queue>,
    /// Whether the last commit worked: false while the disk fails.
    pub(super) saving: tokio::sync::watch::Receiver<bool>,
    /// The lives that ended under each name (see [`end_life`](Self::end_life)).
    pub(super) lives: Arc<std::sync::Mutex<HashMap<String, u32>>>,
}

const CLOSED: &str = "the store is closed";

impl StoreHandle {
    /// Records a new character; done once it is committed. It waits for
    /// its own commit only, made at once, never behind other writes.
    pub async fn create(&self, known: Credential) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.queue
            .send_new_character(Cmd::Create { known, done })
            .map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// Saves where a character is and what it explored, at the next commit
    /// (at once, unless the store is busy: then within `GATHER`).
    pub fn save(&self, name: &str, snapshot: Snapshot) {
        if self.queue.send(Cmd::Save { name: name.to_owned(), snapshot }).is_err() {
            debug!(player = name, "not saved: the store is closed");
        }
    }

    /// Where a character was and everything it explored; None if it never
    /// entered the world. Sees every save sent before it. Waits for room
    /// while the store's lane is full (see `queue.rs`).
    pub async fn load(&self, name: &str) -> Result<Option<Snapshot>, String> {
        let (reply, answer) = oneshot::channel();
        let load = Cmd::Load { name: name.to_owned(), reply };
        self.queue.send_when_room(load).await.map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// Puts a dead character in the graveyard and takes it out of play:
    /// its name and token stay, and its next join starts a new character.
    pub fn bury(&self, record: DeathRecord) {
        if self.queue.send(Cmd::Bury { record }).is_err() {
            error!("the store has stopped: a death was not recorded");
        }
    }

    /// Numbers the life of `name` that ends now: its lives counted from 1,
    /// the first a store ever saw under that name (a grave dug before
    /// morgue files counts none). The number names its morgue file.
    pub fn end_life(&self, name: &str) -> u32 {
        let mut lives = self.lives.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let ended = lives.entry(name.to_owned()).or_default();
        *ended += 1;
        *ended
    }

    /// Keeps `text` as `name`'s morgue file number `number`; sent and
    /// forgotten, written off the game's tasks (see `morgue.rs`).
    pub fn keep_morgue(&self, name: &str, number: u32, text: String) {
        let cmd = Cmd::Morgue { name: name.to_owned(), number, text };
        if self.queue.send(cmd).is_err() {
            error!(player = name, "the store has stopped: a morgue file was not written");
        }
    }

    /// `name`'s morgue file number `number`, if there is one. Sees every
    /// morgue file sent before it. Waits for room while the store's lane
    /// is full (see `queue.rs`).
    pub async fn morgue(&self, name: &str, number: u32) -> Result<Option<String>, String> {
        let (reply, answer) = oneshot::channel();
        let read = Cmd::ReadMorgue { name: name.to_owned(), number, reply };
        self.queue.send_when_room(read).await.map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())
    }

    /// Keeps more of a depth's log: entries numbered from `first`, and the
    /// depth's checksum after the last, if it was summed (see
    /// `world::keep_history`).
    pub fn append_log(
        &self,
        depth: u16,
        first: u64,
        entries: Vec<Vec<u8>>,
        checksum: impl Into<Option<u64>>,
    ) {
        let cmd = Cmd::AppendLog { depth, first, entries, checksum: checksum.into() };
        if self.queue.send(cmd).is_err() {
            error!(depth, "the store has stopped: a depth's log was not kept");
        }
    }

    /// Begins a new history of the depth at entry `start`, recorded under
    /// rules `rules`: a restart replays from there (see
    /// [`DepthHistory`]).
    pub fn start_history(&self, depth: u16, start: u64, rules: u32) {
        if self.queue.send(Cmd::StartHistory { depth, start, rules }).is_err() {
            error!(depth, "the store has stopped: a depth's new history was not marked");
        }
    }

    /// Keeps a snapshot of depth `depth`'s state, at the next commit (after
    /// the entries sent before it), in place of its oldest.
    pub fn keep_snapshot(&self, depth: u16, snapshot: DepthSnapshot) {
        if self.queue.send(Cmd::KeepSnapshot { depth, snapshot }).is_err() {
            error!(depth, "the store has stopped: a depth's snapshot was not kept");
        }
    }

    /// [`keep_snapshot`](Self::keep_snapshot), the snapshot made by the
    /// store's thread when it comes to it: a crowded depth's snapshot
    /// takes milliseconds to write, which its task does not spend.
    pub fn keep_snapshot_made(
        &self,
        depth: u16,
        make: impl FnOnce(&mut dyn FnMut()) -> DepthSnapshot + Send + Sync + 'static,
    ) {
        if self.queue.send(Cmd::MakeSnapshot { depth, make: Box::new(make) }).is_err() {
            error!(depth, "the store has stopped: a depth's snapshot was not kept");
        }
    }

    /// Keeps the unique of kind `kind` (its name) as slain by `by`: no
    /// depth built after holds it (see [`DepthHistory::slain_uniques`]).
    pub fn slay_unique(&self, kind: &str, by: &str) {
        let cmd = Cmd::SlayUnique { kind: kind.to_owned(), by: by.to_owned() };
        if self.queue.send(cmd).is_err() {
            error!(kind, "the store has stopped: a unique's death was not kept");
        }
    }

    /// Keeps where life number `life` of `name` ended: on `depth`, in its
    /// round `round` (a recording of its last rounds is made from there).
    pub fn end_life_at(&self, name: &str, life: u32, depth: u16, round: u64) {
        let cmd = Cmd::EndLife { name: name.to_owned(), life, depth, round };
        if self.queue.send(cmd).is_err() {
            error!(player = name, "the store has stopped: where a life ended was not kept");
        }
    }

    /// Where life number `life` of `name` ended (the depth, and its round
    /// then), if kept. Sees every end sent before it. Waits for room while
    /// the store's lane is full.
    pub async fn life_end(&self, name: &str, life: u32) -> Result<Option<(u16, u64)>, String> {
        let (reply, answer) = oneshot::channel();
        let read = Cmd::LifeEnd { name: name.to_owned(), life, reply };
        self.queue.send_when_room(read).await.map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// A depth's history as kept. Sees every entry sent before it.
    /// Blocks the calling thread until the store answers (a read of one
    /// depth's entries): it is called where a depth's level is built,
    /// which blocks as long already.
    pub fn depth_history(&self, depth: u16) -> Result<DepthHistory, String> {
        self.read_history(depth, Reading::Whole)
    }

    /// [`depth_history`](Self::depth_history), as much of it as `reading` says.
    pub fn read_history(&self, depth: u16, reading: Reading) -> Result<DepthHistory, String> {
        let (reply, answer) = mpsc::channel();
        let read = Cmd::LoadLog { depth, reading, reply };
        self.queue.send(read).map_err(|_| CLOSED.to_owned())?;
        answer.recv().map_err(|_| CLOSED.to_owned())?
    }

    /// The dead, deepest first: the first `most` of them. Sees every death
    /// sent before it (and may see some sent after). Waits for room while
    /// the store's lane is full (see `queue.rs`).
    pub async fn graveyard(&self, most: usize) -> Result<Vec<DeathRecord>, String> {
        let (reply, answer) = oneshot::channel();
        let graveyard = Cmd::Graveyard { most, reply };
        self.queue.send_when_room(graveyard).await.map_err(|_| CLOSED.to_owned())?;
        answer.await.map_err(|_| CLOSED.to_owned())?
    }

    /// Writes a consistent copy of the store (everything sent before
    /// included) into the data folder's `backups/`, keeping the newest
    /// `keep`; gives the copy's path.
    pub async fn backup(&self, keep: usize) -> Result<PathBuf, String> {
        let (done, answer) = oneshot::channel();
        self.queue.send(Cmd::Backup { keep, done }).map_err(|_| CLOSED.to_owned())?;
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
        if self.queue.send(Cmd::Flush { done }).is_ok() {
            let _ = answer.await;
        }
    }
}
