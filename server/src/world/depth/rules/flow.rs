//! The game's flow, as the rules hand it back from each command: whose
//! action was answered, who came, who went and how, who died of what, and
//! what a player on a standing order would stop for. The rules fill it and
//! return it; the depth's task acts on it (answers connections, hands
//! players on, buries the dead) and the views word it. Nothing in it is a
//! message: a replay drops it, and a test reads it.

use gloam_protocol::{Lying, MonsterId, PlayerId, Pos};

use crate::bestiary::KindId;
use crate::character::Player;
use crate::items::ItemKindId;
use crate::world::depth::Arrival;

/// What one command did to the game's flow.
#[derive(Debug, Default)]
pub struct Flow {
    /// Players whose action (or arrival) was applied: their next may come.
    pub answered: Vec<PlayerId>,
    /// Players whose action was refused (a wall bumped, no stairs, nothing
    /// to pick up): it changed nothing and cost nothing.
    pub refused: Vec<PlayerId>,
    /// Players put on the depth.
    pub arrivals: Vec<PlayerId>,
    /// Players taken off the depth, and how they went; those who took the
    /// stairs are in `departures` too, and those who died or escaped in
    /// `deaths`.
    pub left: Vec<(PlayerId, Leaving)>,
    pub departures: Vec<Departure>,
    pub deaths: Vec<Death>,
    /// What a player whose step was watched (a standing order's) saw or
    /// suffered that should stop its order, in the order it happened.
    pub notices: Vec<(PlayerId, Notice)>,
    /// Uniques slain, to be kept as slain for good.
    pub slayings: Vec<Slaying>,
}

impl Flow {
    /// Only `id` answered, with nothing else: an order that took no step.
    pub fn answering(id: PlayerId) -> Self {
        Self { answered: vec![id], ..Self::default() }
    }

    /// What `then` did, after this.
    pub fn append(&mut self, then: Flow) {
        join(&mut self.answered, then.answered);
        join(&mut self.refused, then.refused);
        join(&mut self.arrivals, then.arrivals);
        join(&mut self.left, then.left);
        join(&mut self.departures, then.departures);
        join(&mut self.deaths, then.deaths);
        join(&mut self.notices, then.notices);
        join(&mut self.slayings, then.slayings);
    }

    /// `id` is no longer on the depth: its action is no longer answered.
    pub(super) fn gone(&mut self, id: PlayerId, how: Leaving) {
        self.answered.retain(|&a| a != id);
        self.left.push((id, how));
    }
}

/// `more` after what `into` holds; moved, not copied, into an empty one
/// (most commands hand back one flow, joined to an empty outcome).
pub(crate) fn join<T>(into: &mut Vec<T>, more: Vec<T>) {
    if into.is_empty() {
        *into = more;
    } else {
        into.extend(more);
    }
}

/// How a player left the depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Leaving {
    /// It left the game.
    Quit,
    /// Its connection was lost, or fell behind.
    Lost,
    Died,
    /// Down the stairs.
    WentDown,
    /// Up the stairs.
    WentUp,
    /// Up from the first depth with the artifact: it won.
    Escaped,
}

/// A player who took the stairs, handed back for the depth it goes to.
#[derive(Debug)]
pub struct Departure {
    pub player: Player,
    pub depth: u16,
    pub via: Arrival,
}

/// A player whose life in the dungeon ended: it died, or escaped with the
/// artifact; taken off the depth. Its pack is what it carried at the end
/// (the items of one that died lie where it fell).
#[derive(Debug)]
pub struct Death {
    pub player: Player,
    pub end: End,
}

/// How a life ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Killed, by whom.
    Killed(Killer),
    /// It escaped with the artifact of this kind: to the hall of the
    /// living, not the graveyard.
    Escaped(ItemKindId),
}

impl End {
    pub fn escaped(&self) -> bool {
        matches!(self, End::Escaped(_))
    }
}

/// A unique slain: its kind, and the name of the player who slew it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slaying {
    pub kind: KindId,
    pub by: String,
}

/// Who struck the last blow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Killer {
    Monster(KindId),
    /// Another player (with `--pvp`), by name: it may be gone by the time
    /// the death is worded.
    Player(String),
}

/// Something a player on a standing order would want to see, and stop for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// It lost hit points (the blow's own line says so).
    Hurt,
    /// A monster of `kind` came into its view.
    CameIntoView { kind: KindId, asleep: bool },
    /// A monster in its view woke (the waking's own line says so).
    Woke,
    /// It saw an item it did not know of, on `at`.
    SawItem { at: Pos, top: Lying },
}

/// What a player on a standing order knows, kept up through its step to
/// tell what it noticed: the rules look again each time its sight changes
/// and once at the step's end, so a monster that comes into view asleep and
/// wakes in the same step is noticed as it came.
#[derive(Debug)]
pub(crate) struct Watch {
    pub(super) id: PlayerId,
    hp: u16,
    /// The monsters it knows to be in its view, and whether each is awake.
    monsters: Vec<(MonsterId, bool)>,
    /// The piles it remembers, and what lies on top.
    piles: Vec<(Pos, Lying)>,
    noticed: Vec<Notice>,
}

impl Watch {
    /// What `id` knows now on `rules`' depth, with `told`, the monsters its
    /// client was told are in its view (and whether each is awake): one
    /// put there since it was last told is news to it.
    pub(crate) fn of(rules: &super::Rules, id: PlayerId, told: Vec<(MonsterId, bool)>) -> Self {
        let player = rules.player(id);
        Self {
            id,
            hp: player.map_or(0, |p| p.vitals.hp),
            monsters: told,
            piles: player.map(|p| remembered_piles(rules, p)).unwrap_or_default(),
            noticed: Vec::new(),
        }
    }

    /// Looks again: hurt, then the monsters that came into view or woke
    /// (by id), then the items it learnt of (by place), each noticed once.
    pub(crate) fn look(&mut self, rules: &super::Rules) {
        let Some(player) = rules.player(self.id) else { return };
        if player.vitals.hp < self.hp {
            self.noticed.push(Notice::Hurt);
        }
        self.hp = player.vitals.hp;
        let seen = seen_monsters(rules, player);
        for &(monster, awake) in &seen {
            let before = self.monsters.iter().find(|(m, _)| *m == monster).map(|&(_, a)| a);
            match before {
                None => {
                    let kind = rules.monsters[&monster].kind;
                    self.noticed.push(Notice::CameIntoView { kind, asleep: !awake });
                }
                Some(false) if awake => self.noticed.push(Notice::Woke),
                Some(_) => {}
            }
        }
        self.monsters = seen;
        let piles = remembered_piles(rules, player);
        for &(at, top) in &piles {
            if !self.piles.contains(&(at, top)) {
                self.noticed.push(Notice::SawItem { at, top });
            }
        }
        self.piles = piles;
    }

    /// Everything noticed, in the order it was.
    pub(crate) fn notices(self) -> Vec<(PlayerId, Notice)> {
        self.noticed.into_iter().map(|n| (self.id, n)).collect()
    }
}

/// The piles `player` remembers on `rules`' depth, by row then column (as
/// it is told them).
fn remembered_piles(rules: &super::Rules, player: &Player) -> Vec<(Pos, Lying)> {
    let Some(memory) = player.memory(rules.depth) else { return Vec::new() };
    let mut piles: Vec<(Pos, Lying)> =
        memory.recall_floor().into_iter().filter_map(|c| Some((c.at, c.top?))).collect();
    piles.sort_unstable_by_key(|(p, _)| (p.y, p.x));
    piles
}

/// The monsters `player` sees, by id, and whether each is awake.
fn seen_monsters(rules: &super::Rules, player: &Player) -> Vec<(MonsterId, bool)> {
    let Some(memory) = player.memory(rules.depth) else { return Vec::new() };
    let shown = |m: &&super::Monster| m.shown_to(player.pos, memory);
    rules.monsters.values().filter(shown).map(|m| (m.id, m.is_awake())).collect()
}
