//! What a potion or scroll does to the one who uses it. Every roll comes
//! from the depth's dice.

use gloam_protocol::{PlayerId, Pos};
use rand::RngExt;

use super::Rules;
use super::events::{Event, Observer};
use crate::items::Effect;

/// How many rounds a monster put to sleep by magic sleeps before
/// it may wake by itself.
pub(super) const SLUMBER_ROUNDS: u16 = 20;

/// How many cells a teleport draws before it gives up (on a level nearly
/// full of players and monsters, or nearly all rock): the player stays.
const TELEPORT_DRAWS: u32 = 64;

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
                obs.observe(self, Event::Healed { id, by: healed });
                obs.observe(self, Event::Vitals { id });
            }
            Effect::Vigour(dice) => {
                let roll = dice.roll(|sides| self.dice.random_range(1..=sides));
                let Some(p) = self.occupancy.get_mut(id) else { return };
                p.vitals.max_hp = p.vitals.max_hp.saturating_add(roll);
                p.vitals.hp = p.vitals.hp.saturating_add(roll);
                obs.observe(self, Event::Invigorated { id, by: roll });
                obs.observe(self, Event::Vitals { id });
            }
            Effect::Teleport => return self.teleport(id, obs),
            Effect::MagicMapping => {
                let Some(p) = self.occupancy.get_mut(id) else { return };
                let learnt = p.memory_mut(self.depth).map_level(&self.level);
                obs.observe(self, Event::Mapped { id, learnt });
            }
            Effect::Sleep => {
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
                obs.observe(self, Event::Slept { id, count: sleepers.len() });
            }
        }
        self.see(id, true, obs);
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
        obs.observe(self, Event::Teleported { id });
        self.note_stairs(id, to, obs);
        self.see(id, true, obs);
    }
}
