//! Who stands where on a depth: the players, by id and by cell; the
//! monsters, by id and by cell; and the one place that decides how to find
//! the players near some cells, by a look at each cell or by a walk over
//! the players, whichever costs less for a depth of this many players.
//!
//! Each of the two owners counts its changes that could change who shares
//! a danger with whom (a place, a sight, a monster waking or falling
//! asleep, one coming or going), so the parties found from them know when
//! they are stale without being told (`parties.rs`); each also lists those
//! removed since its last other change, whom the parties need only lose.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use gloam_protocol::{Disc, MonsterId, PlayerId, Pos, Wound};

use super::standing::Standing;
use crate::bestiary::KindId;
use crate::character::{Memory, Player};

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

/// The players on a depth, by id, each shared with the snapshots taken of
/// the depth: a snapshot's clone (on the depth's task, written by the
/// store's thread) shares every player, where copying a thousand players
/// with their memories and packs held the depth's task 0.7 ms
/// (BENCHMARKS.md, "Where the crowd's tail goes"). A player changed while
/// a snapshot still holds it is copied then (`Arc::make_mut`); once the
/// snapshot is written, none are shared.
pub(crate) type Players = BTreeMap<PlayerId, Arc<Player>>;

/// The players on a depth, by id and by the cell each stands on. It owns
/// the two indexes and keeps them agreeing: every player's cell names a
/// player who stands there. A player's place changes only through
/// [`step`](Self::step) and [`swap`](Self::swap), and what it sees only
/// through [`sight_mut`](Self::sight_mut); the rest of a player (its hit
/// points, pack, what it explored) is anyone's to change.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Occupancy {
    /// Shared with the depth's snapshots (see [`Players`]).
    players: Players,
    /// Who stands on each cell (one of them, when players share one: only
    /// when every open cell is taken does an arrival stack).
    cells: Standing,
    /// How many times a player came, went, moved or saw anew.
    changes: u64,
    /// The players removed since `changes` last grew by anything else, in
    /// order: the parties found since need only lose them. Not in a
    /// snapshot, as the parties found are not.
    #[serde(skip)]
    left: Vec<PlayerId>,
}

impl Occupancy {
    /// A count that grows with every arrival, leaving, step, swap and
    /// change of sight: the same count, the same players where they were
    /// seeing what they saw.
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// [`changes`](Self::changes) but the removals of those who
    /// [`left`](Self::left) since: the same count, the same players where
    /// they were seeing what they saw, but for those.
    pub(crate) fn settled(&self) -> u64 {
        self.changes - self.left.len() as u64
    }

    /// The players removed since the last change of another kind, in
    /// order; a removal while players share a cell is a change of another
    /// kind (another of them may stand revealed on it).
    pub(crate) fn left(&self) -> &[PlayerId] {
        &self.left
    }

    fn changed(&mut self) {
        self.changes += 1;
        self.left.clear();
    }

    /// A player's memory of `depth`, to change what it sees now.
    pub(crate) fn sight_mut(&mut self, id: PlayerId, depth: u16) -> Option<&mut Memory> {
        let player = self.players.get_mut(&id).map(Arc::make_mut)?;
        self.changes += 1;
        self.left.clear();
        Some(player.memory_mut(depth))
    }

    /// The players, by id.
    pub(crate) fn players(&self) -> &Players {
        &self.players
    }

    /// A player, to change anything of it but its place.
    pub(crate) fn get_mut(&mut self, id: PlayerId) -> Option<&mut Player> {
        self.players.get_mut(&id).map(Arc::make_mut)
    }

    /// Every cell a player stands on.
    pub(crate) fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells.iter().map(|(pos, _)| pos)
    }

    pub(crate) fn len(&self) -> usize {
        self.players.len()
    }

    pub(crate) fn get(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(&id).map(Arc::as_ref)
    }

    pub(crate) fn at(&self, pos: Pos) -> Option<PlayerId> {
        self.cells.get(pos)
    }

    /// Puts a newcomer on the cell it stands on.
    pub(crate) fn insert(&mut self, player: Player) {
        self.changed();
        self.cells.insert(player.pos, player.id);
        self.players.insert(player.id, Arc::new(player));
    }

    /// Takes a player off its cell and the depth.
    pub(crate) fn remove(&mut self, id: PlayerId) -> Option<Player> {
        let shared = self.cells.len() < self.players.len();
        let player = self.players.remove(&id).map(Arc::unwrap_or_clone)?;
        self.changes += 1;
        if shared {
            self.left.clear();
        } else {
            self.left.push(id);
        }
        self.free(player.pos, id);
        Some(player)
    }

    /// Moves a player onto `to`, off the cell it stood on.
    pub(crate) fn step(&mut self, id: PlayerId, to: Pos) {
        let Some(p) = self.players.get_mut(&id).map(Arc::make_mut) else { return };
        self.changes += 1;
        self.left.clear();
        let from = std::mem::replace(&mut p.pos, to);
        self.free(from, id);
        self.cells.insert(to, id);
    }

    /// Two players trade places.
    pub(crate) fn swap(&mut self, a: PlayerId, b: PlayerId) {
        let (Some(at_a), Some(at_b)) = (self.get(a).map(|p| p.pos), self.get(b).map(|p| p.pos))
        else {
            return;
        };
        self.changed();
        for (id, to) in [(a, at_b), (b, at_a)] {
            if let Some(p) = self.players.get_mut(&id).map(Arc::make_mut) {
                p.pos = to;
            }
            self.cells.insert(to, id);
        }
    }

    /// `id` no longer stands on `cell`: the cell is free, or names another
    /// who still stands there.
    fn free(&mut self, cell: Pos, id: PlayerId) {
        if self.cells.get(cell) != Some(id) {
            return;
        }
        self.cells.remove(cell);
        if self.is_stacked()
            && let Some(other) = self.players.values().find(|p| p.pos == cell)
        {
            self.cells.insert(cell, other.id);
        }
    }

    /// Whether the two indexes agree: every player's cell names a player
    /// standing there, and every cell named is one a player stands on.
    #[cfg(test)]
    pub(crate) fn agrees(&self) -> bool {
        let named = |p: &Player| self.cells.get(p.pos).and_then(|id| self.players.get(&id));
        self.players.values().all(|p| named(p).is_some_and(|o| o.pos == p.pos))
            && self.cells.iter().all(|(c, id)| self.players.get(&id).is_some_and(|p| p.pos == c))
    }

    /// How to find the players on or near `cells` cells, when a walk
    /// tests each player `per_player` times: by walking the players when
    /// some share a cell (a cell names one of them only); else by the
    /// cells when a look at each (which costs about two tests at a player)
    /// is cheaper than the walk; else by the cells' map.
    pub(crate) fn search(&self, cells: usize, per_player: usize) -> Search {
        if self.is_stacked() {
            Search::Players
        } else if 2 * cells < per_player * self.players.len() {
            Search::Cells
        } else {
            Search::CellsMap
        }
    }

    /// Whether some players share a cell (every open cell was taken when
    /// one came), so that a cell names only one of those on it.
    pub(crate) fn is_stacked(&self) -> bool {
        self.cells.len() < self.players.len()
    }

    /// The players standing on `cells` or on a cell `within` holds for,
    /// searched for as `search` says (see [`Occupancy::search`]).
    pub(crate) fn near(
        &self,
        search: Search,
        cells: impl Iterator<Item = Pos>,
        within: impl Fn(Pos) -> bool,
    ) -> Vec<(PlayerId, Pos)> {
        match search {
            Search::Cells => cells.filter_map(|c| self.at(c).map(|id| (id, c))).collect(),
            Search::CellsMap => {
                self.cells.iter().filter(|&(p, _)| within(p)).map(|(p, id)| (id, p)).collect()
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
    pub(crate) fn seers_that(
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
            .filter(|id| self.players.get(id).is_some_and(|p| sees(p)))
            .collect();
        found.sort();
        found
    }

    /// The first by id of the players who see `pos` (as
    /// [`seers_that`](Self::seers_that), without gathering them all).
    pub(crate) fn first_seer(&self, depth: u16, disc: &Disc, pos: Pos) -> Option<PlayerId> {
        if self.search(disc.len(), 2) != Search::Cells {
            let sees = |p: &&Arc<Player>| p.memory(depth).is_some_and(|m| m.sees(pos));
            return self.players.values().find(sees).map(|p| p.id);
        }
        self.seers_that(depth, disc, pos, |_| true).first().copied()
    }
}

/// A monster on a depth.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Monster {
    pub id: MonsterId,
    pub kind: KindId,
    pub pos: Pos,
    pub hp: u16,
    pub max_hp: u16,
    /// Changed only by [`Monsters::wake`] and [`Monsters::lull`]: an awake
    /// monster links those who notice it into a party.
    awake: bool,
    /// The player it is after.
    pub prey: Option<PlayerId>,
    /// Where it last saw its prey.
    pub goal: Option<Pos>,
    /// Rounds it has been offered (a slow monster acts on every other).
    pub rounds: u64,
    /// Rounds of magic sleep left, in which it does not wake by itself
    /// (a blow still wakes it).
    pub dozing: u16,
    /// What it stole from a player: it runs with it, and drops it where
    /// it dies.
    pub loot: Option<crate::items::Item>,
    /// Its kind hides: it is shown to a player only from next to it.
    pub hides: bool,
    /// Rounds it is still slowed for (a wand): while they last, it acts
    /// on every other round it is offered.
    pub slowed: u16,
}

impl Monster {
    /// A monster of `kind` at full health, not yet offered a round.
    pub fn new(id: MonsterId, kind: KindId, pos: Pos, hp: u16, awake: bool) -> Self {
        let (prey, goal, loot) = (None, None, None);
        let hides = false;
        let (rounds, dozing, slowed) = (0, 0, 0);
        Self {
            id,
            kind,
            pos,
            hp,
            max_hp: hp,
            awake,
            prey,
            goal,
            rounds,
            dozing,
            loot,
            hides,
            slowed,
        }
    }

    /// Whether a player standing on `viewer`, whose memory of the depth is
    /// `memory`, is shown it: it is in the player's sight (the symmetric
    /// rule: exactly when it could see the player), and if its kind hides,
    /// next to the player. Every telling of a monster goes by this.
    pub fn shown_to(&self, viewer: Pos, memory: &crate::character::Memory) -> bool {
        memory.sees(self.pos)
            && (!self.hides
                || self.pos.x.abs_diff(viewer.x).max(self.pos.y.abs_diff(viewer.y)) <= 1)
    }

    pub fn wound(&self) -> Wound {
        Wound::of(self.hp, self.max_hp)
    }

    pub fn is_awake(&self) -> bool {
        self.awake
    }
}

/// The monsters on a depth, by id and by the cell each stands on (one a
/// cell). It owns both indexes and keeps them agreeing: a monster comes,
/// moves and goes through [`insert`](Self::insert), [`step`](Self::step)
/// and [`remove`](Self::remove), and wakes or sleeps through
/// [`wake`](Self::wake) and [`lull`](Self::lull); the rest of a monster
/// (its hit points, prey, goal) is anyone's to change through
/// [`get_mut`](Self::get_mut).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Monsters {
    by_id: BTreeMap<MonsterId, Monster>,
    #[serde(serialize_with = "super::snapshot::in_order")]
    at: CellMap<MonsterId>,
    /// How many times a monster came, moved, woke or fell asleep.
    changes: u64,
    /// The monsters removed since `changes` last grew, in order: the
    /// parties found since need only lose them.
    fallen: Vec<MonsterId>,
    /// How many monsters were ever removed.
    removed: u64,
}

impl Monsters {
    /// The monsters, by id.
    pub(crate) fn by_id(&self) -> &BTreeMap<MonsterId, Monster> {
        &self.by_id
    }

    pub(crate) fn values(&self) -> std::collections::btree_map::Values<'_, MonsterId, Monster> {
        self.by_id.values()
    }

    pub(crate) fn keys(&self) -> std::collections::btree_map::Keys<'_, MonsterId, Monster> {
        self.by_id.keys()
    }

    pub(crate) fn len(&self) -> usize {
        self.by_id.len()
    }

    pub(crate) fn contains_key(&self, id: &MonsterId) -> bool {
        self.by_id.contains_key(id)
    }

    pub(crate) fn get(&self, id: &MonsterId) -> Option<&Monster> {
        self.by_id.get(id)
    }

    /// A monster, to change anything of it but its place.
    pub(crate) fn get_mut(&mut self, id: &MonsterId) -> Option<&mut Monster> {
        self.by_id.get_mut(id)
    }

    /// Every monster, to change anything of them but their places.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut Monster> {
        self.by_id.values_mut()
    }

    /// A count that grows with every monster that came, moved, woke or
    /// fell asleep (not with one removed: see [`fallen`](Self::fallen)).
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// The monsters removed since [`changes`](Self::changes) last grew.
    pub(crate) fn fallen(&self) -> &[MonsterId] {
        &self.fallen
    }

    /// How many monsters were ever removed.
    pub(crate) fn removed(&self) -> u64 {
        self.removed
    }

    /// Wakes monster `id`; gives it, or none when no such monster is here.
    pub(crate) fn wake(&mut self, id: MonsterId) -> Option<&mut Monster> {
        self.set_awake(id, true)
    }

    /// Puts monster `id` to sleep; gives it, or none when none is here.
    pub(crate) fn lull(&mut self, id: MonsterId) -> Option<&mut Monster> {
        self.set_awake(id, false)
    }

    fn set_awake(&mut self, id: MonsterId, awake: bool) -> Option<&mut Monster> {
        let m = self.by_id.get_mut(&id)?;
        if m.awake != awake {
            m.awake = awake;
            self.changes += 1;
            self.fallen.clear();
        }
        Some(m)
    }

    /// The monster on `pos`, if one is.
    pub(crate) fn at(&self, pos: Pos) -> Option<MonsterId> {
        self.at.get(&pos).copied()
    }

    pub(crate) fn is_at(&self, pos: Pos) -> bool {
        self.at.contains_key(&pos)
    }

    /// Every cell a monster stands on.
    pub(crate) fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.at.keys().copied()
    }

    /// Puts `monster` on its cell; false (and nothing changes) when a
    /// monster stands there, or one of its id is here.
    pub(crate) fn insert(&mut self, monster: Monster) -> bool {
        if self.at.contains_key(&monster.pos) || self.by_id.contains_key(&monster.id) {
            return false;
        }
        self.at.insert(monster.pos, monster.id);
        self.by_id.insert(monster.id, monster);
        self.changed();
        true
    }

    /// Takes a monster off its cell and the depth.
    pub(crate) fn remove(&mut self, id: MonsterId) -> Option<Monster> {
        let monster = self.by_id.remove(&id)?;
        self.at.remove(&monster.pos);
        self.fallen.push(id);
        self.removed += 1;
        Some(monster)
    }

    /// Moves a monster onto `to` (a cell no monster stands on), off its own.
    pub(crate) fn step(&mut self, id: MonsterId, to: Pos) {
        let Some(m) = self.by_id.get_mut(&id) else { return };
        debug_assert!(!self.at.contains_key(&to), "a monster steps onto another");
        self.at.remove(&m.pos);
        m.pos = to;
        self.at.insert(to, id);
        self.changed();
    }

    fn changed(&mut self) {
        self.changes += 1;
        self.fallen.clear();
    }

    /// Whether the two indexes agree: each monster's cell names it, and
    /// no other cell is named.
    #[cfg(test)]
    pub(crate) fn agrees(&self) -> bool {
        self.at.len() == self.by_id.len()
            && self.by_id.values().all(|m| self.at(m.pos) == Some(m.id))
    }
}

impl std::ops::Index<&MonsterId> for Monsters {
    type Output = Monster;

    fn index(&self, id: &MonsterId) -> &Monster {
        &self.by_id[id]
    }
}
