//! The rules of a depth: they take one command at a time and decide what
//! happens, handing each [`Event`] to an [`Observer`] as it happens; they
//! tell nobody anything. Plain synchronous code that reads no clock and
//! rolls every die from the depth's own stream, so the same commands in
//! the same order give the same depth: a replay is these rules applied to
//! the log with nobody listening (see `log`).
//!
//! Who stands where is `occupancy`, who shares a danger with whom
//! `parties`, the round's bookkeeping `clock`, blows `combat`, what
//! monsters do `monsters`, and what a depth left alone regains `restock`;
//! items are used in `using`, thrown in `throwing` and zapped in `zapping`.

mod clock;
pub(crate) mod combat;
mod effects;
pub(super) mod events;
mod floor;
pub(crate) mod flow;
mod log;
pub(crate) mod monsters;
mod occupancy;
mod parties;
mod restock;
mod snapshot;
mod standing;
mod stealing;
pub(crate) mod throwing;
mod uniques;
mod using;
mod walks;
mod zapping;

use std::hash::BuildHasherDefault;
use std::sync::Arc;

use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{Action, Dir, Disc, MonsterId, PlayerId, Pos, Terrain};

pub(crate) use clock::Phase;
pub use flow::{Death, End, Leaving};
pub(crate) use flow::{Departure, Flow, Killer, Notice, Slaying};
pub use log::{Command, Entry, RULES_VERSION, decode_history};
pub(crate) use log::{LogPart, arrival};
pub use monsters::Monster;
pub use snapshot::SNAPSHOT_FORMAT;
pub(crate) use snapshot::in_order;

use super::Arrival;
use crate::bestiary::{Bestiary, KindId};
use crate::character::{Memory, Player, Skills};
use crate::fov::Fov;
use crate::items::{Catalogue, Gear, Item};
use crate::level::Level;
use crate::mapgen::LevelRng;
use crate::seeds::DepthSeeds;
use clock::Clock;
use events::{Event, Observer, Refusal, Sight, Use};
use floor::Floor;
pub(crate) use occupancy::{CellHasher, CellMap, Monsters, Occupancy, Players, Search};
use parties::Parties;

use walks::Walks;

/// How the host set the depth's rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HostRules {
    /// Players may attack each other (and who see each other share rounds).
    pub pvp: bool,
}

/// A depth as its rules hold it: its level, the players and monsters on
/// it, its clock and its dice, and the log of what it applied.
#[derive(Debug)]
pub(crate) struct Rules {
    pub(crate) depth: u16,
    pub(crate) level: Arc<Level>,
    pub(crate) disc: Disc,
    pub(crate) radius: u8,
    pub(crate) host: HostRules,
    pub(crate) bestiary: Arc<Bestiary>,
    pub(crate) occupancy: Occupancy,
    pub(crate) monsters: Monsters,
    next_monster: u32,
    /// The kinds of item, and what lies on the floor.
    pub(crate) items: Arc<Catalogue>,
    pub(crate) floor: Floor,
    pub(crate) clock: Clock,
    /// The depth's dice: every roll of its monsters and fights.
    dice: LevelRng,
    pub(crate) parties: Parties,
    /// Who is walking which way, so that friends in single file follow.
    walks: Walks,
    log: log::Log,
    /// The monsters it regains when left alone (see `restock`).
    restocking: restock::Restocking,
    /// What the command being applied did to the game's flow, handed back
    /// at its end.
    flow: Flow,
    /// The player whose standing order's step is being applied, and what
    /// it has noticed so far (see `flow::Watch`).
    watch: Option<flow::Watch>,
}

impl Rules {
    /// A depth with nobody on it yet, whose monsters will be of
    /// `bestiary`'s kinds, rolling dice from its `seeds`.
    pub(crate) fn new(
        depth: u16,
        level: Arc<Level>,
        sight_radius: u8,
        bestiary: Arc<Bestiary>,
        seeds: DepthSeeds,
    ) -> Self {
        Self {
            depth,
            level,
            disc: Disc::new(sight_radius),
            radius: sight_radius,
            host: HostRules::default(),
            bestiary,
            occupancy: Occupancy::default(),
            monsters: Monsters::default(),
            next_monster: 1,
            items: built_in_items(),
            floor: Floor::default(),
            clock: Clock::default(),
            dice: seeds.dice(),
            parties: Parties::default(),
            walks: Walks::default(),
            log: log::Log::default(),
            restocking: restock::Restocking::new(seeds),
            flow: Flow::default(),
            watch: None,
        }
    }

    /// The players on the depth, by id.
    pub(crate) fn players(&self) -> &Players {
        self.occupancy.players()
    }

    pub(crate) fn player(&self, id: PlayerId) -> Option<&Player> {
        self.occupancy.get(id)
    }

    pub(crate) fn name_of(&self, id: PlayerId) -> String {
        self.player(id).map(|p| p.name.clone()).unwrap_or_default()
    }

    /// `count` of kind `kind` in words, as player `to` knows them: "a
    /// murky potion" until it knows what murky potions are.
    pub(crate) fn item_words(
        &self,
        to: PlayerId,
        kind: crate::items::ItemKindId,
        count: u16,
    ) -> String {
        self.items.described_for(kind, count, self.known_by(to))
    }

    /// One of kind `kind` with "the", as player `to` knows it.
    pub(crate) fn the_item(&self, to: PlayerId, kind: crate::items::ItemKindId) -> String {
        self.items.the_for(kind, self.known_by(to))
    }

    /// The kinds player `id` knows (none for one not here).
    pub(crate) fn known_by(&self, id: PlayerId) -> &crate::items::Known {
        static NONE: crate::items::Known = crate::items::Known::new();
        self.player(id).map_or(&NONE, |p| &p.known)
    }

    /// The players who see `pos` (and so are seen from it), by id.
    pub(crate) fn seers(&self, pos: Pos) -> Vec<PlayerId> {
        self.occupancy.seers_that(self.depth, &self.disc, pos, |_| true)
    }

    /// Puts a monster of `kind` on `pos` (an open cell nobody stands on),
    /// asleep if its kind sleeps. Gives its id, or `None` if the cell is taken.
    pub(crate) fn spawn(
        &mut self,
        kind: KindId,
        pos: Pos,
        obs: &mut dyn Observer,
    ) -> Option<MonsterId> {
        let open = self.level.terrain(pos).is_open();
        if !open || self.monsters.is_at(pos) || self.occupancy.at(pos).is_some() {
            return None;
        }
        let k = self.bestiary.kind(kind);
        let id = MonsterId(self.next_monster);
        self.next_monster += 1;
        let mut monster = Monster::new(id, kind, pos, k.hp, !k.asleep);
        monster.hides = k.hides;
        self.monsters.insert(monster);
        // Those who see the cell are told with the next command.
        obs.observe(self, Event::MonsterChanged { monster: id, at: pos });
        Some(id)
    }

    /// The kinds of item this depth's items are of (the built-in ones
    /// unless the host gave its own).
    pub(crate) fn set_items(&mut self, items: Arc<Catalogue>) {
        self.items = items;
    }

    /// Lays `item` on the pile on `pos` (a level being built: nobody is told).
    pub(crate) fn lay(&mut self, pos: Pos, item: Item) {
        let stacks = self.items.kind(item.kind).stacks();
        self.floor.put(pos, item, stacks);
    }

    /// Puts a player on this level: where `via` says, or the nearest free
    /// cell to it. Its arrival answers what brought it (its joining, or
    /// the stairs).
    pub(crate) fn arrive(
        &mut self,
        mut player: Player,
        via: Arrival,
        obs: &mut dyn Observer,
    ) -> Flow {
        let (id, name, vitals, xp) = (player.id, player.name.clone(), player.vitals, player.xp);
        let pack = player.pack.clone();
        let known = player.known.iter().copied().collect();
        let command = if player.skills != Skills::default() {
            Command::Skilled { id, name, vitals, via, pack, xp, known, skills: player.skills }
        } else if player.known.is_empty() {
            Command::Entered { id, name, vitals, via, pack, xp }
        } else {
            Command::Knowing { id, name, vitals, via, pack, xp, known }
        };
        self.log.record(self.clock.rounds, command);
        let wanted = match via {
            Arrival::Join | Arrival::FromAbove => self.level.arrival,
            Arrival::FromBelow => self.level.stairs_down,
            Arrival::Resume(pos) if self.level.terrain(pos).is_open() => pos,
            Arrival::Resume(_) => self.level.arrival,
        };
        player.pos = self.nearest_free(wanted);
        player.confused = 0;
        player.vitals.deepest = player.vitals.deepest.max(self.depth);
        player.memory_mut(self.depth).forget_sight();
        let pos = player.pos;
        self.occupancy.insert(player);
        self.clock.join(id);
        self.flow.arrivals.push(id);
        self.flow.answered.push(id);
        obs.observe(self, Event::Arrived { id });
        if let Some(down) = self.stairs_at(pos) {
            obs.observe(self, Event::OnStairs { id, down });
        }
        self.see(id, true, obs);
        self.take_flow()
    }

    /// Logs what the views did between commands (one of the markers at
    /// the end of [`Command`]), for recordings to follow.
    pub(crate) fn mark(&mut self, what: Command) {
        self.log.record(self.clock.rounds, what);
    }

    /// The flow of the command just applied, handed back.
    fn take_flow(&mut self) -> Flow {
        std::mem::take(&mut self.flow)
    }

    /// Whether player `id`, who just came `via`, has won: it came up to
    /// the first depth carrying the artifact.
    pub(crate) fn wins(&self, id: PlayerId, via: Arrival) -> bool {
        let artifact = self.items.artifact();
        let carries =
            self.player(id).is_some_and(|p| p.pack.items().iter().any(|i| i.kind == artifact));
        via == Arrival::FromBelow && self.depth == 1 && carries
    }

    /// A player who [`wins`](Self::wins) escapes: it leaves the game with
    /// the artifact, for the hall of the living.
    pub(crate) fn escape(&mut self, id: PlayerId, obs: &mut dyn Observer) -> Flow {
        if self.player(id).is_none() {
            return Flow::default();
        }
        self.log.record(self.clock.rounds, Command::Escape { id });
        if let Some(player) = self.take_off(id, Leaving::Escaped, obs) {
            let with = self.items.artifact();
            obs.observe(self, Event::Escaped { id, with });
            self.flow.deaths.push(Death { player, end: End::Escaped(with) });
        }
        self.run_clock(obs);
        self.take_flow()
    }

    /// A player's action: applied now if the player has not acted yet in
    /// its party's round, else held until that round closes. Then every
    /// round that has all it waits for closes. `None` when nothing was
    /// applied (the player is not here, or its action is held).
    pub(crate) fn act(
        &mut self,
        id: PlayerId,
        action: Action,
        obs: &mut dyn Observer,
    ) -> Option<Flow> {
        self.player(id)?;
        self.log.record(self.clock.rounds, Command::Act { id, action });
        if self.clock.phase(id) == Phase::Acted {
            self.clock.hold(id, action);
            return None;
        }
        self.apply(id, action, obs);
        self.run_clock(obs);
        Some(self.take_flow())
    }

    /// [`act`](Self::act), for a step of a standing order: its flow also
    /// holds what the player noticed that should stop the order, against
    /// `told`, the monsters its client knows to be in its view (and
    /// whether each is awake).
    pub(crate) fn act_watched(
        &mut self,
        id: PlayerId,
        action: Action,
        told: Vec<(MonsterId, bool)>,
        obs: &mut dyn Observer,
    ) -> Option<Flow> {
        self.watch = Some(flow::Watch::of(self, id, told));
        let flow = self.act(id, action, obs);
        let mut watch = self.watch.take()?;
        let mut flow = flow?;
        watch.look(self);
        flow.notices = watch.notices();
        Some(flow)
    }

    /// The watched player's sight changed (see `flow::Watch`).
    fn look_out(&mut self, id: PlayerId) {
        let Some(mut watch) = self.watch.take_if(|w| w.id == id) else { return };
        watch.look(self);
        self.watch = Some(watch);
    }

    /// The deadline of the round `id` acted in has passed: those it still
    /// waits for are counted away and it closes without them. `None` when
    /// `id` waited for nothing.
    pub(crate) fn deadline(&mut self, id: PlayerId, obs: &mut dyn Observer) -> Option<Flow> {
        if self.clock.phase(id) != Phase::Acted {
            return None;
        }
        self.log.record(self.clock.rounds, Command::Deadline { id });
        let party = self.party_of(id);
        let away = self.clock.count_away(&party);
        if !away.is_empty() {
            obs.observe(self, Event::CountedAway { away, party });
        }
        self.run_clock(obs);
        Some(self.take_flow())
    }

    /// Takes a player off this level (it left the game, or is being moved):
    /// returns the player with its memories; a round that waited only for
    /// it closes.
    pub(crate) fn leave(
        &mut self,
        id: PlayerId,
        how: Leaving,
        obs: &mut dyn Observer,
    ) -> (Option<Player>, Flow) {
        if self.player(id).is_some() {
            let command = match how {
                Leaving::Lost => Command::Lost { id },
                _ => Command::Leave { id },
            };
            self.log.record(self.clock.rounds, command);
        }
        let player = self.take_off(id, how, obs);
        self.run_clock(obs);
        (player, self.take_flow())
    }

    /// Applies one action of a player on this level.
    /// One that is refused costs nothing (`docs/turns.md`): the player may
    /// act again in the same round.
    fn apply(&mut self, id: PlayerId, action: Action, obs: &mut dyn Observer) {
        let Some(pos) = self.player(id).map(|p| p.pos) else { return };
        let before = self.clock.phase(id);
        self.clock.acted(id);
        let previous = self.walks.acts(id);
        self.flow.answered.push(id);
        let refusals = self.flow.refused.len();
        self.carry_out(id, pos, action, previous, obs);
        if self.flow.refused.len() > refusals {
            self.clock.take_back(id, before);
            self.walks.take_back(id, previous);
        }
    }

    /// What `action` does, from `pos`.
    fn carry_out(
        &mut self,
        id: PlayerId,
        pos: Pos,
        action: Action,
        previous: Option<walks::Last>,
        obs: &mut dyn Observer,
    ) {
        let here = self.level.terrain(pos);
        match action {
            Action::Move(dir) => {
                let way = self.confused_way(id, dir, obs);
                let open = pos.step(way).is_some_and(|p| self.level.terrain(p).is_open());
                if way != dir && !open {
                    // Astray into rock: the move is spent, unlike a bump.
                    obs.observe(self, Event::Stumbled { id });
                    return self.see(id, true, obs);
                }
                self.step(id, pos, way, previous, obs)
            }
            // Standing orders reach the rules as the steps they are (see
            // `depth::orders`); given here, they wait.
            Action::Wait | Action::Quit | Action::Explore | Action::Travel(_) | Action::Rest => {
                self.see(id, true, obs)
            }
            Action::PickUp => self.pick_up(id, pos, obs),
            Action::Drop(slot) => self.drop_item(id, pos, slot, obs),
            Action::Quaff(slot) => self.use_item(id, slot, Use::Quaff, obs),
            Action::Read(slot) => self.use_item(id, slot, Use::Read, obs),
            Action::Wield(slot) => self.equip(id, slot, Gear::Wielded, obs),
            Action::Wear(slot) => self.equip(id, slot, Gear::Worn, obs),
            Action::TakeOff(slot) => self.unequip(id, slot, obs),
            Action::Throw { slot, at } => self.throw(id, slot, at, obs),
            Action::Zap { slot, at } => self.zap(id, slot, at, obs),
            Action::Descend if here == Terrain::StairsDown && self.depth < u16::MAX => {
                self.depart(id, self.depth + 1, Arrival::FromAbove, Leaving::WentDown, obs);
            }
            Action::Ascend if here == Terrain::StairsUp && self.depth > 1 => {
                self.depart(id, self.depth - 1, Arrival::FromBelow, Leaving::WentUp, obs);
            }
            Action::Descend => self.refuse(id, Refusal::NoStairsDown, obs),
            Action::Ascend => self.refuse(id, Refusal::NoStairsUp, obs),
        }
    }

    /// The action cannot be done: it changes nothing and costs nothing,
    /// and the player is told why.
    fn refuse(&mut self, id: PlayerId, why: Refusal, obs: &mut dyn Observer) {
        obs.observe(self, Event::Refused { id, why });
        self.flow.refused.push(id);
        self.see(id, true, obs);
    }

    fn depart(
        &mut self,
        id: PlayerId,
        depth: u16,
        via: Arrival,
        how: Leaving,
        obs: &mut dyn Observer,
    ) {
        if let Some(player) = self.take_off(id, how, obs) {
            self.flow.departures.push(Departure { player, depth, via });
        }
    }

    /// A player died: off the level, no monster after it any more.
    fn die(&mut self, id: PlayerId, killer: Killer, obs: &mut dyn Observer) {
        if let Some(player) = self.take_off(id, Leaving::Died, obs) {
            // What it carried lies where it fell; its pack still says what
            // that was, for its morgue file.
            for item in player.pack.items().to_vec() {
                self.lay(player.pos, item);
            }
            self.floor_changed(player.pos, None, obs);
            for monster in self.monsters.values_mut().filter(|m| m.prey == Some(id)) {
                monster.prey = None;
                monster.goal = None;
            }
            obs.observe(self, Event::Died { id, max_hp: player.vitals.max_hp });
            self.flow.deaths.push(Death { player, end: End::Killed(killer) });
        }
    }

    /// Takes a player off the level, with no more.
    fn take_off(&mut self, id: PlayerId, how: Leaving, obs: &mut dyn Observer) -> Option<Player> {
        let player = self.occupancy.remove(id)?;
        self.clock.leave(id);
        self.walks.forget(id);
        self.flow.gone(id, how);
        let (name, at) = (player.name.clone(), player.pos);
        obs.observe(self, Event::Left { id, name, at, how });
        Some(player)
    }

    /// A step `dir` from `from`; `previous` is the player's action before
    /// this one (see `walks`).
    fn step(
        &mut self,
        id: PlayerId,
        from: Pos,
        dir: Dir,
        previous: Option<walks::Last>,
        obs: &mut dyn Observer,
    ) {
        let Some(to) = from.step(dir).filter(|&p| self.level.terrain(p).is_open()) else {
            // Bumping a wall is refused without a word, as in DCSS.
            self.flow.refused.push(id);
            self.see(id, true, obs);
            return;
        };
        if let Some(monster) = self.monsters.at(to) {
            self.player_attacks(id, monster, obs);
            self.see(id, true, obs);
            return;
        }
        match self.occupancy.at(to) {
            Some(other) if self.host.pvp => {
                self.player_strikes(id, other, obs);
                self.see(id, true, obs);
            }
            Some(other) if self.walks.follows(previous, other, dir) => {
                // A friend walking this way: a step behind it, not a swap.
                self.walks.followed(id, other);
                obs.observe(self, Event::Followed { mover: id, other });
                self.see(id, true, obs);
            }
            Some(other) => {
                // Swapping places keeps a corridor from ever jamming.
                self.walks.stepped(id, dir);
                self.note_stairs(id, to, obs);
                self.occupancy.swap(id, other);
                obs.observe(self, Event::Swapped { mover: id, other });
                self.see(other, false, obs);
                self.see(id, true, obs);
            }
            None => {
                self.walks.stepped(id, dir);
                self.note_stairs(id, to, obs);
                self.occupancy.step(id, to);
                self.see(id, true, obs);
            }
        }
    }

    /// The pile on `pos` changed: those who see it (but `actor`, whose own
    /// sight tells it) see what lies there now.
    fn floor_changed(&mut self, pos: Pos, actor: Option<PlayerId>, obs: &mut dyn Observer) {
        let top = self.floor.top(pos, &self.items);
        for seer in self.seers(pos) {
            if Some(seer) == actor {
                continue;
            }
            let Some(player) = self.occupancy.get_mut(seer) else { continue };
            if let Some(change) = player.memory_mut(self.depth).see_pile(pos, top) {
                obs.observe(self, Event::FloorSeen { id: seer, change });
            }
        }
    }

    /// What a player who steps onto `pos` is told is there: a vault it
    /// enters, stairs, a pile.
    fn note_stairs(&self, id: PlayerId, pos: Pos, obs: &mut dyn Observer) {
        // Called before the step: where it stands is where it comes from.
        let from = self.player(id).map(|p| p.pos);
        if let Some(vault) = &self.level.vault
            && vault.covers(pos)
            && !from.is_some_and(|f| vault.covers(f))
        {
            obs.observe(self, Event::EnteredVault { id });
        }
        if let Some(down) = self.stairs_at(pos) {
            obs.observe(self, Event::OnStairs { id, down });
        }
        if self.floor.top(pos, &self.items).is_some() {
            obs.observe(self, Event::OnPile { id, at: pos });
        }
    }

    /// Whether `pos` holds stairs down (`true`) or up (`false`).
    fn stairs_at(&self, pos: Pos) -> Option<bool> {
        match self.level.terrain(pos) {
            Terrain::StairsDown => Some(true),
            Terrain::StairsUp => Some(false),
            _ => None,
        }
    }

    fn fov_from(&self, pos: Pos) -> Fov {
        self.level.grid.fov(pos, self.radius)
    }

    /// A player's sight from where it stands now, after it acted
    /// (`answers`) or was moved: its memory takes in what it sees.
    fn see(&mut self, id: PlayerId, answers: bool, obs: &mut dyn Observer) {
        let Some(player) = self.player(id) else { return };
        let pos = player.pos;
        let seen_from = player.memory(self.depth).and_then(Memory::sight).map(|s| s.centre());
        if seen_from == Some(pos) {
            // Where it stood (it waited or struck): the level does not
            // change, so neither does its sight, nor whom it shares a
            // danger with; only the piles in it may have.
            let Some(player) = self.occupancy.get_mut(id) else { return };
            let (floor, items) = (&self.floor, &self.items);
            let memory = player.memory_mut(self.depth);
            let floor = memory.see_floor(floor.cells(), |p| floor.top(p, items));
            obs.observe(self, Event::Saw { id, answers, sight: Sight::Same { at: pos, floor } });
            self.look_out(id);
            return;
        }
        let fov = self.fov_from(pos);
        let Some(memory) = self.occupancy.sight_mut(id, self.depth) else { return };
        let mut diff = memory.update_sight(&self.level, &self.disc, fov);
        let (floor, items) = (&self.floor, &self.items);
        diff.floor = memory.see_floor(floor.cells(), |p| floor.top(p, items));
        let sight = Sight::New { was: seen_from, diff };
        obs.observe(self, Event::Saw { id, answers, sight });
        self.look_out(id);
    }

    /// Closes every round that has all it waits for, until none has (a
    /// closed round applies held actions, which may close it again).
    fn run_clock(&mut self, obs: &mut dyn Observer) {
        loop {
            let mut closed = false;
            let mut looked: std::collections::HashSet<PlayerId, BuildHasherDefault<CellHasher>> =
                Default::default();
            for id in self.clock.waiting().collect::<Vec<_>>() {
                if looked.contains(&id) || self.clock.phase(id) != Phase::Acted {
                    continue;
                }
                let party = self.party_of(id);
                looked.extend(party.iter().copied());
                if self.clock.is_complete(&party) {
                    self.close_round(&party, obs);
                    closed = true;
                }
            }
            if !closed {
                return;
            }
        }
    }

    /// One round of `party` ends: its monsters act, its players
    /// regenerate, then their held actions open the next round.
    fn close_round(&mut self, party: &[PlayerId], obs: &mut dyn Observer) {
        let concerned = self.concerning(party);
        self.monsters_act(&concerned, party, obs);
        for &id in party {
            let Some(p) = self.occupancy.get_mut(id) else { continue };
            p.vitals.rounds += 1;
            if p.vitals.rounds.is_multiple_of(combat::REGEN_EVERY) && p.vitals.hp < p.vitals.max_hp
            {
                p.vitals.hp += 1;
                obs.observe(self, Event::Vitals { id });
            }
        }
        let present: Vec<PlayerId> =
            party.iter().copied().filter(|&id| self.player(id).is_some()).collect();
        let (held, quiet) = self.clock.close(&present);
        if quiet {
            let idle: Vec<MonsterId> =
                self.monsters.keys().copied().filter(|&m| self.owner(m).is_none()).collect();
            self.monsters_act(&idle, &[], obs);
        }
        for (id, action) in held {
            if self.player(id).is_some() {
                self.apply(id, action, obs);
            }
        }
    }

    /// The monsters whose rounds follow `party`'s: those whose owner is in it.
    fn concerning(&self, party: &[PlayerId]) -> Vec<MonsterId> {
        let mut candidates = std::collections::BTreeSet::new();
        for id in party {
            let Some(player) = self.player(*id) else { continue };
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

    /// The open cell nearest to `wanted` by walking that no player or
    /// monster stands on; `wanted` itself when every open cell is taken
    /// (stacking up rather than refusing the player).
    fn nearest_free(&self, wanted: Pos) -> Pos {
        let grid = &self.level.grid;
        let open = |i: usize| grid.cells()[i].is_open();
        let free = |p: Pos| self.occupancy.at(p).is_none() && !self.monsters.is_at(p);
        let (_, found) = DistanceMap::until(grid.width(), grid.height(), &[wanted], open, free);
        found.unwrap_or(wanted)
    }
}

/// The built-in kinds of item, read once: a depth the host gave no items
/// file to (tests, benches) shares them.
fn built_in_items() -> Arc<Catalogue> {
    static BUILT_IN: std::sync::OnceLock<Arc<Catalogue>> = std::sync::OnceLock::new();
    BUILT_IN.get_or_init(|| Arc::new(Catalogue::built_in())).clone()
}
