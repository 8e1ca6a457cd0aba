//! What the store keeps its world in, behind one trait: redb (`embedded.rs`,
//! the default, a file in the data folder) or PostgreSQL (`postgres.rs`,
//! `--store postgres://...`). The cut is at "apply this batch of commands
//! in one transaction" and "answer this read": everything above it (the
//! lanes, the gathering of commits, the retries while writing fails, the
//! handle's verbs) is shared, so both backends keep the same promises by
//! the same code, and the store's tests run on both.

use std::path::PathBuf;

use gloam_protocol::DeathRecord;

use super::command::Cmd;
use super::export::Export;
use super::morgue::Morgue;
use super::{DepthHistory, Reading};
use crate::character::{Credential, Snapshot};

/// A store's backend, owned by one thread at a time (the store's, once it
/// has started). Every method may fail with a [`Fault`]; after a failed
/// commit the keeper calls [`Backend::lost`] and tries again later with the
/// same writes.
pub(super) trait Backend: Send + std::fmt::Debug {
    /// Writes `writes` (the commands that change the store) in one
    /// transaction, in their order; the others are passed over.
    fn write(&mut self, writes: &[Cmd]) -> Result<(), Fault>;
    /// A character's save, if it is in play.
    fn load(&mut self, name: &str) -> Result<Option<Snapshot>, Fault>;
    /// The hall of the living, first to escape first; then the dead,
    /// deepest first, then the longest lived, then in the order they died.
    fn graveyard(&mut self) -> Result<Vec<DeathRecord>, Fault>;
    /// A depth's stored history (see [`DepthHistory`]).
    fn depth_history(&mut self, depth: u16, reading: Reading) -> Result<DepthHistory, Fault>;
    /// Where life number `life` of `name` ended: the depth, and its rounds then.
    fn life_end(&mut self, name: &str, life: u32) -> Result<Option<(u16, u64)>, Fault>;
    /// Every character the store knows, with its token's hash.
    fn known(&mut self) -> Result<Vec<Credential>, Fault>;
    /// A value of the world's `meta` (see `tables::META` for the keys).
    fn meta(&mut self, key: &str) -> Result<Option<Vec<u8>>, Fault>;
    /// Sets (or, with None, removes) values of `meta`, in one transaction.
    fn set_meta(&mut self, values: &[(&str, Option<Vec<u8>>)]) -> Result<(), Fault>;
    /// Keeps morgue files (see `morgue.rs`), in one transaction where the
    /// backend has them. Apart from the writes: a failure loses them, with
    /// no retry, and the game goes on.
    fn keep_morgues(&mut self, files: &[Morgue]) -> Result<(), Fault>;
    /// `name`'s morgue file number `number`; None when there is none.
    fn morgue(&mut self, name: &str, number: u32) -> Result<Option<String>, Fault>;
    /// Everything the store holds, as the writes that make it again in
    /// another store (see `export.rs`).
    fn export(&mut self) -> Result<Export, Fault>;
    /// A consistent copy of the store, the newest `keep` kept; gives where.
    fn back_up(&mut self, keep: usize) -> Result<PathBuf, String>;
    /// A commit failed: the next call opens the database (or connection)
    /// afresh where the backend can.
    fn lost(&mut self);
}

/// Why a backend could not do what it was asked.
#[derive(Debug)]
pub(super) enum Fault {
    /// The disk failed.
    Io(std::io::Error),
    /// What is stored does not hold together.
    Damaged(String),
    /// The database server cannot be reached (or refused the work): the
    /// work may go through once it is back.
    Unreachable(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Io(e) => write!(f, "I/O error: {e}"),
            Fault::Damaged(detail) | Fault::Unreachable(detail) => f.write_str(detail),
        }
    }
}

impl From<redb::Error> for Fault {
    fn from(e: redb::Error) -> Self {
        match e {
            redb::Error::Io(source) if source.kind() != std::io::ErrorKind::InvalidData => {
                Fault::Io(source)
            }
            other => Fault::Damaged(other.to_string()),
        }
    }
}
