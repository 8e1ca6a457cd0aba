//! What a viewer sees of the others and the monsters, against what its
//! client was told: the changes to tell, found among the few that may
//! have changed for it.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use gloam_protocol::{MonsterChange, MonsterId, PlayerChange, PlayerId, Pos};

use super::view::{ChangedMonsters, Glimpse, View};
use crate::character::Player;
use crate::world::depth::rules::{CellHasher, Monster, Players};

/// The depth as one command left it, for working out what each viewer
/// must be told (see [`Views::tell_changes`]).
pub(super) struct DepthAfter<'a> {
    pub(super) depth: u16,
    pub(super) players: &'a Players,
    pub(super) monsters: &'a BTreeMap<MonsterId, Monster>,
    /// The movers not yet told to everyone, with cells they stood on.
    pub(super) held: &'a [(PlayerId, Pos)],
    /// Where each of them stands, found when a viewer is first told of a
    /// monster (most commands tell nobody of one, and in a crowd `held`
    /// holds every move of the last quarter second).
    pub(super) movers: std::cell::OnceCell<Vec<(PlayerId, Pos)>>,
    /// Monsters that moved, were hurt or died in the command.
    pub(super) changed_monsters: ChangedMonsters,
}

impl DepthAfter<'_> {
    /// What `viewer` must be told of the players and monsters since it was
    /// last told, updating `told` to match: the monsters that changed, and
    /// with news of them the batch's movers.
    pub(super) fn changes(
        &self,
        viewer: &Player,
        told: &mut View,
    ) -> (Vec<PlayerChange>, Vec<MonsterChange>) {
        if self.changed_monsters.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let changed = self.changed_monsters.ids.iter().copied();
        let monsters =
            monsters_seen(viewer, self.depth, changed, &mut told.monsters, self.monsters);
        let candidates = if monsters.is_empty() {
            &[][..]
        } else {
            &self.movers.get_or_init(|| whereabouts(self.held, self.players))[..]
        };
        let players = players_seen(viewer, self.depth, candidates, &mut told.players, self.players);
        (players, monsters)
    }
}

/// Where each player of `held` (the movers, with cells they stood on)
/// stands now; one that left the depth is [`NOWHERE`].
pub(super) fn whereabouts(held: &[(PlayerId, Pos)], players: &Players) -> Vec<(PlayerId, Pos)> {
    let mut ids: Vec<PlayerId> = held.iter().map(|&(id, _)| id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter().map(|id| (id, players.get(&id).map_or(NOWHERE, |p| p.pos))).collect()
}

/// Where a player that left the depth is, for telling: a cell no sight
/// takes in (no level is near that large), so whoever was told of it is
/// told it vanished.
pub(super) const NOWHERE: Pos = Pos { x: u16::MAX, y: u16::MAX };

/// One mover of a batch: where it stands, and the box around every cell
/// it stood on in the batch, `radius` wider on each side: who stands
/// outside it could neither see it nor have been told of it.
pub(super) struct Reach {
    pub(super) id: PlayerId,
    pub(super) at: Pos,
    pub(super) x: (u16, u16),
    pub(super) y: (u16, u16),
}

impl Reach {
    pub(super) fn reaches(&self, p: Pos) -> bool {
        (self.x.0..=self.x.1).contains(&p.x) && (self.y.0..=self.y.1).contains(&p.y)
    }
}

/// The reach of each mover of `held` (sorted by id); one that left the
/// depth reaches from the cells it stood on, and is [`NOWHERE`].
pub(super) fn reaches(held: &[(PlayerId, Pos)], players: &Players, radius: u8) -> Vec<Reach> {
    let r = u16::from(radius);
    held.chunk_by(|a, b| a.0 == b.0)
        .map(|cells| {
            let id = cells[0].0;
            let here = players.get(&id).map(|p| p.pos);
            let from = here.unwrap_or(cells[0].1);
            let at = here.unwrap_or(NOWHERE);
            let stood = std::iter::once(from).chain(cells.iter().map(|&(_, p)| p));
            let (x, y) = around(stood, r).expect("a mover stood somewhere");
            Reach { id, at, x, y }
        })
        .collect()
}

/// The box around `cells`, `r` wider on each side: its columns and its
/// rows, each (first, last); `None` for no cells.
pub(super) fn around(
    cells: impl IntoIterator<Item = Pos>,
    r: u16,
) -> Option<((u16, u16), (u16, u16))> {
    let mut cells = cells.into_iter();
    let first = cells.next()?;
    let (mut x, mut y) = ((first.x, first.x), (first.y, first.y));
    for c in cells {
        x = (x.0.min(c.x), x.1.max(c.x));
        y = (y.0.min(c.y), y.1.max(c.y));
    }
    Some((
        (x.0.saturating_sub(r), x.1.saturating_add(r)),
        (y.0.saturating_sub(r), y.1.saturating_add(r)),
    ))
}

/// Every monster `viewer` (who moved) must be told of: those it was told
/// of that are gone, then every monster on the depth.
pub(super) fn monsters_seen_anew(
    viewer: &Player,
    depth: u16,
    told: &mut BTreeMap<MonsterId, Glimpse>,
    monsters: &BTreeMap<MonsterId, Monster>,
) -> Vec<MonsterChange> {
    let gone: Vec<MonsterId> =
        told.keys().copied().filter(|id| !monsters.contains_key(id)).collect();
    let mut changes = monsters_seen(viewer, depth, gone, told, monsters);
    changes.extend(monsters_seen(viewer, depth, monsters.keys().copied(), told, monsters));
    changes
}

/// What `viewer`'s client must be told of `candidates` (the other players
/// who may have changed for it), updating `told` to match.
pub(super) fn players_seen(
    viewer: &Player,
    depth: u16,
    candidates: &[(PlayerId, Pos)],
    told: &mut HashMap<PlayerId, Pos, BuildHasherDefault<CellHasher>>,
    players: &Players,
) -> Vec<PlayerChange> {
    let memory = viewer.memory(depth);
    let mut changes = Vec::new();
    for &(other, at) in candidates {
        if other == viewer.id {
            continue;
        }
        let seen = memory.is_some_and(|m| m.sees(at));
        // One look in `told` for those it was told of: most of a crowd.
        let change = match (told.get_mut(&other), seen) {
            (Some(was), true) if *was != at => {
                *was = at;
                PlayerChange::Moved { id: other, at }
            }
            (Some(_), false) => {
                told.remove(&other);
                PlayerChange::Vanished { id: other }
            }
            (None, true) => {
                told.insert(other, at);
                let name = players.get(&other).map(|p| p.name.clone()).unwrap_or_default();
                PlayerChange::Appeared { id: other, name, at }
            }
            _ => continue,
        };
        changes.push(change);
    }
    changes
}

/// What `viewer`'s client must be told of the monsters in `candidates`
/// (those that may have changed for it: moved, hurt, killed, or all when
/// the viewer moved), updating `told` to match. Only a monster's kind,
/// place and wound level are ever told.
pub(super) fn monsters_seen(
    viewer: &Player,
    depth: u16,
    candidates: impl IntoIterator<Item = MonsterId>,
    told: &mut BTreeMap<MonsterId, Glimpse>,
    monsters: &BTreeMap<MonsterId, Monster>,
) -> Vec<MonsterChange> {
    let memory = viewer.memory(depth);
    let mut changes = Vec::new();
    for id in candidates {
        let now =
            monsters.get(&id).filter(|m| memory.is_some_and(|mem| m.shown_to(viewer.pos, mem)));
        match (told.get(&id).copied(), now) {
            (None, Some(m)) => {
                let seen = Glimpse::of(m);
                changes.push(MonsterChange::Appeared {
                    id,
                    kind: m.kind,
                    at: m.pos,
                    wound: seen.wound,
                    asleep: seen.asleep,
                });
                told.insert(id, seen);
            }
            (Some(was), Some(m)) => {
                let seen = Glimpse::of(m);
                if was.at != seen.at {
                    changes.push(MonsterChange::Moved { id, at: seen.at });
                }
                if was.wound != seen.wound {
                    changes.push(MonsterChange::Hurt { id, wound: seen.wound });
                }
                if was.asleep != seen.asleep {
                    changes.push(MonsterChange::Slept { id, asleep: seen.asleep });
                }
                if was != seen {
                    told.insert(id, seen);
                }
            }
            (Some(_), None) => {
                changes.push(MonsterChange::Vanished { id });
                told.remove(&id);
            }
            (None, None) => {}
        }
    }
    changes
}
