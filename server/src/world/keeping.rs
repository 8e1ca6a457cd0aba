//! What a depth hands the store as it plays, every fifth save shift: the
//! entries its log applied since the last time, and, each time the log
//! passes a multiple of `snapshot_every` entries, a snapshot of its state
//! (see `depth::rules::snapshot`), so that a rebuild restores the newest
//! and replays only the entries after it (`build::take_up`). Every entry
//! is kept all the same: a history can still be replayed from its start.

use gloam_protocol::codec;

use super::depth::{DepthState, RULES_VERSION};
use crate::store::{DepthSnapshot, StoreHandle};

/// The default of `Config::snapshot_every`. A rebuild replays the entries
/// after the newest snapshot: fewer than this many and one hand-over's
/// (about 250 on a depth of 1,000 players acting 5 times a second: the
/// log is handed over every fifth of `save_interval`). Such a crowd,
/// fighting, replays at 12 to 27 µs an entry (`BENCHMARKS.md`, the second
/// on a loaded machine), so 3,250 are 40 to 90 ms, under the 100 ms a
/// first join after a restart is to wait at most; 5,000 or 10,000 would
/// not be (after a crash, taking off the players it left on the depth
/// comes on top: about a millisecond for that crowd). A snapshot of that
/// crowd (about 540 KB) costs its depth's task 0.05-0.15 ms to clone the
/// state, which shares its players and views (copied only when changed
/// before the store's thread has written it): every 0.6 s for that crowd,
/// and 0.9 MB a second through the store at most, on the busiest depth
/// alone (only the newest few are kept).
pub const SNAPSHOT_EVERY: u64 = 3_000;

/// Hands `state`'s entries not yet handed over to `store`, with a snapshot
/// of its state after them when they pass a multiple of `every` entries,
/// and the depth's checksum after them when `summed` (or with a snapshot).
/// The checksum kept is what `gloam-server replay` compares its rebuild
/// with: for a crowd it is a few tenths of a millisecond of the depth's
/// task, so the depth's task sums once a `save_interval`, not at every
/// hand-over.
///
/// Asked to sum with nothing new to hand over, it hands over the checksum
/// alone if the last part went unsummed: a depth that falls quiet, or
/// whose task ends, keeps the checksum after all it handed over, not
/// the one of up to four parts before.
pub fn keep_history(state: &mut DepthState, store: &StoreHandle, every: u64, summed: bool) {
    let Some((first, entries)) = state.take_unsummed() else {
        if let Some(kept) = state.owed_sum().filter(|_| summed) {
            store.append_log(state.depth(), kept, Vec::new(), state.checksum());
            state.note_summed();
        }
        return;
    };
    let after = first + entries.len() as u64;
    let every = every.max(1);
    let snapshot = first / every != after / every;
    let checksum = (summed || snapshot).then(|| state.checksum());
    if checksum.is_some() {
        state.note_summed();
    }
    let entries = entries.iter().map(codec::encode).collect();
    store.append_log(state.depth(), first, entries, checksum);
    if let Some(checksum) = checksum.filter(|_| snapshot) {
        // Cloned here, written by the store's thread (see `snapshot_later`).
        let (rules, make) = (RULES_VERSION, state.snapshot_later());
        let snapshot = move |pause: &mut dyn FnMut()| DepthSnapshot {
            after,
            rules,
            checksum,
            bytes: make(pause),
        };
        store.keep_snapshot_made(state.depth(), snapshot);
    }
}
