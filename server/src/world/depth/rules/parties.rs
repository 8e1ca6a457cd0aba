//! Who shares a danger with whom: the parties whose rounds the clock
//! keeps together (see `docs/turns.md`). An awake monster that notices two
//! players links them, and with `--pvp` so does seeing each other. Found
//! for the whole depth at once, when first asked for after a change.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use gloam_protocol::{MonsterId, PlayerId};

use super::monsters;
use super::{CellHasher, Rules, Search};
use crate::character::Player;

/// The parties as they stand, found when first asked for after a change.
/// Whether a change came is not anyone's to tell: the parties found carry
/// the change counts of the players and monsters they were found from
/// ([`Occupancy::settled`](super::Occupancy::settled),
/// [`Monsters::changes`](super::Monsters::changes)), and are found afresh
/// when those grew; monsters and players only removed since are lost from
/// them (so that taking off the crowd a crash left on a depth costs each
/// leaving its party, not a finding over the whole depth).
#[derive(Debug, Default)]
pub(crate) struct Parties {
    found: RefCell<Option<Found>>,
    /// How many times the parties were found afresh (for tests that count
    /// them).
    #[cfg(test)]
    pub(crate) findings: std::cell::Cell<u64>,
    /// Forget the parties found whenever a player leaves, as before they
    /// were kept past it (for tests that compare the two).
    #[cfg(test)]
    pub(crate) forget_at_leaving: bool,
}

impl Parties {
    /// Forgets the parties found, as if something changed (for tests that
    /// compare a regrouping with a finding afresh).
    #[cfg(test)]
    pub(crate) fn forget(&mut self) {
        self.found.get_mut().take();
    }
}

/// The change counts the parties were found at.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    players: u64,
    monsters: u64,
}

impl Found {
    /// Player `id` left, and nothing else changed: it links no one any
    /// more, and the noticers of a monster it was the first of are linked
    /// to the next of them instead, as a finding afresh would link them.
    /// Only its own party may split, and only it is regrouped.
    fn leave(&mut self, id: PlayerId) {
        let Ok(x) = self.players.binary_search(&id) else { return };
        self.players.remove(x);
        self.left_since = true;
        // Counted again at the next death, from the links as they are now.
        self.pairs.clear();
        let x = x as u32;
        let shift = |i: u32| if i > x { i - 1 } else { i };
        // A monster `x` was the first to notice, and the next who does.
        let mut next: Option<(Option<MonsterId>, u32)> = None;
        let mut links = Vec::with_capacity(self.links.len());
        for link in std::mem::take(&mut self.links) {
            let monster = link.monster;
            if link.a == x && monster.is_some() {
                // A monster's links are together, all from its first noticer.
                match next {
                    Some((m, a)) if m == monster => {
                        links.push(Link { monster, a, b: shift(link.b) });
                    }
                    _ => next = Some((monster, shift(link.b))),
                }
            } else if link.a != x && link.b != x {
                links.push(Link { monster, a: shift(link.a), b: shift(link.b) });
            }
        }
        self.links = links;
        if let Some(i) = self.of.remove(&id) {
            self.members[i].retain(|&p| p != id);
            self.split(i);
        }
    }

    /// Party `i`, which lost a player, as the parties its members make
    /// through the links between them: the first stays party `i`, and the
    /// others, if any, are new parties.
    fn split(&mut self, i: usize) {
        if self.members[i].len() < 2 {
            return;
        }
        let party = std::mem::take(&mut self.members[i]);
        let place = |id: &PlayerId| self.players.binary_search(id).expect("a member") as u32;
        let slot: HashMap<u32, usize, BuildHasherDefault<CellHasher>> =
            party.iter().enumerate().map(|(k, id)| (place(id), k)).collect();
        let mut parent: Vec<usize> = (0..party.len()).collect();
        for link in &self.links {
            if let (Some(&a), Some(&b)) = (slot.get(&link.a), slot.get(&link.b)) {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        let mut at: Vec<Option<usize>> = vec![None; party.len()];
        at[0] = Some(i);
        for (k, &id) in party.iter().enumerate() {
            let r = root(&mut parent, k);
            let to = *at[r].get_or_insert_with(|| {
                self.members.push(Vec::new());
                self.members.len() - 1
            });
            self.members[to].push(id);
            self.of.insert(id, to);
        }
    }
}

impl Found {
    /// Monster `id` died, and nothing else changed: it links no one any
    /// more. Regrouped from the links they were found with, without
    /// looking at the depth again (a death can only split a party);
    /// unchanged when it linked no one.
    fn lose(&mut self, id: MonsterId) {
        if self.pairs.is_empty() {
            // Counted at the first death, not at every finding.
            for link in &self.links {
                *self.pairs.entry((link.a, link.b)).or_default() += 1;
            }
        }
        let mut split = false;
        self.links.retain(|link| {
            if link.monster != Some(id) {
                return true;
            }
            // A pair that other monsters link as well stays linked.
            let count = self.pairs.get_mut(&(link.a, link.b)).expect("every link counted");
            *count -= 1;
            split |= *count == 0;
            false
        });
        if split {
            self.splits += 1;
            (self.of, self.members) = grouped(&self.players, &self.links);
        }
    }
}

/// Every party on the depth, with what links them.
#[derive(Debug, Default)]
struct Found {
    /// The depth's players when they were found, in id order.
    players: Vec<PlayerId>,
    /// Pairs of `players` (by place) linked, and by which monster (none:
    /// they see each other, with `--pvp`).
    links: Vec<Link>,
    /// How many of `links` link each pair (counted when first needed).
    pairs: HashMap<(u32, u32), u32, BuildHasherDefault<CellHasher>>,
    /// Each player's party, by its place in `members`.
    of: PartyOf,
    /// Each party's players, in id order.
    members: Vec<Vec<PlayerId>>,
    /// The change counts they were found at.
    stamp: Stamp,
    /// How many of the monsters fallen since were lost from them.
    lost: usize,
    /// How many monsters were ever removed when they were found.
    removed_before: u64,
    /// How many of the monsters lost since split a party.
    splits: u64,
    /// How many of the players who left since they were lost from them.
    gone: usize,
    /// Whether players left since they were found (or last asked for
    /// after that): until asked for again, they count as not found, as
    /// when a leaving forgot them (see [`Rules::parties_stamp`]).
    left_since: bool,
}

#[derive(Debug, Clone, Copy)]
struct Link {
    monster: Option<MonsterId>,
    a: u32,
    b: u32,
}

type PartyOf = HashMap<PlayerId, usize, BuildHasherDefault<CellHasher>>;

/// The parties `links` make of `players`: each player's, and each party's
/// players in id order (a union-find).
fn grouped(players: &[PlayerId], links: &[Link]) -> (PartyOf, Vec<Vec<PlayerId>>) {
    let mut parent: Vec<usize> = (0..players.len()).collect();
    for link in links {
        let (ra, rb) = (root(&mut parent, link.a as usize), root(&mut parent, link.b as usize));
        parent[ra.max(rb)] = ra.min(rb);
    }
    let (mut of, mut members) = (PartyOf::default(), Vec::<Vec<PlayerId>>::new());
    let mut slot: Vec<Option<usize>> = vec![None; players.len()];
    for (i, &id) in players.iter().enumerate() {
        let r = root(&mut parent, i);
        let at = *slot[r].get_or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[at].push(id);
        of.insert(id, at);
    }
    (of, members)
}

/// The root of `i` in a union-find, halving the path to it.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl Rules {
    /// The players who share a danger with `id`, directly or through
    /// others, `id` included, in id order: an awake monster that notices
    /// two links them, and with `--pvp` so does seeing each other.
    pub(crate) fn party_of(&self, id: PlayerId) -> Vec<PlayerId> {
        let mut cache = self.parties.found.borrow_mut();
        self.keep_or_forget(&mut cache);
        let as_found = cache.as_ref().is_some_and(|found| !found.left_since);
        if !as_found && self.in_no_danger(id) {
            // The common case, a player alone or in a quiet crowd, costs a
            // look at the monsters, not the whole depth's parties.
            return vec![id];
        }
        let parties = cache.get_or_insert_with(|| {
            #[cfg(test)]
            self.parties.findings.set(self.parties.findings.get() + 1);
            let mut found = self.find_parties();
            found.stamp = self.stamp();
            found.lost = self.monsters.fallen().len();
            found.gone = self.occupancy.left().len();
            found
        });
        if !as_found {
            // Found now, or as good as: the stamp counts from here.
            (parties.removed_before, parties.splits) = (self.monsters.removed(), 0);
            parties.left_since = false;
        }
        match parties.of.get(&id) {
            Some(&i) => parties.members[i].clone(),
            None => vec![id],
        }
    }

    /// A count that grows whenever the parties may have changed: a view
    /// that saw the same count last time has nothing new to tell of them.
    /// A monster removed counts only when it split a party found before
    /// (a kill in a fight mostly splits none), or when none were found.
    pub(crate) fn parties_stamp(&self) -> u64 {
        let mut cache = self.parties.found.borrow_mut();
        self.keep_or_forget(&mut cache);
        match cache.as_ref() {
            // Never above the count below: the splits are at most the
            // removals since, and a change afterwards makes it grow.
            Some(found) if !found.left_since => {
                self.occupancy.changes()
                    + self.monsters.changes()
                    + found.removed_before
                    + found.splits
            }
            _ => self.occupancy.changes() + self.monsters.changes() + self.monsters.removed(),
        }
    }

    /// The change counts of players and monsters now.
    fn stamp(&self) -> Stamp {
        Stamp { players: self.occupancy.settled(), monsters: self.monsters.changes() }
    }

    /// Keeps the parties found when nothing but removals came since,
    /// losing the monsters fallen and the players who left; forgets them
    /// after any other change.
    fn keep_or_forget(&self, cache: &mut Option<Found>) {
        let left = self.occupancy.left();
        match cache.as_mut() {
            #[cfg(test)]
            Some(found) if self.parties.forget_at_leaving && found.gone < left.len() => {
                *cache = None;
            }
            Some(found) if found.stamp == self.stamp() => {
                let fallen = self.monsters.fallen();
                for &m in &fallen[found.lost..] {
                    found.lose(m);
                }
                found.lost = fallen.len();
                for &id in &left[found.gone..] {
                    found.leave(id);
                }
                found.gone = left.len();
            }
            _ => *cache = None,
        }
    }

    /// True when no awake monster notices `id` (and players are no danger
    /// to each other): it is a party of one.
    fn in_no_danger(&self, id: PlayerId) -> bool {
        let Some(player) = self.player(id) else { return true };
        let Some(memory) = player.memory(self.depth) else { return true };
        !self.host.pvp
            && !self.monsters.values().any(|m| {
                m.is_awake()
                    && memory.sees(m.pos)
                    && monsters::within(player.pos, m.pos, self.bestiary.kind(m.kind).sight)
            })
    }

    /// Every party on the depth, at once: each awake monster joins those
    /// who notice it (a union-find over the players), so the cost is one
    /// look per awake monster, however many ask.
    fn find_parties(&self) -> Found {
        let players: Vec<&Player> = self.players().values().map(Arc::as_ref).collect();
        let place = |id: PlayerId| players.binary_search_by_key(&id, |p| p.id).ok();
        let mut links = Vec::new();
        // Few players: ask each; a crowd: only those near enough.
        let ask_each = self.occupancy.search(self.disc.len(), 2) != Search::Cells;
        let memories: Vec<_> = players.iter().map(|p| p.memory(self.depth)).collect();
        let mut noticing = Vec::with_capacity(players.len());
        for m in self.monsters.values().filter(|m| m.is_awake()) {
            let sight = self.bestiary.kind(m.kind).sight;
            noticing.clear();
            if ask_each {
                for (i, (p, memory)) in players.iter().zip(&memories).enumerate() {
                    if monsters::within(p.pos, m.pos, sight)
                        && memory.is_some_and(|mem| mem.sees(m.pos))
                    {
                        noticing.push(i as u32);
                    }
                }
            } else {
                let noticed = self.noticed_by(m.id).into_iter().filter_map(place);
                noticing.extend(noticed.map(|i| i as u32));
            }
            // The first who notices it, linked to each of the others.
            if let Some((&a, others)) = noticing.split_first() {
                links.extend(others.iter().map(|&b| Link { monster: Some(m.id), a, b }));
            }
        }
        if self.host.pvp {
            // Who truly sees whom, not what their clients were told: that
            // lags behind within a batch, and a replay tells nobody.
            for (a, p) in players.iter().enumerate() {
                for other in
                    self.occupancy.seers_that(self.depth, &self.disc, p.pos, |q| q.id != p.id)
                {
                    if let Some(b) = place(other) {
                        links.push(Link { monster: None, a: a as u32, b: b as u32 });
                    }
                }
            }
        }
        let players: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
        let (of, members) = grouped(&players, &links);
        Found { players, links, of, members, ..Found::default() }
    }
}
