//! How the others hear of players coming onto a depth and going from it:
//! as news, which a depth's task tells with the news of movers: comings and
//! goings come in bursts (a server restarting, a crowd's evening ending),
//! and in a crowd a line and a roster change per player to every other
//! would cost the square of the crowd. Told together, a burst is one line
//! ("ann, bob, cat and 9 others arrive on this depth.") and one roster
//! change for each who hears it.

use std::sync::Arc;

use gloam_protocol::{PlayerId, ServerMsg};

use super::Views;
use super::still::Shift;
use crate::world::depth::Outgoing;
use crate::world::depth::rules::{Leaving, Rules};

/// A coming or going the others have not heard of yet.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) enum Coming {
    Came(String),
    Went(String, Leaving),
}

impl Coming {
    fn name(&self) -> &str {
        match self {
            Coming::Came(name) | Coming::Went(name, _) => name,
        }
    }
}

/// Comings and goings not yet told to everyone, numbered from the
/// depth's start; each player's [`View`] holds how far it has heard.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(super) struct Comings {
    /// The number of `list[0]`: everyone has heard all before it.
    first: u64,
    list: Vec<Coming>,
}

impl Comings {
    pub(super) fn push(&mut self, news: Coming) {
        self.list.push(news);
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The number the next news will take.
    pub(super) fn end(&self) -> u64 {
        self.first + self.list.len() as u64
    }

    /// The news after the first `heard`.
    fn since(&self, heard: u64) -> &[Coming] {
        let from = heard.saturating_sub(self.first) as usize;
        self.list.get(from..).unwrap_or_default()
    }
}

/// What `news` is told as: for each run of the same news (arrivals, or
/// goings the same way), a line and a roster change.
fn told_as(news: &[Coming]) -> Vec<ServerMsg> {
    let mut told = Vec::new();
    let same_sort = |a: &Coming, b: &Coming| match (a, b) {
        (Coming::Came(_), Coming::Came(_)) => true,
        (Coming::Went(_, x), Coming::Went(_, y)) => x == y,
        _ => false,
    };
    for run in news.chunk_by(same_sort) {
        let names: Vec<String> = run.iter().map(|n| n.name().to_owned()).collect();
        match &run[0] {
            Coming::Came(_) => {
                told.push(ServerMsg::Others(tidings(
                    &names,
                    "arrives on this depth.",
                    "arrive on this depth.",
                )));
                told.push(ServerMsg::Joined(names));
            }
            Coming::Went(_, how) => {
                let (one, many) = super::lines::farewell(*how);
                told.push(ServerMsg::Others(tidings(&names, one, many)));
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
fn tidings(names: &[String], one: &str, many: &str) -> String {
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

impl Views {
    /// The names on `id`'s client's roster: everyone here but it, less
    /// those whose coming it has not heard of yet, with those whose going
    /// it has not heard of. What a watcher who comes in the middle is
    /// shown, so that it holds what its player's client holds.
    pub(super) fn roster_heard_by(&self, rules: &Rules, id: PlayerId) -> Vec<String> {
        let mut names = super::roster_for(rules, id);
        let heard = self.told.get(&id).map_or(self.comings.end(), |t| t.comings_heard);
        for news in self.comings.since(heard).iter().rev() {
            match news {
                Coming::Came(name) => names.retain(|n| n != name),
                Coming::Went(name, _) => names.push(name.clone()),
            }
        }
        names.sort();
        names
    }

    /// Tells player `id` the comings and goings it has not heard of.
    pub(super) fn tell_comings_to(&mut self, id: PlayerId, out: &mut Vec<Outgoing>) {
        let Some(told) = self.told.get_mut(&id).map(Arc::make_mut) else { return };
        let unheard = self.comings.since(told.comings_heard);
        if !unheard.is_empty() {
            out.extend(told_as(unheard).into_iter().map(|msg| Outgoing { to: id, msg }));
        }
        told.comings_heard = self.comings.end();
    }

    /// Tells everyone here (or those of one shift, see
    /// [`Shift`]) the comings and goings it has not
    /// heard of: most have heard the same and get the same few messages.
    pub(super) fn tell_comings(
        &mut self,
        rules: &Rules,
        out: &mut Vec<Outgoing>,
        shift: Option<Shift>,
    ) {
        if self.comings.list.is_empty() {
            return;
        }
        let end = self.comings.end();
        // What those who heard up to a mark are told, for each mark met.
        let mut said: Vec<(u64, Vec<ServerMsg>)> = Vec::new();
        for &to in rules.players().keys() {
            if shift.is_some_and(|s| !s.holds(to)) {
                continue;
            }
            let Some(told) = self.told.get_mut(&to).map(Arc::make_mut) else { continue };
            let heard = std::mem::replace(&mut told.comings_heard, end);
            if heard >= end {
                continue;
            }
            let at = said.iter().position(|(mark, _)| *mark == heard).unwrap_or_else(|| {
                said.push((heard, told_as(self.comings.since(heard))));
                said.len() - 1
            });
            out.extend(said[at].1.iter().map(|msg| Outgoing { to, msg: msg.clone() }));
        }
        // What everyone has heard is forgotten.
        let heard = self.told.values().map(|t| t.comings_heard).min().unwrap_or(end);
        let heard = heard.clamp(self.comings.first, end);
        self.comings.list.drain(..(heard - self.comings.first) as usize);
        self.comings.first = heard;
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
