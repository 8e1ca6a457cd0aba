//! Thieves: a monster whose kind `steals` takes an item from the pack of
//! the player its blow lands on, and runs with it; it drops it where it
//! dies (see `combat`). It takes one whole entry of the pack, drawn from
//! the depth's dice among those the player neither wields nor wears, and
//! never the artifact (the game's goal is not a thief's to end); a thief
//! holds one thing, and once it has it, it only runs.

use gloam_protocol::{MonsterId, PlayerId};
use rand::RngExt;

use super::Rules;
use super::events::{Event, Observer};

impl Rules {
    /// Monster `id`, whose blow just landed on `target`, steals from it.
    pub(super) fn steal(&mut self, id: MonsterId, target: PlayerId, obs: &mut dyn Observer) {
        let Some(m) = self.monsters.get(&id) else { return };
        let (kind, from) = (m.kind, m.pos);
        if m.loot.is_some() {
            return;
        }
        let artifact = self.items.artifact();
        let Some(player) = self.player(target) else { return };
        let pack = &player.pack;
        let takeable: Vec<u8> = (0..pack.len() as u8)
            .filter(|&slot| pack.gear_at(slot).is_none())
            .filter(|&slot| pack.get(slot).is_some_and(|item| item.kind != artifact))
            .collect();
        if takeable.is_empty() {
            return;
        }
        let slot = takeable[self.dice.random_range(0..takeable.len())];
        let Some(player) = self.occupancy.get_mut(target) else { return };
        let count = player.pack.get(slot).map_or(1, |item| item.count);
        let Some(item) = player.pack.take(slot, count) else { return };
        obs.observe(self, Event::PackChanged { id: target });
        if let Some(m) = self.monsters.get_mut(&id) {
            m.loot = Some(item);
        }
        obs.observe(self, Event::Stole { kind, from, target, item });
    }
}
