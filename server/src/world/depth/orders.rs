//! Standing orders: explore, travel and rest. A player's client sends the
//! order once; its connection hands it to the depth again at the player's
//! pace for as long as the depth says it goes on (see `net::session`).
//! Each time, the depth works out one step (or a wait) from what the
//! player knows, never from what it does not: the cells it remembers and
//! the monsters and players it sees. That step is applied as the action
//! it is (a `Move` or a `Wait`, logged as such, so a replay needs none of
//! this), and the order goes on until it is done or something happens that
//! a player would want to see: a monster comes into view, the player is
//! hurt, or it sees an item (the rules hand these back as the step's
//! notices, see `rules::flow`). With an awake monster in view it does not
//! start at all. Which actions are orders is decided here alone: the
//! connection asks [`may_start`].

use gloam_protocol::walk::{DistanceMap, UNREACHED};
use gloam_protocol::{Action, Dir, PlayerId, Pos, Terrain};

use super::rules::Rules;
use crate::bestiary::KindId;
use crate::character::Player;

/// Whether `action` may start a standing order: exploring, travelling and
/// resting do, and the stairs' keys (which travel when away from stairs:
/// the depth decides, see `Order::of`). What a player's connection sends
/// again while the depth says the order goes on.
pub fn may_start(action: Action) -> bool {
    match action {
        Action::Explore | Action::Travel(_) | Action::Rest | Action::Descend | Action::Ascend => {
            true
        }
        Action::Move(_)
        | Action::Wait
        | Action::Quit
        | Action::PickUp
        | Action::Drop(_)
        | Action::Quaff(_)
        | Action::Read(_)
        | Action::Wield(_)
        | Action::Wear(_)
        | Action::TakeOff(_)
        | Action::Throw { .. }
        | Action::Zap { .. } => false,
    }
}

/// Why an order can take no step now (worded in `views::lines`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Balk {
    /// The player's round waits for others.
    Waiting,
    /// The player is not on the depth.
    Gone,
    /// An awake monster of this kind is in view.
    AwakeInView(KindId),
    FullHealth,
    /// A cell to travel to that the player does not know to be open.
    UnknownWay,
    NoStairsDown,
    NoStairsUp,
    NothingLeft,
    /// No walk there is free of what the player sees in the way.
    Blocked,
}

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
    pub(super) fn of(rules: &Rules, id: PlayerId, action: Action) -> Option<Order> {
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
    /// why it cannot.
    pub(super) fn step(self, rules: &Rules, id: PlayerId) -> Result<Action, Balk> {
        let player = rules.player(id).ok_or(Balk::Gone)?;
        if let Some(kind) = awake_in_view(rules, player) {
            return Err(Balk::AwakeInView(kind));
        }
        let targets = match self {
            Order::Rest if player.vitals.hp >= player.vitals.max_hp => {
                return Err(Balk::FullHealth);
            }
            Order::Rest => return Ok(Action::Wait),
            Order::Explore => unexplored(rules, player),
            Order::Travel(to) if known_open(rules, player, to) => vec![to],
            Order::Travel(_) => return Err(Balk::UnknownWay),
            Order::Stairs(kind) => remembered(rules, player, kind),
        };
        if targets.is_empty() {
            return Err(match self {
                Order::Stairs(Terrain::StairsDown) => Balk::NoStairsDown,
                Order::Stairs(_) => Balk::NoStairsUp,
                Order::Explore | Order::Travel(_) | Order::Rest => Balk::NothingLeft,
            });
        }
        let dir = towards(rules, player, &targets).ok_or(Balk::Blocked)?;
        Ok(Action::Move(dir))
    }

    /// True when the order is carried out for `id` as it stands now.
    pub(super) fn is_done(self, rules: &Rules, id: PlayerId) -> bool {
        let Some(player) = rules.player(id) else { return true };
        match self {
            Order::Explore => false,
            Order::Travel(to) => player.pos == to,
            Order::Stairs(kind) => rules.level.terrain(player.pos) == kind,
            Order::Rest => player.vitals.hp >= player.vitals.max_hp,
        }
    }
}

/// The kind of an awake monster in `player`'s sight, if one is.
fn awake_in_view(rules: &Rules, player: &Player) -> Option<KindId> {
    let memory = player.memory(rules.depth)?;
    let m = rules.monsters.values().find(|m| m.is_awake() && m.shown_to(player.pos, memory))?;
    Some(m.kind)
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
    for m in rules.monsters.values().filter(|m| m.shown_to(player.pos, memory)) {
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
