//! Throwing: a missile flies in a straight line at a cell the thrower
//! sees, within its range, and stops at the first monster in its way (or,
//! with `--pvp`, the first player), or short of the first wall. Where it
//! stops, it falls to the floor, to be picked up again.

use gloam_protocol::{PlayerId, Pos};
use rand::RngExt;

use super::Rules;
use super::combat;
use super::events::{Blow, Event, Observer, Refusal, Strike};
use super::flow::Killer;
use crate::items::{Class, Item};

impl Rules {
    /// Throws one of the missiles in `slot` at `at`.
    pub(super) fn throw(&mut self, id: PlayerId, slot: u8, at: Pos, obs: &mut dyn Observer) {
        let Some(player) = self.player(id) else { return };
        let from = player.pos;
        let Some(item) = player.pack.get(slot) else {
            return self.refuse(id, Refusal::NoSuchItem, obs);
        };
        let Class::Missile { damage, range, .. } = self.items.kind(item.kind).class else {
            return self.refuse(id, Refusal::CannotThrow, obs);
        };
        let sees = player.memory(self.depth).is_some_and(|m| m.sees(at));
        if at == from || !sees {
            return self.refuse(id, Refusal::NotInSight, obs);
        }
        if from.x.abs_diff(at.x).max(from.y.abs_diff(at.y)) > u16::from(range) {
            return self.refuse(id, Refusal::OutOfRange, obs);
        }
        let Some(player) = self.occupancy.get_mut(id) else { return };
        let missile = player.pack.take(slot, 1).expect("the slot holds one");
        obs.observe(self, Event::PackChanged { id });
        let (landed, struck) = self.flight(id, from, at, usize::from(range));
        obs.observe(self, Event::Threw { id, kind: item.kind });
        match struck {
            Some(Struck::Monster(monster)) => {
                let to_hit = self.to_hit_of(id);
                self.strike_monster(id, monster, to_hit, damage, Strike::Missile(item.kind), obs);
            }
            Some(Struck::Player(target)) => self.missile_at_player(id, target, damage, obs),
            None => {}
        }
        self.fall(landed, missile, id, obs);
        self.see(id, true, obs);
    }

    /// Where a missile (or a bolt) thrown from `from` at `at` stops, and
    /// whom it reaches there: the cells of the line from `from` on, up to
    /// `at` and no more than `reach` of them.
    pub(super) fn flight(
        &self,
        thrower: PlayerId,
        from: Pos,
        at: Pos,
        reach: usize,
    ) -> (Pos, Option<Struck>) {
        let mut last = from;
        for cell in line(from, at).into_iter().skip(1).take(reach) {
            if !self.level.terrain(cell).is_open() {
                return (last, None);
            }
            if let Some(monster) = self.monsters.at(cell) {
                return (cell, Some(Struck::Monster(monster)));
            }
            match self.occupancy.at(cell) {
                Some(other) if self.host.pvp && other != thrower => {
                    return (cell, Some(Struck::Player(other)));
                }
                _ => {}
            }
            last = cell;
        }
        (last, None)
    }

    /// With `--pvp`: a missile (or bolt) of `damage` from player `id`
    /// reaches player `target`, with a throw's chance to land.
    pub(super) fn missile_at_player(
        &mut self,
        id: PlayerId,
        target: PlayerId,
        damage: crate::tuning::Dice,
        obs: &mut dyn Observer,
    ) {
        if self.dice.random_range(1..=100u8) <= self.to_hit_of(id) {
            let roll = damage.roll(|sides| self.dice.random_range(1..=sides));
            let blow = Blow::Hit(roll);
            obs.observe(self, Event::PlayerStruckPlayer { attacker: id, target, blow });
            let by = Killer::Player(self.name_of(id));
            self.hurt_player(target, roll, by, obs);
        } else {
            let blow = Blow::Missed;
            obs.observe(self, Event::PlayerStruckPlayer { attacker: id, target, blow });
        }
    }

    /// A missile falls on `pos`: onto its pile, seen by those who see it.
    fn fall(&mut self, pos: Pos, missile: Item, thrower: PlayerId, obs: &mut dyn Observer) {
        self.lay(pos, missile);
        self.floor_changed(pos, Some(thrower), obs);
    }

    /// A player's chance to land a throw, in percent: its level's, with its
    /// background's throwing points (see `combat`).
    pub(super) fn to_hit_of(&self, id: PlayerId) -> u8 {
        let (level, skill) = self.player(id).map_or((1, 0), |p| (p.level(), p.skills.throwing));
        combat::to_hit(level, skill)
    }
}

/// Whom a missile reaches.
pub(super) enum Struck {
    Monster(gloam_protocol::MonsterId),
    Player(PlayerId),
}

/// The cells of a straight line from `a` to `b`, both included
/// (Bresenham's, stepping on the longer axis).
pub(crate) fn line(a: Pos, b: Pos) -> Vec<Pos> {
    let (x0, y0, x1, y1) = (i32::from(a.x), i32::from(a.y), i32::from(b.x), i32::from(b.y));
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let (mut x, mut y, mut err) = (x0, y0, dx + dy);
    let mut cells = Vec::with_capacity((dx.max(-dy) + 1) as usize);
    loop {
        cells.push(Pos::new(x as u16, y as u16));
        if x == x1 && y == y1 {
            return cells;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_runs_from_end_to_end_one_step_at_a_time() {
        let cases = [((2, 2), (2, 2)), ((0, 0), (5, 2)), ((5, 2), (0, 0)), ((3, 9), (4, 1))];
        for ((ax, ay), (bx, by)) in cases {
            let (a, b) = (Pos::new(ax, ay), Pos::new(bx, by));
            let cells = line(a, b);
            assert_eq!((cells[0], *cells.last().unwrap()), (a, b));
            let longer = usize::from(a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)));
            assert_eq!(cells.len(), longer + 1, "{a:?} to {b:?}");
            for pair in cells.windows(2) {
                let step = pair[0].x.abs_diff(pair[1].x).max(pair[0].y.abs_diff(pair[1].y));
                assert_eq!(step, 1, "{cells:?}");
            }
        }
    }
}
