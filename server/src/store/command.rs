//! What the game asks of the store's thread: one [`Cmd`] per thing asked,
//! sent by the handle's verbs (`handle.rs`) and applied by the thread
//! (`keeper.rs`).

use std::path::PathBuf;
use std::sync::mpsc;

use gloam_protocol::DeathRecord;
use tokio::sync::oneshot;

use super::{DepthHistory, DepthSnapshot, Reading};
use crate::character::{Credential, Snapshot};

/// Where a load's answer goes.
pub(super) type LoadReply = oneshot::Sender<Result<Option<Snapshot>, String>>;
/// Where a graveyard's answer goes.
pub(super) type GraveyardReply = oneshot::Sender<Result<Vec<DeathRecord>, String>>;

/// Makes a depth's snapshot on the store's thread, calling the pause it is
/// given now and then (see `DepthState::snapshot_later`).
pub(crate) type MakeSnapshot = Box<dyn FnOnce(&mut dyn FnMut()) -> DepthSnapshot + Send + Sync>;

pub(super) enum Cmd {
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
        reply: LoadReply,
    },
    /// The character died: into the graveyard, and out of play (its name
    /// and token stay, for a new character).
    Bury {
        record: DeathRecord,
    },
    /// The first `most` of the dead, deepest first.
    Graveyard {
        most: usize,
        reply: GraveyardReply,
    },
    /// More of a depth's log: entries numbered from `first`, and the
    /// depth's checksum after the last when it was summed then (else the
    /// checksum kept stays that of an earlier entry).
    AppendLog {
        depth: u16,
        first: u64,
        entries: Vec<Vec<u8>>,
        checksum: Option<u64>,
    },
    /// A new history of the depth begins at entry `start`, recorded under
    /// rules `rules`; the entries before it are set aside.
    StartHistory {
        depth: u16,
        start: u64,
        rules: u32,
    },
    /// A snapshot of the depth's state (see `tables::DEPTH_SNAPSHOTS`).
    KeepSnapshot {
        depth: u16,
        snapshot: DepthSnapshot,
    },
    /// A snapshot of the depth's state to be written by the store's thread
    /// (see `StoreHandle::keep_snapshot_made`): made, then kept as
    /// [`Cmd::KeepSnapshot`].
    MakeSnapshot {
        depth: u16,
        make: MakeSnapshot,
    },
    /// The unique of kind `kind` (its name) was slain by `by`: gone from
    /// the world for good.
    SlayUnique {
        kind: String,
        by: String,
    },
    /// Life number `life` of `name` ended on `depth`, in its round `round`.
    EndLife {
        name: String,
        life: u32,
        depth: u16,
        round: u64,
    },
    /// Where life number `life` of `name` ended, if kept; sees every end
    /// sent before it.
    LifeEnd {
        name: String,
        life: u32,
        reply: oneshot::Sender<Result<Option<(u16, u64)>, String>>,
    },
    LoadLog {
        depth: u16,
        reading: Reading,
        reply: mpsc::Sender<Result<DepthHistory, String>>,
    },
    Flush {
        done: oneshot::Sender<()>,
    },
    /// Keep `text` as `name`'s morgue file number `number` (see `morgue.rs`).
    Morgue {
        name: String,
        number: u32,
        text: String,
    },
    /// `name`'s morgue file number `number`, if kept; sees every morgue
    /// file sent before it.
    ReadMorgue {
        name: String,
        number: u32,
        reply: oneshot::Sender<Option<String>>,
    },
    Backup {
        keep: usize,
        done: oneshot::Sender<Result<PathBuf, String>>,
    },
    Close,
}

impl Cmd {
    /// Whether this is a write the store gathers into its next commit,
    /// which nobody waits for: sent while a commit is set for later, it
    /// need not wake the store's thread (see `queue.rs`).
    pub(super) fn joins_the_next_commit(&self) -> bool {
        match self {
            Cmd::Save { .. }
            | Cmd::Bury { .. }
            | Cmd::AppendLog { .. }
            | Cmd::StartHistory { .. }
            | Cmd::KeepSnapshot { .. }
            | Cmd::MakeSnapshot { .. }
            | Cmd::SlayUnique { .. }
            | Cmd::EndLife { .. } => true,
            Cmd::Create { .. }
            | Cmd::Load { .. }
            | Cmd::Graveyard { .. }
            | Cmd::LifeEnd { .. }
            | Cmd::LoadLog { .. }
            | Cmd::Flush { .. }
            | Cmd::Morgue { .. }
            | Cmd::ReadMorgue { .. }
            | Cmd::Backup { .. }
            | Cmd::Close => false,
        }
    }

    /// Whether this write changes what loading `name` reads.
    pub(super) fn concerns(&self, name: &str) -> bool {
        match self {
            Cmd::Save { name: saved, .. } => saved == name,
            Cmd::Bury { record } => record.name == name,
            _ => false,
        }
    }
}
