//! The monsters of a depth: what they are, how they pick their move when
//! their round comes (see `docs/turns.md` for when that is), and blows
//! between them and the players. Every roll comes from the depth's own
//! random stream, so a depth's history follows from its seed and the order
//! of what was applied.

use gloam_protocol::walk::{DistanceMap, UNREACHED};
use gloam_protocol::{Dir, MonsterId, PlayerId, Pos, ServerMsg, Wound};
use rand::RngExt;

use super::{DepthState, Outgoing, Turn};
use crate::bestiary::{Behaviour, Dice, KindId, capitalised};
use crate::world::player::Player;

/// A monster on a depth.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Monster {
    pub id: MonsterId,
    pub kind: KindId,
    pub pos: Pos,
    pub hp: u16,
    pub max_hp: u16,
    pub awake: bool,
    /// The player it is after.
    pub prey: Option<PlayerId>,
    /// Where it last saw its prey.
    pub goal: Option<Pos>,
    /// Rounds it has been offered (a slow monster acts on every other).
    pub rounds: u64,
}

impl Monster {
    pub fn wound(&self) -> Wound {
        Wound::of(self.hp, self.max_hp)
    }
}

/// A player's blow: its chance to land, in percent, and its damage.
pub const PLAYER_TO_HIT: u8 = 80;
pub const PLAYER_DAMAGE: Dice = Dice { count: 2, sides: 4 };
/// A player gets back one hit point every this many rounds.
pub const REGEN_EVERY: u64 = 5;
/// The chance in a round, one in this, that a sleeper who notices someone wakes.
pub const WAKE_ONE_IN: u32 = 3;
/// How far a monster that keeps its distance stays from healthy prey.
const KEEP_OFF: u16 = 3;
/// How far the round's map of the way to the players reaches, in steps:
/// twice the longest sight, so the map costs the corner of the level the
/// fight is in, not all of it. A monster uses the map only towards prey it
/// sees, and the line it sees along is open ground no longer than its
/// sight, so it is never this far on foot; were it so, it makes straight
/// for its prey. One fleeing stops at the map's edge, out of sight.
const HUNT_REACH: u16 = 2 * gloam_protocol::SIGHT_RADIUS as u16;

fn chebyshev(a: Pos, b: Pos) -> u16 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

pub(super) fn within(a: Pos, b: Pos, radius: u8) -> bool {
    let (dx, dy) = (i32::from(a.x.abs_diff(b.x)), i32::from(a.y.abs_diff(b.y)));
    dx * dx + dy * dy <= i32::from(radius) * i32::from(radius)
}

impl DepthState {
    /// The players who see `pos` (and so are seen from it), by id: by
    /// asking each player when they are fewer than the cells of a sight
    /// disc, else by looking at who stands on each of those cells.
    pub(super) fn watchers(&self, pos: Pos) -> Vec<PlayerId> {
        self.watchers_that(pos, |_| true)
    }

    /// The players monster `id` notices: those who see it, near enough for its sight.
    pub(super) fn noticed_by(&self, id: MonsterId) -> Vec<PlayerId> {
        let Some(m) = self.monsters.get(&id) else { return Vec::new() };
        let sight = self.bestiary.kind(m.kind).sight;
        self.watchers_that(m.pos, |p| within(p.pos, m.pos, sight))
    }

    /// The players who see `pos` and pass `keep`, by id.
    pub(super) fn watchers_that(&self, pos: Pos, keep: impl Fn(&Player) -> bool) -> Vec<PlayerId> {
        let sees = |p: &Player| keep(p) && p.memory(self.depth).is_some_and(|m| m.sees(pos));
        if self.players.len() <= self.disc.len() {
            return self.players.values().filter(|p| sees(p)).map(|p| p.id).collect();
        }
        let mut found: Vec<PlayerId> = self
            .disc
            .offsets()
            .filter_map(|(dx, dy)| pos.offset(dx, dy))
            .filter_map(|p| self.occupant.get(&p).copied())
            .filter(|id| self.players.get(id).is_some_and(sees))
            .collect();
        found.sort();
        found
    }

    /// The player whose party a monster's rounds follow: the first who
    /// sees it, else its prey; none when it concerns nobody.
    pub(super) fn owner(&self, id: MonsterId) -> Option<PlayerId> {
        let m = self.monsters.get(&id)?;
        self.first_watcher(m.pos).or(m.prey.filter(|p| self.players.contains_key(p)))
    }

    /// The first by id of the players who see `pos` (as `watchers`, without
    /// gathering them all).
    fn first_watcher(&self, pos: Pos) -> Option<PlayerId> {
        if self.players.len() <= self.disc.len() {
            let sees = |p: &&Player| p.memory(self.depth).is_some_and(|m| m.sees(pos));
            return self.players.values().find(sees).map(|p| p.id);
        }
        self.watchers(pos).first().copied()
    }

    /// Every monster acts as its speed allows, in id order; `map` leads
    /// towards the players of the round (built when first needed).
    pub(super) fn monsters_act(&mut self, ids: &[MonsterId], party: &[PlayerId], turn: &mut Turn) {
        let mut map: Option<DistanceMap> = None;
        for &id in ids {
            let Some(m) = self.monsters.get_mut(&id) else { continue };
            let times = self.bestiary.kind(m.kind).speed.actions_in(m.rounds);
            m.rounds += 1;
            for _ in 0..times {
                if !self.monsters.contains_key(&id) {
                    break;
                }
                self.monster_turn(id, party, &mut map, turn);
            }
        }
    }

    fn monster_turn(
        &mut self,
        id: MonsterId,
        party: &[PlayerId],
        map: &mut Option<DistanceMap>,
        turn: &mut Turn,
    ) {
        let noticed = self.noticed_by(id);
        let Some(m) = self.monsters.get(&id).cloned() else { return };
        let kind = self.bestiary.kind(m.kind);
        let (behaviour, flees_below) = (kind.behaviour, kind.flees_below);
        if !m.awake {
            if !noticed.is_empty() && self.rng.random_ratio(1, WAKE_ONE_IN) {
                self.wake(id, turn);
            }
            return;
        }
        let Some(target) = self.nearest(m.pos, &noticed) else {
            self.roam(id, behaviour);
            return;
        };
        let target_pos = self.players[&target].pos;
        if let Some(m) = self.monsters.get_mut(&id) {
            m.prey = Some(target);
            m.goal = Some(target_pos);
        }
        let map = map.get_or_insert_with(|| self.map_towards(party, &noticed));
        let fleeing = u32::from(m.hp) * 100 < u32::from(flees_below) * u32::from(m.max_hp);
        let prey_healthy =
            self.players[&target].vitals.hp * 2 > self.players[&target].vitals.max_hp;
        let shy = behaviour == Behaviour::KeepsDistance && prey_healthy;
        let adjacent = chebyshev(m.pos, target_pos) == 1;
        let distance = map.get(m.pos).unwrap_or(UNREACHED);
        if fleeing || (shy && distance < KEEP_OFF) {
            if !self.step_on_map(id, map, false, target_pos) && adjacent {
                self.monster_attacks(id, target, turn);
            }
        } else if adjacent {
            self.monster_attacks(id, target, turn);
        } else if behaviour == Behaviour::Erratic && self.rng.random_bool(0.5) {
            self.random_step(id);
        } else if !(shy && distance <= KEEP_OFF + 1) {
            let stepped = self.step_on_map(id, map, true, target_pos);
            if !stepped && distance == UNREACHED {
                // Beyond the map's reach: straight for it.
                self.greedy_step(id, target_pos);
            }
        }
    }

    /// A map of walking distance from the round's players (or, for a
    /// monster out of any round, those it notices).
    fn map_towards(&self, party: &[PlayerId], noticed: &[PlayerId]) -> DistanceMap {
        let grid = &self.level.grid;
        let from = if party.is_empty() { noticed } else { party };
        let starts: Vec<Pos> =
            from.iter().filter_map(|p| self.players.get(p)).map(|p| p.pos).collect();
        let open = |i: usize| grid.cells()[i].is_open();
        DistanceMap::within(grid.width(), grid.height(), &starts, open, HUNT_REACH)
    }

    fn nearest(&self, from: Pos, among: &[PlayerId]) -> Option<PlayerId> {
        among
            .iter()
            .filter_map(|id| self.players.get(id))
            .min_by_key(|p| (chebyshev(from, p.pos), p.vitals.hp, p.id))
            .map(|p| p.id)
    }

    fn wake(&mut self, id: MonsterId, turn: &mut Turn) {
        let Some(m) = self.monsters.get_mut(&id) else { return };
        m.awake = true;
        let (pos, text) =
            (m.pos, format!("{} wakes up.", capitalised(&self.bestiary.kind(m.kind).the())));
        self.stir_parties();
        for to in self.watchers(pos) {
            turn.out.push(Outgoing { to, msg: ServerMsg::Combat(text.clone()) });
        }
    }

    /// Nobody in sight: to where it last saw its prey, or about.
    fn roam(&mut self, id: MonsterId, behaviour: Behaviour) {
        let Some(m) = self.monsters.get(&id) else { return };
        if let Some(goal) = m.goal {
            if (m.pos == goal || !self.greedy_step(id, goal))
                && let Some(m) = self.monsters.get_mut(&id)
            {
                m.goal = None;
                m.prey = None;
            }
            return;
        }
        if matches!(behaviour, Behaviour::Wanders | Behaviour::Erratic) && self.rng.random_bool(0.5)
        {
            self.random_step(id);
        }
    }

    fn is_free(&self, pos: Pos) -> bool {
        self.level.terrain(pos).is_open()
            && !self.occupant.contains_key(&pos)
            && !self.monster_at.contains_key(&pos)
    }

    /// Down the map (towards the players) or up it (away), among equally
    /// good cells the one straightest at (or away from) `prey`; false when
    /// no neighbouring cell is better than where it stands.
    fn step_on_map(&mut self, id: MonsterId, map: &DistanceMap, towards: bool, prey: Pos) -> bool {
        let Some(from) = self.monsters.get(&id).map(|m| m.pos) else { return false };
        let here = map.get(from).unwrap_or(UNREACHED);
        let sign = if towards { 1 } else { -1 };
        let straight = |p: Pos| {
            let (dx, dy) = (i32::from(p.x.abs_diff(prey.x)), i32::from(p.y.abs_diff(prey.y)));
            sign * (dx * dx + dy * dy)
        };
        let best = Dir::ALL
            .into_iter()
            .filter_map(|d| from.step(d))
            .filter(|&p| self.is_free(p))
            .filter_map(|p| map.get(p).filter(|&d| d != UNREACHED).map(|d| (d, p)))
            .filter(|&(d, _)| if towards { d < here } else { d > here || here == UNREACHED })
            .min_by_key(|&(d, p)| (sign * i32::from(d), straight(p)));
        match best {
            Some((_, to)) => {
                self.move_monster(id, to);
                true
            }
            None => false,
        }
    }

    /// The free neighbouring cell nearest `goal` as the crow flies, if
    /// nearer than where it stands.
    fn greedy_step(&mut self, id: MonsterId, goal: Pos) -> bool {
        let Some(from) = self.monsters.get(&id).map(|m| m.pos) else { return false };
        let best = Dir::ALL
            .into_iter()
            .filter_map(|d| from.step(d))
            .filter(|&p| self.is_free(p) && chebyshev(p, goal) < chebyshev(from, goal))
            .min_by_key(|&p| chebyshev(p, goal));
        best.inspect(|&to| self.move_monster(id, to)).is_some()
    }

    fn random_step(&mut self, id: MonsterId) {
        let Some(from) = self.monsters.get(&id).map(|m| m.pos) else { return };
        let dir = Dir::ALL[self.rng.random_range(0..8)];
        if let Some(to) = from.step(dir).filter(|&p| self.is_free(p)) {
            self.move_monster(id, to);
        }
    }

    fn move_monster(&mut self, id: MonsterId, to: Pos) {
        let Some(m) = self.monsters.get_mut(&id) else { return };
        self.monster_at.remove(&m.pos);
        self.stirred.note(id, m.pos);
        self.stirred.note(id, to);
        m.pos = to;
        self.monster_at.insert(to, id);
        self.stir_parties();
    }

    fn monster_attacks(&mut self, id: MonsterId, target: PlayerId, turn: &mut Turn) {
        let Some(m) = self.monsters.get(&id) else { return };
        let kind = self.bestiary.kind(m.kind).clone();
        let the = capitalised(&kind.the());
        let Some(victim) = self.players.get(&target) else { return };
        let (name, pos) = (victim.name.clone(), victim.pos);
        if self.rng.random_range(1..=100u8) > kind.to_hit {
            turn.tell(target, ServerMsg::Combat(format!("{the} misses you.")));
            return;
        }
        let damage = kind.damage.roll(|sides| self.rng.random_range(1..=sides));
        let text = format!("{the} {} you ({damage}).", kind.verb);
        turn.tell(target, ServerMsg::Combat(text));
        self.tell_watchers(pos, &[target], &format!("{the} {} {name}.", kind.verb), turn);
        self.hurt_player(target, damage, &kind.a(), turn);
    }

    /// A player bumps a monster.
    pub(super) fn player_attacks(&mut self, attacker: PlayerId, id: MonsterId, turn: &mut Turn) {
        let Some(m) = self.monsters.get(&id) else { return };
        let the = self.bestiary.kind(m.kind).the();
        let name = self.name_of(attacker);
        let attacker_pos = self.players.get(&attacker).map(|p| p.pos);
        if let Some(m) = self.monsters.get_mut(&id) {
            m.awake = true;
            m.prey = Some(attacker);
            m.goal = attacker_pos;
        }
        self.stir_parties();
        if self.rng.random_range(1..=100u8) > PLAYER_TO_HIT {
            turn.tell(attacker, ServerMsg::Combat(format!("You miss {the}.")));
            return;
        }
        let damage = PLAYER_DAMAGE.roll(|sides| self.rng.random_range(1..=sides));
        let Some(m) = self.monsters.get_mut(&id) else { return };
        m.hp = m.hp.saturating_sub(damage);
        let pos = m.pos;
        self.stirred.note(id, pos);
        if m.hp > 0 {
            let text = format!("You hit {the} ({damage}).");
            turn.tell(attacker, ServerMsg::Combat(text));
            return;
        }
        self.monsters.remove(&id);
        self.monster_at.remove(&pos);
        self.stir_parties();
        if let Some(p) = self.players.get_mut(&attacker) {
            p.vitals.kills += 1;
        }
        turn.out
            .push(Outgoing { to: attacker, msg: ServerMsg::Combat(format!("You kill {the}.")) });
        self.tell_watchers(pos, &[attacker], &format!("{name} kills {the}."), turn);
    }

    /// With `--pvp`: a player bumps another.
    pub(super) fn player_strikes(&mut self, attacker: PlayerId, target: PlayerId, turn: &mut Turn) {
        let (name, victim) = (self.name_of(attacker), self.name_of(target));
        if self.rng.random_range(1..=100u8) > PLAYER_TO_HIT {
            turn.tell(attacker, ServerMsg::Combat(format!("You miss {victim}.")));
            turn.tell(target, ServerMsg::Combat(format!("{name} misses you.")));
            return;
        }
        let damage = PLAYER_DAMAGE.roll(|sides| self.rng.random_range(1..=sides));
        let hit = format!("You hit {victim} ({damage}).");
        turn.tell(attacker, ServerMsg::Combat(hit));
        let hurt = format!("{name} hits you ({damage}).");
        turn.tell(target, ServerMsg::Combat(hurt));
        self.hurt_player(target, damage, &name, turn);
    }

    /// Takes `damage` off a player's hit points; at none, it dies.
    fn hurt_player(&mut self, id: PlayerId, damage: u16, by: &str, turn: &mut Turn) {
        let Some(p) = self.players.get_mut(&id) else { return };
        p.vitals.hp = p.vitals.hp.saturating_sub(damage);
        self.vitals_changed.push(id);
        if p.vitals.hp == 0 {
            self.die(id, by, turn);
        }
    }

    /// A line for every player who sees `pos`, but those in `except`.
    pub(super) fn tell_watchers(&self, pos: Pos, except: &[PlayerId], text: &str, turn: &mut Turn) {
        for to in self.watchers(pos).into_iter().filter(|id| !except.contains(id)) {
            turn.out.push(Outgoing { to, msg: ServerMsg::Combat(text.to_owned()) });
        }
    }
}
