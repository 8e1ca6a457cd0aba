//! Wands: zapped at a cell the zapper sees, each zap one action on the
//! clock and one charge. A bolt flies as a thrown missile does (see
//! `throwing`); the other effects work on the aimed cell, within the
//! wand's range, and beyond it the zap is spent for nothing (a range is
//! learnt by zapping, never by a refusal that would name the kind). A
//! wand zapped empty does nothing, and teaches nothing; one that works
//! teaches its kind to the zapper and to every player who sees it.

use gloam_protocol::{PlayerId, Pos};
use rand::RngExt;

use super::Rules;
use super::events::{Event, Observer, Refusal, Strike, Wrought};
use super::throwing::Struck;
use crate::items::{Class, Zap};
use crate::tuning::Dice;

impl Rules {
    /// Zaps the wand in `slot` at `at`.
    pub(super) fn zap(&mut self, id: PlayerId, slot: u8, at: Pos, obs: &mut dyn Observer) {
        let Some(player) = self.player(id) else { return };
        let from = player.pos;
        let Some(item) = player.pack.get(slot) else {
            return self.refuse(id, Refusal::NoSuchItem, obs);
        };
        let Class::Wand { zap, range, .. } = self.items.kind(item.kind).class else {
            return self.refuse(id, Refusal::CannotZap, obs);
        };
        let sees = player.memory(self.depth).is_some_and(|m| m.sees(at));
        if at == from || !sees {
            return self.refuse(id, Refusal::NotInSight, obs);
        }
        obs.observe(self, Event::Zapped { id, kind: item.kind });
        if self.items.charges(item) == Some(0) {
            obs.observe(self, Event::Wrought { id, what: Wrought::Empty });
            return self.see(id, true, obs);
        }
        if let Some(player) = self.occupancy.get_mut(id) {
            // No pack is told for it: a wand is told as one, its charges
            // never, so what its client holds has not changed.
            player.pack.take(slot, 1);
        }
        self.teach(id, item.kind, obs);
        let within = from.x.abs_diff(at.x).max(from.y.abs_diff(at.y)) <= u16::from(range);
        let reach = usize::from(range);
        match zap {
            Zap::Bolt(damage) => self.bolt(id, from, at, reach, damage, obs),
            Zap::Slow(rounds) => self.slow_bolt(id, from, at, reach, rounds, obs),
            Zap::Blink if within => self.blink(id, at, obs),
            Zap::Heal(dice) if within => self.heal_friend(id, at, dice, obs),
            Zap::Light(radius) if within => self.light(id, at, radius, obs),
            Zap::Blink | Zap::Heal(_) | Zap::Light(_) => {
                obs.observe(self, Event::Wrought { id, what: Wrought::Faded });
            }
        }
        self.see(id, true, obs);
    }

    /// A bolt of `damage` flies from `from` at `at`, as a thrown missile.
    fn bolt(
        &mut self,
        id: PlayerId,
        from: Pos,
        at: Pos,
        reach: usize,
        damage: Dice,
        obs: &mut dyn Observer,
    ) {
        match self.flight(id, from, at, reach).1 {
            Some(Struck::Monster(monster)) => {
                let to_hit = self.to_hit_of(id);
                self.strike_monster(id, monster, to_hit, damage, Strike::Bolt, obs);
            }
            Some(Struck::Player(target)) => self.missile_at_player(id, target, damage, obs),
            None => obs.observe(self, Event::Wrought { id, what: Wrought::Missed }),
        }
    }

    /// A bolt that slows the first monster in its way for a roll of
    /// `rounds`: it never misses, and the monster turns on the zapper.
    fn slow_bolt(
        &mut self,
        id: PlayerId,
        from: Pos,
        at: Pos,
        reach: usize,
        rounds: Dice,
        obs: &mut dyn Observer,
    ) {
        let Some(Struck::Monster(monster)) = self.flight(id, from, at, reach).1 else {
            return obs.observe(self, Event::Wrought { id, what: Wrought::Missed });
        };
        let roll = rounds.roll(|sides| self.dice.random_range(1..=sides));
        let Some((kind, at)) = self.provoke(id, monster, obs) else { return };
        if let Some(m) = self.monsters.get_mut(&monster) {
            m.slowed = m.slowed.saturating_add(roll);
        }
        obs.observe(self, Event::Wrought { id, what: Wrought::Slowed { kind, at } });
    }

    /// The zapper moves to `to`, if it is open and nobody stands there.
    fn blink(&mut self, id: PlayerId, to: Pos, obs: &mut dyn Observer) {
        let open = self.level.terrain(to).is_open();
        if !open || self.occupancy.at(to).is_some() || self.monsters.is_at(to) {
            return obs.observe(self, Event::Wrought { id, what: Wrought::Stayed });
        }
        self.walks.forget(id);
        self.note_stairs(id, to, obs);
        self.occupancy.step(id, to);
        obs.observe(self, Event::Wrought { id, what: Wrought::Blinked });
    }

    /// The player on `at`, if any, gets back a roll of `dice` hit points.
    fn heal_friend(&mut self, id: PlayerId, at: Pos, dice: Dice, obs: &mut dyn Observer) {
        let Some(target) = self.occupancy.at(at) else {
            return obs.observe(self, Event::Wrought { id, what: Wrought::Faded });
        };
        let roll = dice.roll(|sides| self.dice.random_range(1..=sides));
        let Some(p) = self.occupancy.get_mut(target) else { return };
        let before = p.vitals.hp;
        p.vitals.hp = p.vitals.hp.saturating_add(roll).min(p.vitals.max_hp);
        let by = p.vitals.hp - before;
        obs.observe(self, Event::Vitals { id: target });
        obs.observe(self, Event::Wrought { id, what: Wrought::Healed { target, by } });
    }

    /// Lights the cells seen from `at` within a roll of `radius` cells
    /// (no further than sight): the zapper remembers them.
    fn light(&mut self, id: PlayerId, at: Pos, radius: Dice, obs: &mut dyn Observer) {
        let roll = radius.roll(|sides| self.dice.random_range(1..=sides));
        let lit = self.level.grid.fov(at, roll.min(u16::from(self.radius)) as u8);
        let Some(p) = self.occupancy.get_mut(id) else { return };
        let learnt = p.memory_mut(self.depth).light(&self.level, &lit);
        obs.observe(self, Event::Lit { id, learnt });
    }
}
