//! What each client is told at the end of a command: the players and
//! monsters that came into its sight, moved or were hurt in it, or left it;
//! its hit points; whom its round waits for. Worked out once per command
//! for every player it may concern (found without a look at every player
//! in a crowd), against what that client was told before, so a round
//! in which many things moved is still one diff per player. Other players'
//! moves wait for the end of a batch of commands (`tell_movers`), unless
//! the viewer moved or is told of a monster first: then it hears all of
//! them with that, so its client never shows two moments mixed.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::BuildHasherDefault;

use gloam_protocol::{
    MonsterChange, MonsterId, PlayerChange, PlayerId, Pos, ServerMsg, SightDiff, Wound,
};

use super::Views;
use super::still::{SHIFTS, shift_of};
use crate::character::{Memory, Player};
use crate::world::depth::rules::{CellHasher, Monster, Occupancy, Phase, Rules};
use crate::world::depth::{Outcome, Outgoing};

/// The monsters that moved, were hurt or died in one command, and every
/// cell each stood on in it: a player beyond sight of all those cells could
/// neither see one of them now nor have been told of one (what it was told
/// is where a monster stood when told, which is one of those cells).
#[derive(Debug, Default)]
pub(crate) struct Stirred {
    ids: BTreeSet<MonsterId>,
    cells: Vec<Pos>,
}

impl Stirred {
    /// Monster `id` stirred, standing on `at` (before or after a step: both
    /// are noted).
    pub fn note(&mut self, id: MonsterId, at: Pos) {
        self.ids.insert(id);
        if !self.cells.contains(&at) {
            self.cells.push(at);
        }
    }

    fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Whether a player on `p` with sight `radius` may see, or have been
    /// told of, any monster that stirred.
    fn near(&self, p: Pos, radius: u16) -> bool {
        self.cells.iter().any(|c| c.x.abs_diff(p.x) <= radius && c.y.abs_diff(p.y) <= radius)
    }
}

/// The players who moved, with each cell they stood on, since each shift
/// of those who stood still was last told (see [`SHIFTS`]), numbered from
/// the depth's start; what every shift has heard is forgotten.
#[derive(Debug, Default)]
pub(crate) struct Unsettled {
    /// The number of `moves[0]`.
    first: u64,
    moves: Vec<(PlayerId, Pos)>,
    /// How far each shift has heard.
    heard: [u64; SHIFTS],
}

impl Unsettled {
    pub fn push(&mut self, id: PlayerId, at: Pos) {
        self.moves.push((id, at));
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Every move some shift has not heard of.
    pub fn all(&self) -> &[(PlayerId, Pos)] {
        &self.moves
    }

    /// The moves `shift` has not heard of (all: those some shift has not).
    fn since(&self, shift: Option<usize>) -> &[(PlayerId, Pos)] {
        let heard = shift.map_or(self.first, |s| self.heard[s]);
        &self.moves[(heard - self.first) as usize..]
    }

    /// `shift` (or every shift) has heard every move.
    fn told(&mut self, shift: Option<usize>) {
        let end = self.first + self.moves.len() as u64;
        match shift {
            Some(s) => self.heard[s] = end,
            None => self.heard = [end; SHIFTS],
        }
        let heard = self.heard.iter().copied().min().unwrap_or(end);
        self.moves.drain(..(heard - self.first) as usize);
        self.first = heard;
    }
}

/// What one client was told of the depth beyond its own sight.
#[derive(Debug, Default)]
pub(crate) struct Told {
    /// The other players in its sight, and where. A hash map: in a crowd
    /// every command looks up each mover in every viewer's, and a tree of
    /// hundreds of players per viewer was a chain of cache misses each time.
    pub players: HashMap<PlayerId, Pos, BuildHasherDefault<CellHasher>>,
    /// The monsters in its sight, where, and how hurt.
    pub monsters: BTreeMap<MonsterId, (Pos, Wound)>,
    pub hp: Option<(u16, u16)>,
    pub waiting: Vec<String>,
    /// The comings and goings it has heard of, by number (see `comings`).
    pub news_heard: u64,
}

impl Views {
    /// Tells every player what this command changed for it (see the module doc).
    pub fn settle(&mut self, rules: &Rules, turn: &mut Outcome) {
        let moved = std::mem::take(&mut self.moved);
        let stirred = std::mem::take(&mut self.stirred);
        let vitals_changed = std::mem::take(&mut self.vitals_changed);
        let moved: BTreeSet<PlayerId> =
            moved.into_iter().filter(|&id| rules.player(id).is_some()).collect();
        for &id in &moved {
            self.unsettled.push(id, rules.players()[&id].pos);
        }
        // A viewer who moved was told what it sees with its diff
        // (`tell_now`). What changed since, for it and for those who stood
        // still: the monsters that stirred, and with news of them the
        // players who moved in this batch (else they wait for its end). So
        // a crowd costs each action O(crowd), not O(crowd²).
        let moment = Moment {
            depth: rules.depth,
            players: rules.players(),
            monsters: &rules.monsters,
            held: self.unsettled.all(),
            movers: std::cell::OnceCell::new(),
            stirred,
        };
        let radius = u16::from(rules.radius);
        let occupancy = &rules.occupancy;
        tell_moment(&moment, &mut self.told, occupancy, radius, vitals_changed, turn);
        self.tell_waiting(rules, turn);
        diffs_last(turn);
    }

    /// Tells each player who stood still (all, or those of one shift)
    /// what the movers since it was last told did that it has not heard
    /// yet: in its last message when that is a sight diff, else in one
    /// `Players` message at the end. A viewer is asked only of the movers
    /// that came within sight range of it: a client is only ever told of a
    /// player on a cell its player sees, so one too far from every cell a
    /// mover stood on since has nothing to hear of it.
    pub(super) fn tell_movers(&mut self, rules: &Rules, turn: &mut Outcome, shift: Option<usize>) {
        let mut held = self.unsettled.since(shift).to_vec();
        self.unsettled.told(shift);
        if held.is_empty() {
            return;
        }
        held.sort_unstable_by_key(|&(id, p)| (id, p.x, p.y));
        held.dedup();
        let movers = reaches(&held, rules.players(), rules.radius);
        let mut last: HashMap<PlayerId, usize, BuildHasherDefault<CellHasher>> = HashMap::default();
        for (i, o) in turn.out.iter().enumerate() {
            last.insert(o.to, i);
        }
        let is_diff = |o: &Outgoing| matches!(o.msg, ServerMsg::Sight(_) | ServerMsg::Displaced(_));
        let mut near = Vec::with_capacity(movers.len());
        for viewer in rules.players().values() {
            if shift.is_some_and(|s| shift_of(viewer.id) != s) {
                continue;
            }
            near.clear();
            near.extend(movers.iter().filter(|m| m.reaches(viewer.pos)).map(|m| (m.id, m.at)));
            if near.is_empty() {
                continue;
            }
            let Some(told) = self.told.get_mut(&viewer.id) else { continue };
            let players =
                players_seen(viewer, rules.depth, &near, &mut told.players, rules.players());
            if !players.is_empty() {
                let diff = last.get(&viewer.id).copied().filter(|&i| is_diff(&turn.out[i]));
                attach(turn, diff, viewer.id, players, Vec::new());
            }
        }
    }

    /// Puts in `diff` what `id` (whose sight just changed) must be told of
    /// the players and monsters around it now, as the end of the command
    /// would (which then finds nothing more to tell unless more changed).
    pub(super) fn tell_now(&mut self, rules: &Rules, id: PlayerId, diff: &mut SightDiff) {
        self.tell_players_now(rules, id, diff);
        let (Some(viewer), Some(told)) = (rules.player(id), self.told.get_mut(&id)) else {
            return;
        };
        diff.monsters =
            monsters_seen_anew(viewer, rules.depth, &mut told.monsters, &rules.monsters);
    }

    /// Puts in `diff` what `id` must be told of the players around it now
    /// (the players' part of [`tell_now`](Self::tell_now)): also given to a
    /// player who acted without moving, so that every answer to a player's
    /// action shows the others as they stand when it is applied, whatever
    /// the still are yet to hear.
    pub(super) fn tell_players_now(&mut self, rules: &Rules, id: PlayerId, diff: &mut SightDiff) {
        let (Some(viewer), Some(told)) = (rules.player(id), self.told.get_mut(&id)) else {
            return;
        };
        // Those it may see, and those it was told of (who may have left
        // its sight).
        let (at, r) = (viewer.pos, u16::from(rules.radius));
        let cells = rules.disc.offsets().filter_map(|(dx, dy)| at.offset(dx, dy));
        let cells = cells.filter(|&c| rules.level.grid.contains(c));
        let in_range = |p: Pos| p.x.abs_diff(at.x) <= r && p.y.abs_diff(at.y) <= r;
        let search = rules.occupancy.search(rules.disc.len(), 1);
        let mut near = rules.occupancy.near(search, cells, in_range);
        // And those it was told of that are not among them (out of its
        // reach now, or gone from the depth), looked up only then: in a
        // crowd nearly all are among them, and a look in the depth's
        // players for each was a tenth of an answer's time.
        let found: HashSet<PlayerId, BuildHasherDefault<CellHasher>> =
            near.iter().map(|&(o, _)| o).collect();
        let told_of = told.players.keys().filter(|o| !found.contains(o));
        let told_of: Vec<(PlayerId, Pos)> =
            told_of.map(|&o| (o, rules.player(o).map_or(NOWHERE, |p| p.pos))).collect();
        near.extend(told_of);
        diff.players = players_seen(viewer, rules.depth, &near, &mut told.players, rules.players());
    }

    /// Everything `id`'s client holds of this depth, as the messages that
    /// build it from nothing: the level as it remembers it, who else is
    /// here, its sight with every player and monster it was told of, its
    /// hit points and whom its round waits for. What a watcher who comes
    /// in the middle is sent first (`None`: the player is not here).
    pub fn view_of(&self, rules: &Rules, id: PlayerId) -> Option<Vec<ServerMsg>> {
        let player = rules.player(id)?;
        let told = self.told.get(&id)?;
        let memory = player.memory(rules.depth)?;
        let roster = ServerMsg::Roster(super::roster_for(rules, id));
        let mut view = vec![enter_level(rules, memory), roster];
        if let Some(sight) = memory.sight() {
            view.push(ServerMsg::Displaced(seen_from(rules, told, sight.centre(), |dx, dy| {
                sight.sees_offset(dx, dy)
            })));
        }
        if let Some((hp, max)) = told.hp {
            view.push(ServerMsg::Vitals { hp, max });
        }
        view.push(ServerMsg::Waiting(told.waiting.clone()));
        Some(view)
    }

    /// Tells those whose round waits whom it waits for, and those whose
    /// round closed that it waits no more.
    fn tell_waiting(&mut self, rules: &Rules, turn: &mut Outcome) {
        let mut now: BTreeMap<PlayerId, Vec<String>> = BTreeMap::new();
        for id in rules.clock.waiting().collect::<Vec<_>>() {
            let party = rules.party_of(id);
            let ready = rules.clock.ready(&party).filter(|&o| o != id);
            now.insert(id, ready.map(|o| rules.name_of(o)).collect());
        }
        // Only those who wait now or were told they wait may hear of a
        // change: a look at every player per command was a crowd's cost.
        let mut ids: Vec<PlayerId> = now.keys().chain(&self.told_waiting).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let Some(told) = self.told.get_mut(&id) else {
                self.told_waiting.remove(&id);
                continue;
            };
            let names = now.remove(&id).unwrap_or_default();
            if told.waiting != names {
                told.waiting = names.clone();
                turn.tell(id, ServerMsg::Waiting(names));
            }
            if told.waiting.is_empty() {
                self.told_waiting.remove(&id);
            } else {
                self.told_waiting.insert(id);
            }
        }
        debug_assert!(rules.clock.waiting().all(|id| rules.clock.phase(id) == Phase::Acted));
    }
}

/// This level as `memory` remembers it, for a client entering it.
pub(super) fn enter_level(rules: &Rules, memory: &Memory) -> ServerMsg {
    let (remembered, terrain) = memory.recall(&rules.level);
    ServerMsg::EnterLevel {
        depth: rules.depth,
        width: rules.level.width(),
        height: rules.level.height(),
        remembered,
        terrain,
    }
}

/// A sight diff from nothing: the cells seen from `at` (those of the disc
/// `sees` holds for, on the map), with every player and monster `told` holds.
fn seen_from(rules: &Rules, told: &Told, at: Pos, sees: impl Fn(i32, i32) -> bool) -> SightDiff {
    let in_sight = |&(_, (dx, dy)): &(usize, (i32, i32))| {
        sees(dx, dy) && at.offset(dx, dy).is_some_and(|p| rules.level.grid.contains(p))
    };
    let shown = rules.disc.offsets().enumerate().filter(in_sight).map(|(i, _)| i as u8);
    let mut seen: Vec<(PlayerId, Pos)> = told.players.iter().map(|(&o, &at)| (o, at)).collect();
    seen.sort_unstable();
    let players = seen.into_iter().map(|(other, at)| PlayerChange::Appeared {
        id: other,
        name: rules.name_of(other),
        at,
    });
    let monsters = told.monsters.iter().filter_map(|(&mid, &(at, wound))| {
        let kind = rules.monsters.get(&mid)?.kind;
        Some(MonsterChange::Appeared { id: mid, kind, at, wound })
    });
    SightDiff {
        at,
        shown: shown.collect(),
        players: players.collect(),
        monsters: monsters.collect(),
        ..SightDiff::default()
    }
}

/// Tells each player what `moment` changed for it: those within sight of a
/// cell a stirred monster stood on, what they see of it; those whose hit
/// points changed (`vitals_changed`), their hit points. Nobody else can
/// have anything to hear, and in a crowd a look at each of a thousand
/// players was most of a command's time: the players near the monsters are
/// found by their cells (`occupant`) when that is cheaper.
fn tell_moment(
    moment: &Moment,
    told: &mut HashMap<PlayerId, Told, BuildHasherDefault<CellHasher>>,
    occupancy: &Occupancy,
    radius: u16,
    vitals_changed: Vec<PlayerId>,
    turn: &mut Outcome,
) {
    let stirred = &moment.stirred;
    let (mut ids, last_diff) = match around(stirred.cells.iter().copied(), radius) {
        None => (Vec::new(), HashMap::default()),
        Some((x, y)) => {
            let cells = (y.0..=y.1).flat_map(move |y| (x.0..=x.1).map(move |x| Pos { x, y }));
            let area = (usize::from(x.1 - x.0) + 1) * (usize::from(y.1 - y.0) + 1);
            // The other ways test every stirred cell a player: about four
            // times a look at a cell, as measured.
            let search = occupancy.search(area, 4);
            let near = occupancy.near(search, cells, |p| stirred.near(p, radius));
            (near.into_iter().map(|(id, _)| id).collect(), last_diffs(&turn.out))
        }
    };
    ids.extend(vitals_changed);
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let (Some(viewer), Some(told)) = (moment.players.get(&id), told.get_mut(&id)) else {
            continue;
        };
        if stirred.near(viewer.pos, radius) {
            let (players, monsters) = moment.changes(viewer, told);
            let diff = last_diff.get(&id).copied();
            attach(turn, diff, id, players, monsters);
        }
        tell_vitals(viewer, told, turn);
    }
}

/// Tells `viewer` its hit points when they are not what it was told.
fn tell_vitals(viewer: &Player, told: &mut Told, turn: &mut Outcome) {
    let hp = (viewer.vitals.hp, viewer.vitals.max_hp);
    if told.hp != Some(hp) {
        told.hp = Some(hp);
        turn.tell(viewer.id, ServerMsg::Vitals { hp: hp.0, max: hp.1 });
    }
}

/// Where in `out` each player's last sight diff is.
pub(super) fn last_diffs(
    out: &[Outgoing],
) -> HashMap<PlayerId, usize, BuildHasherDefault<CellHasher>> {
    let mut last = HashMap::default();
    for (i, o) in out.iter().enumerate() {
        if matches!(o.msg, ServerMsg::Sight(_) | ServerMsg::Displaced(_)) {
            last.insert(o.to, i);
        }
    }
    last
}

/// Puts a viewer's changes among players and monsters in its last sight
/// diff of this command (`diff`, an index in `turn.out`), or in messages of
/// their own when it has none.
pub(super) fn attach(
    turn: &mut Outcome,
    diff: Option<usize>,
    to: PlayerId,
    players: Vec<PlayerChange>,
    monsters: Vec<MonsterChange>,
) {
    if let Some(i) = diff
        && let ServerMsg::Sight(diff) | ServerMsg::Displaced(diff) = &mut turn.out[i].msg
    {
        diff.players.extend(players);
        diff.monsters.extend(monsters);
        return;
    }
    if !players.is_empty() {
        turn.out.push(Outgoing { to, msg: ServerMsg::Players(players) });
    }
    if !monsters.is_empty() {
        turn.out.push(Outgoing { to, msg: ServerMsg::Monsters(monsters) });
    }
}

/// The depth as one command left it, for working out what each viewer
/// must be told (see [`DepthState::settle`]).
struct Moment<'a> {
    depth: u16,
    players: &'a BTreeMap<PlayerId, Player>,
    monsters: &'a BTreeMap<MonsterId, Monster>,
    /// The movers not yet told to everyone, with cells they stood on.
    held: &'a [(PlayerId, Pos)],
    /// Where each of them stands, found when a viewer is first told of a
    /// monster (most commands tell nobody of one, and in a crowd `held`
    /// holds every move of the last quarter second).
    movers: std::cell::OnceCell<Vec<(PlayerId, Pos)>>,
    /// Monsters that moved, were hurt or died in the command.
    stirred: Stirred,
}

impl Moment<'_> {
    /// What `viewer` must be told of the players and monsters since it was
    /// last told, updating `told` to match: the monsters that stirred, and
    /// with news of them the batch's movers.
    fn changes(&self, viewer: &Player, told: &mut Told) -> (Vec<PlayerChange>, Vec<MonsterChange>) {
        if self.stirred.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let stirred = self.stirred.ids.iter().copied();
        let monsters =
            monsters_seen(viewer, self.depth, stirred, &mut told.monsters, self.monsters);
        let candidates = if monsters.is_empty() {
            &[][..]
        } else {
            &self.movers.get_or_init(|| whereabouts(self.held, self.players))[..]
        };
        let players = players_seen(viewer, self.depth, candidates, &mut told.players, self.players);
        (players, monsters)
    }
}

/// Where each player of `held` (the movers, with cells they stood on)
/// stands now; one that left the depth is [`NOWHERE`].
fn whereabouts(
    held: &[(PlayerId, Pos)],
    players: &BTreeMap<PlayerId, Player>,
) -> Vec<(PlayerId, Pos)> {
    let mut ids: Vec<PlayerId> = held.iter().map(|&(id, _)| id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter().map(|id| (id, players.get(&id).map_or(NOWHERE, |p| p.pos))).collect()
}

/// Where a player that left the depth is, for telling: a cell no sight
/// takes in (no level is near that large), so whoever was told of it is
/// told it vanished.
const NOWHERE: Pos = Pos { x: u16::MAX, y: u16::MAX };

/// One mover of a batch: where it stands, and the box around every cell
/// it stood on in the batch, `radius` wider on each side: who stands
/// outside it could neither see it nor have been told of it.
struct Reach {
    id: PlayerId,
    at: Pos,
    x: (u16, u16),
    y: (u16, u16),
}

impl Reach {
    fn reaches(&self, p: Pos) -> bool {
        (self.x.0..=self.x.1).contains(&p.x) && (self.y.0..=self.y.1).contains(&p.y)
    }
}

/// The reach of each mover of `held` (sorted by id); one that left the
/// depth reaches from the cells it stood on, and is [`NOWHERE`].
fn reaches(
    held: &[(PlayerId, Pos)],
    players: &BTreeMap<PlayerId, Player>,
    radius: u8,
) -> Vec<Reach> {
    let r = u16::from(radius);
    held.chunk_by(|a, b| a.0 == b.0)
        .map(|cells| {
            let id = cells[0].0;
            let here = players.get(&id).map(|p| p.pos);
            let from = here.unwrap_or(cells[0].1);
            let at = here.unwrap_or(NOWHERE);
            let stood = std::iter::once(from).chain(cells.iter().map(|&(_, p)| p));
            let (x, y) = around(stood, r).expect("a mover stood somewhere");
            Reach { id, at, x, y }
        })
        .collect()
}

/// The box around `cells`, `r` wider on each side: its columns and its
/// rows, each (first, last); `None` for no cells.
fn around(cells: impl IntoIterator<Item = Pos>, r: u16) -> Option<((u16, u16), (u16, u16))> {
    let mut cells = cells.into_iter();
    let first = cells.next()?;
    let (mut x, mut y) = ((first.x, first.x), (first.y, first.y));
    for c in cells {
        x = (x.0.min(c.x), x.1.max(c.x));
        y = (y.0.min(c.y), y.1.max(c.y));
    }
    Some((
        (x.0.saturating_sub(r), x.1.saturating_add(r)),
        (y.0.saturating_sub(r), y.1.saturating_add(r)),
    ))
}

/// Each player's sight diffs come last in its reply (in their order), the
/// answer to its own action last of all; the rest keeps its order.
fn diffs_last(turn: &mut Outcome) {
    let is_diff = |o: &Outgoing| matches!(o.msg, ServerMsg::Sight(_) | ServerMsg::Displaced(_));
    let (diffs, mut rest): (Vec<Outgoing>, Vec<Outgoing>) =
        std::mem::take(&mut turn.out).into_iter().partition(is_diff);
    rest.extend(diffs);
    turn.out = rest;
}

/// Every monster `viewer` (who moved) must be told of: those it was told
/// of that are gone, then every monster on the depth.
fn monsters_seen_anew(
    viewer: &Player,
    depth: u16,
    told: &mut BTreeMap<MonsterId, (Pos, Wound)>,
    monsters: &BTreeMap<MonsterId, Monster>,
) -> Vec<MonsterChange> {
    let gone: Vec<MonsterId> =
        told.keys().copied().filter(|id| !monsters.contains_key(id)).collect();
    let mut changes = monsters_seen(viewer, depth, gone, told, monsters);
    changes.extend(monsters_seen(viewer, depth, monsters.keys().copied(), told, monsters));
    changes
}

/// What `viewer`'s client must be told of `candidates` (the other players
/// who may have changed for it), updating `told` to match.
fn players_seen(
    viewer: &Player,
    depth: u16,
    candidates: &[(PlayerId, Pos)],
    told: &mut HashMap<PlayerId, Pos, BuildHasherDefault<CellHasher>>,
    players: &BTreeMap<PlayerId, Player>,
) -> Vec<PlayerChange> {
    let memory = viewer.memory(depth);
    let mut changes = Vec::new();
    for &(other, at) in candidates {
        if other == viewer.id {
            continue;
        }
        let seen = memory.is_some_and(|m| m.sees(at));
        let change = match (told.get(&other).copied(), seen) {
            (None, true) => {
                let name = players.get(&other).map(|p| p.name.clone()).unwrap_or_default();
                PlayerChange::Appeared { id: other, name, at }
            }
            (Some(was), true) if was != at => PlayerChange::Moved { id: other, at },
            (Some(_), false) => PlayerChange::Vanished { id: other },
            _ => continue,
        };
        if seen {
            told.insert(other, at);
        } else {
            told.remove(&other);
        }
        changes.push(change);
    }
    changes
}

/// What `viewer`'s client must be told of the monsters in `candidates`
/// (those that may have changed for it: moved, hurt, killed, or all when
/// the viewer moved), updating `told` to match. Only a monster's kind,
/// place and wound level are ever told.
fn monsters_seen(
    viewer: &Player,
    depth: u16,
    candidates: impl IntoIterator<Item = MonsterId>,
    told: &mut BTreeMap<MonsterId, (Pos, Wound)>,
    monsters: &BTreeMap<MonsterId, Monster>,
) -> Vec<MonsterChange> {
    let memory = viewer.memory(depth);
    let mut changes = Vec::new();
    for id in candidates {
        let now = monsters.get(&id).filter(|m| memory.is_some_and(|mem| mem.sees(m.pos)));
        match (told.get(&id).copied(), now) {
            (None, Some(m)) => {
                changes.push(MonsterChange::Appeared {
                    id,
                    kind: m.kind,
                    at: m.pos,
                    wound: m.wound(),
                });
                told.insert(id, (m.pos, m.wound()));
            }
            (Some((at, wound)), Some(m)) => {
                if at != m.pos {
                    changes.push(MonsterChange::Moved { id, at: m.pos });
                }
                if wound != m.wound() {
                    changes.push(MonsterChange::Hurt { id, wound: m.wound() });
                }
                if (at, wound) != (m.pos, m.wound()) {
                    told.insert(id, (m.pos, m.wound()));
                }
            }
            (Some(_), None) => {
                changes.push(MonsterChange::Vanished { id });
                told.remove(&id);
            }
            (None, None) => {}
        }
    }
    changes
}
