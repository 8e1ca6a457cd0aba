//! The monsters of a depth: what they are, and how they pick their move
//! when their round comes (see `docs/turns.md` for when that is). Every
//! roll comes from the depth's dice, so a depth's history follows from its
//! seed and the order of what was applied.

use gloam_protocol::walk::{DistanceMap, UNREACHED};
use gloam_protocol::{Dir, MonsterId, PlayerId, Pos};
use rand::RngExt;

use super::Rules;
use super::events::{Event, Observer};
pub use super::occupancy::Monster;
use crate::bestiary::Behaviour;

/// The chance in a round, one in this, that a sleeper who notices someone wakes.
pub(crate) const WAKE_ONE_IN: u32 = 3;
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

pub(crate) fn within(a: Pos, b: Pos, radius: u8) -> bool {
    let (dx, dy) = (i32::from(a.x.abs_diff(b.x)), i32::from(a.y.abs_diff(b.y)));
    dx * dx + dy * dy <= i32::from(radius) * i32::from(radius)
}

impl Rules {
    /// The players monster `id` notices: those who see it, near enough for its sight.
    pub(super) fn noticed_by(&self, id: MonsterId) -> Vec<PlayerId> {
        let Some(m) = self.monsters.get(&id) else { return Vec::new() };
        let sight = self.bestiary.kind(m.kind).sight;
        self.occupancy.seers_that(self.depth, &self.disc, m.pos, |p| within(p.pos, m.pos, sight))
    }

    /// Sleeper `id`'s action: a doze counts down; else, noticing anyone,
    /// it may wake (one round in `WAKE_ONE_IN`, unless the stealthy are
    /// unheard).
    fn sleeper(
        &mut self,
        id: MonsterId,
        dozing: u16,
        noticed: &[PlayerId],
        obs: &mut dyn Observer,
    ) {
        if dozing > 0 {
            if let Some(m) = self.monsters.get_mut(&id) {
                m.dozing -= 1;
            }
            return;
        }
        if !noticed.is_empty() && self.dice.random_ratio(1, WAKE_ONE_IN) && !self.unheard(noticed) {
            self.wake(id, obs);
        }
    }

    /// Whether a sleeper about to wake, noticing `noticed`, sleeps on: by
    /// the least stealth among them (a noisy one wakes it for all), a roll
    /// made only when that is above none, so that a depth's history
    /// without stealthy players keeps its rolls.
    fn unheard(&mut self, noticed: &[PlayerId]) -> bool {
        let stealth = noticed
            .iter()
            .map(|&p| self.player(p).map_or(0, |p| p.skills.stealth))
            .min()
            .unwrap_or(0);
        stealth > 0 && self.dice.random_range(1..=100u8) <= stealth
    }

    /// The player whose party a monster's rounds follow: the first who
    /// sees it, else its prey; none when it concerns nobody.
    pub(super) fn owner(&self, id: MonsterId) -> Option<PlayerId> {
        let m = self.monsters.get(&id)?;
        let seer = self.occupancy.first_seer(self.depth, &self.disc, m.pos);
        seer.or(m.prey.filter(|&p| self.player(p).is_some()))
    }

    /// Every monster acts as its speed allows, in id order; `map` leads
    /// towards the players of the round (built when first needed).
    pub(super) fn monsters_act(
        &mut self,
        ids: &[MonsterId],
        party: &[PlayerId],
        obs: &mut dyn Observer,
    ) {
        let mut map: Option<DistanceMap> = None;
        for &id in ids {
            let Some(m) = self.monsters.get_mut(&id) else { continue };
            let mut times = self.bestiary.kind(m.kind).speed.actions_in(m.rounds);
            m.rounds += 1;
            if m.slowed > 0 {
                // Slowed: it sits out every other round until it wears off.
                m.slowed -= 1;
                if m.slowed % 2 == 1 {
                    times = 0;
                }
            }
            for _ in 0..times {
                if !self.monsters.contains_key(&id) {
                    break;
                }
                self.monster_action(id, party, &mut map, obs);
            }
        }
    }

    /// One action of monster `id` (a fast one acts more than once a round).
    fn monster_action(
        &mut self,
        id: MonsterId,
        party: &[PlayerId],
        map: &mut Option<DistanceMap>,
        obs: &mut dyn Observer,
    ) {
        let noticed = self.noticed_by(id);
        let Some(m) = self.monsters.get(&id).cloned() else { return };
        let kind = self.bestiary.kind(m.kind);
        let (behaviour, flees_below) = (kind.behaviour, kind.flees_below);
        if !m.is_awake() {
            return self.sleeper(id, m.dozing, &noticed, obs);
        }
        let Some(target) = self.nearest(m.pos, &noticed) else {
            if m.loot.is_some()
                && let Some(m) = self.monsters.get_mut(&id)
            {
                // A thief away with its loot does not go back for more.
                m.goal = None;
                m.prey = None;
            }
            self.roam(id, behaviour, obs);
            return;
        };
        let target_pos = self.occupancy.players()[&target].pos;
        if m.prey.is_none() && self.bestiary.kind(m.kind).calls > 0 {
            self.call(id, target, target_pos, obs);
        }
        if let Some(m) = self.monsters.get_mut(&id) {
            m.prey = Some(target);
            m.goal = Some(target_pos);
        }
        let map = map.get_or_insert_with(|| self.map_towards(party, &noticed));
        let hurt = u32::from(m.hp) * 100 < u32::from(flees_below) * u32::from(m.max_hp);
        let fleeing = hurt || m.loot.is_some();
        let prey = self.occupancy.players()[&target].vitals;
        let prey_healthy = u32::from(prey.hp) * 2 > u32::from(prey.max_hp);
        let shy = behaviour.keeps_distance() && prey_healthy;
        let adjacent = chebyshev(m.pos, target_pos) == 1;
        let distance = map.get(m.pos).unwrap_or(UNREACHED);
        if fleeing || (shy && distance < KEEP_OFF) {
            if !self.step_on_map(id, map, false, target_pos, obs) && adjacent {
                self.monster_attacks(id, target, obs);
            }
        } else if adjacent {
            self.monster_attacks(id, target, obs);
        } else if self.monster_shoots(id, target, obs) {
            // Shot from where it stands.
        } else if behaviour.staggers() && self.dice.random_bool(0.5) {
            self.random_step(id, obs);
        } else if !(shy && distance <= KEEP_OFF + 1) {
            let stepped = self.step_on_map(id, map, true, target_pos, obs);
            if !stepped && distance == UNREACHED {
                // Beyond the map's reach: straight for it.
                self.greedy_step(id, target_pos, obs);
            }
        }
    }

    /// A map of walking distance from the round's players (or, for a
    /// monster out of any round, those it notices).
    fn map_towards(&self, party: &[PlayerId], noticed: &[PlayerId]) -> DistanceMap {
        let grid = &self.level.grid;
        let from = if party.is_empty() { noticed } else { party };
        let starts: Vec<Pos> = from.iter().filter_map(|&p| self.player(p)).map(|p| p.pos).collect();
        let open = |i: usize| grid.cells()[i].is_open();
        DistanceMap::within(grid.width(), grid.height(), &starts, open, HUNT_REACH)
    }

    fn nearest(&self, from: Pos, among: &[PlayerId]) -> Option<PlayerId> {
        among
            .iter()
            .filter_map(|&id| self.player(id))
            .min_by_key(|p| (chebyshev(from, p.pos), p.vitals.hp, p.id))
            .map(|p| p.id)
    }

    /// Monster `id`, setting on `prey` (on `at`), calls every other monster
    /// within its kind's `calls` cells: each wakes (out of magic sleep too)
    /// and makes for the prey. No dice: who hears is who stands near.
    fn call(&mut self, id: MonsterId, prey: PlayerId, at: Pos, obs: &mut dyn Observer) {
        let Some((kind, from)) = self.monsters.get(&id).map(|m| (m.kind, m.pos)) else { return };
        let reach = u16::from(self.bestiary.kind(kind).calls);
        let called: Vec<MonsterId> = self
            .monsters
            .values()
            .filter(|m| m.id != id && chebyshev(m.pos, from) <= reach)
            .map(|m| m.id)
            .collect();
        obs.observe(self, Event::Called { kind, from });
        for other in called {
            if self.monsters.get(&other).is_some_and(|m| !m.is_awake()) {
                self.wake(other, obs);
            }
            if let Some(m) = self.monsters.get_mut(&other) {
                m.dozing = 0;
                m.prey = Some(prey);
                m.goal = Some(at);
            }
        }
    }

    pub(super) fn wake(&mut self, id: MonsterId, obs: &mut dyn Observer) {
        let Some(m) = self.monsters.wake(id) else { return };
        let (kind, at) = (m.kind, m.pos);
        // Those who see it are told it woke.
        obs.observe(self, Event::MonsterChanged { monster: id, at });
        obs.observe(self, Event::Woke { kind, at });
    }

    /// Nobody in sight: to where it last saw its prey, or about.
    fn roam(&mut self, id: MonsterId, behaviour: Behaviour, obs: &mut dyn Observer) {
        let Some(m) = self.monsters.get(&id) else { return };
        if let Some(goal) = m.goal {
            if (m.pos == goal || !self.greedy_step(id, goal, obs))
                && let Some(m) = self.monsters.get_mut(&id)
            {
                m.goal = None;
                m.prey = None;
            }
            return;
        }
        if behaviour.roams() && self.dice.random_bool(0.5) {
            self.random_step(id, obs);
        }
    }

    fn is_free(&self, pos: Pos) -> bool {
        self.level.terrain(pos).is_open()
            && self.occupancy.at(pos).is_none()
            && !self.monsters.is_at(pos)
    }

    /// Down the map (towards the players) or up it (away), among equally
    /// good cells the one straightest at (or away from) `prey`; false when
    /// no neighbouring cell is better than where it stands.
    fn step_on_map(
        &mut self,
        id: MonsterId,
        map: &DistanceMap,
        towards: bool,
        prey: Pos,
        obs: &mut dyn Observer,
    ) -> bool {
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
                self.move_monster(id, to, obs);
                true
            }
            None => false,
        }
    }

    /// The free neighbouring cell nearest `goal` as the crow flies, if
    /// nearer than where it stands.
    fn greedy_step(&mut self, id: MonsterId, goal: Pos, obs: &mut dyn Observer) -> bool {
        let Some(from) = self.monsters.get(&id).map(|m| m.pos) else { return false };
        let best = Dir::ALL
            .into_iter()
            .filter_map(|d| from.step(d))
            .filter(|&p| self.is_free(p) && chebyshev(p, goal) < chebyshev(from, goal))
            .min_by_key(|&p| chebyshev(p, goal));
        best.inspect(|&to| self.move_monster(id, to, obs)).is_some()
    }

    fn random_step(&mut self, id: MonsterId, obs: &mut dyn Observer) {
        let Some(from) = self.monsters.get(&id).map(|m| m.pos) else { return };
        let dir = Dir::ALL[self.dice.random_range(0..8)];
        if let Some(to) = from.step(dir).filter(|&p| self.is_free(p)) {
            self.move_monster(id, to, obs);
        }
    }

    fn move_monster(&mut self, id: MonsterId, to: Pos, obs: &mut dyn Observer) {
        let Some(from) = self.monsters.get(&id).map(|m| m.pos) else { return };
        self.monsters.step(id, to);
        obs.observe(self, Event::MonsterChanged { monster: id, at: from });
        obs.observe(self, Event::MonsterChanged { monster: id, at: to });
    }
}
