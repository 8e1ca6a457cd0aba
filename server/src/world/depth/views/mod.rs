//! What each player is told: the views observe the rules' events as they
//! happen and make each player's messages from them, against what that
//! player's client was told before. Nothing here decides anything that
//! happens on the depth; a replay has no views.
//!
//! `telling` keeps each client's picture of the others and the monsters
//! up to date, `comings` tells of players coming and going, `lines` words
//! what happened, and `still` paces the news to those who stood still.

mod comings;
pub(super) mod lines;
mod party;
mod seen;
pub(crate) mod still;
mod telling;
mod view;

use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use gloam_protocol::{Carried, PlayerId, ServerMsg, SightDiff};

use super::Outcome;
use super::rules::events::{Event, Observer, Sight};
use super::rules::{CellHasher, Rules, in_order};
use crate::character::experience;
use comings::{Coming, Comings};
use serde::{Deserialize, Serialize};
use view::{ChangedMonsters, RecentMoves, View};

/// What every player on the depth was told, and what the rules did in the
/// command being observed that some may yet have to hear.
///
/// Between commands only the fields serde does not skip hold anything:
/// they are what a depth's snapshot keeps of its views (see
/// [`Views::to_bytes`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Views {
    /// For each player on the depth, what its client was told, each view
    /// shared with the depth's snapshots as its players are (see
    /// `rules::Players`): a view told something while a snapshot still
    /// holds it is copied then.
    #[serde(serialize_with = "in_order")]
    pub(super) told: HashMap<PlayerId, Arc<View>, BuildHasherDefault<CellHasher>>,
    /// Players whose client was last told its round waits for someone
    /// (and maybe some who left since): with those who wait now, the only
    /// ones whose "waiting for" can change (see `tell_waiting`).
    told_waiting: BTreeSet<PlayerId>,
    /// Players whose sight changed in this command.
    #[serde(skip)]
    moved: Vec<PlayerId>,
    /// Players who moved, with each cell they stood on, not yet told to
    /// every shift of those who stood still.
    recent_moves: RecentMoves,
    /// Monsters that moved, were hurt or died in this command, and where.
    #[serde(skip)]
    changed_monsters: ChangedMonsters,
    /// Players whose hit points may have changed in this command (or who
    /// arrived): their own are told at its end.
    #[serde(skip)]
    vitals_changed: Vec<PlayerId>,
    /// Comings and goings not yet told to everyone.
    comings: Comings,
    /// Players their shift of the still passed by, being caught up (see
    /// `View::caught_up`): the moves since their last diff wait for the next
    /// one, or for their shift's next turn, which tells them everyone
    /// around them anew.
    passed_by: BTreeSet<PlayerId>,
    /// Players whose client was last told a party of more than itself.
    in_parties: BTreeSet<PlayerId>,
    /// The parties' stamp when they were last told (see
    /// `Rules::parties_stamp`).
    parties_told_at: Option<u64>,
    /// Piles that changed in this command in the sight of players who did
    /// not change them, by player.
    #[serde(skip)]
    floor_seen: std::collections::BTreeMap<PlayerId, Vec<gloam_protocol::FloorChange>>,
}

/// Player `id`'s game ended (`event`: it died or escaped).
fn ended(rules: &Rules, id: PlayerId, event: Event, outcome: &mut Outcome) {
    // Its last action is answered by its end, not by a sight it no longer
    // has.
    outcome.out.retain(|o| o.to != id || !is_diff(&o.msg));
    if let Event::Died { max_hp, .. } = event {
        // Its hit points run out with the blow, as its client shows before
        // the end (and a recording of its fall).
        outcome.tell(id, ServerMsg::Vitals { hp: 0, max: max_hp });
    }
    lines::say(rules, event, outcome);
}

/// The views observing one command, telling into its outcome.
pub(super) struct Telling<'a> {
    pub views: &'a mut Views,
    pub outcome: &'a mut Outcome,
}

impl Observer for Telling<'_> {
    fn observe(&mut self, rules: &Rules, event: Event) {
        self.views.observe(rules, event, self.outcome);
    }
}

impl Views {
    /// What the views hold between commands, in bytes (for a snapshot),
    /// calling `pause` after each
    /// [`PAUSE_EVERY`](crate::world::depth::PAUSE_EVERY) bytes.
    pub(crate) fn to_bytes(&self, pause: &mut dyn FnMut()) -> Vec<u8> {
        gloam_protocol::codec::encode_paced(self, super::PAUSE_EVERY, pause)
    }

    /// Views as [`to_bytes`](Self::to_bytes) gave them.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        gloam_protocol::codec::decode_snapshot(bytes)
            .map_err(|e| format!("the snapshot's views do not decode: {e}"))
    }

    /// Takes in one event, as it happens.
    fn observe(&mut self, rules: &Rules, event: Event, outcome: &mut Outcome) {
        match event {
            Event::Arrived { id } => self.arrived(rules, id, outcome),
            Event::Saw { id, answers, sight } => self.saw(rules, id, answers, sight, outcome),
            Event::MonsterChanged { monster, at } => self.changed_monsters.note(monster, at),
            Event::Vitals { id } => self.vitals_changed.push(id),
            Event::PackChanged { id } => outcome.tell(id, pack_of(rules, id)),
            Event::Gained { id, level } => {
                if let Some(level) = level {
                    outcome.tell(id, ServerMsg::Note(format!("Welcome to level {level}!")));
                }
                outcome.tell(id, experience_of(rules, id));
            }
            Event::FloorSeen { id, change } => {
                // Told at the command's end, all in one message: its client
                // never shows a pile between two changes of one command.
                let seen = self.floor_seen.entry(id).or_default();
                seen.retain(|c| c.at != change.at);
                seen.push(change);
            }
            Event::Left { id, name, at, how } => {
                self.told.remove(&id);
                self.passed_by.remove(&id);
                self.floor_seen.remove(&id);
                self.moved.retain(|&m| m != id);
                self.recent_moves.push(id, at);
                self.comings.push(Coming::Went(name, how));
            }
            Event::Learned { id, .. } => {
                if let Some(kinds) = known_kinds_of(rules, id) {
                    outcome.tell(id, kinds);
                }
                lines::say(rules, event, outcome);
            }
            Event::Escaped { id, .. } | Event::Died { id, .. } => ended(rules, id, event, outcome),
            said @ (Event::Refused { .. }
            | Event::OnStairs { .. }
            | Event::EnteredVault { .. }
            | Event::Swapped { .. }
            | Event::Followed { .. }
            | Event::CountedAway { .. }
            | Event::Woke { .. }
            | Event::PlayerStruck { .. }
            | Event::MonsterStruck { .. }
            | Event::MonsterShot { .. }
            | Event::Stole { .. }
            | Event::Called { .. }
            | Event::PlayerStruckPlayer { .. }
            | Event::OnPile { .. }
            | Event::PickedUp { .. }
            | Event::Used { .. }
            | Event::Felt { .. }
            | Event::Stumbled { .. }
            | Event::Equipped { .. }
            | Event::TookOff { .. }
            | Event::Threw { .. }
            | Event::Zapped { .. }
            | Event::Wrought { .. }
            | Event::Mapped { .. }
            | Event::Lit { .. }
            | Event::Dropped { .. }) => lines::say(rules, said, outcome),
        }
    }

    /// A player came: it is told the level as it remembers it and who is
    /// here, and the others hear of it with the news.
    fn arrived(&mut self, rules: &Rules, id: PlayerId, outcome: &mut Outcome) {
        let Some(player) = rules.player(id) else { return };
        // Its roster holds everyone here, those the others have not heard
        // of yet too: it hears only of the news after its own.
        self.comings.push(Coming::Came(player.name.clone()));
        self.told
            .insert(id, Arc::new(View { comings_heard: self.comings.end(), ..View::default() }));
        // The kinds it knows first: the level it enters is shown with
        // them, never for a moment without.
        if let Some(kinds) = known_kinds_of(rules, id) {
            outcome.tell(id, kinds);
        }
        if let Some(memory) = player.memory(rules.depth) {
            outcome.tell(id, telling::enter_level(rules, memory));
            let floor = memory.recall_floor();
            if !floor.is_empty() {
                outcome.tell(id, ServerMsg::Floor(floor));
            }
        }
        outcome.tell(id, pack_of(rules, id));
        outcome.tell(id, experience_of(rules, id));
        self.vitals_changed.push(id);
        outcome.tell(id, ServerMsg::Roster(roster_for(rules, id)));
    }

    /// Moves a player's told view to what it sees from where it stands
    /// now and tells it: as the answer to its action (`Sight`) or not
    /// (`Displaced`).
    fn saw(
        &mut self,
        rules: &Rules,
        id: PlayerId,
        answers: bool,
        sight: Sight,
        outcome: &mut Outcome,
    ) {
        if answers {
            // Its answer finds it up to date on who came and went too.
            self.tell_comings_to(id, &mut outcome.out);
        }
        let diff = match sight {
            Sight::Same { at, floor } => {
                // The level does not change, so neither does its sight: the
                // answer is an empty diff but for the piles that changed
                // and the players around it, as they stand now.
                let mut diff = SightDiff { at, floor, ..SightDiff::default() };
                if answers {
                    self.tell_players_now(rules, id, &mut diff);
                }
                diff
            }
            Sight::New { was, mut diff } => {
                if let Some(was) = was {
                    self.recent_moves.push(id, was);
                }
                if !self.moved.contains(&id) {
                    self.moved.push(id);
                }
                // What it sees from here goes with this diff: it may yet be
                // moved again in this command (swapped aside, or its held
                // action when the round closes), and its client must never
                // hold the others as seen from where it stood before.
                self.tell_now(rules, id, &mut diff);
                diff
            }
        };
        let msg = if answers { ServerMsg::Sight(diff) } else { ServerMsg::Displaced(diff) };
        outcome.tell(id, msg);
    }

    /// A line for everyone on this depth.
    pub(crate) fn tell_everyone(rules: &Rules, text: &str) -> Vec<super::Outgoing> {
        let note = ServerMsg::Note(text.to_owned());
        rules.players().keys().map(|&to| super::Outgoing { to, msg: note.clone() }).collect()
    }

    /// Tells everyone (or those of one shift) the movers and the comings
    /// and goings they have not heard of.
    pub(crate) fn tell_untold(
        &mut self,
        rules: &Rules,
        outcome: &mut Outcome,
        shift: Option<still::Shift>,
    ) {
        self.tell_movers(rules, outcome, shift);
        self.tell_comings(rules, &mut outcome.out, shift);
    }

    /// Whether `id`'s shift of the still passed it by last time and has
    /// yet to tell it everyone around it anew (see `tell_movers`).
    #[cfg(test)]
    pub(crate) fn passed_by(&self, id: PlayerId) -> bool {
        self.passed_by.contains(&id)
    }

    /// True when some movers are not yet told to some of those who stood
    /// still, or some comings and goings to anyone.
    pub(crate) fn has_untold(&self) -> bool {
        !self.recent_moves.is_empty() || !self.comings.is_empty() || !self.passed_by.is_empty()
    }

    /// The monsters `id`'s client was told are in its view, by id, and
    /// whether each seemed awake.
    pub(crate) fn monsters_told(&self, id: PlayerId) -> Vec<(gloam_protocol::MonsterId, bool)> {
        let Some(told) = self.told.get(&id) else { return Vec::new() };
        told.monsters.iter().map(|(&m, seen)| (m, !seen.asleep)).collect()
    }
}

/// The kinds of item as `id` knows them, when it knows any of those that
/// are unknown until tried (otherwise its client holds them as the
/// welcome told them).
pub(super) fn known_kinds_of(rules: &Rules, id: PlayerId) -> Option<ServerMsg> {
    let known = &rules.player(id)?.known;
    (!known.is_empty()).then(|| ServerMsg::ItemKinds(rules.items.infos_for(known)))
}

/// Cells a player learnt without seeing them, as its client is told them.
pub(super) fn mapped(rules: &Rules, learnt: &gloam_protocol::CellSet) -> ServerMsg {
    let cells = rules.level.grid.cells();
    let terrain = learnt.iter().filter_map(|i| cells.get(i).copied()).collect();
    ServerMsg::Mapped { remembered: learnt.to_bytes(), terrain }
}

/// What `id` carries, as its client is told it.
pub(super) fn pack_of(rules: &Rules, id: PlayerId) -> ServerMsg {
    let Some(player) = rules.player(id) else { return ServerMsg::Pack(Vec::new()) };
    let pack = &player.pack;
    let carried = pack.items().iter().enumerate().map(|(slot, i)| Carried {
        kind: i.kind,
        count: rules.items.told_count(*i),
        equipped: pack.gear_at(slot as u8).is_some(),
    });
    ServerMsg::Pack(carried.collect())
}

/// `id`'s experience, as its client is told it.
pub(super) fn experience_of(rules: &Rules, id: PlayerId) -> ServerMsg {
    let xp = rules.player(id).map_or(0, |p| p.xp);
    let level = experience::level_of(xp);
    ServerMsg::Experience { level, xp, next: experience::next_after(level) }
}

/// Whether `msg` is a sight diff, which a player who died or escaped no
/// longer has.
fn is_diff(msg: &ServerMsg) -> bool {
    matches!(msg, ServerMsg::Sight(_) | ServerMsg::Displaced(_))
}

/// The names of everyone on this depth but `id`, sorted.
pub(super) fn roster_for(rules: &Rules, id: PlayerId) -> Vec<String> {
    let mut names: Vec<String> =
        rules.players().values().filter(|p| p.id != id).map(|p| p.name.clone()).collect();
    names.sort();
    names
}
