//! What each client is told at the end of a command: the players and
//! monsters that came into its sight, moved or were hurt in it, or left it;
//! its hit points; whom its round waits for. Worked out once per command
//! for every player it may concern (found without a look at every player
//! in a crowd), against what that client was told before, so a round
//! in which many things moved is still one diff per player. Other players'
//! moves wait for the end of a batch of commands (`tell_movers`), unless
//! the viewer moved or is told of a monster first: then it hears all of
//! them with that, so its client never shows two moments mixed.

use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use gloam_protocol::{MonsterChange, PlayerChange, PlayerId, Pos, ServerMsg, SightDiff};

use super::Views;
use super::seen::{DepthAfter, around, monsters_seen_anew, players_seen, reaches};
use super::still::Shift;
use super::view::View;
use crate::character::{Memory, Player};
use crate::world::depth::rules::{CellHasher, Occupancy, Phase, Rules};
use crate::world::depth::{Outcome, Outgoing};

impl Views {
    /// Tells every player what this command changed for it (see the
    /// module doc); `answered` are those whose action it applied.
    pub(crate) fn tell_changes(
        &mut self,
        rules: &Rules,
        answered: &[PlayerId],
        outcome: &mut Outcome,
    ) {
        let moved = std::mem::take(&mut self.moved);
        let changed = std::mem::take(&mut self.changed_monsters);
        let vitals_changed = std::mem::take(&mut self.vitals_changed);
        // A party panel changes only with the parties or a member's hit
        // points (a level comes with new most hit points).
        let stamp = rules.parties_stamp();
        let parties_may_change = self.parties_told_at != Some(stamp) || !vitals_changed.is_empty();
        let mut concerned = answered.to_vec();
        concerned.extend(&vitals_changed);
        let moved: BTreeSet<PlayerId> =
            moved.into_iter().filter(|&id| rules.player(id).is_some()).collect();
        for &id in &moved {
            self.recent_moves.push(id, rules.players()[&id].pos);
        }
        // A viewer who moved was told what it sees with its diff
        // (`tell_now`). What changed since, for it and for those who stood
        // still: the monsters that changed, and with news of them the
        // players who moved in this batch (else they wait for its end). So
        // a crowd costs each action O(crowd), not O(crowd²).
        let after = DepthAfter {
            depth: rules.depth,
            players: rules.players(),
            monsters: rules.monsters.by_id(),
            held: self.recent_moves.all(),
            movers: std::cell::OnceCell::new(),
            changed_monsters: changed,
        };
        let radius = u16::from(rules.radius);
        let occupancy = &rules.occupancy;
        tell_depth_after(&after, &mut self.told, occupancy, radius, vitals_changed, outcome);
        self.tell_waiting(rules, outcome);
        if parties_may_change {
            self.tell_parties(rules, concerned, outcome);
            self.parties_told_at = Some(stamp);
        }
        diffs_last(outcome);
        // After the diffs: a pile may have changed in a sight its player
        // came to earlier in the command.
        for (id, changes) in std::mem::take(&mut self.floor_seen) {
            outcome.tell(id, ServerMsg::Floor(changes));
        }
    }

    /// Tells each player who stood still (all, or those of one shift)
    /// what the movers since it was last told did that it has not heard
    /// yet: in its last message when that is a sight diff, else in one
    /// `Players` message at the end. A viewer is asked only of the movers
    /// that came within sight range of it: a client is only ever told of a
    /// player on a cell its player sees, so one too far from every cell a
    /// mover stood on since has nothing to hear of it.
    ///
    /// A player who acted since its shift last came was told everyone
    /// around it with its answer ([`View::caught_up`]): the shift passes
    /// it by (telling everyone, `None`, passes nobody by), and what moved
    /// since waits for its next answer. One that
    /// does not act again by its shift's next turn is told then everyone
    /// around it anew (the movers since its answer are no longer all in
    /// that shift's list). In a crowd that acts, most of the still's
    /// messages were news each would have heard with its next answer.
    pub(super) fn tell_movers(
        &mut self,
        rules: &Rules,
        outcome: &mut Outcome,
        shift: Option<Shift>,
    ) {
        let mut held = self.recent_moves.since(shift).to_vec();
        self.recent_moves.told(shift);
        let in_shift = |id: PlayerId| shift.is_none_or(|s| s.holds(id));
        let anew: Vec<PlayerId> =
            self.passed_by.iter().copied().filter(|&id| in_shift(id)).collect();
        let hearing = if held.is_empty() { Vec::new() } else { self.hearing(rules, shift, &anew) };
        if anew.is_empty() && hearing.is_empty() {
            return;
        }
        let mut last: HashMap<PlayerId, usize, BuildHasherDefault<CellHasher>> = HashMap::default();
        for (i, o) in outcome.out.iter().enumerate() {
            last.insert(o.to, i);
        }
        let is_diff = |o: &Outgoing| matches!(o.msg, ServerMsg::Sight(_) | ServerMsg::Displaced(_));
        for &id in &anew {
            self.passed_by.remove(&id);
            let (Some(viewer), Some(told)) =
                (rules.player(id), self.told.get_mut(&id).map(Arc::make_mut))
            else {
                continue;
            };
            let players = players_around(rules, viewer, told);
            if !players.is_empty() {
                let diff = last.get(&id).copied().filter(|&i| is_diff(&outcome.out[i]));
                attach(outcome, diff, (id, viewer.pos), players, Vec::new());
            }
        }
        if hearing.is_empty() {
            return;
        }
        held.sort_unstable_by_key(|&(id, p)| (id, p.x, p.y));
        held.dedup();
        let movers = reaches(&held, rules.players(), rules.radius);
        let mut near = Vec::with_capacity(movers.len());
        for viewer in hearing {
            near.clear();
            near.extend(movers.iter().filter(|m| m.reaches(viewer.pos)).map(|m| (m.id, m.at)));
            if near.is_empty() {
                continue;
            }
            let Some(told) = self.told.get_mut(&viewer.id).map(Arc::make_mut) else { continue };
            let players =
                players_seen(viewer, rules.depth, &near, &mut told.players, rules.players());
            if !players.is_empty() {
                let diff = last.get(&viewer.id).copied().filter(|&i| is_diff(&outcome.out[i]));
                attach(outcome, diff, (viewer.id, viewer.pos), players, Vec::new());
            }
        }
    }

    /// The players of `shift` (all: `None`) who hear of the movers now:
    /// not those told everyone around them anew (`anew`), nor those the
    /// shift passes by, who are noted as passed by (see `tell_movers`).
    fn hearing<'r>(
        &mut self,
        rules: &'r Rules,
        shift: Option<Shift>,
        anew: &[PlayerId],
    ) -> Vec<&'r Player> {
        let mut hearing = Vec::new();
        for viewer in rules.players().values() {
            if shift.is_some_and(|s| !s.holds(viewer.id)) || anew.binary_search(&viewer.id).is_ok()
            {
                continue;
            }
            let Some(told) = self.told.get_mut(&viewer.id) else { continue };
            if told.caught_up {
                Arc::make_mut(told).caught_up = false;
                if shift.is_some() {
                    self.passed_by.insert(viewer.id);
                    continue;
                }
            }
            hearing.push(&**viewer);
        }
        hearing
    }

    /// Puts in `diff` what `id` (whose sight just changed) must be told of
    /// the players and monsters around it now, as the end of the command
    /// would (which then finds nothing more to tell unless more changed).
    pub(crate) fn tell_now(&mut self, rules: &Rules, id: PlayerId, diff: &mut SightDiff) {
        self.tell_players_now(rules, id, diff);
        let (Some(viewer), Some(told)) =
            (rules.player(id), self.told.get_mut(&id).map(Arc::make_mut))
        else {
            return;
        };
        diff.monsters =
            monsters_seen_anew(viewer, rules.depth, &mut told.monsters, rules.monsters.by_id());
    }

    /// Puts in `diff` what `id` must be told of the players around it now
    /// (the players' part of [`tell_now`](Self::tell_now)): also given to a
    /// player who acted without moving, so that every answer to a player's
    /// action shows the others as they stand when it is applied, whatever
    /// the still are yet to hear. Its shift of the still passes it by once
    /// (see [`tell_movers`](Self::tell_movers)).
    pub(super) fn tell_players_now(&mut self, rules: &Rules, id: PlayerId, diff: &mut SightDiff) {
        self.passed_by.remove(&id);
        let (Some(viewer), Some(told)) =
            (rules.player(id), self.told.get_mut(&id).map(Arc::make_mut))
        else {
            return;
        };
        diff.players = players_around(rules, viewer, told);
        told.caught_up = true;
    }

    /// Everything `id`'s client holds of this depth, as the messages that
    /// build it from nothing: the level as it remembers it, who else is
    /// here, its sight with every player and monster it was told of, its
    /// hit points and whom its round waits for. What a watcher who comes
    /// in the middle is sent first (`None`: the player is not here).
    pub(crate) fn view_of(&self, rules: &Rules, id: PlayerId) -> Option<Vec<ServerMsg>> {
        let player = rules.player(id)?;
        let told = self.told.get(&id)?;
        let memory = player.memory(rules.depth)?;
        let roster = ServerMsg::Roster(self.roster_heard_by(rules, id));
        let mut view: Vec<ServerMsg> = super::known_kinds_of(rules, id).into_iter().collect();
        view.push(enter_level(rules, memory));
        let floor = memory.recall_floor();
        if !floor.is_empty() {
            view.push(ServerMsg::Floor(floor));
        }
        view.push(super::pack_of(rules, id));
        view.push(super::experience_of(rules, id));
        view.push(roster);
        if let Some(sight) = memory.sight() {
            view.push(ServerMsg::Displaced(seen_from(rules, told, sight.centre(), |dx, dy| {
                sight.sees_offset(dx, dy)
            })));
        }
        if let Some((hp, max)) = told.hp {
            view.push(ServerMsg::Vitals { hp, max });
        }
        if !told.party.is_empty() {
            view.push(ServerMsg::Party(told.party.clone()));
        }
        view.push(ServerMsg::Waiting(told.waiting.clone()));
        Some(view)
    }

    /// Tells those whose round waits whom it waits for, and those whose
    /// round closed that it waits no more. Each party is found once for
    /// all its members who wait, and a list told before is compared name
    /// by name, not made anew.
    fn tell_waiting(&mut self, rules: &Rules, outcome: &mut Outcome) {
        let mut waiting: Vec<PlayerId> = rules.clock.waiting().collect();
        waiting.sort_unstable();
        // Only those who wait now or were told they wait may hear of a
        // change: a look at every player per command was a crowd's cost.
        let mut ids: Vec<PlayerId> = waiting.iter().chain(&self.told_waiting).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let mut parties: Vec<Vec<PlayerId>> = Vec::new();
        let mut ready = Vec::new();
        for id in ids {
            let Some(told) = self.told.get_mut(&id).map(Arc::make_mut) else {
                self.told_waiting.remove(&id);
                continue;
            };
            ready.clear();
            if waiting.binary_search(&id).is_ok() {
                let party = match parties.iter().position(|p| p.contains(&id)) {
                    Some(i) => &parties[i],
                    None => {
                        parties.push(rules.party_of(id));
                        &parties[parties.len() - 1]
                    }
                };
                ready.extend(rules.clock.ready(party).filter(|&o| o != id));
            }
            let name = |o: &PlayerId| rules.player(*o).map_or("", |p| p.name.as_str());
            if !told.waiting.iter().map(String::as_str).eq(ready.iter().map(name)) {
                let names: Vec<String> = ready.iter().map(|&o| rules.name_of(o)).collect();
                told.waiting.clone_from(&names);
                outcome.tell(id, ServerMsg::Waiting(names));
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
fn seen_from(rules: &Rules, told: &View, at: Pos, sees: impl Fn(i32, i32) -> bool) -> SightDiff {
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
    let monsters = told.monsters.iter().filter_map(|(&mid, seen)| {
        let kind = rules.monsters.get(&mid)?.kind;
        let (at, wound, asleep) = (seen.at, seen.wound, seen.asleep);
        Some(MonsterChange::Appeared { id: mid, kind, at, wound, asleep })
    });
    SightDiff {
        at,
        shown: shown.collect(),
        players: players.collect(),
        monsters: monsters.collect(),
        ..SightDiff::default()
    }
}

/// Tells each player what `after` changed for it: those within sight of a
/// cell a changed monster stood on, what they see of it; those whose hit
/// points changed (`vitals_changed`), their hit points. Nobody else can
/// have anything to hear, and in a crowd a look at each of a thousand
/// players was most of a command's time: the players near the monsters are
/// found by their cells (`occupant`) when that is cheaper.
fn tell_depth_after(
    after: &DepthAfter,
    told: &mut HashMap<PlayerId, Arc<View>, BuildHasherDefault<CellHasher>>,
    occupancy: &Occupancy,
    radius: u16,
    vitals_changed: Vec<PlayerId>,
    outcome: &mut Outcome,
) {
    let changed = &after.changed_monsters;
    let (mut ids, last_diff) = match around(changed.cells.iter().copied(), radius) {
        None => (Vec::new(), HashMap::default()),
        Some((x, y)) => {
            let cells = (y.0..=y.1).flat_map(move |y| (x.0..=x.1).map(move |x| Pos { x, y }));
            let area = (usize::from(x.1 - x.0) + 1) * (usize::from(y.1 - y.0) + 1);
            // The other ways test every changed cell a player: about four
            // times a look at a cell, as measured.
            let search = occupancy.search(area, 4);
            let near = occupancy.near(search, cells, |p| changed.near(p, radius));
            (near.into_iter().map(|(id, _)| id).collect(), last_diffs(&outcome.out))
        }
    };
    ids.extend(vitals_changed);
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let (Some(viewer), Some(told)) =
            (after.players.get(&id), told.get_mut(&id).map(Arc::make_mut))
        else {
            continue;
        };
        if changed.near(viewer.pos, radius) {
            let (players, monsters) = after.changes(viewer, told);
            let diff = last_diff.get(&id).copied();
            attach(outcome, diff, (id, viewer.pos), players, monsters);
        }
        tell_vitals(viewer, told, outcome);
    }
}

/// Tells `viewer` its hit points when they are not what it was told.
fn tell_vitals(viewer: &Player, told: &mut View, outcome: &mut Outcome) {
    let hp = (viewer.vitals.hp, viewer.vitals.max_hp);
    if told.hp != Some(hp) {
        told.hp = Some(hp);
        outcome.tell(viewer.id, ServerMsg::Vitals { hp: hp.0, max: hp.1 });
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

/// Puts the changes among players and monsters of a viewer (`to`, standing
/// on `at`) in its last sight diff of this command (`diff`, an index in
/// `turn.out`), or in messages of their own when it has none: one
/// `Displaced` where it stands when both changed, since told one after the
/// other they could show a player and a monster on one cell in between (a
/// player stepped where a monster was killed, or a monster where a player
/// stood).
pub(super) fn attach(
    outcome: &mut Outcome,
    diff: Option<usize>,
    (to, at): (PlayerId, Pos),
    players: Vec<PlayerChange>,
    monsters: Vec<MonsterChange>,
) {
    if let Some(i) = diff
        && let ServerMsg::Sight(diff) | ServerMsg::Displaced(diff) = &mut outcome.out[i].msg
    {
        diff.players.extend(players);
        diff.monsters.extend(monsters);
        return;
    }
    if !players.is_empty() && !monsters.is_empty() {
        let both = SightDiff { at, players, monsters, ..SightDiff::default() };
        outcome.out.push(Outgoing { to, msg: ServerMsg::Displaced(both) });
        return;
    }
    if !players.is_empty() {
        outcome.out.push(Outgoing { to, msg: ServerMsg::Players(players) });
    }
    if !monsters.is_empty() {
        outcome.out.push(Outgoing { to, msg: ServerMsg::Monsters(monsters) });
    }
}

/// Each player's sight diffs come last in its reply (in their order), the
/// answer to its own action last of all; the rest keeps its order.
fn diffs_last(outcome: &mut Outcome) {
    let is_diff = |o: &Outgoing| matches!(o.msg, ServerMsg::Sight(_) | ServerMsg::Displaced(_));
    let (diffs, mut rest): (Vec<Outgoing>, Vec<Outgoing>) =
        std::mem::take(&mut outcome.out).into_iter().partition(is_diff);
    rest.extend(diffs);
    outcome.out = rest;
}

/// What `viewer`'s client must be told of the players around it now,
/// against what it was told (`told`), which is updated to match.
fn players_around(rules: &Rules, viewer: &Player, told: &mut View) -> Vec<PlayerChange> {
    // Those it sees, and those it was told of (who may have left its
    // sight): only the cells it sees are looked at.
    let memory = viewer.memory(rules.depth);
    let sees = |p: Pos| memory.is_some_and(|m| m.sees(p));
    // The cells of its sight, not a look at each cell of the disc: a
    // sight is always from where it stands (`Rules::see` makes it anew
    // with every move), so it lies within the depth's disc around it.
    let sight = memory.and_then(|m| m.sight());
    debug_assert!(sight.is_none_or(|s| s.centre() == viewer.pos), "a sight from elsewhere");
    let search = rules.occupancy.search(rules.disc.len(), 1);
    let near = rules.occupancy.near(search, sight.into_iter().flat_map(|s| s.cells()), sees);
    let mut changes = players_seen(viewer, rules.depth, &near, &mut told.players, rules.players());
    // And those it was told of that are not among them (out of its sight
    // now, or gone from the depth): each of those among them was just
    // told where it stands, on a cell it sees, so one told of elsewhere
    // has left its sight. Whether it stands there is a look at the cell
    // (not in the depth's players: a tenth of an answer's time in a
    // crowd), unless some share a cell and the cell names only one.
    let stacked = rules.occupancy.is_stacked();
    let stands = |id: PlayerId, at: Pos| {
        if stacked {
            rules.player(id).is_some_and(|p| p.pos == at)
        } else {
            rules.occupancy.at(at) == Some(id)
        }
    };
    let standing = |id: PlayerId, at: Pos| sees(at) && stands(id, at);
    told.players.retain(|&id, &mut at| {
        let stays = standing(id, at);
        if !stays {
            changes.push(PlayerChange::Vanished { id });
        }
        stays
    });
    // In the players' order, not the order of the cells or maps they were
    // found in, which follows each map's history: a depth restored from a
    // snapshot tells the same diffs as the one that played on.
    changes.sort_unstable_by_key(changed_player);
    changes
}

/// The player a change tells of.
fn changed_player(change: &PlayerChange) -> PlayerId {
    match *change {
        PlayerChange::Moved { id, .. }
        | PlayerChange::Vanished { id }
        | PlayerChange::Appeared { id, .. } => id,
    }
}
