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
        Event::Refused { id, why } => {
            let why = match why {
                Refusal::NoStairsDown => "There are no stairs down here.",
                Refusal::NoStairsUp => "There are no stairs up here.",
            };
            outcome.tell(id, ServerMsg::Note(why.into()));
        }
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

/// A line for every player who sees `pos`, but those in `except`.
fn tell_seers(rules: &Rules, pos: Pos, except: &[PlayerId], text: &str, outcome: &mut Outcome) {
    for to in rules.seers(pos).into_iter().filter(|id| !except.contains(id)) {
        outcome.tell(to, ServerMsg::Combat(text.to_owned()));
    }
}
