//! Each player's party panel: those it shares a round with, with their
//! hit points and levels, told when that changes. Worked out for those a
//! command concerns (who acted, whose hit points changed) and everyone in
//! a party with them or told of one, not for every player on the depth.

use std::collections::BTreeSet;
use std::sync::Arc;

use gloam_protocol::{Member, PlayerId, ServerMsg};

use super::Views;
use crate::world::depth::Outcome;
use crate::world::depth::rules::Rules;

impl Views {
    /// Tells each player the command concerns (`ids`) whose party, or a
    /// member's hit points or level, is not what it was told.
    pub(super) fn tell_parties(
        &mut self,
        rules: &Rules,
        mut ids: Vec<PlayerId>,
        outcome: &mut Outcome,
    ) {
        ids.extend(self.in_parties.iter().copied());
        ids.sort_unstable();
        ids.dedup();
        let mut done = BTreeSet::new();
        for id in ids {
            if done.contains(&id) {
                continue;
            }
            let party = rules.party_of(id);
            for &member in &party {
                done.insert(member);
                self.tell_party(rules, member, &party, outcome);
            }
        }
    }

    /// Tells `id` its party, `party`, if its client was told otherwise.
    fn tell_party(
        &mut self,
        rules: &Rules,
        id: PlayerId,
        party: &[PlayerId],
        outcome: &mut Outcome,
    ) {
        let Some(told) = self.told.get_mut(&id).map(Arc::make_mut) else {
            self.in_parties.remove(&id);
            return;
        };
        if !is_told(&told.party, rules, id, party) {
            let now = members(rules, id, party);
            told.party.clone_from(&now);
            outcome.tell(id, ServerMsg::Party(now));
        }
        if told.party.is_empty() {
            self.in_parties.remove(&id);
        } else {
            self.in_parties.insert(id);
        }
    }
}

/// True when `told` is what [`members`] would tell `id` of `party` now:
/// asked for every member after each blow, so it builds nothing.
fn is_told(told: &[Member], rules: &Rules, id: PlayerId, party: &[PlayerId]) -> bool {
    if party.len() < 2 {
        return told.is_empty();
    }
    let others = party.iter().copied().filter(|&p| p != id);
    let mut now = std::iter::once(id).chain(others).filter_map(|p| rules.player(p));
    let same = |m: &Member| {
        now.next().is_some_and(|p| {
            m.id == p.id
                && m.hp == p.vitals.hp
                && m.max == p.vitals.max_hp
                && m.level == p.level()
                && m.name == p.name
        })
    };
    told.iter().all(same) && now.next().is_none()
}

/// `party` as `id` is told it: itself first, then the others in id order;
/// nobody when it is alone.
pub(super) fn members(rules: &Rules, id: PlayerId, party: &[PlayerId]) -> Vec<Member> {
    if party.len() < 2 {
        return Vec::new();
    }
    let member = |p: PlayerId| {
        let player = rules.player(p)?;
        let (hp, max) = (player.vitals.hp, player.vitals.max_hp);
        Some(Member { id: p, name: player.name.clone(), hp, max, level: player.level() })
    };
    let others = party.iter().copied().filter(|&p| p != id);
    std::iter::once(id).chain(others).filter_map(member).collect()
}
