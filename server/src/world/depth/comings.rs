//! Players coming onto a depth and going from it, and how the others hear
//! of it. Each coming or going goes through the clock as it would alone
//! (a depth replays the same from its log); the others hear of it as
//! news, which a depth's task tells with the news of movers: comings and
//! goings come in bursts (a server restarting, a crowd's evening ending),
//! and in a crowd a line and a roster change per player to every other
//! would cost the square of the crowd. Told together, a burst is one line
//! ("ann, bob, cat and 9 others arrive on this depth.") and one roster
//! change for each who hears it.

use gloam_protocol::walk::DistanceMap;
use gloam_protocol::{PlayerId, Pos, ServerMsg};

use super::replay::Command;
use super::telling::Told;
use super::{Arrival, DepthState, Outgoing, Turn};
use crate::world::player::Player;

/// How a line about players going ends, for one and for several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Farewell {
    one: &'static str,
    many: &'static str,
}

impl Farewell {
    pub const LEFT: Self = Self { one: "has left the game.", many: "have left the game." };
    pub const LOST: Self =
        Self { one: "has lost the connection.", many: "have lost the connection." };
    pub const DIED: Self = Self { one: "dies.", many: "die." };
    pub const WENT_DOWN: Self = Self { one: "goes down the stairs.", many: "go down the stairs." };
    pub const WENT_UP: Self = Self { one: "climbs the stairs.", many: "climb the stairs." };
}

/// A coming or going the others have not heard of yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum News {
    Came(String),
    Went(String, Farewell),
}

impl News {
    fn name(&self) -> &str {
        match self {
            News::Came(name) | News::Went(name, _) => name,
        }
    }
}

/// Comings and goings not yet told to everyone, numbered from the
/// depth's start; each player's [`Told`] holds how far it has heard.
#[derive(Debug, Default)]
pub(super) struct NewsLog {
    /// The number of `news[0]`: everyone has heard all before it.
    first: u64,
    news: Vec<News>,
}

impl NewsLog {
    /// The number the next news will take.
    fn end(&self) -> u64 {
        self.first + self.news.len() as u64
    }

    /// The news after the first `heard`.
    fn since(&self, heard: u64) -> &[News] {
        let from = heard.saturating_sub(self.first) as usize;
        self.news.get(from..).unwrap_or_default()
    }
}

/// What `news` is told as: for each run of the same news (arrivals, or
/// goings the same way), a line and a roster change.
fn told_as(news: &[News]) -> Vec<ServerMsg> {
    let mut told = Vec::new();
    let same_sort = |a: &News, b: &News| match (a, b) {
        (News::Came(_), News::Came(_)) => true,
        (News::Went(_, x), News::Went(_, y)) => x == y,
        _ => false,
    };
    for run in news.chunk_by(same_sort) {
        let names: Vec<String> = run.iter().map(|n| n.name().to_owned()).collect();
        match &run[0] {
            News::Came(_) => {
                told.push(ServerMsg::Others(tidings(
                    &names,
                    "arrives on this depth.",
                    "arrive on this depth.",
                )));
                told.push(ServerMsg::Joined(names));
            }
            News::Went(_, farewell) => {
                told.push(ServerMsg::Others(tidings(&names, farewell.one, farewell.many)));
                told.push(ServerMsg::Left(names));
            }
        }
    }
    told
}

/// How many names a line about several players gives before "and N
/// others" (a fourth is named rather than called "1 others").
const NAMED: usize = 3;

/// A line about what one or several players did, naming a few of them:
/// "ann arrives on this depth.", "ann and bob arrive on this depth.",
/// "ann, bob, cat and 9 others arrive on this depth." `one` ends the line
/// for one player, `many` for several.
pub(crate) fn tidings(names: &[String], one: &str, many: &str) -> String {
    match names {
        [] => String::new(),
        [name] => format!("{name} {one}"),
        [first, second] => format!("{first} and {second} {many}"),
        _ if names.len() <= NAMED + 1 => {
            let (last, rest) = names.split_last().expect("three or more");
            format!("{} and {last} {many}", rest.join(", "))
        }
        _ => format!("{} and {} others {many}", names[..NAMED].join(", "), names.len() - NAMED),
    }
}

impl DepthState {
    /// Puts a player on this level, tells it what it remembers and sees, and
    /// tells the others it arrived (and what else they have not heard).
    pub fn arrive(&mut self, player: Player, via: Arrival) -> Vec<Outgoing> {
        let mut turn = Turn { out: self.arrive_untold(player, via), ..Turn::default() };
        self.tell_untold(&mut turn, None);
        turn.out
    }

    /// [`arrive`](Self::arrive), the others not told yet: they see the
    /// newcomer with the next news of movers, and hear of it with the
    /// news (see [`tell_the_still`](Self::tell_the_still)).
    pub fn arrive_untold(&mut self, mut player: Player, via: Arrival) -> Vec<Outgoing> {
        let (id, name, vitals) = (player.id, player.name.clone(), player.vitals);
        self.record(Command::Arrive { id, name: name.clone(), vitals, via });
        let wanted = match via {
            Arrival::Join | Arrival::FromAbove => self.level.arrival,
            Arrival::FromBelow => self.level.stairs_down,
            Arrival::Resume(pos) if self.level.terrain(pos).is_open() => pos,
            Arrival::Resume(_) => self.level.arrival,
        };
        let pos = self.nearest_free(wanted);
        player.pos = pos;
        player.vitals.deepest = player.vitals.deepest.max(self.depth);
        // Its roster holds everyone here, those the others have not heard
        // of yet too: it hears only of the news after its own.
        self.news.news.push(News::Came(name));
        self.told.insert(id, Told { news_heard: self.news.end(), ..Told::default() });
        let memory = player.memory_mut(self.depth);
        memory.forget_sight();
        let mut turn = Turn::default();
        turn.tell(id, self.enter_level(memory));
        self.occupant.insert(pos, id);
        self.players.insert(id, player);
        self.vitals_changed.push(id);
        self.clock.join(id);
        turn.tell(id, ServerMsg::Roster(self.roster_for(id)));
        if let Some(note) = self.stairs_note(pos) {
            turn.tell(id, ServerMsg::Note(note.into()));
        }
        self.see(id, true, &mut turn.out);
        self.settle(&mut turn);
        turn.out
    }

    /// Takes a player off this level (it left the game, or is being moved)
    /// and tells the others ("ann `farewell`"). Returns the player with its
    /// memories, and what its going set off (a round that waited only for
    /// it closes). The others are told what else they have not heard too.
    pub fn remove(&mut self, id: PlayerId, farewell: Farewell) -> (Option<Player>, Turn) {
        let (player, mut turn) = self.remove_untold(id, farewell);
        self.tell_untold(&mut turn, None);
        (player, turn)
    }

    /// [`remove`](Self::remove), the others not told why yet: they hear
    /// of it with the news, and those who saw it see it vanish with the next
    /// news of movers.
    pub(crate) fn remove_untold(
        &mut self,
        id: PlayerId,
        farewell: Farewell,
    ) -> (Option<Player>, Turn) {
        let mut turn = Turn::default();
        if self.players.contains_key(&id) {
            self.record(Command::Leave { id });
        }
        let player = self.take_off(id, farewell, &mut turn);
        self.run_clock(&mut turn);
        self.settle(&mut turn);
        (player, turn)
    }

    /// Takes a player off the level, with no more: those who saw it see it
    /// vanish with the next news of movers that reaches them (as those who
    /// may see a newcomer see it appear), and everyone hears why with the
    /// news. Told at once, a crowd leaving together cost a message to
    /// every watcher per player.
    pub(super) fn take_off(
        &mut self,
        id: PlayerId,
        farewell: Farewell,
        turn: &mut Turn,
    ) -> Option<Player> {
        let player = self.players.remove(&id)?;
        self.stir_parties();
        if self.occupant.get(&player.pos) == Some(&id) {
            self.occupant.remove(&player.pos);
        }
        self.told.remove(&id);
        self.clock.leave(id);
        self.moved.retain(|&m| m != id);
        turn.answered.retain(|&a| a != id);
        self.unsettled.push(id, player.pos);
        self.news.news.push(News::Went(player.name.clone(), farewell));
        Some(player)
    }

    /// True when some comings or goings are not yet told to everyone.
    pub(super) fn has_news(&self) -> bool {
        !self.news.news.is_empty()
    }

    /// Tells player `id` the comings and goings it has not heard of.
    pub(super) fn tell_news_to(&mut self, id: PlayerId, out: &mut Vec<Outgoing>) {
        let Some(told) = self.told.get_mut(&id) else { return };
        let unheard = self.news.since(told.news_heard);
        if !unheard.is_empty() && !self.replaying {
            out.extend(told_as(unheard).into_iter().map(|msg| Outgoing { to: id, msg }));
        }
        told.news_heard = self.news.end();
    }

    /// Tells everyone here (or those of one shift, see
    /// [`shift_of`](super::shift_of)) the comings and goings it has not
    /// heard of: most have heard the same and get the same few messages.
    pub(super) fn tell_news(&mut self, out: &mut Vec<Outgoing>, shift: Option<usize>) {
        if self.news.news.is_empty() {
            return;
        }
        let end = self.news.end();
        // What those who heard up to a mark are told, for each mark met.
        let mut said: Vec<(u64, Vec<ServerMsg>)> = Vec::new();
        for (&to, told) in &mut self.told {
            if shift.is_some_and(|s| super::shift_of(to) != s) {
                continue;
            }
            let heard = std::mem::replace(&mut told.news_heard, end);
            if self.replaying || heard >= end {
                continue;
            }
            let at = said.iter().position(|(mark, _)| *mark == heard).unwrap_or_else(|| {
                said.push((heard, told_as(self.news.since(heard))));
                said.len() - 1
            });
            out.extend(said[at].1.iter().map(|msg| Outgoing { to, msg: msg.clone() }));
        }
        // What everyone has heard is forgotten.
        let heard = self.told.values().map(|t| t.news_heard).min().unwrap_or(end);
        let heard = heard.clamp(self.news.first, end);
        self.news.news.drain(..(heard - self.news.first) as usize);
        self.news.first = heard;
    }

    /// The names of everyone on this depth but `id`, sorted.
    pub fn roster_for(&self, id: PlayerId) -> Vec<String> {
        let mut names: Vec<String> =
            self.players.values().filter(|p| p.id != id).map(|p| p.name.clone()).collect();
        names.sort();
        names
    }

    /// The open cell nearest to `wanted` by walking that no player or
    /// monster stands on; `wanted` itself when every open cell is taken
    /// (stacking up rather than refusing the player).
    fn nearest_free(&self, wanted: Pos) -> Pos {
        let grid = &self.level.grid;
        let open = |i: usize| grid.cells()[i].is_open();
        let free = |p: Pos| !self.occupant.contains_key(&p) && !self.monster_at.contains_key(&p);
        let (_, found) = DistanceMap::until(grid.width(), grid.height(), &[wanted], open, free);
        found.unwrap_or(wanted)
    }
}

#[cfg(test)]
mod tests {
    use super::tidings;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn tidings_name_a_few_and_count_the_rest() {
        let (one, many) = ("arrives.", "arrive.");
        assert_eq!(tidings(&names(&["ann"]), one, many), "ann arrives.");
        assert_eq!(tidings(&names(&["ann", "bob"]), one, many), "ann and bob arrive.");
        assert_eq!(tidings(&names(&["ann", "bob", "cat"]), one, many), "ann, bob and cat arrive.");
        assert_eq!(
            tidings(&names(&["ann", "bob", "cat", "dan", "eve"]), one, many),
            "ann, bob, cat and 2 others arrive."
        );
        assert_eq!(
            tidings(&names(&["ann", "bob", "cat", "dan"]), one, many),
            "ann, bob, cat and dan arrive."
        );
    }
}
