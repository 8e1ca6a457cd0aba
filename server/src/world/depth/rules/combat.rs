//! Blows between players and monsters, and between players with `--pvp`:
//! who hits, for how much, and who dies of it, and the experience a kill
//! gives. Every roll comes from the depth's dice.

use gloam_protocol::{MonsterId, PlayerId, Pos};
use rand::RngExt;

use super::Rules;
use super::events::{Blow, Event, Observer, Strike};
use super::flow::Killer;
use crate::bestiary::{Dice, KindId};
use crate::character::experience::{self, TO_HIT_PER_LEVEL};
use crate::mapgen::stock::Draw;

/// A bare-handed player's blow: its chance to land at level 1, in
/// percent, and its damage.
pub(crate) const PLAYER_TO_HIT: u8 = 80;
pub(crate) const PLAYER_DAMAGE: Dice = Dice { count: 2, sides: 4 };
/// A player gets back one hit point every this many rounds.
pub(crate) const REGEN_EVERY: u64 = 5;
/// No blow is ever surer than this, or less sure than `LEAST_TO_HIT`.
pub(crate) const MOST_TO_HIT: i32 = 95;
pub(crate) const LEAST_TO_HIT: i32 = 5;

/// A player's chance to land a blow at `level`, with a weapon adding
/// `bonus` percent points.
pub(crate) fn to_hit(level: u8, bonus: i8) -> u8 {
    let levels = i32::from(TO_HIT_PER_LEVEL) * i32::from(level.max(1) - 1);
    (i32::from(PLAYER_TO_HIT) + levels + i32::from(bonus)).clamp(LEAST_TO_HIT, MOST_TO_HIT) as u8
}

/// A monster's chance to land a blow of `to_hit` percent on a player whose
/// armour takes `armour` points off it.
pub(crate) fn to_hit_against(to_hit: u8, armour: i8) -> u8 {
    (i32::from(to_hit) - i32::from(armour)).clamp(LEAST_TO_HIT, MOST_TO_HIT) as u8
}

impl Rules {
    /// A player bumps a monster: a blow with what it wields.
    pub(super) fn player_attacks(
        &mut self,
        attacker: PlayerId,
        id: MonsterId,
        obs: &mut dyn Observer,
    ) {
        let (damage, to_hit) = self.blow_of(attacker);
        self.strike_monster(attacker, id, to_hit, damage, Strike::Blow, obs);
    }

    /// A player's blow: its damage dice and chance to land (its weapon's
    /// and its background's points added).
    fn blow_of(&self, id: PlayerId) -> (Dice, u8) {
        let (level, skill) = self.player(id).map_or((1, 0), |p| (p.level(), p.skills.to_hit));
        match self.weapon_of(id) {
            Some((damage, bonus)) => (damage, to_hit(level, bonus.saturating_add(skill))),
            None => (PLAYER_DAMAGE, to_hit(level, skill)),
        }
    }

    /// The damage of a player's blow that landed: `damage` rolled, and its
    /// background's points added (never below 1).
    fn blow_damage(&mut self, id: PlayerId, damage: Dice) -> u16 {
        let rolled = damage.roll(|sides| self.dice.random_range(1..=sides));
        let plus = self.player(id).map_or(0, |p| p.skills.damage);
        rolled.saturating_add_signed(i16::from(plus)).max(1)
    }

    /// A player's blow, missile or bolt (`by` says which) reaches a monster:
    /// it wakes and turns on the player, and the blow may land or kill it.
    pub(super) fn strike_monster(
        &mut self,
        attacker: PlayerId,
        id: MonsterId,
        to_hit: u8,
        damage: Dice,
        by: Strike,
        obs: &mut dyn Observer,
    ) {
        let Some((kind, at)) = self.provoke(attacker, id, obs) else { return };
        let struck = |blow| Event::PlayerStruck { attacker, kind, at, blow, by };
        if self.dice.random_range(1..=100u8) > to_hit {
            obs.observe(self, struck(Blow::Missed));
            return;
        }
        let damage = match by {
            Strike::Blow => self.blow_damage(attacker, damage),
            Strike::Missile(_) | Strike::Bolt => {
                damage.roll(|sides| self.dice.random_range(1..=sides))
            }
        };
        let Some(m) = self.monsters.get_mut(&id) else { return };
        m.hp = m.hp.saturating_sub(damage);
        let alive = m.hp > 0;
        obs.observe(self, Event::MonsterChanged { monster: id, at });
        if alive {
            obs.observe(self, struck(Blow::Hit(damage)));
            return;
        }
        // Those who fought it: the killer's party while it still stood.
        let fought = self.party_of(attacker);
        let loot = self.monsters.get(&id).and_then(|m| m.loot);
        self.monsters.remove(id);
        if self.bestiary.kind(kind).unique {
            let by = self.name_of(attacker);
            self.flow.slayings.push(super::flow::Slaying { kind, by });
        }
        if let Some(p) = self.occupancy.get_mut(attacker) {
            p.vitals.kills += 1;
            let name = &self.bestiary.kind(kind).name;
            match p.slain.get_mut(name) {
                Some(count) => *count += 1,
                None => _ = p.slain.insert(name.clone(), 1),
            }
        }
        obs.observe(self, struck(Blow::Killed(damage)));
        self.award(&fought, kind, obs);
        if let Some(loot) = loot {
            // What it stole falls where it dies.
            self.lay(at, loot);
            self.floor_changed(at, Some(attacker), obs);
        }
        self.drop_loot(kind, at, attacker, obs);
    }

    /// Monster `id` is struck at by player `attacker`: it wakes and turns
    /// on it. Gives its kind and where it stands; none if it is gone.
    pub(super) fn provoke(
        &mut self,
        attacker: PlayerId,
        id: MonsterId,
        obs: &mut dyn Observer,
    ) -> Option<(KindId, Pos)> {
        let attacker_pos = self.player(attacker).map(|p| p.pos);
        let woke = self.monsters.get(&id).is_some_and(|m| !m.is_awake());
        let m = self.monsters.wake(id)?;
        let (kind, at) = (m.kind, m.pos);
        m.dozing = 0;
        m.prey = Some(attacker);
        m.goal = attacker_pos;
        if woke {
            obs.observe(self, Event::MonsterChanged { monster: id, at });
        }
        Some((kind, at))
    }

    /// A monster of `kind` died on `at`: by its kind's chance, it drops an
    /// item of those that lie at this depth. `killer` sees it with its
    /// answer; the others who see the cell are told now.
    fn drop_loot(&mut self, kind: KindId, at: Pos, killer: PlayerId, obs: &mut dyn Observer) {
        let drops = self.bestiary.kind(kind).drops;
        if drops == 0 || self.dice.random_range(1..=100u8) > drops {
            return;
        }
        let draw = Draw::at(&self.items, self.depth);
        let Some(item) = draw.maybe_one(&self.items, &mut self.dice) else { return };
        self.lay(at, item);
        self.floor_changed(at, Some(killer), obs);
    }

    /// A kill of a monster of `kind` by the party that `fought` it: its
    /// worth in experience, shared out evenly (rounded up) among them.
    fn award(&mut self, fought: &[PlayerId], kind: KindId, obs: &mut dyn Observer) {
        let party: Vec<PlayerId> =
            fought.iter().copied().filter(|&p| self.player(p).is_some()).collect();
        let worth = self.bestiary.kind(kind).xp();
        let share = worth.div_ceil(party.len().max(1) as u32);
        for id in party {
            let Some(p) = self.occupancy.get_mut(id) else { continue };
            let level = experience::gain(&mut p.xp, &mut p.vitals, share);
            obs.observe(self, Event::Gained { id, level });
            if level.is_some() {
                obs.observe(self, Event::Vitals { id });
            }
        }
    }

    /// With `--pvp`: a player bumps another.
    pub(super) fn player_strikes(
        &mut self,
        attacker: PlayerId,
        target: PlayerId,
        obs: &mut dyn Observer,
    ) {
        let (damage, to_hit) = self.blow_of(attacker);
        if self.dice.random_range(1..=100u8) > to_hit {
            obs.observe(self, Event::PlayerStruckPlayer { attacker, target, blow: Blow::Missed });
            return;
        }
        let damage = self.blow_damage(attacker, damage);
        let blow = Blow::Hit(damage);
        obs.observe(self, Event::PlayerStruckPlayer { attacker, target, blow });
        let by = Killer::Player(self.name_of(attacker));
        self.hurt_player(target, damage, by, obs);
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
        let to_hit = to_hit_against(to_hit, self.armour_of(target));
        if self.dice.random_range(1..=100u8) > to_hit {
            obs.observe(self, Event::MonsterStruck { kind, target, at, blow: Blow::Missed });
            return;
        }
        let damage = dice.roll(|sides| self.dice.random_range(1..=sides));
        obs.observe(self, Event::MonsterStruck { kind, target, at, blow: Blow::Hit(damage) });
        self.hurt_player(target, damage, Killer::Monster(kind), obs);
        if self.bestiary.kind(kind).steals {
            self.steal(id, target, obs);
        }
    }

    /// Monster `id` shoots at `target` if its kind shoots, the target is
    /// within its range, and the line a thrown missile would fly from it
    /// to the target is open ground with nobody else on it (it sees its
    /// target: a monster acts only on prey it sees). False when it does not.
    pub(super) fn monster_shoots(
        &mut self,
        id: MonsterId,
        target: PlayerId,
        obs: &mut dyn Observer,
    ) -> bool {
        let Some((kind, from)) = self.monsters.get(&id).map(|m| (m.kind, m.pos)) else {
            return false;
        };
        let k = self.bestiary.kind(kind);
        let Some((range, dice, to_hit)) = k.shoots.as_ref().map(|s| (s.range, s.damage, k.to_hit))
        else {
            return false;
        };
        let Some(at) = self.player(target).map(|p| p.pos) else { return false };
        let far = from.x.abs_diff(at.x).max(from.y.abs_diff(at.y));
        if far > u16::from(range) || !self.clear_shot(from, at) {
            return false;
        }
        let to_hit = to_hit_against(to_hit, self.armour_of(target));
        if self.dice.random_range(1..=100u8) > to_hit {
            obs.observe(self, Event::MonsterShot { kind, from, target, at, blow: Blow::Missed });
            return true;
        }
        let damage = dice.roll(|sides| self.dice.random_range(1..=sides));
        obs.observe(self, Event::MonsterShot { kind, from, target, at, blow: Blow::Hit(damage) });
        self.hurt_player(target, damage, Killer::Monster(kind), obs);
        true
    }

    /// Whether the cells strictly between `from` and `to`, along the line
    /// a missile flies, are open and empty.
    fn clear_shot(&self, from: Pos, to: Pos) -> bool {
        let cells = super::throwing::line(from, to);
        let between = &cells[1..cells.len() - 1];
        between.iter().all(|&c| {
            self.level.terrain(c).is_open()
                && !self.monsters.is_at(c)
                && self.occupancy.at(c).is_none()
        })
    }

    /// Takes `damage` off a player's hit points; at none, it dies.
    pub(super) fn hurt_player(
        &mut self,
        id: PlayerId,
        damage: u16,
        by: Killer,
        obs: &mut dyn Observer,
    ) {
        let Some(p) = self.occupancy.get_mut(id) else { return };
        p.vitals.hp = p.vitals.hp.saturating_sub(damage);
        let dead = p.vitals.hp == 0;
        obs.observe(self, Event::Vitals { id });
        if dead {
            self.die(id, by, obs);
        }
    }
}
