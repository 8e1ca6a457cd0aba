//! What happened, in words: the lines a player reads of its own doings and
//! of what it sees others do.

use gloam_protocol::{PlayerId, Pos, ServerMsg};

use crate::bestiary::capitalised;
use crate::items::{Class, Gear};
use crate::world::depth::Outcome;
use crate::world::depth::rules::Rules;
use crate::world::depth::rules::events::{Blow, Event, Refusal};
use crate::world::depth::rules::using::Use;

/// Tells the lines `event` is worded as.
pub(super) fn say(rules: &Rules, event: Event, outcome: &mut Outcome) {
    match event {
        Event::Refused { id, why } => outcome.tell(id, ServerMsg::Note(refusal(why).into())),
        Event::OnStairs { id, down } => {
            let note =
                if down { "There are stairs down here." } else { "There are stairs up here." };
            outcome.tell(id, ServerMsg::Note(note.into()));
        }
        Event::Swapped { mover, other } => {
            let (mover_name, other_name) = (rules.name_of(mover), rules.name_of(other));
            outcome.tell(mover, ServerMsg::Note(format!("You swap places with {other_name}.")));
            outcome.tell(other, ServerMsg::Others(format!("{mover_name} swaps places with you.")));
        }
        Event::OnPile { .. }
        | Event::PickedUp { .. }
        | Event::Dropped { .. }
        | Event::Equipped { .. }
        | Event::TookOff { .. }
        | Event::Threw { .. } => say_items(rules, event, outcome),
        Event::Used { .. }
        | Event::Healed { .. }
        | Event::Invigorated { .. }
        | Event::Teleported { .. }
        | Event::Slept { .. } => say_effects(rules, event, outcome),
        Event::CountedAway { away, party } => say_counted_away(rules, &away, &party, outcome),
        Event::Followed { mover, other } => {
            let text = format!("You follow {}.", rules.name_of(other));
            outcome.tell(mover, ServerMsg::Note(text));
        }
        Event::Woke { kind, at } => {
            let text = format!("{} wakes up.", capitalised(&rules.bestiary.kind(kind).the()));
            tell_seers(rules, at, &[], &text, outcome);
        }
        Event::PlayerStruck { attacker, kind, at, blow, missile } => {
            say_blow(rules, attacker, kind, at, blow, missile, outcome)
        }
        Event::MonsterStruck { kind, target, at, blow } => {
            let kind = rules.bestiary.kind(kind);
            let the = capitalised(&kind.the());
            match blow {
                Blow::Missed => {
                    outcome.tell(target, ServerMsg::Combat(format!("{the} misses you.")))
                }
                Blow::Hit(damage) | Blow::Killed(damage) => {
                    let text = format!("{the} {} you ({damage}).", kind.verb);
                    outcome.tell(target, ServerMsg::Combat(text));
                    let seen = format!("{the} {} {}.", kind.verb, rules.name_of(target));
                    tell_seers(rules, at, &[target], &seen, outcome);
                }
            }
        }
        Event::PlayerStruckPlayer { attacker, target, blow } => {
            let (name, victim) = (rules.name_of(attacker), rules.name_of(target));
            let (to_attacker, to_target) = match blow {
                Blow::Missed => (format!("You miss {victim}."), format!("{name} misses you.")),
                Blow::Hit(d) | Blow::Killed(d) => {
                    (format!("You hit {victim} ({d})."), format!("{name} hits you ({d})."))
                }
            };
            outcome.tell(attacker, ServerMsg::Combat(to_attacker));
            outcome.tell(target, ServerMsg::Combat(to_target));
        }
        _ => {}
    }
}

/// The lines of a player's blow or missile reaching a monster of `kind` on
/// `at`: a blow is "you", a missile is named ("The dart hits ...").
fn say_blow(
    rules: &Rules,
    attacker: PlayerId,
    kind: crate::bestiary::KindId,
    at: Pos,
    blow: Blow,
    missile: Option<crate::items::ItemKindId>,
    outcome: &mut Outcome,
) {
    let the = rules.bestiary.kind(kind).the();
    let combat = |text: String| ServerMsg::Combat(text);
    // A blow is "you"; a missile is named ("The dart hits ...").
    let by = missile.map(|m| capitalised(&rules.items.kind(m).the()));
    let line = |you: &str, it: &str| match &by {
        None => format!("You {you} {the}"),
        Some(missile) => format!("{missile} {it} {the}"),
    };
    match blow {
        Blow::Missed => outcome.tell(attacker, combat(line("miss", "misses") + ".")),
        Blow::Hit(damage) => {
            outcome.tell(attacker, combat(line("hit", "hits") + &format!(" ({damage}).")));
        }
        Blow::Killed(_) => {
            outcome.tell(attacker, combat(line("kill", "kills") + "."));
            let seen = format!("{} kills {the}.", rules.name_of(attacker));
            tell_seers(rules, at, &[attacker], &seen, outcome);
        }
    }
}

/// Why an action could not be done, in words.
fn refusal(why: Refusal) -> &'static str {
    match why {
        Refusal::NoStairsDown => "There are no stairs down here.",
        Refusal::NoStairsUp => "There are no stairs up here.",
        Refusal::NothingHere => "There is nothing here to pick up.",
        Refusal::PackFull => "Your pack is full.",
        Refusal::NoSuchItem => "You have no such item.",
        Refusal::CannotQuaff => "You cannot drink that.",
        Refusal::CannotRead => "You cannot read that.",
        Refusal::CannotWield => "You cannot wield that.",
        Refusal::CannotWear => "You cannot wear that.",
        Refusal::CannotThrow => "You cannot throw that.",
        Refusal::AlreadyEquipped => "You are already using that.",
        Refusal::NotEquipped => "You are not using that.",
        Refusal::NotInSight => "You cannot see that spot.",
        Refusal::OutOfRange => "That is out of range.",
    }
}

/// The deadline passed: those `away` are told they were counted away, and
/// the rest of the `party` that they are away.
fn say_counted_away(rules: &Rules, away: &[PlayerId], party: &[PlayerId], outcome: &mut Outcome) {
    for &id in away {
        let text = "You were counted away: the round went on without you.";
        outcome.tell(id, ServerMsg::Note(text.into()));
    }
    let names: Vec<String> = away.iter().map(|&id| rules.name_of(id)).collect();
    let text = match names.as_slice() {
        [one] => format!("{one} is away."),
        [first @ .., last] => format!("{} and {last} are away.", first.join(", ")),
        [] => return,
    };
    for &id in party.iter().filter(|id| !away.contains(id)) {
        outcome.tell(id, ServerMsg::Note(text.clone()));
    }
}

/// The lines of what a player did with an item.
fn say_items(rules: &Rules, event: Event, outcome: &mut Outcome) {
    match event {
        Event::OnPile { id, at } => {
            let Some(top) = rules.floor.top(at) else { return };
            let what = rules.items.kind(top.kind).described(top.count);
            let more = if top.more { ", on more" } else { "" };
            outcome.tell(id, ServerMsg::Note(format!("You see {what} here{more}.")));
        }
        Event::PickedUp { id, item, slot } => {
            let what = rules.items.kind(item.kind).described(item.count);
            let letter = letter(usize::from(slot));
            outcome.tell(id, ServerMsg::Note(format!("You pick up {what} ({letter}).")));
        }
        Event::Dropped { id, item } => {
            let what = rules.items.kind(item.kind).described(item.count);
            outcome.tell(id, ServerMsg::Note(format!("You drop {what}.")));
        }
        Event::Equipped { id, kind, gear } => {
            let the = rules.items.kind(kind).the();
            let text = match gear {
                Gear::Wielded => format!("You wield {the}."),
                Gear::Worn => format!("You put on {the}."),
            };
            outcome.tell(id, ServerMsg::Note(text));
        }
        Event::TookOff { id, kind } => {
            let kind = rules.items.kind(kind);
            let text = match kind.class {
                Class::Weapon { .. } => format!("You put away {}.", kind.the()),
                _ => format!("You take off {}.", kind.the()),
            };
            outcome.tell(id, ServerMsg::Note(text));
        }
        Event::Threw { id, kind, .. } => {
            let a = rules.items.kind(kind).described(1);
            outcome.tell(id, ServerMsg::Combat(format!("You throw {a}.")));
            if let Some(from) = rules.player(id).map(|p| p.pos) {
                let seen = format!("{} throws {a}.", rules.name_of(id));
                tell_seers(rules, from, &[id], &seen, outcome);
            }
        }
        _ => {}
    }
}

/// The lines of a potion drunk or a scroll read, and of what it did.
fn say_effects(rules: &Rules, event: Event, outcome: &mut Outcome) {
    let note = |text: String| ServerMsg::Note(text);
    match event {
        Event::Used { id, kind, how } => {
            let a = rules.items.kind(kind).described(1);
            let (you, they) = match how {
                Use::Quaff => ("drink", "drinks"),
                Use::Read => ("read", "reads"),
            };
            outcome.tell(id, note(format!("You {you} {a}.")));
            if let Some(from) = rules.player(id).map(|p| p.pos) {
                let seen = format!("{} {they} {a}.", rules.name_of(id));
                for to in rules.seers(from).into_iter().filter(|&to| to != id) {
                    outcome.tell(to, ServerMsg::Others(seen.clone()));
                }
            }
        }
        Event::Healed { id, by: 0 } => outcome.tell(id, note("You feel no different.".into())),
        Event::Healed { id, by } => outcome.tell(id, note(format!("You feel better ({by})."))),
        Event::Invigorated { id, by } => {
            outcome.tell(id, note(format!("You feel hardier (+{by} most hit points).")));
        }
        Event::Teleported { id } => {
            outcome.tell(id, note("The world twists, and you are elsewhere.".into()));
        }
        Event::Slept { id, count: 0 } => {
            outcome.tell(id, note("A drowsy hush falls, but nothing here hears it.".into()));
        }
        Event::Slept { id, count } => {
            let them = if count == 1 { "The monster you see" } else { "The monsters you see" };
            outcome.tell(id, note(format!("{them} fall asleep.")));
        }
        _ => {}
    }
}

/// A line for every player who sees `pos`, but those in `except`.
fn tell_seers(rules: &Rules, pos: Pos, except: &[PlayerId], text: &str, outcome: &mut Outcome) {
    for to in rules.seers(pos).into_iter().filter(|id| !except.contains(id)) {
        outcome.tell(to, ServerMsg::Combat(text.to_owned()));
    }
}

/// The letter of a pack's slot: `a` for the first.
pub(super) fn letter(slot: usize) -> char {
    char::from(b'a' + (slot % 26) as u8)
}
