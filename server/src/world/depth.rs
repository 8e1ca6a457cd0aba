//! One depth in play: its level, the players on it, and the rules of a turn.
//! Plain synchronous code: actions go in, messages for players come out.
//!
//! # One action, from key to pixels
//! 1. The client sends `ClientMsg::Act`. The player's connection task
//!    (`net::connection`) decodes it into its action queue; its pacer lets
//!    one action go at a time, at the player's allowed rate, once the last
//!    one was answered; `Presence::act` hands it to the depth's task.
//! 2. The depth's task (`world::DepthTask`) takes commands in arrival order
//!    and calls [`DepthState::act`], which:
//!    - applies the rule: a step (into a wall: nothing; into a player: the
//!      two swap), waiting, or the stairs (the player is removed here and
//!      handed on);
//!    - recomputes sight for the player and anyone it displaced, records
//!      newly seen cells in their memories, and diffs against what their
//!      clients were last told;
//!    - works out, for every player on the depth, which others came into
//!      sight, moved in it or left it.
//! 3. The task encodes the messages and sends each player all of its own
//!    as one reply; the actor's is marked done (its `Sight` comes last). A
//!    player whose reply does not fit its queue is dropped, saved first.
//!    A player who took the stairs is saved and sent to the next depth's
//!    task, whose arrival answers the action.
//! 4. The connection writes the frames in order; the client's
//!    `ClientState::apply` mirrors them and the window redraws.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{
    Action, Dir, Disc, PlayerChange, PlayerId, Pos, ServerMsg, SightDiff, Terrain,
};

use super::player::Player;
use crate::fov::Fov;
use crate::level::Level;

/// Where an arriving player is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// Joining the game: the level's arrival point.
    Join,
    /// Down the stairs from the depth above: onto this level's up staircase.
    FromAbove,
    /// Up the stairs from the depth below: onto this level's down staircase.
    FromBelow,
    /// Back where the player was when it left the game.
    Resume(Pos),
}

/// A message for one player.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub to: PlayerId,
    pub msg: ServerMsg,
}

/// A player who took the stairs, handed back for the depth it goes to.
#[derive(Debug)]
pub struct Departure {
    pub player: Player,
    pub depth: u16,
    pub via: Arrival,
}

/// What one action produced.
#[derive(Debug, Default)]
pub struct Turn {
    pub out: Vec<Outgoing>,
    pub departure: Option<Departure>,
}

#[derive(Debug)]
pub struct DepthState {
    depth: u16,
    level: Arc<Level>,
    disc: Disc,
    radius: u8,
    players: BTreeMap<PlayerId, Player>,
    occupant: HashMap<Pos, PlayerId>,
    /// For each player, the others its client was told are in sight, and where.
    told: BTreeMap<PlayerId, BTreeMap<PlayerId, Pos>>,
}

impl DepthState {
    pub fn new(depth: u16, level: Arc<Level>, sight_radius: u8) -> Self {
        Self {
            depth,
            level,
            disc: Disc::new(sight_radius),
            radius: sight_radius,
            players: BTreeMap::new(),
            occupant: HashMap::new(),
            told: BTreeMap::new(),
        }
    }

    pub(crate) fn depth(&self) -> u16 {
        self.depth
    }

    pub fn level(&self) -> &Level {
        &self.level
    }

    /// A line for everyone on this depth.
    pub(crate) fn tell_everyone(&self, text: &str) -> Vec<Outgoing> {
        let note = ServerMsg::Note(text.to_owned());
        self.players.keys().map(|&to| Outgoing { to, msg: note.clone() }).collect()
    }

    /// True when nobody is on this depth.
    pub(crate) fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    pub(crate) fn contains(&self, id: PlayerId) -> bool {
        self.players.contains_key(&id)
    }

    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(&id)
    }

    fn fov_from(&self, pos: Pos) -> Fov {
        let grid = &self.level.grid;
        Fov::compute(pos, self.radius, |x, y| grid.blocks_sight(x, y))
    }

    /// Puts a player on this level, tells it what it remembers and sees, and
    /// tells the others it arrived.
    pub fn arrive(&mut self, mut player: Player, via: Arrival) -> Vec<Outgoing> {
        let wanted = match via {
            Arrival::Join | Arrival::FromAbove => self.level.arrival,
            Arrival::FromBelow => self.level.stairs_down,
            Arrival::Resume(pos) if self.level.terrain(pos).is_open() => pos,
            Arrival::Resume(_) => self.level.arrival,
        };
        let pos = self.nearest_free(wanted);
        let id = player.id;
        player.pos = pos;
        self.told.insert(id, BTreeMap::new());
        let memory = player.memory_mut(self.depth);
        memory.forget_sight();
        let (remembered, terrain) = memory.recall(&self.level);
        let mut out = vec![Outgoing {
            to: id,
            msg: ServerMsg::EnterLevel {
                depth: self.depth,
                width: self.level.width(),
                height: self.level.height(),
                remembered,
                terrain,
            },
        }];
        let name = player.name.clone();
        self.occupant.insert(pos, id);
        self.players.insert(id, player);
        out.push(Outgoing { to: id, msg: ServerMsg::Roster(self.roster_for(id)) });
        self.announce(id, &name, &mut out);
        if let Some(note) = self.stairs_note(pos) {
            out.push(Outgoing { to: id, msg: ServerMsg::Note(note.into()) });
        }
        self.refresh_sight(id, &[], &mut out);
        out
    }

    /// Takes a player off this level (it left the game, or is being moved)
    /// and tells the others. Returns the player with its memories.
    pub(crate) fn remove(
        &mut self,
        id: PlayerId,
        farewell: &str,
    ) -> (Option<Player>, Vec<Outgoing>) {
        let mut out = Vec::new();
        let Some(player) = self.players.remove(&id) else {
            return (None, out);
        };
        self.occupant.remove(&player.pos);
        self.told.remove(&id);
        for (&other, told) in &mut self.told {
            if told.remove(&id).is_some() {
                out.push(Outgoing {
                    to: other,
                    msg: ServerMsg::Players(vec![PlayerChange::Vanished { id }]),
                });
            }
        }
        let text = format!("{} {farewell}", player.name);
        for other in self.players.keys() {
            out.push(Outgoing { to: *other, msg: ServerMsg::Note(text.clone()) });
            out.push(Outgoing { to: *other, msg: ServerMsg::Left(player.name.clone()) });
        }
        (Some(player), out)
    }

    /// Applies one action of a player on this level. Every action the player
    /// stays for is answered with a `Sight` message to it, even an empty one.
    pub fn act(&mut self, id: PlayerId, action: Action) -> Turn {
        let mut turn = Turn::default();
        let Some(pos) = self.players.get(&id).map(|p| p.pos) else {
            return turn;
        };
        let here = self.level.terrain(pos);
        match action {
            Action::Move(dir) => self.step(id, pos, dir, &mut turn.out),
            Action::Wait | Action::Quit => self.refresh_sight(id, &[], &mut turn.out),
            Action::Descend if here == Terrain::StairsDown && self.depth < u16::MAX => {
                return self.depart(
                    id,
                    self.depth + 1,
                    Arrival::FromAbove,
                    "goes down the stairs.",
                );
            }
            Action::Ascend if here == Terrain::StairsUp && self.depth > 1 => {
                return self.depart(id, self.depth - 1, Arrival::FromBelow, "climbs the stairs.");
            }
            Action::Descend => self.refuse(id, "There are no stairs down here.", &mut turn.out),
            Action::Ascend => self.refuse(id, "There are no stairs up here.", &mut turn.out),
        }
        turn
    }

    fn refuse(&mut self, id: PlayerId, why: &str, out: &mut Vec<Outgoing>) {
        out.push(Outgoing { to: id, msg: ServerMsg::Note(why.into()) });
        self.refresh_sight(id, &[], out);
    }

    fn depart(&mut self, id: PlayerId, depth: u16, via: Arrival, farewell: &str) -> Turn {
        let (player, out) = self.remove(id, farewell);
        Turn { out, departure: player.map(|player| Departure { player, depth, via }) }
    }

    fn step(&mut self, id: PlayerId, from: Pos, dir: Dir, out: &mut Vec<Outgoing>) {
        let Some(to) = from.step(dir).filter(|&p| self.level.terrain(p).is_open()) else {
            // Bumping a wall costs the turn and changes nothing.
            self.refresh_sight(id, &[], out);
            return;
        };
        if let Some(note) = self.stairs_note(to) {
            out.push(Outgoing { to: id, msg: ServerMsg::Note(note.into()) });
        }
        match self.occupant.get(&to).copied() {
            Some(other) => {
                // Swapping places keeps a corridor from ever jamming.
                self.place(other, from);
                self.place(id, to);
                let (mover, swapped) = (self.name_of(id), self.name_of(other));
                out.push(Outgoing {
                    to: id,
                    msg: ServerMsg::Note(format!("You swap places with {swapped}.")),
                });
                out.push(Outgoing {
                    to: other,
                    msg: ServerMsg::Note(format!("{mover} swaps places with you.")),
                });
                self.refresh_sight(id, &[other], out);
            }
            None => {
                self.occupant.remove(&from);
                self.place(id, to);
                self.refresh_sight(id, &[], out);
            }
        }
    }

    fn place(&mut self, id: PlayerId, pos: Pos) {
        if let Some(p) = self.players.get_mut(&id) {
            p.pos = pos;
            self.occupant.insert(pos, id);
        }
    }

    fn name_of(&self, id: PlayerId) -> String {
        self.players.get(&id).map(|p| p.name.clone()).unwrap_or_default()
    }

    fn stairs_note(&self, pos: Pos) -> Option<&'static str> {
        match self.level.terrain(pos) {
            Terrain::StairsDown => Some("There are stairs down here."),
            Terrain::StairsUp => Some("There are stairs up here."),
            _ => None,
        }
    }

    /// Recomputes sight for the acting player (whose `Sight` answers its
    /// action, even when nothing changed) and for those it displaced, then
    /// tells every player on the depth what changed among the others it
    /// sees. Each viewer's changes are built once, names included, and ride
    /// in its own sight diff when it has one.
    fn refresh_sight(&mut self, actor: PlayerId, displaced: &[PlayerId], out: &mut Vec<Outgoing>) {
        let moved: Vec<PlayerId> = std::iter::once(actor)
            .chain(displaced.iter().copied())
            .filter(|id| self.players.contains_key(id))
            .collect();
        let mut diffs: Vec<(PlayerId, SightDiff)> =
            moved.iter().map(|&id| (id, self.update_sight(id))).collect();
        // A viewer who moved reconsiders everyone; one who stayed, only the
        // few who moved. So a crowd costs each action O(crowd), not O(crowd²).
        let everyone: Vec<(PlayerId, Pos)> = self.players.values().map(|p| (p.id, p.pos)).collect();
        let movers: Vec<(PlayerId, Pos)> =
            everyone.iter().copied().filter(|(id, _)| moved.contains(id)).collect();
        for viewer in self.players.values() {
            let candidates = if moved.contains(&viewer.id) { &everyone } else { &movers };
            let told = self.told.entry(viewer.id).or_default();
            let changes = changes_seen(viewer, self.depth, candidates, told, &self.players);
            if changes.is_empty() {
                continue;
            }
            match diffs.iter_mut().find(|(id, _)| *id == viewer.id) {
                Some((_, diff)) => diff.players = changes,
                None => out.push(Outgoing { to: viewer.id, msg: ServerMsg::Players(changes) }),
            }
        }
        for (id, diff) in diffs {
            let msg = if id == actor { ServerMsg::Sight(diff) } else { ServerMsg::Displaced(diff) };
            out.push(Outgoing { to: id, msg });
        }
    }

    /// Moves a player's told view to what it sees from where it stands now.
    fn update_sight(&mut self, id: PlayerId) -> SightDiff {
        let Some(pos) = self.players.get(&id).map(|p| p.pos) else {
            return SightDiff::default();
        };
        let fov = self.fov_from(pos);
        let Some(player) = self.players.get_mut(&id) else { return SightDiff::default() };
        player.memory_mut(self.depth).update_sight(&self.level, &self.disc, fov)
    }

    /// Tells everyone else on this depth that `about` arrived: a line for
    /// the log and the name for their roster (not the whole roster again,
    /// which would cost every arrival the square of the crowd).
    fn announce(&self, about: PlayerId, name: &str, out: &mut Vec<Outgoing>) {
        let text = format!("{name} arrives on this depth.");
        for other in self.players.keys().filter(|&&o| o != about) {
            out.push(Outgoing { to: *other, msg: ServerMsg::Note(text.clone()) });
            out.push(Outgoing { to: *other, msg: ServerMsg::Joined(name.to_owned()) });
        }
    }

    /// The names of everyone on this depth but `id`, sorted.
    fn roster_for(&self, id: PlayerId) -> Vec<String> {
        let mut names: Vec<String> =
            self.players.values().filter(|p| p.id != id).map(|p| p.name.clone()).collect();
        names.sort();
        names
    }

    /// The open, unoccupied cell nearest to `wanted` by walking; `wanted`
    /// itself when every open cell is taken (stacking up rather than
    /// refusing the player).
    fn nearest_free(&self, wanted: Pos) -> Pos {
        let grid = &self.level.grid;
        let open = |i: usize| grid.cells()[i].is_open();
        let free = |p: Pos| !self.occupant.contains_key(&p);
        let (_, found) = DistanceMap::until(grid.width(), grid.height(), &[wanted], open, free);
        found.unwrap_or(wanted)
    }
}

/// What `viewer`'s client must be told of `candidates` (the other players
/// who may have changed for it), updating `told` to match.
fn changes_seen(
    viewer: &Player,
    depth: u16,
    candidates: &[(PlayerId, Pos)],
    told: &mut BTreeMap<PlayerId, Pos>,
    players: &BTreeMap<PlayerId, Player>,
) -> Vec<PlayerChange> {
    let memory = viewer.memory(depth);
    let mut changes = Vec::new();
    for &(other, at) in candidates {
        if other == viewer.id {
            continue;
        }
        let seen = memory.is_some_and(|m| m.sees(at));
        let change = match (told.get(&other).copied(), seen) {
            (None, true) => {
                let name = players.get(&other).map(|p| p.name.clone()).unwrap_or_default();
                PlayerChange::Appeared { id: other, name, at }
            }
            (Some(was), true) if was != at => PlayerChange::Moved { id: other, at },
            (Some(_), false) => PlayerChange::Vanished { id: other },
            _ => continue,
        };
        if seen {
            told.insert(other, at);
        } else {
            told.remove(&other);
        }
        changes.push(change);
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Grid;

    /// Two rooms joined by a door: '<' and '>' are stairs, '#' wall, '.' floor.
    const MAP: &[&str] =
        &["##############", "#<...#.......#", "#....#.......#", "#...........>#", "##############"];

    fn level() -> Arc<Level> {
        let mut grid = Grid::filled(MAP[0].len() as u16, MAP.len() as u16);
        let (mut arrival, mut stairs_down) = (Pos::default(), Pos::default());
        for (y, row) in MAP.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let pos = Pos::new(x as u16, y as u16);
                let t = match c {
                    '.' => Terrain::Floor,
                    '<' => {
                        arrival = pos;
                        Terrain::StairsUp
                    }
                    '>' => {
                        stairs_down = pos;
                        Terrain::StairsDown
                    }
                    _ => Terrain::Wall,
                };
                grid.set(pos, t);
            }
        }
        Arc::new(Level { grid, arrival, stairs_down })
    }

    fn depth_with(names: &[&str]) -> DepthState {
        let mut d = DepthState::new(2, level(), 8);
        for (i, name) in names.iter().enumerate() {
            d.arrive(Player::new(PlayerId(i as u32 + 1), (*name).into()), Arrival::FromAbove);
        }
        d
    }

    fn to(out: &[Outgoing], id: PlayerId) -> Vec<&ServerMsg> {
        out.iter().filter(|o| o.to == id).map(|o| &o.msg).collect()
    }

    fn teleport(d: &mut DepthState, id: PlayerId, pos: Pos) {
        let from = d.players[&id].pos;
        d.occupant.remove(&from);
        d.place(id, pos);
    }

    const ANN: PlayerId = PlayerId(1);
    const BOB: PlayerId = PlayerId(2);

    #[test]
    fn every_action_is_answered_with_sight_as_the_last_message() {
        let mut d = depth_with(&["ann"]);
        for action in [
            Action::Wait,
            Action::Move(Dir::E),
            Action::Move(Dir::N), // into the wall
            Action::Descend,      // not on stairs
            Action::Ascend,       // not on stairs any more
        ] {
            let turn = d.act(ANN, action);
            let mine = to(&turn.out, ANN);
            assert!(matches!(mine.last(), Some(ServerMsg::Sight(_))), "{action:?}: {mine:?}");
            assert_eq!(mine.iter().filter(|m| matches!(m, ServerMsg::Sight(_))).count(), 1);
        }
    }

    #[test]
    fn arriving_sends_the_level_then_sight_and_lands_on_the_stairs() {
        let mut d = DepthState::new(2, level(), 8);
        let out = d.arrive(Player::new(ANN, "ann".into()), Arrival::FromAbove);
        assert!(matches!(out[0].msg, ServerMsg::EnterLevel { depth: 2, .. }));
        assert!(matches!(out.last().map(|o| &o.msg), Some(ServerMsg::Sight(_))));
        assert_eq!(d.player(ANN).unwrap().pos, Pos::new(1, 1));
        assert!(out.contains(&Outgoing {
            to: ANN,
            msg: ServerMsg::Note("There are stairs up here.".into())
        }));
    }

    #[test]
    fn a_second_arrival_stands_beside_the_first_and_they_see_each_other() {
        let mut d = DepthState::new(2, level(), 8);
        d.arrive(Player::new(ANN, "ann".into()), Arrival::FromAbove);
        let out = d.arrive(Player::new(BOB, "bob".into()), Arrival::FromAbove);
        let bob_at = d.player(BOB).unwrap().pos;
        assert_ne!(bob_at, Pos::new(1, 1));
        assert!(to(&out, ANN).iter().any(|m| matches!(m, ServerMsg::Players(c) if c.contains(&PlayerChange::Appeared { id: BOB, name: "bob".into(), at: bob_at }))));
        assert!(to(&out, ANN).contains(&&ServerMsg::Note("bob arrives on this depth.".into())));
        assert!(to(&out, ANN).contains(&&ServerMsg::Joined("bob".into())));
        assert!(to(&out, BOB).contains(&&ServerMsg::Roster(vec!["ann".into()])));
    }

    #[test]
    fn stepping_into_a_player_swaps_the_two() {
        let mut d = depth_with(&["ann", "bob"]);
        teleport(&mut d, ANN, Pos::new(2, 2));
        teleport(&mut d, BOB, Pos::new(3, 2));
        let turn = d.act(ANN, Action::Move(Dir::E));
        assert_eq!(d.player(ANN).unwrap().pos, Pos::new(3, 2));
        assert_eq!(d.player(BOB).unwrap().pos, Pos::new(2, 2));
        let bob_msgs = to(&turn.out, BOB);
        assert!(
            bob_msgs.iter().any(|m| matches!(m, ServerMsg::Displaced(s) if s.at == Pos::new(2, 2)))
        );
        assert!(bob_msgs.contains(&&ServerMsg::Note("ann swaps places with you.".into())));
        assert!(
            !bob_msgs.iter().any(|m| matches!(m, ServerMsg::Sight(_))),
            "bob's reply is his own"
        );
    }

    #[test]
    fn players_out_of_sight_are_not_reported_and_vanish_when_they_leave_it() {
        let mut d = depth_with(&["ann", "bob"]);
        // Bob goes round the corner into the far room; Ann stays by the stairs.
        teleport(&mut d, ANN, Pos::new(1, 1));
        let out = d.act(ANN, Action::Wait).out;
        assert!(to(&out, ANN).iter().all(|m| !matches!(m, ServerMsg::Players(_))));
        let mut vanished = false;
        for dir in [Dir::SE, Dir::SE, Dir::E, Dir::E, Dir::NE, Dir::NE, Dir::E] {
            let out = d.act(BOB, Action::Move(dir)).out;
            vanished |= to(&out, ANN).iter().any(|m| matches!(m, ServerMsg::Players(c) if c.contains(&PlayerChange::Vanished { id: BOB })));
        }
        assert!(vanished, "ann was told bob left her sight");
        assert!(!d.told[&ANN].contains_key(&BOB));
        let bob_at = d.player(BOB).unwrap().pos;
        assert!(!d.players[&ANN].memory(2).unwrap().sees(bob_at));
    }

    #[test]
    fn stairs_hand_the_player_on_and_tell_the_others() {
        let mut d = depth_with(&["ann", "bob"]);
        teleport(&mut d, ANN, Pos::new(12, 3));
        let turn = d.act(ANN, Action::Descend);
        let departure = turn.departure.expect("ann leaves");
        assert_eq!(
            (departure.depth, departure.via, departure.player.id),
            (3, Arrival::FromAbove, ANN)
        );
        assert!(!d.contains(ANN));
        assert!(to(&turn.out, BOB).contains(&&ServerMsg::Note("ann goes down the stairs.".into())));
        assert!(to(&turn.out, BOB).contains(&&ServerMsg::Left("ann".into())));
        // Up from depth 2 leads to depth 1.
        teleport(&mut d, BOB, Pos::new(1, 1));
        let up = d.act(BOB, Action::Ascend).departure.expect("bob leaves");
        assert_eq!((up.depth, up.via), (1, Arrival::FromBelow));
    }
}
