//! The store's thread (the [`Keeper`]): it owns the database, takes the
//! commands the game sends, gathers the writes among them into as few
//! commits as keep saves timely (a new character's at once), answers reads
//! once the writes they must see are in, and keeps saves for a retry while
//! the disk fails.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use gloam_protocol::DeathRecord;
use redb::Database;
use tracing::{debug, error, warn};

use super::backend::Backend;
use super::command::{Cmd, GraveyardReply, LoadReply};
use super::morgue::Morgue;
use super::queue::Queue;
use crate::character::Snapshot;

/// Commands applied at once, at most: enough to make a burst cheap, few
/// enough that a load waits little behind them.
const BATCH: usize = 1024;

/// How often the store commits while it is busy, gathering the writes that
/// come meanwhile: when a crowd arrives or leaves, each player's save (and
/// each new character) committed by itself cost an fsync each and a fifth
/// of the server's core (BENCHMARKS.md, session 11).
pub(super) const GATHER: Duration = Duration::from_millis(25);

/// Commits that may go at once, one after another, before the store
/// gathers: a player's joining, leaving or taking the stairs is saved at
/// once (a few saves in a row), not up to [`GATHER`] later.
pub(crate) const AT_ONCE: u32 = 4;

/// How soon a failed commit is tried again (on a reopened database).
const RETRY: Duration = Duration::from_secs(1);

/// Saves kept for a retry while the disk fails, at most; older ones are
/// dropped (each player's newer saves carry its place anyway).
const KEPT_WHILE_FAILING: usize = 1 << 16;

/// The store's thread's nice value: the scheduler picks the game's thread
/// before it (a weight of 110 against the game's 1,024), though once picked
/// it keeps the core until it yields (see [`yield_to_the_game`]). Not the
/// lowest there is: at nice 19 (a weight of 15) a busy process beside the
/// server left the store's thread about 1.5% of a core, and saves that
/// must be in within a second took many (a new character's creation 25 s,
/// in a test run beside a busy loop). At nice 10 it keeps about a tenth of
/// a core shared with one busy process, more than a crowd of a thousand
/// needs (about 8%); and the crowd's answers read the same with the store
/// at nice 0, 10 or 19 (BENCHMARKS.md).
const NICE: i32 = 10;

/// Writes made between two moments the store's thread gives way (see
/// [`yield_to_the_game`]): a player's save is 10-20 µs of writing, so the
/// game waits at most about 0.1-0.2 ms for the store's thread where the
/// two share a core (the commit itself is one call into the database).
pub(super) const GIVE_WAY_EVERY: usize = 8;

/// Lets a game's thread that is ready to run have the core before the
/// store's thread goes on (`sched_yield`). Nice 19 alone does not do it: once
/// the scheduler has picked the store's thread, a game's thread that was
/// already ready waits for the next tick (4 ms at 250 Hz), since only a
/// thread waking up would take the core from it.
pub(super) fn yield_to_the_game() {
    #[cfg(test)]
    YIELDS.with(|n| n.set(n.get() + 1));
    std::thread::yield_now();
}

#[cfg(test)]
thread_local! {
    /// How often this thread called [`yield_to_the_game`].
    pub(super) static YIELDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// What a store in memory calls its file.
pub(super) const MEMORY: &str = ":memory:";

/// How the store's thread opens its database again after an I/O error
/// (redb refuses all work on a database that saw one until it is reopened).
pub(crate) struct Reopen(pub(super) Box<dyn Fn() -> Result<Database, redb::Error> + Send>);

impl std::fmt::Debug for Reopen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reopen")
    }
}

/// The store's thread and what it owns: the backend, the saves a failed
/// commit left, and the flag the game watches to know whether saving works.
pub(super) struct Keeper {
    backend: Box<dyn Backend>,
    /// Where the store is kept, for the log.
    file: PathBuf,
    failed: Vec<Cmd>,
    saving: tokio::sync::watch::Sender<bool>,
    /// How often it commits while busy ([`GATHER`]).
    gather: Duration,
    /// When the last commit ended (None: none yet).
    last_commit: Option<Instant>,
    /// The commits that worked so far (see `Writer::commits`).
    commits: Arc<AtomicUsize>,
    /// The pace of commits, as a leaky bucket: when the next commit would
    /// be due had every commit waited `gather` after the one before (None:
    /// long ago). A commit may go at once while that is no more than
    /// [`AT_ONCE`] - 1 gatherings ahead of now.
    pace: Option<Instant>,
    /// The reads that wait for the next commit.
    waiting: Waiting,
}

/// Reads that must see a write not yet committed: they are answered after
/// the commit that ends the batch they came in (or an earlier one).
#[derive(Default)]
struct Waiting {
    loads: Vec<(String, LoadReply)>,
    /// (how many to give, where to).
    graveyards: Vec<(usize, GraveyardReply)>,
}

impl Waiting {
    fn is_empty(&self) -> bool {
        self.loads.is_empty() && self.graveyards.is_empty()
    }
}

/// Lowers the calling thread's priority to [`NICE`] (it is the store's
/// thread); where that cannot be done, it keeps the priority it has.
pub(super) fn give_way() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), NICE) {
        warn!(error = %e, "the store's thread keeps the game's priority");
    }
}

impl Keeper {
    /// A keeper of `backend`, kept at `file` (`MEMORY` for a store in
    /// memory), with the flag that says whether saving works and the count
    /// of commits that worked, for others to watch.
    pub(super) fn new(
        backend: Box<dyn Backend>,
        file: PathBuf,
        gather: Duration,
    ) -> (Self, tokio::sync::watch::Receiver<bool>, Arc<AtomicUsize>) {
        let (saving, saving_rx) = tokio::sync::watch::channel(true);
        let commits = Arc::new(AtomicUsize::new(0));
        let keeper = Keeper {
            commits: commits.clone(),
            backend,
            file,
            failed: Vec::new(),
            saving,
            gather,
            last_commit: None,
            pace: None,
            waiting: Waiting::default(),
        };
        (keeper, saving_rx, commits)
    }

    /// Takes the commands waiting (new characters first: see `queue.rs`)
    /// and applies the writes among them in one transaction when one is
    /// due (see [`Keeper::due`]). A read that must see a write not yet
    /// committed waits for the commit that ends the batch, so a batch of
    /// them costs one commit, not one each. While a commit has failed,
    /// tries again every [`RETRY`]. Ends with the command to close.
    pub(super) fn serve(mut self, queue: &Queue) {
        let mut writes = Vec::new();
        loop {
            for cmd in queue.take(BATCH, self.due(&writes)) {
                if !self.apply(cmd, &mut writes) {
                    debug!(file = %self.file.display(), "store closed");
                    return;
                }
            }
            if self.due(&writes).is_some_and(|at| at <= Instant::now()) {
                self.commit(&mut writes);
            }
        }
    }

    /// When the next commit is due: at once for a new character or a read
    /// that waits for one; else at once unless [`AT_ONCE`] commits went in
    /// the last gatherings (then when the pace allows another), or
    /// [`RETRY`] after the last while failing; None when nothing waits.
    fn due(&self, writes: &[Cmd]) -> Option<Instant> {
        let now = Instant::now();
        if !self.waiting.is_empty() || writes.iter().any(|w| matches!(w, Cmd::Create { .. })) {
            return Some(now);
        }
        if writes.is_empty() && self.failed.is_empty() {
            return None;
        }
        if !self.failed.is_empty() {
            return Some(self.last_commit.map_or(now, |at| at + RETRY));
        }
        let ahead = self.gather * (AT_ONCE - 1);
        Some(self.pace.and_then(|pace| pace.checked_sub(ahead)).map_or(now, |at| at.max(now)))
    }

    /// One command; false when it was the last.
    fn apply(&mut self, cmd: Cmd, writes: &mut Vec<Cmd>) -> bool {
        match cmd {
            Cmd::MakeSnapshot { depth, make } => {
                let snapshot = make(&mut yield_to_the_game);
                return self.apply(Cmd::KeepSnapshot { depth, snapshot }, writes);
            }
            Cmd::Create { .. }
            | Cmd::Save { .. }
            | Cmd::Bury { .. }
            | Cmd::AppendLog { .. }
            | Cmd::StartHistory { .. }
            | Cmd::KeepSnapshot { .. }
            | Cmd::SlayUnique { .. }
            | Cmd::EndLife { .. } => {
                // A waiting load sees the writes sent before it, none after.
                if self.waiting.loads.iter().any(|(name, _)| cmd.concerns(name)) {
                    self.commit(writes);
                }
                writes.push(cmd)
            }
            Cmd::Load { name, reply } => {
                // Only a write of its own character changes what it reads.
                if writes.iter().chain(&self.failed).any(|w| w.concerns(&name)) {
                    self.waiting.loads.push((name, reply));
                } else {
                    let _ = reply.send(self.load(&name));
                }
            }
            Cmd::Graveyard { most, reply } => {
                if writes.iter().chain(&self.failed).any(|w| matches!(w, Cmd::Bury { .. })) {
                    self.waiting.graveyards.push((most, reply));
                } else {
                    let dead = self.graveyard();
                    let _ = reply.send(first(&dead, most));
                }
            }
            Cmd::LoadLog { depth, reading, reply } => {
                self.commit(writes);
                let log = self.backend.depth_history(depth, reading).map_err(|e| e.to_string());
                let _ = reply.send(log);
            }
            Cmd::LifeEnd { name, life, reply } => {
                self.commit(writes);
                let end = self.backend.life_end(&name, life).map_err(|e| e.to_string());
                let _ = reply.send(end);
            }
            Cmd::Flush { done } => {
                self.commit(writes);
                let _ = done.send(());
            }
            // Apart from the writes: written and read at once.
            Cmd::Morgue { name, number, text } => self.keep_morgue(Morgue { name, number, text }),
            Cmd::ReadMorgue { name, number, reply } => {
                let _ = reply.send(self.read_morgue(&name, number));
            }
            Cmd::Backup { keep, done } => {
                self.commit(writes);
                let _ = done.send(self.backend.back_up(keep));
            }
            Cmd::Close => {
                self.commit(writes);
                return false;
            }
        }
        true
    }

    /// Keeps a morgue file; one that cannot be kept is told in the log and
    /// the game goes on (its player is offered a file that is not there).
    fn keep_morgue(&mut self, file: Morgue) {
        if let Err(e) = self.backend.keep_morgues(std::slice::from_ref(&file)) {
            let (player, number) = (file.name.as_str(), file.number);
            warn!(player, number, error = %e, "a morgue file could not be written");
        }
    }

    /// A morgue file; None when there is none, or it cannot be read (the
    /// log says why).
    fn read_morgue(&mut self, name: &str, number: u32) -> Option<String> {
        self.backend.morgue(name, number).unwrap_or_else(|e| {
            warn!(player = name, number, error = %e, "a morgue file could not be read");
            None
        })
    }

    fn load(&mut self, name: &str) -> Result<Option<Snapshot>, String> {
        self.backend.load(name).map_err(|e| e.to_string())
    }

    fn graveyard(&mut self) -> Result<Vec<DeathRecord>, String> {
        self.backend.graveyard().map_err(|e| e.to_string())
    }

    /// Answers the reads that waited for a commit (the graveyards with one
    /// reading of it).
    fn answer_waiting(&mut self) {
        let Waiting { loads, graveyards } = std::mem::take(&mut self.waiting);
        for (name, reply) in loads {
            let _ = reply.send(self.load(&name));
        }
        if !graveyards.is_empty() {
            let dead = self.graveyard();
            for (most, reply) in graveyards {
                let _ = reply.send(first(&dead, most));
            }
        }
    }

    /// Commits and answers the reads that waited for it.
    fn commit(&mut self, writes: &mut Vec<Cmd>) {
        self.write(writes);
        self.answer_waiting();
    }

    /// Commits the saves a failure left and `writes` in one transaction,
    /// answers the new characters, and keeps the saves for a retry if it
    /// fails.
    fn write(&mut self, writes: &mut Vec<Cmd>) {
        if writes.is_empty() && self.failed.is_empty() {
            return;
        }
        let mut all = std::mem::take(&mut self.failed);
        all.append(writes);
        let started = Instant::now();
        let count = all.len();
        let result = self.backend.write(&all).map_err(|e| e.to_string());
        metrics::histogram!(crate::telemetry::COMMIT_SECONDS).record(started.elapsed());
        match &result {
            Ok(()) => {
                self.commits.fetch_add(1, Ordering::SeqCst);
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
                save @ (Cmd::Save { .. }
                | Cmd::Bury { .. }
                | Cmd::AppendLog { .. }
                | Cmd::StartHistory { .. }
                | Cmd::KeepSnapshot { .. }
                | Cmd::SlayUnique { .. }
                | Cmd::EndLife { .. })
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
            self.backend.lost();
        }
        self.saving
            .send_if_modified(|saving| std::mem::replace(saving, result.is_ok()) != result.is_ok());
        let now = Instant::now();
        self.last_commit = Some(now);
        // Never more than the commits that may go at once ahead: commits
        // made at once for new characters and reads would otherwise run
        // the pace far ahead, and after a burst of them a save would wait
        // many gatherings, not one.
        let pace = self.pace.map_or(now, |pace| pace.max(now)) + self.gather;
        self.pace = Some(pace.min(now + self.gather * AT_ONCE));
    }
}

/// The first `most` of `dead`, or why the graveyard cannot be read.
fn first(dead: &Result<Vec<DeathRecord>, String>, most: usize) -> Result<Vec<DeathRecord>, String> {
    dead.as_ref().map(|dead| dead[..most.min(dead.len())].to_vec()).map_err(Clone::clone)
}
