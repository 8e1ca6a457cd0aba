//! Who shares a danger with whom: the parties whose rounds the clock
//! keeps together (see `docs/turns.md`). An awake monster that notices two
//! players links them, and with `--pvp` so does seeing each other. Found
//! for the whole depth at once, when first asked for after a change.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use gloam_protocol::PlayerId;

use super::monsters;
use super::{CellHasher, Rules, Search};
use crate::character::Player;

/// The parties as they stand, found when first asked for after a change.
#[derive(Debug, Default)]
pub(crate) struct Parties {
    found: RefCell<Option<Found>>,
}

impl Parties {
    /// Something moved, woke, came or went: parties are found afresh when
    /// next asked for.
    pub fn stir(&self) {
        self.found.borrow_mut().take();
    }
}

/// Every party on the depth.
#[derive(Debug, Default)]
struct Found {
    /// Each player's party, by its place in `members`.
    of: HashMap<PlayerId, usize, BuildHasherDefault<CellHasher>>,
    /// Each party's players, in id order.
    members: Vec<Vec<PlayerId>>,
}

impl Rules {
    /// The players who share a danger with `id`, directly or through
    /// others, `id` included, in id order: an awake monster that notices
    /// two links them, and with `--pvp` so does seeing each other.
    pub fn party_of(&self, id: PlayerId) -> Vec<PlayerId> {
        if self.in_no_danger(id) {
            // The common case, a player alone or in a quiet crowd, costs a
            // look at the monsters, not the whole depth's parties.
            return vec![id];
        }
        let mut cache = self.parties.found.borrow_mut();
        let parties = cache.get_or_insert_with(|| self.find_parties());
        match parties.of.get(&id) {
            Some(&i) => parties.members[i].clone(),
            None => vec![id],
        }
    }

    /// True when no awake monster notices `id` (and players are no danger
    /// to each other): it is a party of one.
    fn in_no_danger(&self, id: PlayerId) -> bool {
        let Some(player) = self.player(id) else { return true };
        let Some(memory) = player.memory(self.depth) else { return true };
        !self.host.pvp
            && !self.monsters.values().any(|m| {
                m.awake
                    && memory.sees(m.pos)
                    && monsters::within(player.pos, m.pos, self.bestiary.kind(m.kind).sight)
            })
    }

    /// Every party on the depth, at once: each awake monster joins those
    /// who notice it (a union-find over the players), so the cost is one
    /// look per awake monster, however many ask.
    fn find_parties(&self) -> Found {
        let players: Vec<&Player> = self.players().values().collect();
        let mut parent: Vec<usize> = (0..players.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let mut join = |a: usize, b: usize| {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        };
        let place = |id: PlayerId| players.binary_search_by_key(&id, |p| p.id).ok();
        for m in self.monsters.values().filter(|m| m.awake) {
            let sight = self.bestiary.kind(m.kind).sight;
            let notices = |p: &Player| {
                monsters::within(p.pos, m.pos, sight)
                    && p.memory(self.depth).is_some_and(|mem| mem.sees(m.pos))
            };
            let mut first = None;
            // Few players: ask each; a crowd: only those near enough.
            let noticing: Vec<usize> = if self.occupancy.search(self.disc.len(), 2) != Search::Cells
            {
                (0..players.len()).filter(|&i| notices(players[i])).collect()
            } else {
                self.noticed_by(m.id).into_iter().filter_map(place).collect()
            };
            for i in noticing {
                match first {
                    None => first = Some(i),
                    Some(f) => join(f, i),
                }
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
                        join(a, b);
                    }
                }
            }
        }
        let mut parties = Found::default();
        let mut slot: Vec<Option<usize>> = vec![None; players.len()];
        for (i, p) in players.iter().enumerate() {
            let r = root(&mut parent, i);
            let at = *slot[r].get_or_insert_with(|| {
                parties.members.push(Vec::new());
                parties.members.len() - 1
            });
            parties.members[at].push(p.id);
            parties.of.insert(p.id, at);
        }
        parties
    }
}
