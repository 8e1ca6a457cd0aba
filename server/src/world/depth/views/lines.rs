//! What happened, in words: the lines a player reads of its own doings and
//! of what it sees others do, of others coming and going, of how a life
//! ended, and why a standing order stopped. The only place the depth's
//! words are: the rules and the orders hand over what happened, typed.

use gloam_protocol::{PlayerId, Pos, ServerMsg};

use crate::bestiary::{KindId, capitalised};
use crate::items::{Class, Gear, Item, ItemKindId, plural};
use crate::world::depth::Outcome;
use crate::world::depth::orders::{Balk, Order};
use crate::world::depth::rules::events::{Blow, Event, Felt, Refusal, Strike, Use, Wrought};

use crate::world::depth::rules::{End, Killer, Leaving, Notice, Rules};

/// Tells the lines `event` is worded as. Every event is named here, so a
/// new one is a compile error until it is decided what it says.
pub(super) fn say(rules: &Rules, event: Event, outcome: &mut Outcome) {
    match event {
        // Told by the views as the pictures they are, in no words.
        Event::Arrived { .. }
        | Event::Saw { .. }
        | Event::MonsterChanged { .. }
        | Event::Vitals { .. }
        | Event::PackChanged { .. }
        | Event::FloorSeen { .. }
        | Event::Left { .. } => {}
        Event::Gained { .. } => {}
        Event::Died { id, .. } => outcome.tell(id, ServerMsg::Combat("You die...".into())),
        Event::Escaped { id, with } => {
            let text = format!("You escape the Gloam with {}!", rules.the_item(id, with));
            outcome.tell(id, ServerMsg::Note(text));
        }
        Event::Refused { id, why } => outcome.tell(id, ServerMsg::Note(refusal(why).into())),
        Event::OnStairs { id, down } => {
            let note =
                if down { "There are stairs down here." } else { "There are stairs up here." };
            outcome.tell(id, ServerMsg::Note(note.into()));
        }
        Event::EnteredVault { id } => {
            if let Some(vault) = &rules.level.vault {
                outcome.tell(id, ServerMsg::Note(format!("You enter {}.", vault.name)));
            }
        }
        Event::Swapped { mover, other } => say_swapped(rules, mover, other, outcome),
        Event::OnPile { id, at } => say_pile(rules, id, at, outcome),
        Event::PickedUp { id, item, slot } => {
            let what = rules.item_words(id, item.kind, item.count);
            let letter = letter(usize::from(slot));
            outcome.tell(id, ServerMsg::Note(format!("You pick up {what} ({letter}).")));
        }
        Event::Dropped { id, item } => say_dropped(rules, id, item, outcome),
        Event::Equipped { id, kind, gear } => say_equipped(rules, id, kind, gear, outcome),
        Event::TookOff { id, kind } => say_took_off(rules, id, kind, outcome),
        Event::Threw { id, kind } => say_threw(rules, id, kind, outcome),
        Event::Zapped { id, kind } => say_zapped(rules, id, kind, outcome),
        Event::Wrought { id, what } => say_wrought(rules, id, what, outcome),
        Event::Mapped { id, learnt } => say_learnt(rules, id, &learnt, MAPPED, outcome),
        Event::Lit { id, learnt } => say_learnt(rules, id, &learnt, LIT, outcome),
        Event::Used { id, kind, how } => say_used(rules, id, kind, how, outcome),
        Event::Learned { id, kind } => say_learned(rules, id, kind, outcome),
        Event::Felt { id, what } => say_felt(rules, id, what, outcome),
        Event::Stumbled { id } => outcome.tell(id, ServerMsg::Note("You stumble.".into())),
        Event::CountedAway { away, party } => say_counted_away(rules, &away, &party, outcome),
        Event::Followed { mover, other } => {
            let text = format!("You follow {}.", rules.name_of(other));
            outcome.tell(mover, ServerMsg::Note(text));
        }
        Event::Woke { kind, at } => say_woke(rules, kind, at, outcome),
        Event::MonsterShot { kind, from, target, at, blow } => {
            say_shot(rules, kind, (from, at), target, blow, outcome)
        }
        Event::Stole { kind, from, target, item } => {
            say_stole(rules, kind, from, target, item, outcome)
        }
        Event::Called { kind, from } => say_called(rules, kind, from, outcome),
        Event::PlayerStruck { attacker, kind, at, blow, by } => {
            say_blow(rules, attacker, kind, at, blow, by, outcome)
        }
        Event::MonsterStruck { kind, target, at, blow } => {
            say_bitten(rules, kind, target, at, blow, outcome)
        }
        Event::PlayerStruckPlayer { attacker, target, blow } => {
            say_duel(rules, attacker, target, blow, outcome)
        }
    }
}

/// The line of a monster waking, to those who see it (none for one that
/// hides: it wakes unseen).
fn say_woke(rules: &Rules, kind: KindId, at: Pos, outcome: &mut Outcome) {
    if !rules.bestiary.kind(kind).hides {
        let text = format!("{} wakes up.", capitalised(&rules.bestiary.kind(kind).the()));
        tell_seers(rules, at, &[], &text, outcome);
    }
}

/// The lines of a thief's theft: its victim is told what, as it knows it;
/// those who see it, that something went.
fn say_stole(
    rules: &Rules,
    kind: KindId,
    from: Pos,
    target: PlayerId,
    item: Item,
    outcome: &mut Outcome,
) {
    let the = capitalised(&rules.bestiary.kind(kind).the());
    let what = rules.item_words(target, item.kind, item.count);
    let text = format!("{the} steals {what} from you, and runs!");
    outcome.tell(target, ServerMsg::Combat(text));
    let seen = format!("{the} steals something from {}.", rules.name_of(target));
    tell_seers(rules, from, &[target], &seen, outcome);
}

fn say_called(rules: &Rules, kind: KindId, from: Pos, outcome: &mut Outcome) {
    let the = capitalised(&rules.bestiary.kind(kind).the());
    tell_seers(rules, from, &[], &format!("{the} calls out, and its kin answer!"), outcome);
}

fn say_swapped(rules: &Rules, mover: PlayerId, other: PlayerId, outcome: &mut Outcome) {
    let (mover_name, other_name) = (rules.name_of(mover), rules.name_of(other));
    outcome.tell(mover, ServerMsg::Note(format!("You swap places with {other_name}.")));
    outcome.tell(other, ServerMsg::Others(format!("{mover_name} swaps places with you.")));
}

/// The lines of a monster of `kind` striking at `target`, on `at`: to it,
/// and to those who see it bitten.
fn say_bitten(
    rules: &Rules,
    kind: crate::bestiary::KindId,
    target: PlayerId,
    at: Pos,
    blow: Blow,
    outcome: &mut Outcome,
) {
    let kind = rules.bestiary.kind(kind);
    let the = capitalised(&kind.the());
    match blow {
        Blow::Missed => outcome.tell(target, ServerMsg::Combat(format!("{the} misses you."))),
        Blow::Hit(damage) | Blow::Killed(damage) => {
            let text = format!("{the} {} you ({damage}).", kind.verb);
            outcome.tell(target, ServerMsg::Combat(text));
            if kind.hides {
                // Shown only to its prey, next to it.
                return;
            }
            let seen = format!("{the} {} {}.", kind.verb, rules.name_of(target));
            tell_seers(rules, at, &[target], &seen, outcome);
        }
    }
}

/// The lines of a monster of `kind` shooting at `target`, from and to
/// the cells of `line`: to it, and to those who see either end.
fn say_shot(
    rules: &Rules,
    kind: crate::bestiary::KindId,
    (from, at): (Pos, Pos),
    target: PlayerId,
    blow: Blow,
    outcome: &mut Outcome,
) {
    let kind = rules.bestiary.kind(kind);
    let missile = kind.shoots.as_ref().map_or("a missile", |s| s.missile.as_str());
    let the = capitalised(&kind.the());
    let (to_target, seen) = match blow {
        Blow::Missed => (
            format!("{the} shoots {missile} at you. It misses."),
            format!("{the} shoots {missile} at {}. It misses.", rules.name_of(target)),
        ),
        Blow::Hit(damage) | Blow::Killed(damage) => (
            format!("{the} shoots {missile}. It hits you ({damage})."),
            format!("{the} shoots {missile}. It hits {}.", rules.name_of(target)),
        ),
    };
    outcome.tell(target, ServerMsg::Combat(to_target));
    let shooters = rules.seers(from);
    tell_seers(rules, from, &[target], &seen, outcome);
    let mut except = shooters;
    except.push(target);
    tell_seers(rules, at, &except, &seen, outcome);
}

/// With `--pvp`: the lines of a player's blow at another, to both.
fn say_duel(
    rules: &Rules,
    attacker: PlayerId,
    target: PlayerId,
    blow: Blow,
    outcome: &mut Outcome,
) {
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

/// The lines of a player's blow, missile or bolt reaching a monster of
/// `kind` on `at`: a blow is "you", a missile is named ("The dart hits
/// ...").
fn say_blow(
    rules: &Rules,
    attacker: PlayerId,
    kind: crate::bestiary::KindId,
    at: Pos,
    blow: Blow,
    by: Strike,
    outcome: &mut Outcome,
) {
    let the = rules.bestiary.kind(kind).the();
    let combat = |text: String| ServerMsg::Combat(text);
    // A blow is "you"; a missile is named ("The dart hits ..."), as the
    // attacker knows it; a bolt is a bolt.
    let by = match by {
        Strike::Blow => None,
        Strike::Missile(m) => Some(capitalised(&rules.the_item(attacker, m))),
        Strike::Bolt => Some("The bolt".to_owned()),
    };
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
            if rules.bestiary.kind(kind).unique {
                say_slain(rules, attacker, &the, at, outcome);
            }
        }
    }
}

/// A unique was slain on `at`: everyone on the depth hears of it, those
/// who saw it by the line of the blow.
fn say_slain(rules: &Rules, attacker: PlayerId, name: &str, at: Pos, outcome: &mut Outcome) {
    let mut told = rules.seers(at);
    told.push(attacker);
    let text = format!("{name} is slain by {}!", rules.name_of(attacker));
    for &to in rules.players().keys().filter(|id| !told.contains(id)) {
        outcome.tell(to, ServerMsg::Note(text.clone()));
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
        Refusal::CannotZap => "You cannot zap that.",
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

/// What a player who stepped onto `at` is told lies there.
fn say_pile(rules: &Rules, id: PlayerId, at: Pos, outcome: &mut Outcome) {
    let Some(top) = rules.floor.top(at, &rules.items) else { return };
    let what = rules.item_words(id, top.kind, top.count);
    let more = if top.more { ", with more under it" } else { "" };
    outcome.tell(id, ServerMsg::Note(format!("You see {what} here{more}.")));
}

fn say_dropped(rules: &Rules, id: PlayerId, item: Item, outcome: &mut Outcome) {
    let what = rules.item_words(id, item.kind, item.count);
    outcome.tell(id, ServerMsg::Note(format!("You drop {what}.")));
}

fn say_equipped(rules: &Rules, id: PlayerId, kind: ItemKindId, gear: Gear, outcome: &mut Outcome) {
    let the = rules.items.kind(kind).the();
    let text = match gear {
        Gear::Wielded => format!("You wield {the}."),
        Gear::Worn => format!("You put on {the}."),
    };
    outcome.tell(id, ServerMsg::Note(text));
}

fn say_took_off(rules: &Rules, id: PlayerId, kind: ItemKindId, outcome: &mut Outcome) {
    let kind = rules.items.kind(kind);
    let text = match kind.class {
        Class::Weapon { .. } => format!("You put away {}.", kind.the()),
        Class::Armour { .. }
        | Class::Potion { .. }
        | Class::Scroll { .. }
        | Class::Missile { .. }
        | Class::Wand { .. }
        | Class::Artifact => format!("You take off {}.", kind.the()),
    };
    outcome.tell(id, ServerMsg::Note(text));
}

fn say_threw(rules: &Rules, id: PlayerId, kind: ItemKindId, outcome: &mut Outcome) {
    let a = rules.item_words(id, kind, 1);
    outcome.tell(id, ServerMsg::Combat(format!("You throw {a}.")));
    if let Some(from) = rules.player(id).map(|p| p.pos) {
        let name = rules.name_of(id);
        for to in rules.seers(from).into_iter().filter(|&to| to != id) {
            let a = rules.item_words(to, kind, 1);
            outcome.tell(to, ServerMsg::Others(format!("{name} throws {a}.")));
        }
    }
}

const MAPPED: &str = "A map of this level forms in your mind.";
const LIT: &str = "Light floods the place, and you see it.";

/// Cells learnt unseen (magic mapping, a wand of light): `note`, then the
/// cells themselves.
fn say_learnt(
    rules: &Rules,
    id: PlayerId,
    learnt: &gloam_protocol::CellSet,
    note: &str,
    outcome: &mut Outcome,
) {
    outcome.tell(id, ServerMsg::Note(note.into()));
    outcome.tell(id, super::mapped(rules, learnt));
}

/// The lines of a wand zapped: to the player, and to those who see it,
/// each naming it as they know it.
fn say_zapped(rules: &Rules, id: PlayerId, kind: ItemKindId, outcome: &mut Outcome) {
    let a = rules.item_words(id, kind, 1);
    outcome.tell(id, ServerMsg::Combat(format!("You zap {a}.")));
    if let Some(from) = rules.player(id).map(|p| p.pos) {
        let name = rules.name_of(id);
        for to in rules.seers(from).into_iter().filter(|&to| to != id) {
            let a = rules.item_words(to, kind, 1);
            outcome.tell(to, ServerMsg::Others(format!("{name} zaps {a}.")));
        }
    }
}

/// The lines of what a wand did: to its zapper, to a friend it healed,
/// and to those who see a monster slowed.
fn say_wrought(rules: &Rules, id: PlayerId, what: Wrought, outcome: &mut Outcome) {
    let note = |text: &str| ServerMsg::Note(text.to_owned());
    match what {
        Wrought::Empty => outcome.tell(id, note("Nothing happens.")),
        Wrought::Missed => outcome.tell(id, note("The bolt strikes nothing.")),
        Wrought::Faded => outcome.tell(id, note("The magic fades, finding nothing.")),
        Wrought::Blinked => outcome.tell(id, note("You blink across the gap.")),
        Wrought::Stayed => outcome.tell(id, note("You shudder, and stay where you are.")),
        Wrought::Healed { target, by: 0 } => {
            // A friend already at its most hit points.
            let (name, friend) = (rules.name_of(id), rules.name_of(target));
            outcome.tell(id, ServerMsg::Note(format!("{friend} looks no better.")));
            outcome.tell(target, ServerMsg::Note(format!("{name}'s wand does you no good.")));
        }
        Wrought::Healed { target, by } => {
            let (name, friend) = (rules.name_of(id), rules.name_of(target));
            outcome.tell(id, ServerMsg::Note(format!("{friend} looks better ({by}).")));
            outcome.tell(target, ServerMsg::Note(format!("{name}'s wand heals you ({by}).")));
        }
        Wrought::Slowed { kind, at } => {
            let the = capitalised(&rules.bestiary.kind(kind).the());
            outcome.tell(id, ServerMsg::Combat(format!("{the} slows down.")));
            tell_seers(rules, at, &[id], &format!("{the} slows down."), outcome);
        }
    }
}

/// The lines of a potion drunk or a scroll read: to the player, and to
/// those who see it, each naming it as they know it.
fn say_used(rules: &Rules, id: PlayerId, kind: ItemKindId, how: Use, outcome: &mut Outcome) {
    let (you, they) = match how {
        Use::Quaff => ("drink", "drinks"),
        Use::Read => ("read", "reads"),
    };
    let a = rules.item_words(id, kind, 1);
    outcome.tell(id, ServerMsg::Note(format!("You {you} {a}.")));
    if let Some(from) = rules.player(id).map(|p| p.pos) {
        let name = rules.name_of(id);
        for to in rules.seers(from).into_iter().filter(|&to| to != id) {
            let a = rules.item_words(to, kind, 1);
            outcome.tell(to, ServerMsg::Others(format!("{name} {they} {a}.")));
        }
    }
}

/// What a player who learnt kind `kind` is told: "Murky potions are
/// potions of healing."
fn say_learned(rules: &Rules, id: PlayerId, kind: ItemKindId, outcome: &mut Outcome) {
    let Some(look) = rules.items.look(kind) else { return };
    let (looks, is) = (plural(&look.name), plural(&rules.items.kind(kind).name));
    outcome.tell(id, ServerMsg::Note(format!("{} are {is}.", capitalised(&looks))));
}

/// What a player feels of a potion or scroll; the whole level hears the
/// humming that wakes it.
fn say_felt(rules: &Rules, id: PlayerId, what: Felt, outcome: &mut Outcome) {
    outcome.tell(id, ServerMsg::Note(felt(what)));
    if let Felt::Teleported { from } = what {
        // Those who saw it stand there see it go.
        tell_seers(rules, from, &[id], &format!("{} vanishes!", rules.name_of(id)), outcome);
    }
    if what == Felt::Aggravated {
        let text = "You hear a high-pitched humming, and the whole level stirs.";
        for &other in rules.players().keys().filter(|&&other| other != id) {
            outcome.tell(other, ServerMsg::Note(text.into()));
        }
    }
}

/// What a player feels of a potion or scroll.
fn felt(what: Felt) -> String {
    match what {
        Felt::Healed(0) => "You feel no different.".into(),
        Felt::Healed(by) => format!("You feel better ({by})."),
        Felt::Invigorated(by) => format!("You feel hardier (+{by} most hit points)."),
        Felt::Teleported { .. } => "The world twists, and you are elsewhere.".into(),
        Felt::Slept(count) => slept(count),
        Felt::Harmed(by) => format!("You feel very sick ({by})."),
        Felt::Confused => "You feel confused; your feet wander.".into(),
        Felt::ClearHeaded => "You feel less confused now.".into(),
        Felt::Aggravated => "You hear a high-pitched humming, and the whole level stirs.".into(),
        Felt::Summoned(count) => summoned(count),
    }
}

fn summoned(count: usize) -> String {
    match count {
        0 => "The air shimmers, and settles.".into(),
        1 => "Something answers the call!".into(),
        _ => "Monsters answer the call!".into(),
    }
}

fn slept(count: usize) -> String {
    match count {
        0 => "A drowsy hush falls, but nothing here hears it.".into(),
        1 => "The monster you see falls asleep.".into(),
        _ => "The monsters you see fall asleep.".into(),
    }
}

/// How a line about players going ends, for one and for several.
pub(super) fn farewell(how: Leaving) -> (&'static str, &'static str) {
    match how {
        Leaving::Quit => ("has left the game.", "have left the game."),
        Leaving::Lost => ("has lost the connection.", "have lost the connection."),
        Leaving::Died => ("dies.", "die."),
        Leaving::WentDown => ("goes down the stairs.", "go down the stairs."),
        Leaving::WentUp => ("climbs the stairs.", "climb the stairs."),
        Leaving::Escaped => ("escapes the Gloam, and wins!", "escape the Gloam, and win!"),
    }
}

/// How a life ended, as the graveyard (or the hall of the living) keeps
/// it: "a jackal", the name of the player who struck the last blow, or the
/// artifact one escaped with.
pub(in crate::world::depth) fn end(rules: &Rules, end: &End) -> String {
    match end {
        End::Killed(Killer::Monster(kind)) => rules.bestiary.kind(*kind).a(),
        End::Killed(Killer::Player(name)) => name.clone(),
        End::Escaped(with) => rules.items.kind(*with).the(),
    }
}

/// The line a standing order stops with for `notice`; `None` when another
/// line already says so (a blow's, a waking's).
pub(in crate::world::depth) fn notice(
    rules: &Rules,
    id: PlayerId,
    notice: Notice,
) -> Option<String> {
    match notice {
        Notice::Hurt | Notice::Woke => None,
        Notice::CameIntoView { kind, asleep } => {
            let how = if asleep { ", asleep" } else { "" };
            let a = capitalised(&rules.bestiary.kind(kind).a());
            Some(format!("{a} comes into view{how}."))
        }
        Notice::SawItem { top, .. } => {
            Some(format!("You see {}.", rules.item_words(id, top.kind, top.count)))
        }
    }
}

/// The line an order ends with when it is carried out, if any.
pub(in crate::world::depth) fn order_done(order: Order) -> Option<&'static str> {
    match order {
        Order::Rest => Some("You feel rested."),
        Order::Explore | Order::Travel(_) | Order::Stairs(_) => None,
    }
}

/// Why an order can take no step, in words.
pub(in crate::world::depth) fn balk(rules: &Rules, why: Balk) -> String {
    match why {
        Balk::Waiting => "Not while your round waits for others.".into(),
        Balk::Gone => String::new(),
        Balk::AwakeInView(kind) => format!("Not with {} in view.", rules.bestiary.kind(kind).a()),
        Balk::FullHealth => "You are at full health.".into(),
        Balk::UnknownWay => "You do not know the way there.".into(),
        Balk::NoStairsDown => "You know of no stairs down.".into(),
        Balk::NoStairsUp => "You know of no stairs up.".into(),
        Balk::NothingLeft => "Nothing left to explore.".into(),
        Balk::Blocked => "You know of no way there that is free.".into(),
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
