//! What happened, in words: the lines a player reads of its own doings and
//! of what it sees others do.

use gloam_protocol::{PlayerId, Pos, ServerMsg};

use crate::bestiary::capitalised;
use crate::world::depth::Outcome;
use crate::world::depth::rules::Rules;
use crate::world::depth::rules::events::{Blow, Event, Refusal};

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
        Event::OnPile { .. } | Event::PickedUp { .. } | Event::Dropped { .. } => {
            say_items(rules, event, outcome)
        }
        Event::Followed { mover, other } => {
            let text = format!("You follow {}.", rules.name_of(other));
            outcome.tell(mover, ServerMsg::Note(text));
        }
        Event::Woke { kind, at } => {
            let text = format!("{} wakes up.", capitalised(&rules.bestiary.kind(kind).the()));
            tell_seers(rules, at, &[], &text, outcome);
        }
        Event::PlayerStruck { attacker, kind, at, blow } => {
            let the = rules.bestiary.kind(kind).the();
            let combat = |text: String| ServerMsg::Combat(text);
            match blow {
                Blow::Missed => outcome.tell(attacker, combat(format!("You miss {the}."))),
                Blow::Hit(damage) => {
                    outcome.tell(attacker, combat(format!("You hit {the} ({damage}).")));
                }
                Blow::Killed(_) => {
                    outcome.tell(attacker, combat(format!("You kill {the}.")));
                    let seen = format!("{} kills {the}.", rules.name_of(attacker));
                    tell_seers(rules, at, &[attacker], &seen, outcome);
                }
            }
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

/// Why an action could not be done, in words.
fn refusal(why: Refusal) -> &'static str {
    match why {
        Refusal::NoStairsDown => "There are no stairs down here.",
        Refusal::NoStairsUp => "There are no stairs up here.",
        Refusal::NothingHere => "There is nothing here to pick up.",
        Refusal::PackFull => "Your pack is full.",
        Refusal::NoSuchItem => "You have no such item.",
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
        Event::PickedUp { id, item } => {
            let what = rules.items.kind(item.kind).described(item.count);
            let slot =
                rules.player(id).and_then(|p| p.pack.iter().position(|i| i.kind == item.kind));
            let letter = slot.map_or(String::new(), |s| format!(" ({})", letter(s)));
            outcome.tell(id, ServerMsg::Note(format!("You pick up {what}{letter}.")));
        }
        Event::Dropped { id, item } => {
            let what = rules.items.kind(item.kind).described(item.count);
            outcome.tell(id, ServerMsg::Note(format!("You drop {what}.")));
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
