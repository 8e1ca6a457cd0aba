//! Standing orders: explore, travel and rest. A player's client sends the
//! order once; its connection hands it to the depth again at the player's
//! pace for as long as the depth says it goes on (see `net::session`).
//! Each time, the depth works out one step (or a wait) from what the
//! player knows, never from what it does not: the cells it remembers and
//! the monsters and players it sees. That step is applied as the action
//! it is (a `Move` or a `Wait`, logged as such, so a replay needs none of
//! this), and the order goes on until it is done or something happens that
//! a player would want to see: a monster comes into view, the player is
//! hurt, or it sees an item. With an awake monster in view it does not
//! start at all.

use gloam_protocol::walk::{DistanceMap, UNREACHED};
use gloam_protocol::{Action, Dir, MonsterChange, PlayerId, Pos, ServerMsg, SightDiff, Terrain};

use super::Outgoing;
use super::rules::Rules;
use crate::bestiary::capitalised;
use crate::character::Player;

/// What a standing order is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// The nearest place the player's memory leaves unexplored.
    Explore,
    /// A remembered cell.
    Travel(Pos),
    /// The nearest remembered stairs of this kind.
    Stairs(Terrain),
    /// Full hit points.
    Rest,
}

impl Order {
    /// The order `action` gives player `id`, if it is one: exploring,
    /// travelling and resting are; so are the stairs' actions away from
    /// stairs of their kind.
    pub fn of(rules: &Rules, id: PlayerId, action: Action) -> Option<Order> {
        let here = rules.player(id).map(|p| rules.level.terrain(p.pos));
        match action {
            Action::Explore => Some(Order::Explore),
            Action::Travel(to) => Some(Order::Travel(to)),
            Action::Rest => Some(Order::Rest),
            Action::Descend if here != Some(Terrain::StairsDown) => {
                Some(Order::Stairs(Terrain::StairsDown))
            }
            Action::Ascend if here != Some(Terrain::StairsUp) => {
                Some(Order::Stairs(Terrain::StairsUp))
            }
            _ => None,
        }
    }

    /// The action that carries the order one step further for `id`, or
    /// why it cannot (a line for the player).
    pub fn step(self, rules: &Rules, id: PlayerId) -> Result<Action, String> {
        let player = rules.player(id).ok_or_else(String::new)?;
        if let Some(name) = awake_in_view(rules, player) {
            return Err(format!("Not with {name} in view."));
        }
        let targets = match self {
            Order::Rest if player.vitals.hp >= player.vitals.max_hp => {
                return Err("You are at full health.".into());
            }
            Order::Rest => return Ok(Action::Wait),
            Order::Explore => unexplored(rules, player),
            Order::Travel(to) if known_open(rules, player, to) => vec![to],
            Order::Travel(_) => return Err("You do not know the way there.".into()),
            Order::Stairs(kind) => remembered(rules, player, kind),
        };
        if targets.is_empty() {
            return Err(match self {
                Order::Stairs(Terrain::StairsDown) => "You know of no stairs down.".into(),
                Order::Stairs(_) => "You know of no stairs up.".into(),
                _ => "Nothing left to explore.".into(),
            });
        }
        let dir = towards(rules, player, &targets)
            .ok_or_else(|| "You know of no way there that is free.".to_string())?;
        Ok(Action::Move(dir))
    }

    /// True when the order is carried out for `id` as it stands now.
    pub fn is_done(self, rules: &Rules, id: PlayerId) -> bool {
        let Some(player) = rules.player(id) else { return true };
        match self {
            Order::Explore => false,
            Order::Travel(to) => player.pos == to,
            Order::Stairs(kind) => rules.level.terrain(player.pos) == kind,
            Order::Rest => player.vitals.hp >= player.vitals.max_hp,
        }
    }
}

/// "a jackal" when an awake monster is in `player`'s sight.
fn awake_in_view(rules: &Rules, player: &Player) -> Option<String> {
    let memory = player.memory(rules.depth)?;
    let m = rules.monsters.values().find(|m| m.awake && memory.sees(m.pos))?;
    Some(rules.bestiary.kind(m.kind).a())
}

/// True when `player` remembers `pos` and it can be walked on.
fn known_open(rules: &Rules, player: &Player, pos: Pos) -> bool {
    let grid = &rules.level.grid;
    let memory = player.memory(rules.depth);
    grid.contains(pos)
        && rules.level.terrain(pos).is_open()
        && memory.is_some_and(|m| m.explored().contains(grid.index(pos)))
}

/// Every remembered cell of terrain `kind`.
fn remembered(rules: &Rules, player: &Player, kind: Terrain) -> Vec<Pos> {
    let grid = &rules.level.grid;
    let Some(memory) = player.memory(rules.depth) else { return Vec::new() };
    let cells = grid.cells();
    memory
        .explored()
        .iter()
        .filter(|&i| cells.get(i) == Some(&kind))
        .map(|i| grid.pos_of(i))
        .collect()
}

/// The edge of what `player` knows: every remembered open cell next to a
/// cell it does not remember.
fn unexplored(rules: &Rules, player: &Player) -> Vec<Pos> {
    let grid = &rules.level.grid;
    let Some(memory) = player.memory(rules.depth) else { return Vec::new() };
    let (explored, cells) = (memory.explored(), grid.cells());
    let unknown = |p: Pos| grid.contains(p) && !explored.contains(grid.index(p));
    explored
        .iter()
        .filter(|&i| cells.get(i).is_some_and(|t| t.is_open()))
        .map(|i| grid.pos_of(i))
        .filter(|&p| Dir::ALL.iter().any(|&d| p.step(d).is_some_and(unknown)))
        .collect()
}

/// The first step of a shortest walk from `player` to the nearest of
/// `targets` over the cells it remembers, around the monsters (and, with
/// `--pvp`, the players) it sees; ties go to the first direction of
/// [`Dir::ALL`]. `None` when no such walk is known.
fn towards(rules: &Rules, player: &Player, targets: &[Pos]) -> Option<Dir> {
    let grid = &rules.level.grid;
    let memory = player.memory(rules.depth)?;
    let (explored, cells) = (memory.explored(), grid.cells());
    let mut blocked = vec![false; cells.len()];
    for m in rules.monsters.values().filter(|m| memory.sees(m.pos)) {
        blocked[grid.index(m.pos)] = true;
    }
    if rules.host.pvp {
        for p in rules.players().values().filter(|p| p.id != player.id && memory.sees(p.pos)) {
            blocked[grid.index(p.pos)] = true;
        }
    }
    let open = |i: usize| explored.contains(i) && cells[i].is_open() && !blocked[i];
    let map = DistanceMap::new(grid.width(), grid.height(), targets, open);
    let here = map.get(player.pos).unwrap_or(UNREACHED);
    Dir::ALL
        .into_iter()
        .filter_map(|d| Some((d, map.get(player.pos.step(d)?)?)))
        .filter(|&(_, dist)| dist < here)
        .min_by_key(|&(_, dist)| dist)
        .map(|(d, _)| d)
}

/// What in `out` (what one step told) should stop `id`'s order: a monster
/// that came into its view or woke in it, an item it saw, or hit points
/// lost (below `hp_before`). The line that says so, empty when another line already
/// does (a blow's).
pub(super) fn interruption(
    rules: &Rules,
    id: PlayerId,
    out: &[Outgoing],
    hp_before: u16,
) -> Option<String> {
    let mut said = None;
    for msg in out.iter().filter(|o| o.to == id).map(|o| &o.msg) {
        let (monsters, floor) = match msg {
            ServerMsg::Sight(SightDiff { monsters, floor, .. })
            | ServerMsg::Displaced(SightDiff { monsters, floor, .. }) => {
                (&monsters[..], &floor[..])
            }
            ServerMsg::Monsters(monsters) => (&monsters[..], &[][..]),
            ServerMsg::Floor(floor) => (&[][..], &floor[..]),
            ServerMsg::Vitals { hp, .. } if *hp < hp_before => return Some(String::new()),
            _ => continue,
        };
        for change in monsters {
            match change {
                MonsterChange::Appeared { kind, asleep, .. } => {
                    let kind = rules.bestiary.kind(*kind);
                    let how = if *asleep { ", asleep" } else { "" };
                    said.get_or_insert_with(|| {
                        format!("{} comes into view{how}.", capitalised(&kind.a()))
                    });
                }
                // One in view woke ("The kobold wakes up." says so).
                MonsterChange::Slept { asleep: false, .. } => {
                    said.get_or_insert_with(String::new);
                }
                _ => {}
            }
        }
        if let Some(top) = floor.iter().find_map(|f| f.top) {
            let what = rules.items.kind(top.kind).described(top.count);
            said.get_or_insert_with(|| format!("You see {what}."));
        }
    }
    said
}
