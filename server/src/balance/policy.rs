//! The fixed, simple way a balance run plays: what a careful beginner
//! does, in order of concern. Each concern is a small function that gives
//! an action or passes to the next:
//!
//! 1. in danger and low, drink a healing potion; lower still with none,
//!    read a scroll of teleportation or slumber;
//! 2. hurt and next to an awake monster, zap a wand of slow monster at it
//!    (one not slowed yet); else strike a monster standing next to it (the
//!    most hurt first);
//! 3. zap a wand of striking with charges left at an awake monster two or
//!    more cells off, within range; else throw its best missile at one;
//! 4. pick up what lies underfoot if it is worth having;
//! 5. wield a better weapon, wear better armour, drink a potion of
//!    vigour, drop gear it has bettered;
//! 6. rest when hurt and nothing awake is in sight;
//! 7. carrying the Gloamstone, make for the stairs up;
//! 8. go for a sleeping monster a few steps off;
//! 9. fetch what it saw lying about that is worth having;
//! 10. explore (the nearest cell at the edge of what it knows), for a
//!     while on each depth;
//! 11. rested, take the stairs down (reading a map if it never found them).
//!
//! A walk once chosen (7 to 11) is followed step by step while the
//! character learns no new cell and sees no monster, and thought out
//! again as soon as it does.
//!
//! It knows what a player knows: the cells it explored, the monsters in
//! sight (one it saw move, or hurt, is awake), the piles it saw, its pack,
//! and what the items file says of each kind.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{Action, Dir, Lying, MonsterId, Pos, Terrain, Wound};

use super::known::Known;
use crate::character::{Memory, Player};
use crate::items::{Catalogue, Class, Effect, Item, Zap};
use crate::level::Level;
use crate::tuning::Dice;
use crate::world::{Monster, combat, throwing};

/// Below this share of its hit points, in percent, in danger, it drinks.
const DRINK_BELOW: u32 = 40;
/// Below this, in danger with nothing to drink, it reads its way out.
const ESCAPE_BELOW: u32 = 25;
/// Below this, with nothing awake in sight, it stops to rest...
const REST_BELOW: u32 = 60;
/// ...until this; and it takes the stairs down no less rested.
const RESTED: u32 = 90;
/// How far on foot it goes for a sleeping monster it sees.
const HUNT_STEPS: u16 = 10;
/// Rounds it explores a depth before it makes for the stairs down.
const EXPLORE_ROUNDS: u32 = 2_500;

/// What the character knows at one moment.
#[derive(Debug)]
pub(super) struct Look<'a> {
    pub depth: u16,
    pub level: &'a Level,
    pub me: &'a Player,
    pub memory: &'a Memory,
    /// The monsters in sight.
    pub monsters: Vec<&'a Monster>,
    /// The top of every pile it remembers, by cell.
    pub piles: Vec<(Pos, Lying)>,
    pub items: &'a Catalogue,
}

impl Look<'_> {
    /// Its hit points, in percent of their most.
    fn health(&self) -> u32 {
        let v = self.me.vitals;
        u32::from(v.hp) * 100 / u32::from(v.max_hp.max(1))
    }

    /// The pack's entries with their slots.
    fn pack(&self) -> impl Iterator<Item = (u8, Item, &Class)> + '_ {
        let items = self.me.pack.items().iter().enumerate();
        items.map(|(slot, &item)| (slot as u8, item, &self.items.kind(item.kind).class))
    }

    fn carries(&self, kind: u16) -> bool {
        self.me.pack.items().iter().any(|i| i.kind == kind)
    }
}

/// What the policy remembers between moments: where it saw each monster,
/// which it knows are awake, where it has stood, and whether it is resting.
#[derive(Debug, Default)]
pub(super) struct Policy {
    depth: u16,
    rounds_here: u32,
    last_seen: BTreeMap<MonsterId, Pos>,
    awake: BTreeSet<MonsterId>,
    stood: BTreeSet<Pos>,
    known: Known,
    /// The rest of the walk it is on, the next step last: followed while
    /// it learns nothing and sees no monster.
    route: Vec<Dir>,
    resting: bool,
}

impl Policy {
    /// The action for this moment.
    pub(super) fn choose(&mut self, look: &Look) -> Action {
        self.note(look);
        let here = self
            .drink(look)
            .or_else(|| self.slow(look))
            .or_else(|| self.strike(look))
            .or_else(|| self.zap_a_bolt(look))
            .or_else(|| self.throw(look))
            .or_else(|| pick_up(look))
            .or_else(|| gear(look))
            .or_else(|| self.rest(look));
        if let Some(action) = here {
            return action;
        }
        if let Some(dir) = self.route.pop() {
            return Action::Move(dir);
        }
        let map = self.known.walk_from(look.level, look.me.pos);
        let walk = Walk { map, from: look.me.pos, route: RefCell::default() };
        let action = carry_up(look, &walk)
            .or_else(|| self.hunt(look, &walk))
            .or_else(|| fetch(look, &walk))
            .or_else(|| self.explore(&walk, true))
            .or_else(|| go_down(look, &walk))
            .or_else(|| self.explore(&walk, false))
            .unwrap_or(Action::Wait);
        self.route = walk.route.take();
        action
    }

    /// Takes in this moment: a new depth forgets the last one's monsters.
    fn note(&mut self, look: &Look) {
        if look.depth != self.depth {
            *self = Policy { depth: look.depth, ..Policy::default() };
        }
        let learnt = self.known.update(look.level, look.memory.explored());
        if learnt || !look.monsters.is_empty() {
            // What it set out for may have changed: it thinks again.
            self.route.clear();
        }
        self.rounds_here += 1;
        self.stood.insert(look.me.pos);
        for m in &look.monsters {
            let moved = self.last_seen.get(&m.id).is_some_and(|&was| was != m.pos);
            if moved || m.wound() != Wound::Unhurt {
                self.awake.insert(m.id);
            }
            self.last_seen.insert(m.id, m.pos);
        }
    }

    /// A monster next to it, or one awake in sight.
    fn in_danger(&self, look: &Look) -> bool {
        let me = look.me.pos;
        look.monsters.iter().any(|m| self.awake.contains(&m.id) || cells_between(me, m.pos) == 1)
    }

    fn drink(&self, look: &Look) -> Option<Action> {
        if !self.in_danger(look) || look.health() >= DRINK_BELOW {
            return None;
        }
        if let Some(slot) = healing(look) {
            return Some(Action::Quaff(slot));
        }
        if look.health() >= ESCAPE_BELOW {
            return None;
        }
        let read = |wanted: Effect| {
            look.pack().find_map(|(slot, _, class)| match class {
                Class::Scroll { effect, .. } if *effect == wanted => Some(Action::Read(slot)),
                _ => None,
            })
        };
        read(Effect::Teleport).or_else(|| read(Effect::Sleep))
    }

    fn strike(&self, look: &Look) -> Option<Action> {
        let me = look.me.pos;
        let next_to = look.monsters.iter().filter(|m| cells_between(me, m.pos) == 1);
        let target = next_to.max_by_key(|m| (m.wound(), std::cmp::Reverse(m.id)))?;
        towards(me, target.pos)
    }

    fn throw(&self, look: &Look) -> Option<Action> {
        let (slot, range) = best_missile(look)?;
        let at = self.far_target(look, range)?;
        Some(Action::Throw { slot, at })
    }

    /// The nearest awake monster two to `range` cells off on a clear line.
    fn far_target(&self, look: &Look, range: u8) -> Option<Pos> {
        let me = look.me.pos;
        let target = look
            .monsters
            .iter()
            .filter(|m| self.awake.contains(&m.id))
            .filter(|m| (2..=u16::from(range)).contains(&cells_between(me, m.pos)))
            .filter(|m| clear_line(look, m.pos))
            .min_by_key(|m| (cells_between(me, m.pos), m.id))?;
        Some(target.pos)
    }

    fn zap_a_bolt(&self, look: &Look) -> Option<Action> {
        let (slot, range) = charged_wand(look, |zap| matches!(zap, Zap::Bolt(_)))?;
        let at = self.far_target(look, range)?;
        Some(Action::Zap { slot, at })
    }

    /// Hurt beside an awake monster not slowed yet: slows the least hurt.
    fn slow(&self, look: &Look) -> Option<Action> {
        if look.health() >= REST_BELOW {
            return None;
        }
        let (slot, _) = charged_wand(look, |zap| matches!(zap, Zap::Slow(_)))?;
        let me = look.me.pos;
        let beside = look.monsters.iter().filter(|m| cells_between(me, m.pos) == 1);
        let target = beside
            .filter(|m| self.awake.contains(&m.id) && m.slowed == 0)
            .min_by_key(|m| (m.wound(), m.id))?;
        Some(Action::Zap { slot, at: target.pos })
    }

    fn rest(&mut self, look: &Look) -> Option<Action> {
        if self.in_danger(look) {
            self.resting = false;
            return None;
        }
        if look.health() < REST_BELOW {
            self.resting = true;
        }
        if self.resting && look.health() < RESTED {
            return Some(Action::Wait);
        }
        self.resting = false;
        None
    }

    fn hunt(&self, look: &Look, walk: &Walk) -> Option<Action> {
        let asleep = look.monsters.iter().filter(|m| !self.awake.contains(&m.id));
        let near = asleep.filter(|m| walk.steps(m.pos).is_some_and(|s| s <= HUNT_STEPS));
        let target = near.min_by_key(|m| (walk.steps(m.pos), m.id))?;
        walk.step_to(target.pos)
    }

    /// Towards the nearest cell at the edge of what it knows, one it has
    /// not stood on; `bounded`, only for a while on each depth.
    fn explore(&self, walk: &Walk, bounded: bool) -> Option<Action> {
        if bounded && self.rounds_here > EXPLORE_ROUNDS {
            return None;
        }
        let cells = self.known.edge().filter(|p| !self.stood.contains(p));
        walk.step_to(walk.nearest(cells)?)
    }
}

/// The pack's healing potion that best fits the hit points it lacks: the
/// weakest that heals them all, else the strongest.
fn healing(look: &Look) -> Option<u8> {
    let lacks = u32::from(look.me.vitals.max_hp - look.me.vitals.hp) * 10;
    let potions = look.pack().filter_map(|(slot, _, class)| match class {
        Class::Potion { effect: Effect::Heal(dice), .. } => Some((slot, mean10(*dice))),
        _ => None,
    });
    let potions: Vec<(u8, u32)> = potions.collect();
    let enough = potions.iter().filter(|&&(_, heals)| heals >= lacks).min_by_key(|p| p.1);
    enough.or_else(|| potions.iter().max_by_key(|p| p.1)).map(|p| p.0)
}

/// The slot and range of a wand whose zap `wanted` takes, with a charge
/// left (its count holds its charges and one).
fn charged_wand(look: &Look, wanted: impl Fn(&Zap) -> bool) -> Option<(u8, u8)> {
    look.pack().find_map(|(slot, item, class)| match class {
        Class::Wand { zap, range, .. } if wanted(zap) && item.count > 1 => Some((slot, *range)),
        _ => None,
    })
}

/// The missile that hits hardest, and how far it flies.
fn best_missile(look: &Look) -> Option<(u8, u8)> {
    let missiles = look.pack().filter_map(|(slot, _, class)| match class {
        Class::Missile { damage, range, .. } => Some((slot, *range, mean10(*damage))),
        _ => None,
    });
    missiles.max_by_key(|&(slot, _, hits)| (hits, std::cmp::Reverse(slot))).map(|m| (m.0, m.1))
}

/// How much a blow does, on the whole: its chance to land times its mean
/// damage.
fn blow_worth(look: &Look, damage: Dice, bonus: i8) -> u32 {
    u32::from(combat::to_hit(look.me.level(), bonus)) * mean10(damage)
}

/// What the weapon in hand is worth (bare hands without one).
fn wielded_worth(look: &Look) -> u32 {
    let wielded = look.me.pack.wielded().and_then(|s| look.pack().find(|p| p.0 == s));
    match wielded.map(|p| *p.2) {
        Some(Class::Weapon { damage, to_hit, .. }) => blow_worth(look, damage, to_hit),
        _ => blow_worth(look, combat::PLAYER_DAMAGE, 0),
    }
}

/// What the armour worn is worth.
fn worn_armour(look: &Look) -> i8 {
    let worn = look.me.pack.worn().and_then(|s| look.pack().find(|p| p.0 == s));
    match worn.map(|p| *p.2) {
        Some(Class::Armour { armour, .. }) => armour,
        _ => 0,
    }
}

/// Whether a kind is worth carrying: anything used up or thrown, the
/// Gloamstone, and gear better than what it has on.
fn worth_having(look: &Look, kind: u16) -> bool {
    match look.items.kind(kind).class {
        Class::Weapon { damage, to_hit, .. } => {
            blow_worth(look, damage, to_hit) > wielded_worth(look)
        }
        Class::Armour { armour, .. } => armour > worn_armour(look),
        _ => true,
    }
}

fn pick_up(look: &Look) -> Option<Action> {
    let &(_, top) = look.piles.iter().find(|(at, _)| *at == look.me.pos)?;
    let item = Item { kind: top.kind, count: top.count };
    let fits = look.me.pack.has_room_for(item, look.items.kind(top.kind).stacks());
    (fits && worth_having(look, top.kind)).then_some(Action::PickUp)
}

/// Better gear on, vigour drunk, bettered gear dropped.
fn gear(look: &Look) -> Option<Action> {
    let (wielded, worn) = (wielded_worth(look), worn_armour(look));
    let spare = |slot: u8| look.me.pack.gear_at(slot).is_none();
    look.pack().filter(|&(slot, _, _)| spare(slot)).find_map(|(slot, _, class)| match *class {
        Class::Potion { effect: Effect::Vigour(_), .. } => Some(Action::Quaff(slot)),
        Class::Weapon { damage, to_hit, .. } if blow_worth(look, damage, to_hit) > wielded => {
            Some(Action::Wield(slot))
        }
        Class::Armour { armour, .. } if armour > worn => Some(Action::Wear(slot)),
        Class::Weapon { .. } | Class::Armour { .. } => Some(Action::Drop(slot)),
        _ => None,
    })
}

fn carry_up(look: &Look, walk: &Walk) -> Option<Action> {
    if !look.carries(look.items.artifact()) {
        return None;
    }
    if look.level.terrain(look.me.pos) == Terrain::StairsUp {
        return Some(Action::Ascend);
    }
    walk.step_to(look.level.arrival)
}

fn fetch(look: &Look, walk: &Walk) -> Option<Action> {
    let room = |top: &Lying| {
        let item = Item { kind: top.kind, count: top.count };
        look.me.pack.has_room_for(item, look.items.kind(top.kind).stacks())
    };
    let wanted = look.piles.iter().filter(|(_, top)| room(top) && worth_having(look, top.kind));
    walk.step_to(walk.nearest(wanted.map(|&(at, _)| at))?)
}

fn go_down(look: &Look, walk: &Walk) -> Option<Action> {
    let stairs = look.level.stairs_down;
    if look.level.terrain(stairs) != Terrain::StairsDown {
        return None;
    }
    if walk.steps(stairs).is_none() {
        return read_a_map(look);
    }
    if look.me.pos != stairs {
        return walk.step_to(stairs);
    }
    Some(if look.health() >= RESTED { Action::Descend } else { Action::Wait })
}

fn read_a_map(look: &Look) -> Option<Action> {
    look.pack().find_map(|(slot, _, class)| match class {
        Class::Scroll { effect: Effect::MagicMapping, .. } => Some(Action::Read(slot)),
        Class::Potion { effect: Effect::MagicMapping, .. } => Some(Action::Quaff(slot)),
        _ => None,
    })
}

/// Walking distances from where it stands over the open cells it knows.
struct Walk {
    map: DistanceMap,
    from: Pos,
    /// After the step it chose, the rest of that walk, the next step last.
    route: RefCell<Vec<Dir>>,
}

impl Walk {
    fn steps(&self, to: Pos) -> Option<u16> {
        self.map.get(to)
    }

    /// The nearest of `cells` on foot (the first in row order of those as near).
    fn nearest(&self, cells: impl Iterator<Item = Pos>) -> Option<Pos> {
        cells.filter_map(|p| Some((self.steps(p)?, p.y, p.x))).min().map(|(_, y, x)| Pos::new(x, y))
    }

    /// The first step of a shortest walk to `to`.
    fn step_to(&self, to: Pos) -> Option<Action> {
        if to == self.from {
            return None;
        }
        let mut steps = self.map.path_to(to)?;
        steps.reverse();
        let first = steps.pop()?;
        *self.route.borrow_mut() = steps;
        Some(Action::Move(first))
    }
}

/// Steps between two cells, as the crow flies (diagonals count one).
fn cells_between(a: Pos, b: Pos) -> u16 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

/// Whether a missile thrown at `at` would get there: no wall on the way.
fn clear_line(look: &Look, at: Pos) -> bool {
    let line = throwing::line(look.me.pos, at);
    line.iter().all(|&p| look.level.terrain(p).is_open())
}

/// The step from `from` onto the neighbouring cell `to`.
fn towards(from: Pos, to: Pos) -> Option<Action> {
    Dir::ALL.into_iter().find(|&d| from.step(d) == Some(to)).map(Action::Move)
}

/// The mean of a roll, times ten.
fn mean10(dice: Dice) -> u32 {
    u32::from(dice.count) * (u32::from(dice.sides) + 1) * 5
}
