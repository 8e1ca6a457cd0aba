//! What one client was told of the depth beyond its own sight, and what
//! the rules did in a command or a batch that some may yet have to hear:
//! the monsters that changed, and the players who moved.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::BuildHasherDefault;

use gloam_protocol::{MonsterId, PlayerId, Pos, Wound};
use serde::{Deserialize, Serialize};

use super::still::{SHIFTS, Shift};
use crate::world::depth::rules::{CellHasher, Monster, in_order};

/// What a client was told of a monster in sight: where it stands, how
/// hurt it looks, and whether it seems asleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Glimpse {
    pub at: Pos,
    pub wound: Wound,
    pub asleep: bool,
}

impl Glimpse {
    pub(crate) fn of(m: &Monster) -> Self {
        Self { at: m.pos, wound: m.wound(), asleep: !m.is_awake() }
    }
}

/// The monsters that moved, were hurt or died in one command, and every
/// cell each stood on in it: a player beyond sight of all those cells could
/// neither see one of them now nor have been told of one (what it was told
/// is where a monster stood when told, which is one of those cells).
#[derive(Debug, Clone, Default)]
pub(super) struct ChangedMonsters {
    pub ids: BTreeSet<MonsterId>,
    pub cells: Vec<Pos>,
}

impl ChangedMonsters {
    /// Monster `id` changed, standing on `at` (before or after a step: both
    /// are noted).
    pub(super) fn note(&mut self, id: MonsterId, at: Pos) {
        self.ids.insert(id);
        if !self.cells.contains(&at) {
            self.cells.push(at);
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Whether a player on `p` with sight `radius` may see, or have been
    /// told of, any monster that changed.
    pub(super) fn near(&self, p: Pos, radius: u16) -> bool {
        self.cells.iter().any(|c| c.x.abs_diff(p.x) <= radius && c.y.abs_diff(p.y) <= radius)
    }
}

/// The players who moved, with each cell they stood on, since each shift
/// of those who stood still was last told (see [`SHIFTS`]), numbered from
/// the depth's start; what every shift has heard is forgotten.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct RecentMoves {
    /// The number of `moves[0]`.
    first: u64,
    moves: Vec<(PlayerId, Pos)>,
    /// How far each shift has heard.
    heard: [u64; SHIFTS],
}

impl RecentMoves {
    pub(super) fn push(&mut self, id: PlayerId, at: Pos) {
        self.moves.push((id, at));
    }

    pub(super) fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Every move some shift has not heard of.
    pub(super) fn all(&self) -> &[(PlayerId, Pos)] {
        &self.moves
    }

    /// The moves `shift` has not heard of (all: those some shift has not).
    pub(super) fn since(&self, shift: Option<Shift>) -> &[(PlayerId, Pos)] {
        let heard = shift.map_or(self.first, |s| {
            s.parts().map(|part| self.heard[part]).min().unwrap_or(self.first)
        });
        &self.moves[(heard - self.first) as usize..]
    }

    /// `shift` (or every shift) has heard every move.
    pub(super) fn told(&mut self, shift: Option<Shift>) {
        let end = self.first + self.moves.len() as u64;
        match shift {
            Some(s) => s.parts().for_each(|part| self.heard[part] = end),
            None => self.heard = [end; SHIFTS],
        }
        let heard = self.heard.iter().copied().min().unwrap_or(end);
        self.moves.drain(..(heard - self.first) as usize);
        self.first = heard;
    }
}

/// What one client was told of the depth beyond its own sight.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct View {
    /// The other players in its sight, and where. A hash map: in a crowd
    /// every command looks up each mover in every viewer's, and a tree of
    /// hundreds of players per viewer was a chain of cache misses each time.
    #[serde(serialize_with = "in_order")]
    pub players: HashMap<PlayerId, Pos, BuildHasherDefault<CellHasher>>,
    /// The monsters in its sight, where, and how hurt.
    pub monsters: BTreeMap<MonsterId, Glimpse>,
    pub hp: Option<(u16, u16)>,
    pub waiting: Vec<String>,
    /// Its party as it was told (empty: alone).
    pub party: Vec<gloam_protocol::Member>,
    /// The comings and goings it has heard of, by number (see `comings`).
    pub comings_heard: u64,
    /// It was told everyone around it (with the answer to its action, or
    /// when it was swapped aside) since its shift of the still last told it
    /// of the movers: that shift passes it by (see `Views::tell_movers`).
    pub caught_up: bool,
}
