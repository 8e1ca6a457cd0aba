//! What happened on a depth, as the rules decide it: the words of the
//! game, not of any message. The rules hand each event to an
//! [`Observer`] the moment it happens, with themselves as they stand then,
//! so that whoever tells players about it (the depth's views) sees the
//! depth of that moment; a replay hands them to nobody.

use gloam_protocol::{CellSet, FloorChange, MonsterId, PlayerId, Pos, SightDiff};

use super::Rules;
use super::flow::Leaving;
use crate::bestiary::KindId;
use crate::items::{Gear, Item, ItemKindId};

/// One thing that happened.
#[derive(Debug)]
pub(crate) enum Event {
    /// A player was put on the depth (its sight follows).
    Arrived { id: PlayerId },
    /// A player's sight after it acted (`answers`) or was moved.
    Saw { id: PlayerId, answers: bool, sight: Sight },
    /// A player's action could not be done.
    Refused { id: PlayerId, why: Refusal },
    /// A player steps onto stairs.
    OnStairs { id: PlayerId, down: bool },
    /// A player steps into the level's vault from outside it.
    EnteredVault { id: PlayerId },
    /// `mover` stepped into `other`, and they swapped places.
    Swapped { mover: PlayerId, other: PlayerId },
    /// `mover` stepped into `other`, who is walking that way, and waits a
    /// step behind it.
    Followed { mover: PlayerId, other: PlayerId },
    /// The deadline passed: `away` (of `party`) were counted away, and the
    /// round goes on without them.
    CountedAway { away: Vec<PlayerId>, party: Vec<PlayerId> },
    /// A monster moved, was hurt or died standing on `at`, or was put there.
    MonsterChanged { monster: MonsterId, at: Pos },
    /// A sleeping monster woke up on `at`.
    Woke { kind: KindId, at: Pos },
    /// A player struck at a monster of `kind` standing on `at`: with a
    /// blow, a missile it threw or a bolt it zapped, as `by` says.
    PlayerStruck { attacker: PlayerId, kind: KindId, at: Pos, blow: Blow, by: Strike },
    /// A monster of `kind` struck at a player standing on `at`.
    MonsterStruck { kind: KindId, target: PlayerId, at: Pos, blow: Blow },
    /// A monster of `kind` on `from` shot at a player standing on `at`.
    MonsterShot { kind: KindId, from: Pos, target: PlayerId, at: Pos, blow: Blow },
    /// A monster of `kind` standing on `from` stole `item` from a player.
    Stole { kind: KindId, from: Pos, target: PlayerId, item: Item },
    /// A monster of `kind` on `from` called those around it onto its prey.
    Called { kind: KindId, from: Pos },
    /// With `--pvp`: a player struck at another.
    PlayerStruckPlayer { attacker: PlayerId, target: PlayerId, blow: Blow },
    /// A player stepped onto a pile.
    OnPile { id: PlayerId, at: Pos },
    /// A player picked up `item` from the pile underfoot, into `slot`.
    PickedUp { id: PlayerId, item: Item, slot: u8 },
    /// A player drank or read one item of `kind`.
    Used { id: PlayerId, kind: ItemKindId, how: Use },
    /// A player learnt what kind `kind` is: it used one, or saw one used.
    Learned { id: PlayerId, kind: ItemKindId },
    /// A potion or scroll took effect on a player, as [`Felt`] says.
    Felt { id: PlayerId, what: Felt },
    /// A player's step went astray into what it cannot enter.
    Stumbled { id: PlayerId },
    /// A player learnt the cells in `learnt` of its level (magic mapping).
    Mapped { id: PlayerId, learnt: CellSet },
    /// A player wielded or wore an item of `kind`.
    Equipped { id: PlayerId, kind: ItemKindId, gear: Gear },
    /// A player took off an item of `kind`.
    TookOff { id: PlayerId, kind: ItemKindId },
    /// A player threw an item of `kind`.
    Threw { id: PlayerId, kind: ItemKindId },
    /// A player zapped a wand of `kind`.
    Zapped { id: PlayerId, kind: ItemKindId },
    /// A wand player `id` zapped did what [`Wrought`] says.
    Wrought { id: PlayerId, what: Wrought },
    /// A wand of light player `id` zapped showed it the cells in `learnt`.
    Lit { id: PlayerId, learnt: CellSet },
    /// A player gained experience, and `level` when it went up.
    Gained { id: PlayerId, level: Option<u8> },
    /// A player dropped `item` onto the pile underfoot.
    Dropped { id: PlayerId, item: Item },
    /// What a player carries changed.
    PackChanged { id: PlayerId },
    /// A player who stood still saw a pile in its sight change.
    FloorSeen { id: PlayerId, change: FloorChange },
    /// A player's hit points changed.
    Vitals { id: PlayerId },
    /// A player left the depth standing on `at` (the game, its connection,
    /// its life, or by the stairs: `how` says which).
    Left { id: PlayerId, name: String, at: Pos, how: Leaving },
    /// A player died (it is off the depth; the flow holds it), whose most
    /// hit points were `max_hp`.
    Died { id: PlayerId, max_hp: u16 },
    /// A player carried the artifact, of kind `with`, back up to the first
    /// depth: it won, and leaves the game for the hall of the living.
    Escaped { id: PlayerId, with: ItemKindId },
}

/// What a potion or scroll did to the one who used it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Felt {
    /// It got back so many hit points.
    Healed(u16),
    /// Its most hit points rose by so many.
    Invigorated(u16),
    /// It was moved across its level at random, from the cell `from`.
    Teleported { from: gloam_protocol::Pos },
    /// It put so many monsters to sleep.
    Slept(usize),
    /// It lost so many hit points.
    Harmed(u16),
    /// It became confused (or more so).
    Confused,
    /// Its confusion wore off.
    ClearHeaded,
    /// It woke the whole level.
    Aggravated,
    /// It called up so many monsters around it.
    Summoned(usize),
}

/// What a wand did, where it was aimed (a bolt that strikes is told as
/// the blow it is, a light as the cells it shows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wrought {
    /// It had no charges left.
    Empty,
    /// Its bolt reached no creature.
    Missed,
    /// It reached no further than its range, or found nothing to work on.
    Faded,
    /// It moved the zapper.
    Blinked,
    /// It could not move the zapper there: the cell is taken or closed.
    Stayed,
    /// It gave `target` back `by` hit points.
    Healed { target: PlayerId, by: u16 },
    /// It slowed a monster of `kind` standing on `at`.
    Slowed { kind: KindId, at: Pos },
}

/// What a player's blow at a monster was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Strike {
    /// With what it wields, or bare-handed.
    Blow,
    /// A missile of this kind it threw.
    Missile(ItemKindId),
    /// A bolt from a wand.
    Bolt,
}

/// What a player's sight did.
#[derive(Debug)]
pub(crate) enum Sight {
    /// It sees from where it saw from before, `at`: nothing changed but
    /// who stands around it and the piles in `floor`.
    Same { at: Pos, floor: Vec<FloorChange> },
    /// It sees from a new cell: `diff` is what its memory's cells and
    /// piles did, `was` the cell it saw from before, if any.
    New { was: Option<Pos>, diff: SightDiff },
}

/// Why an action could not be done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    NoStairsDown,
    NoStairsUp,
    /// Nothing lies underfoot to pick up.
    NothingHere,
    /// The pack has no room for what lies underfoot.
    PackFull,
    /// No item in the pack at the letter given.
    NoSuchItem,
    CannotQuaff,
    CannotRead,
    CannotWield,
    CannotWear,
    CannotThrow,
    AlreadyEquipped,
    NotEquipped,
    /// A throw at a cell the thrower does not see (or its own).
    NotInSight,
    /// A throw further than the missile flies.
    OutOfRange,
    CannotZap,
}

/// How a potion or scroll is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    Quaff,
    Read,
}

/// How a blow went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blow {
    Missed,
    Hit(u16),
    Killed(u16),
}

/// Whoever hears what happened, as it happens.
pub(crate) trait Observer {
    fn observe(&mut self, rules: &Rules, event: Event);
}

/// Nobody: what a replay tells.
#[derive(Debug, Default)]
pub(crate) struct Nobody;

impl Observer for Nobody {
    fn observe(&mut self, _: &Rules, _: Event) {}
}
