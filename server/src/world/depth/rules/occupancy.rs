//! Who stands where on a depth: the players, by id and by cell, and the
//! one place that decides how to find the players near some cells, by a
//! look at each cell or by a walk over the players, whichever costs less
//! for a depth of this many players.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use gloam_protocol::{Disc, PlayerId, Pos};

use crate::character::Player;

/// A map keyed by cell (or player id), hashed by a multiply rather than
/// SipHash: the keys are the server's own (cells and player ids, never a
/// client's choice), and these lookups are the inner loop of every
/// monster's step.
pub(crate) type CellMap<V> = HashMap<Pos, V, BuildHasherDefault<CellHasher>>;

/// Folds a cell's two coordinates (or an id) into one word and spreads it.
#[derive(Debug, Default)]
pub(crate) struct CellHasher(u64);

impl std::hash::Hasher for CellHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u16(&mut self, n: u16) {
        self.0 = (self.0 << 16) | u64::from(n);
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 << 32) | u64::from(n);
    }

    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// How a search for the players near some cells goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Search {
    /// A look at who stands on each cell.
    Cells,
    /// A walk over the cells' map (a few bytes an entry in one table,
    /// where the players are a cache miss each).
    CellsMap,
    /// A walk over the players: some share a cell, so the cells' map does
    /// not hold them all.
    Players,
}

/// The players on a depth, by id and by the cell each stands on.
#[derive(Debug, Default)]
pub(crate) struct Occupancy {
    pub players: BTreeMap<PlayerId, Player>,
    /// Who stands on each cell (the last to come, when players share one).
    pub cells: CellMap<PlayerId>,
}

impl Occupancy {
    pub fn len(&self) -> usize {
        self.players.len()
    }

    pub fn get(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(&id)
    }

    pub fn at(&self, pos: Pos) -> Option<PlayerId> {
        self.cells.get(&pos).copied()
    }

    /// Puts a newcomer on the cell it stands on.
    pub fn insert(&mut self, player: Player) {
        self.cells.insert(player.pos, player.id);
        self.players.insert(player.id, player);
    }

    /// Takes a player off its cell and the depth.
    pub fn remove(&mut self, id: PlayerId) -> Option<Player> {
        let player = self.players.remove(&id)?;
        if self.cells.get(&player.pos) == Some(&id) {
            self.cells.remove(&player.pos);
        }
        Some(player)
    }

    /// Moves a player onto `pos` (the cell it leaves is the caller's to free).
    pub fn place(&mut self, id: PlayerId, pos: Pos) {
        if let Some(p) = self.players.get_mut(&id) {
            p.pos = pos;
            self.cells.insert(pos, id);
        }
    }

    /// How to find the players on or near `cells` cells, when a walk
    /// tests each player `per_player` times: by the cells when a look at
    /// each (which costs about two tests at a player) is cheaper than the
    /// walk; else by the cells' map, unless some players share a cell.
    pub fn search(&self, cells: usize, per_player: usize) -> Search {
        if 2 * cells < per_player * self.players.len() {
            Search::Cells
        } else if self.cells.len() == self.players.len() {
            Search::CellsMap
        } else {
            Search::Players
        }
    }

    /// The players standing on `cells` or on a cell `within` holds for,
    /// searched for as `search` says (see [`Occupancy::search`]).
    pub fn near(
        &self,
        search: Search,
        cells: impl Iterator<Item = Pos>,
        within: impl Fn(Pos) -> bool,
    ) -> Vec<(PlayerId, Pos)> {
        match search {
            Search::Cells => cells.filter_map(|c| self.at(c).map(|id| (id, c))).collect(),
            Search::CellsMap => {
                self.cells.iter().filter(|&(&p, _)| within(p)).map(|(&p, &id)| (id, p)).collect()
            }
            Search::Players => {
                self.players.values().filter(|p| within(p.pos)).map(|p| (p.id, p.pos)).collect()
            }
        }
    }

    /// The players who see `pos` and pass `keep`, in id order: by looking
    /// at who stands on each cell of a sight disc around it when they are
    /// more than its cells (a player is asked about twice as fast as a
    /// cell is looked at), else by asking each player.
    pub fn seers_that(
        &self,
        depth: u16,
        disc: &Disc,
        pos: Pos,
        keep: impl Fn(&Player) -> bool,
    ) -> Vec<PlayerId> {
        let sees = |p: &Player| keep(p) && p.memory(depth).is_some_and(|m| m.sees(pos));
        if self.search(disc.len(), 2) != Search::Cells {
            return self.players.values().filter(|p| sees(p)).map(|p| p.id).collect();
        }
        let mut found: Vec<PlayerId> = disc
            .offsets()
            .filter_map(|(dx, dy)| pos.offset(dx, dy))
            .filter_map(|p| self.at(p))
            .filter(|id| self.players.get(id).is_some_and(sees))
            .collect();
        found.sort();
        found
    }

    /// The first by id of the players who see `pos` (as
    /// [`seers_that`](Self::seers_that), without gathering them all).
    pub fn first_seer(&self, depth: u16, disc: &Disc, pos: Pos) -> Option<PlayerId> {
        if self.search(disc.len(), 2) != Search::Cells {
            let sees = |p: &&Player| p.memory(depth).is_some_and(|m| m.sees(pos));
            return self.players.values().find(sees).map(|p| p.id);
        }
        self.seers_that(depth, disc, pos, |_| true).first().copied()
    }
}
