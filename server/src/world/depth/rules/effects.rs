//! What a potion or scroll does to the one who uses it. Every roll comes
//! from the depth's dice.

use gloam_protocol::{Dir, PlayerId, Pos};
use rand::RngExt;

use super::Rules;
use super::events::{Event, Felt, Observer};
use crate::bestiary::KindId;
use crate::items::Effect;

/// How many rounds a monster put to sleep by magic sleeps before
/// it may wake by itself.
pub(super) const SLUMBER_ROUNDS: u16 = 20;

/// How many cells a teleport draws before it gives up (on a level nearly
/// full of players and monsters, or nearly all rock): the player stays.
const TELEPORT_DRAWS: u32 = 64;

/// How many monsters a scroll of summoning calls up at most.
const SUMMONED: usize = 3;

impl Rules {
    /// `effect` happens to player `id`; its sight follows.
    pub(super) fn take_effect(&mut self, id: PlayerId, effect: Effect, obs: &mut dyn Observer) {
        match effect {
            Effect::Heal(dice) => {
                let roll = dice.roll(|sides| self.dice.random_range(1..=sides));
                let Some(p) = self.occupancy.get_mut(id) else { return };
                let before = p.vitals.hp;
                p.vitals.hp = p.vitals.hp.saturating_add(roll).min(p.vitals.max_hp);
                let healed = p.vitals.hp - before;
                obs.observe(self, Event::Felt { id, what: Felt::Healed(healed) });
                obs.observe(self, Event::Vitals { id });
            }
            Effect::Vigour(dice) => {
                let roll = dice.roll(|sides| self.dice.random_range(1..=sides));
                let Some(p) = self.occupancy.get_mut(id) else { return };
                p.vitals.max_hp = p.vitals.max_hp.saturating_add(roll);
                p.vitals.hp = p.vitals.hp.saturating_add(roll);
                obs.observe(self, Event::Felt { id, what: Felt::Invigorated(roll) });
                obs.observe(self, Event::Vitals { id });
            }
            Effect::Teleport => return self.teleport(id, obs),
            Effect::MagicMapping => {
                let Some(p) = self.occupancy.get_mut(id) else { return };
                let learnt = p.memory_mut(self.depth).map_level(&self.level);
                obs.observe(self, Event::Mapped { id, learnt });
            }
            Effect::Sleep => self.lull_seen(id, obs),
            Effect::Harm(dice) => {
                let roll = dice.roll(|sides| self.dice.random_range(1..=sides));
                let Some(p) = self.occupancy.get_mut(id) else { return };
                let before = p.vitals.hp;
                p.vitals.hp = p.vitals.hp.saturating_sub(roll).max(1);
                let by = before - p.vitals.hp;
                obs.observe(self, Event::Felt { id, what: Felt::Harmed(by) });
                obs.observe(self, Event::Vitals { id });
            }
            Effect::Confuse(dice) => {
                let roll = dice.roll(|sides| self.dice.random_range(1..=sides));
                let Some(p) = self.occupancy.get_mut(id) else { return };
                p.confused = p.confused.saturating_add(roll);
                obs.observe(self, Event::Felt { id, what: Felt::Confused });
            }
            Effect::Aggravate => self.aggravate(id, obs),
            Effect::Summon => self.summon(id, obs),
        }
        self.see(id, true, obs);
    }

    /// Puts to sleep every monster player `id` sees.
    fn lull_seen(&mut self, id: PlayerId, obs: &mut dyn Observer) {
        let sees = |pos: Pos| {
            let memory = self.player(id).and_then(|p| p.memory(self.depth));
            memory.is_some_and(|m| m.sees(pos))
        };
        let sleepers: Vec<_> =
            self.monsters.values().filter(|m| sees(m.pos)).map(|m| m.id).collect();
        for m in &sleepers {
            if let Some(m) = self.monsters.lull(*m) {
                m.dozing = SLUMBER_ROUNDS;
                m.prey = None;
                m.goal = None;
            }
        }
        for &m in &sleepers {
            let at = self.monsters[&m].pos;
            obs.observe(self, Event::MonsterChanged { monster: m, at });
        }
        obs.observe(self, Event::Felt { id, what: Felt::Slept(sleepers.len()) });
    }

    /// Wakes every monster of the level, each making for where player
    /// `id` stands.
    fn aggravate(&mut self, id: PlayerId, obs: &mut dyn Observer) {
        let Some(at) = self.player(id).map(|p| p.pos) else { return };
        let all: Vec<_> = self.monsters.values().map(|m| m.id).collect();
        for m in all {
            if self.monsters.get(&m).is_some_and(|m| !m.is_awake()) {
                self.wake(m, obs);
            }
            if let Some(m) = self.monsters.get_mut(&m)
                && m.prey.is_none()
            {
                m.goal = Some(at);
            }
        }
        obs.observe(self, Event::Felt { id, what: Felt::Aggravated });
    }

    /// Calls up [`SUMMONED`] monsters of kinds living at this depth onto
    /// open cells around player `id`, awake: fewer where fewer cells are
    /// free, none on a depth where nothing lives.
    fn summon(&mut self, id: PlayerId, obs: &mut dyn Observer) {
        let Some(at) = self.player(id).map(|p| p.pos) else { return };
        let kinds: Vec<(KindId, u32)> =
            self.bestiary.living_at(self.depth).map(|(k, kind)| (k, kind.weight())).collect();
        let total: u32 = kinds.iter().map(|&(_, w)| w).sum();
        let mut around: Vec<Pos> = Dir::ALL.iter().filter_map(|&d| at.step(d)).collect();
        let mut called = 0;
        while total > 0 && called < SUMMONED && !around.is_empty() {
            let cell = around.swap_remove(self.dice.random_range(0..around.len()));
            let kind = crate::tuning::pick(&kinds, self.dice.random_range(0..total));
            if let Some(m) = self.spawn(kind, cell, obs) {
                // It comes awake: no line says it wakes.
                self.monsters.wake(m);
                called += 1;
            }
        }
        obs.observe(self, Event::Felt { id, what: Felt::Summoned(called) });
    }

    /// The way a confused player's step goes: the way it asked, or (while
    /// confusion lasts, one move in two) a way drawn at random. Each move
    /// while confused uses up one of its moves of confusion.
    /// The last move of confusion says it is over.
    pub(super) fn confused_way(&mut self, id: PlayerId, asked: Dir, obs: &mut dyn Observer) -> Dir {
        let Some(p) = self.occupancy.get_mut(id) else { return asked };
        if p.confused == 0 {
            return asked;
        }
        p.confused -= 1;
        if p.confused == 0 {
            obs.observe(self, Event::Felt { id, what: Felt::ClearHeaded });
        }
        if self.dice.random_bool(0.5) {
            Dir::ALL[self.dice.random_range(0..Dir::ALL.len())]
        } else {
            asked
        }
    }

    /// Moves player `id` to an open cell nobody stands on, drawn at random.
    fn teleport(&mut self, id: PlayerId, obs: &mut dyn Observer) {
        let Some(from) = self.player(id).map(|p| p.pos) else { return };
        let (w, h) = (self.level.width(), self.level.height());
        let mut to = from;
        for _ in 0..TELEPORT_DRAWS {
            let drawn = Pos::new(self.dice.random_range(0..w), self.dice.random_range(0..h));
            let open = self.level.terrain(drawn).is_open();
            if open && self.occupancy.at(drawn).is_none() && !self.monsters.is_at(drawn) {
                to = drawn;
                break;
            }
        }
        self.walks.forget(id);
        self.occupancy.step(id, to);
        obs.observe(self, Event::Felt { id, what: Felt::Teleported { from } });
        self.note_stairs(id, to, obs);
        self.see(id, true, obs);
    }
}
