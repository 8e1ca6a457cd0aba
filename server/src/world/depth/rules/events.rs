//! What happened on a depth, as the rules decide it: the words of the
//! game, not of any message. The rules hand each event to an
//! [`Observer`] the moment it happens, with themselves as they stand then,
//! so that whoever tells players about it (the depth's views) sees the
//! depth of that moment; a replay hands them to nobody.

use gloam_protocol::{FloorChange, MonsterId, PlayerId, Pos, SightDiff};

use super::Rules;
use crate::bestiary::KindId;
use crate::items::Item;
use crate::world::depth::{Death, Departure, Farewell};

/// One thing that happened.
#[derive(Debug)]
pub enum Event {
    /// A player was put on the depth (its sight follows).
    Arrived { id: PlayerId },
    /// A player's action was applied: its next may come.
    Answered { id: PlayerId },
    /// A player's sight after it acted (`answers`) or was moved.
    Saw { id: PlayerId, answers: bool, sight: Sight },
    /// A player's action could not be done.
    Refused { id: PlayerId, why: Refusal },
    /// A player steps onto stairs.
    OnStairs { id: PlayerId, down: bool },
    /// `mover` stepped into `other`, and they swapped places.
    Swapped { mover: PlayerId, other: PlayerId },
    /// `mover` stepped into `other`, who is walking that way, and waits a
    /// step behind it.
    Followed { mover: PlayerId, other: PlayerId },
    /// A monster moved, was hurt or died standing on `at`, or was put there.
    Stirred { monster: MonsterId, at: Pos },
    /// A sleeping monster woke up on `at`.
    Woke { kind: KindId, at: Pos },
    /// A player struck at a monster of `kind` standing on `at`.
    PlayerStruck { attacker: PlayerId, kind: KindId, at: Pos, blow: Blow },
    /// A monster of `kind` struck at a player standing on `at`.
    MonsterStruck { kind: KindId, target: PlayerId, at: Pos, blow: Blow },
    /// With `--pvp`: a player struck at another.
    PlayerStruckPlayer { attacker: PlayerId, target: PlayerId, blow: Blow },
    /// A player stepped onto a pile.
    OnPile { id: PlayerId, at: Pos },
    /// A player picked up `item` from the pile underfoot.
    PickedUp { id: PlayerId, item: Item },
    /// A player dropped `item` onto the pile underfoot.
    Dropped { id: PlayerId, item: Item },
    /// What a player carries changed.
    PackChanged { id: PlayerId },
    /// A player who stood still saw a pile in its sight change.
    FloorSeen { id: PlayerId, change: FloorChange },
    /// A player's hit points changed.
    Vitals { id: PlayerId },
    /// A player left the depth standing on `at` (the game, its connection,
    /// its life, or by the stairs: `farewell` says which).
    Left { id: PlayerId, name: String, at: Pos, farewell: Farewell },
    /// A player took the stairs: handed on to the depth it goes to.
    Departed(Departure),
    /// A player died.
    Died(Death),
}

/// What a player's sight did.
#[derive(Debug)]
pub enum Sight {
    /// It sees from where it saw from before, `at`: nothing changed but
    /// who stands around it and the piles in `floor`.
    Same { at: Pos, floor: Vec<FloorChange> },
    /// It sees from a new cell: `diff` is what its memory's cells and
    /// piles did, `was` the cell it saw from before, if any.
    New { was: Option<Pos>, diff: SightDiff },
}

/// Why an action could not be done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NoStairsDown,
    NoStairsUp,
    /// Nothing lies underfoot to pick up.
    NothingHere,
    /// The pack has no room for what lies underfoot.
    PackFull,
    /// No item in the pack at the letter given.
    NoSuchItem,
}

/// How a blow went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blow {
    Missed,
    Hit(u16),
    Killed(u16),
}

/// Whoever hears what happened, as it happens.
pub trait Observer {
    fn observe(&mut self, rules: &Rules, event: Event);
}

/// Nobody: what a replay tells.
#[derive(Debug, Default)]
pub struct Nobody;

impl Observer for Nobody {
    fn observe(&mut self, _: &Rules, _: Event) {}
}
