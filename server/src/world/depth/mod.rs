//! One depth in play: its level, the players and monsters on it, and the
//! rules of a turn. Plain synchronous code: commands go in, messages for
//! players come out; nothing here knows of time, so the same commands in
//! the same order give the same depth (see `docs/turns.md` for the clock).
//!
//! # One action, from key to pixels
//! 1. The client sends `ClientMsg::Act`. The player's connection task
//!    (`net::connection`) decodes it into its action queue; its pacer lets
//!    one action go at a time, at the player's allowed rate, once the last
//!    one was answered; `Presence::act` hands it to the depth's task.
//! 2. The depth's task (`world::DepthTask`) takes commands in arrival order,
//!    the actions queued behind one another as one batch, and calls
//!    [`DepthState::act_all`], which for each action in turn:
//!    - holds the action if the player already acted in its party's current
//!      round (it is applied when that round closes), else applies it: a
//!      step (into a wall: nothing; into a monster: an attack; into a
//!      player: the two swap, or with `--pvp` an attack), waiting, or the
//!      stairs (the player is removed here and handed on);
//!    - recomputes sight for whoever moved, records newly seen cells in
//!      their memories, and diffs against what their clients were told,
//!      with the players and monsters seen from there at that moment;
//!    - closes every round that has all it waits for (`clock`): the
//!      monsters that concern that party act (`monsters`), its players
//!      regenerate, and held actions apply, which may close more rounds;
//!    - at the end, works out once for every player what changed since
//!      among the monsters it sees, its hit points and whom its round
//!      waits for (`telling`), riding in its last sight diff when it has
//!      one; those who stood still hear of the other players' moves at the
//!      end of the batch, in one list.
//! 3. The task encodes the messages and sends each player all of its own
//!    from the batch as one reply; those whose action was applied are marked done (their
//!    `Sight` comes last). A player whose reply does not fit its queue is
//!    dropped, saved first. A player who took the stairs is saved and sent
//!    to the next depth's task, whose arrival answers the action; one who
//!    died goes to the graveyard and its connection is closed.
//! 4. The connection writes the frames in order; the client's
//!    `ClientState::apply` mirrors them and the window redraws.

mod clock;
mod comings;
mod monsters;
mod replay;
mod telling;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use gloam_protocol::{Action, Dir, Disc, MonsterId, PlayerId, Pos, ServerMsg, SightDiff, Terrain};
use rand::SeedableRng;

pub use clock::Phase;
pub use comings::Farewell;
pub use monsters::Monster;
pub use replay::{Command, Entry, LogPart, decode_history};

use super::player::Player;
use crate::bestiary::{Bestiary, KindId};
use crate::fov::Fov;
use crate::level::Level;
use crate::mapgen::LevelRng;
use clock::Clock;
use telling::Told;

/// Where an arriving player is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Arrival {
    /// Joining the game: the level's arrival point.
    Join,
    /// Down the stairs from the depth above: onto this level's up staircase.
    FromAbove,
    /// Up the stairs from the depth below: onto this level's down staircase.
    FromBelow,
    /// Back where the player was when it left the game.
    Resume(Pos),
}

/// A message for one player.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub to: PlayerId,
    pub msg: ServerMsg,
}

/// A player who took the stairs, handed back for the depth it goes to.
#[derive(Debug)]
pub struct Departure {
    pub player: Player,
    pub depth: u16,
    pub via: Arrival,
}

/// A player who died, taken off the depth.
#[derive(Debug)]
pub struct Death {
    pub player: Player,
    /// "a jackal", or the player who struck the blow.
    pub killed_by: String,
}

/// What one command produced.
#[derive(Debug, Default)]
pub struct Turn {
    pub out: Vec<Outgoing>,
    /// Players whose action was applied (their next may come).
    pub answered: Vec<PlayerId>,
    pub departures: Vec<Departure>,
    pub deaths: Vec<Death>,
}

impl Turn {
    /// A message for `to`.
    fn tell(&mut self, to: PlayerId, msg: ServerMsg) {
        self.out.push(Outgoing { to, msg });
    }

    /// What `then` produced, after this.
    fn append(&mut self, then: Turn) {
        self.out.extend(then.out);
        self.answered.extend(then.answered);
        self.departures.extend(then.departures);
        self.deaths.extend(then.deaths);
    }
}

/// How the host set the depth's rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rules {
    /// Players may attack each other (and who see each other share rounds).
    pub pvp: bool,
}

/// Those who stood still are told of the movers in this many shifts (by
/// player id), one after another: a depth's task tells one every fifth
/// of its still period (50 ms; longer in a crowd), so each player hears at
/// most once a period and a crowd's watchers are told a fifth at a time.
pub const SHIFTS: usize = 5;

/// The shift player `id` is told in (see [`SHIFTS`]).
pub fn shift_of(id: PlayerId) -> usize {
    id.0 as usize % SHIFTS
}

#[derive(Debug)]
pub struct DepthState {
    depth: u16,
    level: Arc<Level>,
    disc: Disc,
    radius: u8,
    rules: Rules,
    bestiary: Arc<Bestiary>,
    players: BTreeMap<PlayerId, Player>,
    occupant: CellMap<PlayerId>,
    monsters: BTreeMap<MonsterId, Monster>,
    monster_at: CellMap<MonsterId>,
    next_monster: u32,
    /// For each player, what its client was told.
    told: BTreeMap<PlayerId, Told>,
    /// Players whose client was last told its round waits for someone
    /// (and maybe some who left since): with those who wait now, the only
    /// ones whose "waiting for" can change (see `tell_waiting`).
    told_waiting: BTreeSet<PlayerId>,
    clock: Clock,
    /// The depth's own random stream: every roll of its monsters and fights.
    rng: LevelRng,
    /// Players whose sight changed in this command.
    moved: Vec<PlayerId>,
    /// Players who moved, with each cell they stood on, not yet told to
    /// every shift of those who stood still (see [`DepthState::act_all`]
    /// and [`DepthState::tell_shift`]).
    unsettled: telling::Unsettled,
    /// Monsters that moved, were hurt or died in this command, and where.
    stirred: telling::Stirred,
    /// Players whose hit points may have changed in this command (or who
    /// arrived): their own are told at its end.
    vitals_changed: Vec<PlayerId>,
    /// Comings and goings not yet told to everyone (see `comings`).
    news: comings::NewsLog,
    /// The parties as they stand, found when first asked for after a change.
    parties: std::cell::RefCell<Option<Parties>>,
    /// Every command applied and not yet handed over, in order, when kept
    /// (see [`replay`]).
    log: Option<Vec<Entry>>,
    /// A history is being replayed: nobody is listening, so nothing is told.
    replaying: bool,
    /// Entries handed over so far.
    logged: u64,
}

/// A map keyed by cell, hashed by a multiply rather than SipHash: the keys
/// are the server's own (cells and player ids, never a client's choice),
/// and these lookups are the inner loop of every monster's step.
type CellMap<V> = HashMap<Pos, V, std::hash::BuildHasherDefault<CellHasher>>;

/// Folds a cell's two coordinates into one word and spreads it.
#[derive(Debug, Default)]
struct CellHasher(u64);

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

/// Who shares a danger with whom (see [`DepthState::party_of`]).
#[derive(Debug, Default)]
struct Parties {
    /// Each player's party, by its place in `members`.
    of: HashMap<PlayerId, usize, std::hash::BuildHasherDefault<CellHasher>>,
    /// Each party's players, in id order.
    members: Vec<Vec<PlayerId>>,
}

impl DepthState {
    /// A depth with nobody on it yet, and no monsters.
    pub fn new(depth: u16, level: Arc<Level>, sight_radius: u8) -> Self {
        Self::with_bestiary(depth, level, sight_radius, Arc::new(Bestiary::default()), 0)
    }

    /// A depth whose monsters will be of `bestiary`'s kinds, rolling dice
    /// from `seed`.
    pub fn with_bestiary(
        depth: u16,
        level: Arc<Level>,
        sight_radius: u8,
        bestiary: Arc<Bestiary>,
        seed: u64,
    ) -> Self {
        Self {
            depth,
            level,
            disc: Disc::new(sight_radius),
            radius: sight_radius,
            rules: Rules::default(),
            bestiary,
            players: BTreeMap::new(),
            occupant: CellMap::default(),
            monsters: BTreeMap::new(),
            monster_at: CellMap::default(),
            next_monster: 1,
            told: BTreeMap::new(),
            told_waiting: BTreeSet::new(),
            clock: Clock::default(),
            rng: LevelRng::seed_from_u64(seed ^ 0x726f_756e_6473),
            moved: Vec::new(),
            unsettled: telling::Unsettled::default(),
            stirred: telling::Stirred::default(),
            vitals_changed: Vec::new(),
            news: comings::NewsLog::default(),
            parties: std::cell::RefCell::new(None),
            log: None,
            replaying: false,
            logged: 0,
        }
    }

    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Puts a monster of `kind` on `pos` (an open cell nobody stands on),
    /// asleep if its kind sleeps. Gives its id, or `None` if the cell is taken.
    pub fn spawn(&mut self, kind: KindId, pos: Pos) -> Option<MonsterId> {
        let open = self.level.terrain(pos).is_open();
        if !open || self.monster_at.contains_key(&pos) || self.occupant.contains_key(&pos) {
            return None;
        }
        let k = self.bestiary.kind(kind);
        let id = MonsterId(self.next_monster);
        self.next_monster += 1;
        let monster = Monster {
            id,
            kind,
            pos,
            hp: k.hp,
            max_hp: k.hp,
            awake: !k.asleep,
            prey: None,
            goal: None,
            rounds: 0,
        };
        self.monsters.insert(id, monster);
        self.monster_at.insert(pos, id);
        // Those who see the cell are told with the next command.
        self.stirred.note(id, pos);
        self.stir_parties();
        Some(id)
    }

    pub(crate) fn depth(&self) -> u16 {
        self.depth
    }

    pub fn level(&self) -> &Level {
        &self.level
    }

    /// A line for everyone on this depth.
    pub(crate) fn tell_everyone(&self, text: &str) -> Vec<Outgoing> {
        let note = ServerMsg::Note(text.to_owned());
        self.players.keys().map(|&to| Outgoing { to, msg: note.clone() }).collect()
    }

    /// How many players are on this depth.
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// True when nobody is on this depth.
    pub(crate) fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    pub(crate) fn contains(&self, id: PlayerId) -> bool {
        self.players.contains_key(&id)
    }

    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(&id)
    }

    pub fn monsters(&self) -> impl Iterator<Item = &Monster> {
        self.monsters.values()
    }

    pub fn phase(&self, id: PlayerId) -> Phase {
        self.clock.phase(id)
    }

    /// Rounds closed on this depth so far.
    pub fn rounds(&self) -> u64 {
        self.clock.rounds
    }

    /// The players who acted and wait for their round to close.
    pub fn waiting(&self) -> Vec<PlayerId> {
        self.clock.waiting().collect()
    }

    fn fov_from(&self, pos: Pos) -> Fov {
        let grid = &self.level.grid;
        grid.fov(pos, self.radius)
    }

    /// A player's action. Applied now if the player has not acted yet in
    /// its party's round, else held until that round closes; every action
    /// applied is answered with a `Sight` message to its player.
    pub fn act(&mut self, id: PlayerId, action: Action) -> Turn {
        self.act_all([(id, action)])
    }

    /// Several players' actions, one after the other, as [`act`](Self::act)
    /// applies each, told as one batch: a player who stood still through
    /// the batch hears what the others did in one list at its end (or with
    /// the first news of a monster it sees, so that what its client shows
    /// is always one moment's truth), not one message per mover. In a
    /// crowd that is what keeps an action's cost from growing with the
    /// number who watch it.
    pub fn act_all(&mut self, actions: impl IntoIterator<Item = (PlayerId, Action)>) -> Turn {
        let mut turn = self.act_untold(actions);
        self.tell_untold(&mut turn, None);
        turn
    }

    /// [`act_all`](Self::act_all) without telling those who stood still:
    /// they hear of these movers with the next batch that tells them, or
    /// from [`tell_the_still`](Self::tell_the_still). A busy depth's task
    /// lets a few batches go by so, so that in a crowd each watcher gets
    /// one message for several batches.
    pub fn act_untold(&mut self, actions: impl IntoIterator<Item = (PlayerId, Action)>) -> Turn {
        let mut turn = Turn::default();
        for (id, action) in actions {
            turn.append(self.act_alone(id, action));
        }
        // One who died or left after its action was applied is not answered.
        turn.answered.retain(|id| self.players.contains_key(id));
        turn
    }

    /// Tells those who stood still what the movers of the batches since
    /// they were last told did (see [`act_untold`](Self::act_untold)), and
    /// everyone the comings and goings since (see `comings`).
    pub fn tell_the_still(&mut self) -> Vec<Outgoing> {
        let mut turn = Turn::default();
        self.tell_untold(&mut turn, None);
        turn.out
    }

    /// [`tell_the_still`](Self::tell_the_still) for the players of one
    /// shift (see [`shift_of`]) only: a depth's task tells the shifts one
    /// after another, so that a crowd's watchers are not all told in one
    /// burst, which every action arriving during it waited behind.
    pub fn tell_shift(&mut self, shift: usize) -> Vec<Outgoing> {
        let mut turn = Turn::default();
        self.tell_untold(&mut turn, Some(shift));
        turn.out
    }

    /// Tells everyone (or those of one shift) the movers and the comings
    /// and goings they have not heard of.
    pub(super) fn tell_untold(&mut self, turn: &mut Turn, shift: Option<usize>) {
        self.tell_movers(turn, shift);
        self.tell_news(&mut turn.out, shift);
    }

    /// True when some movers are not yet told to some of those who stood
    /// still, or some comings and goings to anyone.
    pub(crate) fn has_untold(&self) -> bool {
        !self.unsettled.is_empty() || self.has_news()
    }

    /// One action, its movers left for [`tell_movers`](Self::tell_movers).
    fn act_alone(&mut self, id: PlayerId, action: Action) -> Turn {
        let mut turn = Turn::default();
        if !self.players.contains_key(&id) {
            return turn;
        }
        self.record(Command::Act { id, action });
        if self.clock.phase(id) == Phase::Acted {
            self.clock.hold(id, action);
            return turn;
        }
        self.apply(id, action, &mut turn);
        self.run_clock(&mut turn);
        self.settle(&mut turn);
        turn
    }

    /// The deadline of the round `id` acted in has passed: those it still
    /// waits for are counted away and it closes without them.
    pub fn deadline(&mut self, id: PlayerId) -> Turn {
        let mut turn = Turn::default();
        if self.clock.phase(id) == Phase::Acted {
            self.record(Command::Deadline { id });
            let party = self.party_of(id);
            self.clock.count_away(&party);
            self.run_clock(&mut turn);
            self.settle(&mut turn);
        }
        self.tell_untold(&mut turn, None);
        turn
    }

    /// Applies one action of a player on this level.
    fn apply(&mut self, id: PlayerId, action: Action, turn: &mut Turn) {
        let Some(pos) = self.players.get(&id).map(|p| p.pos) else { return };
        self.clock.acted(id);
        turn.answered.push(id);
        let here = self.level.terrain(pos);
        match action {
            Action::Move(dir) => self.step(id, pos, dir, turn),
            Action::Wait | Action::Quit => self.see(id, true, &mut turn.out),
            Action::Descend if here == Terrain::StairsDown && self.depth < u16::MAX => {
                self.depart(id, self.depth + 1, Arrival::FromAbove, Farewell::WENT_DOWN, turn);
            }
            Action::Ascend if here == Terrain::StairsUp && self.depth > 1 => {
                self.depart(id, self.depth - 1, Arrival::FromBelow, Farewell::WENT_UP, turn);
            }
            Action::Descend => self.refuse(id, "There are no stairs down here.", turn),
            Action::Ascend => self.refuse(id, "There are no stairs up here.", turn),
        }
    }

    fn refuse(&mut self, id: PlayerId, why: &str, turn: &mut Turn) {
        turn.out.push(Outgoing { to: id, msg: ServerMsg::Note(why.into()) });
        self.see(id, true, &mut turn.out);
    }

    fn depart(
        &mut self,
        id: PlayerId,
        depth: u16,
        via: Arrival,
        farewell: Farewell,
        turn: &mut Turn,
    ) {
        if let Some(player) = self.take_off(id, farewell, turn) {
            turn.departures.push(Departure { player, depth, via });
        }
    }

    /// A player died: off the level, with a last word for it and the others.
    fn die(&mut self, id: PlayerId, killed_by: &str, turn: &mut Turn) {
        turn.out.push(Outgoing { to: id, msg: ServerMsg::Combat("You die...".into()) });
        // Its last action is answered by its death, not by a sight it no
        // longer has.
        let diff = |m: &ServerMsg| matches!(m, ServerMsg::Sight(_) | ServerMsg::Displaced(_));
        turn.out.retain(|o| o.to != id || !diff(&o.msg));
        if let Some(player) = self.take_off(id, Farewell::DIED, turn) {
            for monster in self.monsters.values_mut().filter(|m| m.prey == Some(id)) {
                monster.prey = None;
                monster.goal = None;
            }
            turn.deaths.push(Death { player, killed_by: killed_by.to_owned() });
        }
    }

    fn step(&mut self, id: PlayerId, from: Pos, dir: Dir, turn: &mut Turn) {
        let Some(to) = from.step(dir).filter(|&p| self.level.terrain(p).is_open()) else {
            // Bumping a wall costs the turn and changes nothing.
            self.see(id, true, &mut turn.out);
            return;
        };
        if let Some(monster) = self.monster_at.get(&to).copied() {
            self.player_attacks(id, monster, turn);
            self.see(id, true, &mut turn.out);
            return;
        }
        match self.occupant.get(&to).copied() {
            Some(other) if self.rules.pvp => {
                self.player_strikes(id, other, turn);
                self.see(id, true, &mut turn.out);
            }
            Some(other) => {
                // Swapping places keeps a corridor from ever jamming.
                self.note_stairs(id, to, &mut turn.out);
                self.place(other, from);
                self.place(id, to);
                let (mover, swapped) = (self.name_of(id), self.name_of(other));
                turn.tell(id, ServerMsg::Note(format!("You swap places with {swapped}.")));
                turn.tell(other, ServerMsg::Others(format!("{mover} swaps places with you.")));
                self.see(other, false, &mut turn.out);
                self.see(id, true, &mut turn.out);
            }
            None => {
                self.note_stairs(id, to, &mut turn.out);
                self.occupant.remove(&from);
                self.place(id, to);
                self.see(id, true, &mut turn.out);
            }
        }
    }

    fn note_stairs(&self, id: PlayerId, pos: Pos, out: &mut Vec<Outgoing>) {
        if let Some(note) = self.stairs_note(pos) {
            out.push(Outgoing { to: id, msg: ServerMsg::Note(note.into()) });
        }
    }

    fn place(&mut self, id: PlayerId, pos: Pos) {
        if let Some(p) = self.players.get_mut(&id) {
            p.pos = pos;
            self.occupant.insert(pos, id);
        }
    }

    fn name_of(&self, id: PlayerId) -> String {
        self.players.get(&id).map(|p| p.name.clone()).unwrap_or_default()
    }

    /// This level as `memory` remembers it, for a client entering it.
    fn enter_level(&self, memory: &super::memory::Memory) -> ServerMsg {
        let (remembered, terrain) = memory.recall(&self.level);
        ServerMsg::EnterLevel {
            depth: self.depth,
            width: self.level.width(),
            height: self.level.height(),
            remembered,
            terrain,
        }
    }

    fn stairs_note(&self, pos: Pos) -> Option<&'static str> {
        match self.level.terrain(pos) {
            Terrain::StairsDown => Some("There are stairs down here."),
            Terrain::StairsUp => Some("There are stairs up here."),
            _ => None,
        }
    }

    /// Moves a player's told view to what it sees from where it stands now
    /// and sends it: as the answer to its action (`Sight`) or not (`Displaced`).
    fn see(&mut self, id: PlayerId, answers: bool, out: &mut Vec<Outgoing>) {
        if answers {
            // Its answer finds it up to date on who came and went too.
            self.tell_news_to(id, out);
        }
        let Some(player) = self.players.get(&id) else { return };
        let pos = player.pos;
        let seen_from = player.memory(self.depth).and_then(|m| m.sight()).map(|s| s.centre());
        if seen_from == Some(pos) {
            // Where it stood (it waited or struck): the level does not
            // change, so neither does its sight, nor whom it shares a danger
            // with. The answer is an empty diff but for the players around
            // it, as they stand now.
            let mut diff = SightDiff { at: pos, ..SightDiff::default() };
            if answers {
                self.tell_players_now(id, &mut diff);
            }
            let msg = if answers { ServerMsg::Sight(diff) } else { ServerMsg::Displaced(diff) };
            out.push(Outgoing { to: id, msg });
            return;
        }
        if let Some(was) = seen_from {
            self.unsettled.push(id, was);
        }
        let fov = self.fov_from(pos);
        let Some(player) = self.players.get_mut(&id) else { return };
        let mut diff = player.memory_mut(self.depth).update_sight(&self.level, &self.disc, fov);
        self.stir_parties();
        if !self.moved.contains(&id) {
            self.moved.push(id);
        }
        // What it sees from here goes with this diff: it may yet be moved
        // again in this command (swapped aside, or its held action when the
        // round closes), and its client must never hold the others as seen
        // from where it stood before.
        self.tell_now(id, &mut diff);
        let msg = if answers { ServerMsg::Sight(diff) } else { ServerMsg::Displaced(diff) };
        out.push(Outgoing { to: id, msg });
    }

    /// Closes every round that has all it waits for, until none has (a
    /// closed round applies held actions, which may close it again).
    fn run_clock(&mut self, turn: &mut Turn) {
        loop {
            let mut closed = false;
            let mut looked = BTreeSet::new();
            for id in self.clock.waiting().collect::<Vec<_>>() {
                if looked.contains(&id) || self.clock.phase(id) != Phase::Acted {
                    continue;
                }
                let party = self.party_of(id);
                looked.extend(party.iter().copied());
                if self.clock.is_complete(&party) {
                    self.close_round(&party, turn);
                    closed = true;
                }
            }
            if !closed {
                return;
            }
        }
    }

    /// The players who share a danger with `id`, directly or through
    /// others, `id` included, in id order: an awake monster that notices
    /// two links them, and with `--pvp` so does seeing each other.
    pub fn party_of(&self, id: PlayerId) -> Vec<PlayerId> {
        if self.in_no_danger(id) {
            // The common case, a player alone or in a quiet crowd, costs a
            // look at the monsters, not the whole depth's parties.
            return vec![id];
        }
        let mut cache = self.parties.borrow_mut();
        let parties = cache.get_or_insert_with(|| self.find_parties());
        match parties.of.get(&id) {
            Some(&i) => parties.members[i].clone(),
            None => vec![id],
        }
    }

    /// True when no awake monster notices `id` (and players are no danger
    /// to each other): it is a party of one.
    fn in_no_danger(&self, id: PlayerId) -> bool {
        let Some(player) = self.players.get(&id) else { return true };
        let Some(memory) = player.memory(self.depth) else { return true };
        !self.rules.pvp
            && !self.monsters.values().any(|m| {
                m.awake
                    && memory.sees(m.pos)
                    && monsters::within(player.pos, m.pos, self.bestiary.kind(m.kind).sight)
            })
    }

    /// Every party on the depth, at once: each awake monster joins those
    /// who notice it (a union-find over the players), so the cost is one
    /// look per awake monster, however many ask.
    fn find_parties(&self) -> Parties {
        let players: Vec<&Player> = self.players.values().collect();
        let mut parent: Vec<usize> = (0..players.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let mut join = |a: usize, b: usize| {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        };
        let place = |id: PlayerId| players.binary_search_by_key(&id, |p| p.id).ok();
        for m in self.monsters.values().filter(|m| m.awake) {
            let sight = self.bestiary.kind(m.kind).sight;
            let notices = |p: &Player| {
                monsters::within(p.pos, m.pos, sight)
                    && p.memory(self.depth).is_some_and(|mem| mem.sees(m.pos))
            };
            let mut first = None;
            // Few players: ask each; a crowd: only those near enough.
            let noticing: Vec<usize> = if players.len() <= self.disc.len() {
                (0..players.len()).filter(|&i| notices(players[i])).collect()
            } else {
                self.noticed_by(m.id).into_iter().filter_map(place).collect()
            };
            for i in noticing {
                match first {
                    None => first = Some(i),
                    Some(f) => join(f, i),
                }
            }
        }
        if self.rules.pvp {
            // Who truly sees whom, not what their clients were told: that
            // lags behind within a batch, and a replay tells nobody.
            for (a, p) in players.iter().enumerate() {
                for other in self.watchers_that(p.pos, |q| q.id != p.id) {
                    if let Some(b) = place(other) {
                        join(a, b);
                    }
                }
            }
        }
        let mut parties = Parties::default();
        let mut slot: Vec<Option<usize>> = vec![None; players.len()];
        for (i, p) in players.iter().enumerate() {
            let r = root(&mut parent, i);
            let at = *slot[r].get_or_insert_with(|| {
                parties.members.push(Vec::new());
                parties.members.len() - 1
            });
            parties.members[at].push(p.id);
            parties.of.insert(p.id, at);
        }
        parties
    }

    /// Something moved, woke, came or went: parties are found afresh when
    /// next asked for.
    fn stir_parties(&self) {
        self.parties.borrow_mut().take();
    }

    /// One round of `party` ends: its monsters act, its players
    /// regenerate, then their held actions open the next round.
    fn close_round(&mut self, party: &[PlayerId], turn: &mut Turn) {
        let concerned = self.concerning(party);
        self.monsters_act(&concerned, party, turn);
        for id in party {
            let Some(p) = self.players.get_mut(id) else { continue };
            p.vitals.rounds += 1;
            if p.vitals.rounds.is_multiple_of(monsters::REGEN_EVERY)
                && p.vitals.hp < p.vitals.max_hp
            {
                p.vitals.hp += 1;
                self.vitals_changed.push(*id);
            }
        }
        let present: Vec<PlayerId> =
            party.iter().copied().filter(|id| self.players.contains_key(id)).collect();
        let (held, quiet) = self.clock.close(&present);
        if quiet {
            let idle: Vec<MonsterId> =
                self.monsters.keys().copied().filter(|&m| self.owner(m).is_none()).collect();
            self.monsters_act(&idle, &[], turn);
        }
        for (id, action) in held {
            if self.players.contains_key(&id) {
                self.apply(id, action, turn);
            }
        }
    }

    /// The monsters whose rounds follow `party`'s: those whose owner is in it.
    fn concerning(&self, party: &[PlayerId]) -> Vec<MonsterId> {
        let mut candidates = BTreeSet::new();
        for id in party {
            let Some(player) = self.players.get(id) else { continue };
            let Some(memory) = player.memory(self.depth) else { continue };
            for m in self.monsters.values() {
                if memory.sees(m.pos) || m.prey == Some(*id) {
                    candidates.insert(m.id);
                }
            }
        }
        candidates
            .into_iter()
            .filter(|&m| self.owner(m).is_some_and(|o| party.contains(&o)))
            .collect()
    }
}

#[cfg(test)]
mod round_tests;
#[cfg(test)]
mod tests;
