//! Blows between players and monsters, and between players with `--pvp`:
//! who hits, for how much, and who dies of it. Every roll comes from the
//! depth's dice.

use gloam_protocol::{MonsterId, PlayerId};
use rand::RngExt;

use super::Rules;
use super::events::{Blow, Event, Observer};
use crate::bestiary::Dice;

/// A player's blow: its chance to land, in percent, and its damage.
pub const PLAYER_TO_HIT: u8 = 80;
pub const PLAYER_DAMAGE: Dice = Dice { count: 2, sides: 4 };
/// A player gets back one hit point every this many rounds.
pub const REGEN_EVERY: u64 = 5;

impl Rules {
    /// A player bumps a monster: it wakes and turns on the player, and the
    /// blow may land or kill it.
    pub(super) fn player_attacks(
        &mut self,
        attacker: PlayerId,
        id: MonsterId,
        obs: &mut dyn Observer,
    ) {
        let attacker_pos = self.player(attacker).map(|p| p.pos);
        let Some(m) = self.monsters.get_mut(&id) else { return };
        let (kind, at) = (m.kind, m.pos);
        m.awake = true;
        m.prey = Some(attacker);
        m.goal = attacker_pos;
        self.parties.stir();
        if self.dice.random_range(1..=100u8) > PLAYER_TO_HIT {
            obs.observe(self, Event::PlayerStruck { attacker, kind, at, blow: Blow::Missed });
            return;
        }
        let damage = PLAYER_DAMAGE.roll(|sides| self.dice.random_range(1..=sides));
        let Some(m) = self.monsters.get_mut(&id) else { return };
        m.hp = m.hp.saturating_sub(damage);
        let alive = m.hp > 0;
        obs.observe(self, Event::Stirred { monster: id, at });
        if alive {
            let blow = Blow::Hit(damage);
            obs.observe(self, Event::PlayerStruck { attacker, kind, at, blow });
            return;
        }
        self.monsters.remove(&id);
        self.monster_at.remove(&at);
        self.parties.stir();
        if let Some(p) = self.occupancy.players.get_mut(&attacker) {
            p.vitals.kills += 1;
        }
        obs.observe(self, Event::PlayerStruck { attacker, kind, at, blow: Blow::Killed(damage) });
    }

    /// With `--pvp`: a player bumps another.
    pub(super) fn player_strikes(
        &mut self,
        attacker: PlayerId,
        target: PlayerId,
        obs: &mut dyn Observer,
    ) {
        if self.dice.random_range(1..=100u8) > PLAYER_TO_HIT {
            obs.observe(self, Event::PlayerStruckPlayer { attacker, target, blow: Blow::Missed });
            return;
        }
        let damage = PLAYER_DAMAGE.roll(|sides| self.dice.random_range(1..=sides));
        let blow = Blow::Hit(damage);
        obs.observe(self, Event::PlayerStruckPlayer { attacker, target, blow });
        let by = self.name_of(attacker);
        self.hurt_player(target, damage, &by, obs);
    }

    /// Monster `id` strikes at `target`, standing next to it.
    pub(super) fn monster_attacks(
        &mut self,
        id: MonsterId,
        target: PlayerId,
        obs: &mut dyn Observer,
    ) {
        let Some(kind) = self.monsters.get(&id).map(|m| m.kind) else { return };
        let (to_hit, dice) = {
            let k = self.bestiary.kind(kind);
            (k.to_hit, k.damage)
        };
        let Some(at) = self.player(target).map(|p| p.pos) else { return };
        if self.dice.random_range(1..=100u8) > to_hit {
            obs.observe(self, Event::MonsterStruck { kind, target, at, blow: Blow::Missed });
            return;
        }
        let damage = dice.roll(|sides| self.dice.random_range(1..=sides));
        obs.observe(self, Event::MonsterStruck { kind, target, at, blow: Blow::Hit(damage) });
        let by = self.bestiary.kind(kind).a();
        self.hurt_player(target, damage, &by, obs);
    }

    /// Takes `damage` off a player's hit points; at none, it dies.
    fn hurt_player(&mut self, id: PlayerId, damage: u16, by: &str, obs: &mut dyn Observer) {
        let Some(p) = self.occupancy.players.get_mut(&id) else { return };
        p.vitals.hp = p.vitals.hp.saturating_sub(damage);
        let dead = p.vitals.hp == 0;
        obs.observe(self, Event::Vitals { id });
        if dead {
            self.die(id, by, obs);
        }
    }
}
