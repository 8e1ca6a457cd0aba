//! A snapshot of a depth's rules: everything of its state that a replay
//! of its log rebuilds (who stands where and what they carry and see, the
//! monsters, the floor, the clock, the dice and the restocks' stream, who
//! walks which way), in bytes, so that a rebuild restores it and replays
//! only the entries after it instead of the whole history.
//!
//! What a depth is built from is not in it: the level, the bestiary, the
//! kinds of item and the host's rules come from the world's seed and
//! settings as they do for a full replay (`world::build::fresh_depth`).
//! Nor is what is worked out again when first asked for (the parties
//! found) or what lives only within one command (its flow, the watch of
//! a standing order).
//!
//! Beside the rules' state it carries what the views had told each player
//! then, as bytes the rules do not read: a rebuild starts the views afresh
//! and passes them over, a recording starts from them (`depth::recording`).
//!
//! A snapshot is trusted only as far as it proves itself: bytes that do
//! not decode, of another [`SNAPSHOT_FORMAT`] or another depth, or whose
//! restored state does not sum to the checksum kept beside them, are
//! refused and the depth is left as it was.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

use serde::{Deserialize, Serialize, Serializer};

use super::clock::Clock;
use super::floor::Floor;
use super::parties::Parties;
use super::restock::Restocking;
use super::walks::Walks;
use super::{Monsters, Occupancy, Rules};
use crate::seeds::LevelRng;

/// The layout of a snapshot's bytes. Raise it whenever a field of the
/// state below (or of a type it holds) is added, removed or changes
/// meaning: a snapshot of another layout is refused, and its depth
/// replayed from its history's start as before snapshots.
/// 1: the rules alone; 2: and the views' bytes after them; 3: the views
/// tell the still in 25 shifts, not 5; 4: and a shift passes by those who
/// were told everyone around them since it last came.
pub const SNAPSHOT_FORMAT: u32 = 4;

/// The state a snapshot holds, borrowed from a depth to be written.
/// [`Taken`] is the same fields, owned, in the same order.
#[derive(Serialize)]
struct Kept<'a> {
    format: u32,
    depth: u16,
    occupancy: &'a Occupancy,
    monsters: &'a Monsters,
    next_monster: u32,
    floor: &'a Floor,
    clock: &'a Clock,
    dice: &'a LevelRng,
    walks: &'a Walks,
    restocking: &'a Restocking,
    views: &'a [u8],
}

/// The state a snapshot holds, read back: the fields of [`Kept`], the
/// rules' read as one [`Frozen`] (a struct's fields are written one after
/// another, so the bytes are the same).
#[derive(Deserialize)]
struct Taken {
    format: u32,
    state: Frozen,
    views: Vec<u8>,
}

/// Writes a map hashed by cell in the order of its keys. A hash map's own
/// order follows the history of its table: written in it, the same state
/// would not always give the same bytes, nor could two states be compared
/// by them.
pub(crate) fn in_order<K, V, H, S>(map: &HashMap<K, V, H>, to: S) -> Result<S::Ok, S::Error>
where
    K: Ord + Hash + Serialize,
    V: Serialize,
    H: BuildHasher,
    S: Serializer,
{
    let mut entries: Vec<(&K, &V)> = map.iter().collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    to.collect_map(entries)
}

/// The rules' state a snapshot holds, cloned from a depth (see
/// [`Rules::frozen`]): written into bytes later, elsewhere (by the store's
/// thread, so that a crowded depth's task does not stop for the
/// milliseconds that takes), they are what the depth's were when taken.
#[derive(Debug, Deserialize)]
pub(crate) struct Frozen {
    depth: u16,
    occupancy: Occupancy,
    monsters: Monsters,
    next_monster: u32,
    floor: Floor,
    clock: Clock,
    dice: LevelRng,
    walks: Walks,
    restocking: Restocking,
}

impl Frozen {
    /// The snapshot's bytes, with `views` (what the views held then, in
    /// their own bytes) after the rules' state: see the module. `pause` is
    /// called after each [`PAUSE_EVERY`](crate::world::depth::PAUSE_EVERY)
    /// bytes.
    pub(crate) fn snapshot(&self, views: &[u8], pause: &mut dyn FnMut()) -> Vec<u8> {
        let kept = Kept {
            format: SNAPSHOT_FORMAT,
            depth: self.depth,
            occupancy: &self.occupancy,
            monsters: &self.monsters,
            next_monster: self.next_monster,
            floor: &self.floor,
            clock: &self.clock,
            dice: &self.dice,
            walks: &self.walks,
            restocking: &self.restocking,
            views,
        };
        gloam_protocol::codec::encode_paced(&kept, crate::world::depth::PAUSE_EVERY, pause)
    }
}

impl Rules {
    /// The depth's state as it stands, to be written into a snapshot's
    /// bytes ([`Frozen::snapshot`]).
    pub(crate) fn frozen(&self) -> Frozen {
        Frozen {
            depth: self.depth,
            occupancy: self.occupancy.clone(),
            monsters: self.monsters.clone(),
            next_monster: self.next_monster,
            floor: self.floor.clone(),
            clock: self.clock.clone(),
            dice: self.dice.clone(),
            walks: self.walks.clone(),
            restocking: self.restocking.clone(),
        }
    }

    /// The depth's state as it stands, in bytes, with `views` after it.
    #[cfg(test)]
    pub(crate) fn snapshot(&self, views: &[u8]) -> Vec<u8> {
        self.frozen().snapshot(views, &mut || {})
    }

    /// Puts this depth (built fresh from its seed) in the state `bytes`
    /// hold, a [`snapshot`](Self::snapshot) of it whose checksum was
    /// `checksum`, and gives the views' bytes kept with it. Refused, leaving
    /// the depth as it was, when they do not decode, are of another layout
    /// or depth, or sum to another checksum. The log is not touched:
    /// [`resume`](Self::resume) the entries after the snapshot to take the
    /// depth's place in its history.
    pub(crate) fn restore(&mut self, bytes: &[u8], checksum: u64) -> Result<Vec<u8>, String> {
        let mut taken: Taken = gloam_protocol::codec::decode_snapshot(bytes)
            .map_err(|e| format!("the snapshot does not decode: {e}"))?;
        if taken.format != SNAPSHOT_FORMAT {
            let format = taken.format;
            return Err(format!(
                "a snapshot of layout {format}, and this server reads {SNAPSHOT_FORMAT}"
            ));
        }
        if taken.state.depth != self.depth {
            return Err(format!("a snapshot of depth {}, not {}", taken.state.depth, self.depth));
        }
        let views = std::mem::take(&mut taken.views);
        let was = self.exchange(taken.state);
        let restored = self.checksum();
        if restored != checksum {
            self.exchange(was);
            return Err(format!(
                "the snapshot restores to checksum {restored:016x}, not the {checksum:016x} kept with it"
            ));
        }
        Ok(views)
    }

    /// Puts `state` in place of the depth's, and gives what was there.
    fn exchange(&mut self, mut state: Frozen) -> Frozen {
        std::mem::swap(&mut self.occupancy, &mut state.occupancy);
        std::mem::swap(&mut self.monsters, &mut state.monsters);
        std::mem::swap(&mut self.next_monster, &mut state.next_monster);
        std::mem::swap(&mut self.floor, &mut state.floor);
        std::mem::swap(&mut self.clock, &mut state.clock);
        std::mem::swap(&mut self.dice, &mut state.dice);
        std::mem::swap(&mut self.walks, &mut state.walks);
        std::mem::swap(&mut self.restocking, &mut state.restocking);
        // The parties found from the old state are worked out again.
        self.parties = Parties::default();
        state
    }
}
