//! What a player does with items: picks them up and drops them, drinks
//! and reads them, wields and wears them. Each is one action on the clock;
//! one that cannot be done is refused, changes nothing and costs nothing. Throwing is `throwing`, and what a potion or scroll does is
//! `effects`.

use gloam_protocol::{PlayerId, Pos};

use super::Rules;
use super::events::{Event, Observer, Refusal, Use};
use crate::items::{Class, Gear, Item, ItemKindId};

impl Rules {
    /// Picks up the top item of the pile on `pos`.
    pub(super) fn pick_up(&mut self, id: PlayerId, pos: Pos, obs: &mut dyn Observer) {
        let Some(top) = self.floor.top(pos, &self.items) else {
            return self.refuse(id, Refusal::NothingHere, obs);
        };
        let stacks = self.items.kind(top.kind).stacks();
        let Some(player) = self.occupancy.get_mut(id) else { return };
        let lying = Item { kind: top.kind, count: top.count };
        if !player.pack.has_room_for(lying, stacks) {
            return self.refuse(id, Refusal::PackFull, obs);
        }
        let item = self.floor.take_top(pos).expect("the pile has a top");
        let slot = player.pack.add(item, stacks).expect("there was room");
        obs.observe(self, Event::PickedUp { id, item, slot });
        obs.observe(self, Event::PackChanged { id });
        self.floor_changed(pos, Some(id), obs);
        self.see(id, true, obs);
    }

    /// Drops the pack's item in `slot` onto the pile on `pos` (taking it
    /// off first if it is equipped).
    pub(super) fn drop_item(&mut self, id: PlayerId, pos: Pos, slot: u8, obs: &mut dyn Observer) {
        let Some(player) = self.occupancy.get_mut(id) else { return };
        let Some(item) = player.pack.get(slot) else {
            return self.refuse(id, Refusal::NoSuchItem, obs);
        };
        let item = player.pack.take(slot, item.count).expect("the slot holds it");
        self.lay(pos, item);
        obs.observe(self, Event::Dropped { id, item });
        obs.observe(self, Event::PackChanged { id });
        self.floor_changed(pos, Some(id), obs);
        self.see(id, true, obs);
    }

    /// Drinks (`Quaff`) or reads (`Read`) one of the pack's items in
    /// `slot`: it is used up, and does what it does.
    pub(super) fn use_item(&mut self, id: PlayerId, slot: u8, how: Use, obs: &mut dyn Observer) {
        let Some(item) = self.player(id).and_then(|p| p.pack.get(slot)) else {
            return self.refuse(id, Refusal::NoSuchItem, obs);
        };
        let effect = match (self.items.kind(item.kind).class, how) {
            (Class::Potion { effect, .. }, Use::Quaff)
            | (Class::Scroll { effect, .. }, Use::Read) => effect,
            (_, Use::Quaff) => return self.refuse(id, Refusal::CannotQuaff, obs),
            (_, Use::Read) => return self.refuse(id, Refusal::CannotRead, obs),
        };
        if let Some(player) = self.occupancy.get_mut(id) {
            player.pack.take(slot, 1);
        }
        obs.observe(self, Event::Used { id, kind: item.kind, how });
        self.teach(id, item.kind, obs);
        obs.observe(self, Event::PackChanged { id });
        self.take_effect(id, effect, obs);
    }

    /// One of kind `kind` was used (or zapped) by player `id`: it learns what the kind
    /// is, and so does every player who sees it (the party's shared
    /// knowledge is the knowledge of those who were there).
    pub(super) fn teach(&mut self, id: PlayerId, kind: ItemKindId, obs: &mut dyn Observer) {
        if self.items.look(kind).is_none() {
            return;
        }
        let Some(from) = self.player(id).map(|p| p.pos) else { return };
        let mut learners = vec![id];
        learners.extend(self.seers(from).into_iter().filter(|&p| p != id));
        for learner in learners {
            let Some(player) = self.occupancy.get_mut(learner) else { continue };
            if player.known.insert(kind) {
                obs.observe(self, Event::Learned { id: learner, kind });
            }
        }
    }

    /// Wields the weapon or wears the armour in `slot` (`gear` says which
    /// the player asked for); what was so before goes back to the pack.
    pub(super) fn equip(&mut self, id: PlayerId, slot: u8, gear: Gear, obs: &mut dyn Observer) {
        let Some(player) = self.player(id) else { return };
        let Some(item) = player.pack.get(slot) else {
            return self.refuse(id, Refusal::NoSuchItem, obs);
        };
        let fits = matches!(
            (self.items.kind(item.kind).class, gear),
            (Class::Weapon { .. }, Gear::Wielded) | (Class::Armour { .. }, Gear::Worn)
        );
        if !fits {
            let why =
                if gear == Gear::Wielded { Refusal::CannotWield } else { Refusal::CannotWear };
            return self.refuse(id, why, obs);
        }
        if player.pack.gear_at(slot) == Some(gear) {
            return self.refuse(id, Refusal::AlreadyEquipped, obs);
        }
        if let Some(player) = self.occupancy.get_mut(id) {
            player.pack.equip(slot, gear);
        }
        obs.observe(self, Event::Equipped { id, kind: item.kind, gear });
        obs.observe(self, Event::PackChanged { id });
        self.see(id, true, obs);
    }

    /// Takes off the weapon or armour in `slot`.
    pub(super) fn unequip(&mut self, id: PlayerId, slot: u8, obs: &mut dyn Observer) {
        let Some(player) = self.occupancy.get_mut(id) else { return };
        let Some(item) = player.pack.get(slot) else {
            return self.refuse(id, Refusal::NoSuchItem, obs);
        };
        if player.pack.gear_at(slot).is_none() {
            return self.refuse(id, Refusal::NotEquipped, obs);
        }
        player.pack.unequip(slot);
        obs.observe(self, Event::TookOff { id, kind: item.kind });
        obs.observe(self, Event::PackChanged { id });
        self.see(id, true, obs);
    }

    /// A player's blow with what it wields: its damage dice and the
    /// percent points its weapon adds to the chance to land (none bare).
    pub(crate) fn weapon_of(&self, id: PlayerId) -> Option<(crate::tuning::Dice, i8)> {
        let player = self.player(id)?;
        let item = player.pack.get(player.pack.wielded()?)?;
        match self.items.kind(item.kind).class {
            Class::Weapon { damage, to_hit, .. } => Some((damage, to_hit)),
            _ => None,
        }
    }

    /// The percent points a player's armour takes off a monster's chance
    /// to hit it (none bare).
    pub(crate) fn armour_of(&self, id: PlayerId) -> i8 {
        let Some(player) = self.player(id) else { return 0 };
        let worn = player.pack.worn().and_then(|slot| player.pack.get(slot));
        match worn.map(|item| self.items.kind(item.kind).class) {
            Some(Class::Armour { armour, .. }) => armour,
            _ => 0,
        }
    }
}
