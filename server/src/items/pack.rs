//! What a player carries: up to [`PACK_SLOTS`] entries in the order of
//! their letters, and which of them it wields and wears.

use gloam_protocol::PACK_SLOTS;

use super::Item;

/// A player's pack. An entry never holds none of its kind; the weapon
/// wielded and the armour worn are entries of the pack, marked.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pack {
    items: Vec<Item>,
    wielded: Option<u8>,
    worn: Option<u8>,
}

/// What is in hand or on the body, as the rules weigh it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gear {
    Wielded,
    Worn,
}

impl Pack {
    /// A pack of `items`, nothing equipped (one kept before packs were).
    pub fn of(items: Vec<Item>) -> Self {
        Self { items, wielded: None, worn: None }
    }

    /// A pack of `items` with the entries `wielded` and `worn` equipped;
    /// a mark that points past the pack is dropped.
    pub fn with_gear(items: Vec<Item>, wielded: Option<u8>, worn: Option<u8>) -> Self {
        let fits = |slot: Option<u8>| slot.filter(|&s| usize::from(s) < items.len());
        Self { wielded: fits(wielded), worn: fits(worn), items }
    }

    pub fn items(&self) -> &[Item] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The entry at `slot` (0 is `a`).
    pub fn get(&self, slot: u8) -> Option<Item> {
        self.items.get(usize::from(slot)).copied()
    }

    /// The slot of the weapon wielded.
    pub fn wielded(&self) -> Option<u8> {
        self.wielded
    }

    /// The slot of the armour worn.
    pub fn worn(&self) -> Option<u8> {
        self.worn
    }

    /// What the entry at `slot` is equipped as, if it is.
    pub fn gear_at(&self, slot: u8) -> Option<Gear> {
        if self.wielded == Some(slot) {
            Some(Gear::Wielded)
        } else if self.worn == Some(slot) {
            Some(Gear::Worn)
        } else {
            None
        }
    }

    /// Whether `item` would find room: a stack of its kind to join (when
    /// it `stacks`), or a free letter.
    pub fn has_room_for(&self, item: Item, stacks: bool) -> bool {
        self.stack_of(item, stacks).is_some() || self.items.len() < PACK_SLOTS
    }

    /// Puts `item` in the pack: onto a stack of its kind when it `stacks`,
    /// else under a new letter. Gives its slot, or the item back when the
    /// pack is full.
    pub fn add(&mut self, item: Item, stacks: bool) -> Result<u8, Item> {
        if let Some(slot) = self.stack_of(item, stacks) {
            stack_onto(&mut self.items[slot], item);
            return Ok(slot as u8);
        }
        if self.items.len() >= PACK_SLOTS {
            return Err(item);
        }
        self.items.push(item);
        Ok((self.items.len() - 1) as u8)
    }

    /// Takes `count` of the entry at `slot` (all of it when it holds no
    /// more); the letters after an entry taken whole move up one, and an
    /// equipped entry taken whole is no longer equipped.
    pub fn take(&mut self, slot: u8, count: u16) -> Option<Item> {
        let entry = self.items.get_mut(usize::from(slot))?;
        if count < entry.count {
            entry.count -= count;
            return Some(Item { kind: entry.kind, count });
        }
        let item = self.items.remove(usize::from(slot));
        let shift = |mark: Option<u8>| match mark {
            Some(s) if s == slot => None,
            Some(s) if s > slot => Some(s - 1),
            other => other,
        };
        self.wielded = shift(self.wielded);
        self.worn = shift(self.worn);
        Some(item)
    }

    /// Marks the entry at `slot` as `gear` (what was so before goes back
    /// to being carried).
    pub fn equip(&mut self, slot: u8, gear: Gear) {
        if usize::from(slot) >= self.items.len() {
            return;
        }
        match gear {
            Gear::Wielded => self.wielded = Some(slot),
            Gear::Worn => self.worn = Some(slot),
        }
    }

    /// The entry at `slot` is no longer equipped.
    pub fn unequip(&mut self, slot: u8) {
        if self.wielded == Some(slot) {
            self.wielded = None;
        }
        if self.worn == Some(slot) {
            self.worn = None;
        }
    }

    /// Everything in the pack, which is left empty.
    pub fn take_all(&mut self) -> Vec<Item> {
        std::mem::take(self).items
    }

    /// The slot of a stack `item` may join.
    fn stack_of(&self, item: Item, stacks: bool) -> Option<usize> {
        self.items.iter().position(|&i| joins(i, item, stacks))
    }
}

/// Whether `item` joins the stack `onto`: it is of the same kind, and of
/// a kind that `stacks`. The one rule of stacking, in a pack and a pile.
pub fn joins(onto: Item, item: Item, stacks: bool) -> bool {
    stacks && onto.kind == item.kind
}

/// Adds `item` to the stack `onto`, of the same kind.
pub fn stack_onto(onto: &mut Item, item: Item) {
    debug_assert_eq!(onto.kind, item.kind);
    onto.count = onto.count.saturating_add(item.count);
}

/// Puts `item` on top of `pile`: onto the top's own stack when it
/// [`joins`] it, else on its own.
pub fn pile_onto(pile: &mut Vec<Item>, item: Item, stacks: bool) {
    match pile.last_mut() {
        Some(top) if joins(*top, item, stacks) => stack_onto(top, item),
        _ => pile.push(item),
    }
}

/// The top of `pile`, as a player who sees it is told (a wand as one,
/// its charges untold).
pub fn top_of(pile: &[Item], items: &super::Catalogue) -> Option<gloam_protocol::Lying> {
    let top = *pile.last()?;
    let count = items.told_count(top);
    Some(gloam_protocol::Lying { kind: top.kind, count, more: pile.len() > 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DART: Item = Item { kind: 1, count: 5 };
    const SWORD: Item = Item { kind: 2, count: 1 };
    const MAIL: Item = Item { kind: 3, count: 1 };

    #[test]
    fn a_pile_and_a_pack_stack_by_the_one_rule() {
        let mut pile = Vec::new();
        pile_onto(&mut pile, DART, true);
        pile_onto(&mut pile, DART, true);
        pile_onto(&mut pile, SWORD, false);
        pile_onto(&mut pile, SWORD, false);
        pile_onto(&mut pile, DART, true);
        // Onto the top's stack only: the darts under the swords stay apart.
        let counts: Vec<(u16, u16)> = pile.iter().map(|i| (i.kind, i.count)).collect();
        assert_eq!(counts, [(1, 10), (2, 1), (2, 1), (1, 5)]);
        let top = top_of(&pile, &crate::items::Catalogue::built_in()).unwrap();
        assert_eq!((top.kind, top.count, top.more), (1, 5, true));
        assert_eq!(top_of(&[], &crate::items::Catalogue::built_in()), None);
        // A pack joins a stack wherever it stands, by the same rule.
        let mut pack = Pack::default();
        for (item, stacks) in [(DART, true), (SWORD, false), (DART, true), (SWORD, false)] {
            let slot = pack.add(item, stacks).unwrap();
            let joined = pack.items().iter().filter(|&&i| joins(i, item, stacks)).count();
            assert!(joined <= 1, "one stack a stacking kind");
            assert!(usize::from(slot) < pack.items().len());
        }
        let counts: Vec<(u16, u16)> = pack.items().iter().map(|i| (i.kind, i.count)).collect();
        assert_eq!(counts, [(1, 10), (2, 1), (2, 1)]);
    }

    #[test]
    fn what_stacks_joins_its_stack_and_the_rest_takes_a_letter() {
        let mut pack = Pack::default();
        assert_eq!(pack.add(DART, true), Ok(0));
        assert_eq!(pack.add(SWORD, false), Ok(1));
        assert_eq!(pack.add(SWORD, false), Ok(2), "swords do not stack");
        assert_eq!(pack.add(DART, true), Ok(0));
        assert_eq!(pack.get(0), Some(Item { kind: 1, count: 10 }));
        for _ in 3..PACK_SLOTS {
            pack.add(MAIL, false).unwrap();
        }
        assert_eq!(pack.add(MAIL, false), Err(MAIL), "full");
        assert!(pack.has_room_for(DART, true), "a full pack still takes what joins a stack");
        assert_eq!(pack.add(DART, true), Ok(0));
    }

    #[test]
    fn taking_an_entry_moves_the_marks_with_their_items() {
        let mut pack = Pack::of(vec![DART, SWORD, MAIL]);
        pack.equip(1, Gear::Wielded);
        pack.equip(2, Gear::Worn);
        assert_eq!(pack.take(0, 2), Some(Item { kind: 1, count: 2 }), "part of a stack");
        assert_eq!((pack.wielded(), pack.worn()), (Some(1), Some(2)));
        assert_eq!(pack.take(0, 3), Some(Item { kind: 1, count: 3 }), "the rest of it");
        assert_eq!((pack.wielded(), pack.worn()), (Some(0), Some(1)), "letters move up");
        assert_eq!(pack.gear_at(0), Some(Gear::Wielded));
        assert_eq!(pack.take(0, 1), Some(SWORD));
        assert_eq!((pack.wielded(), pack.worn()), (None, Some(0)), "what is taken is unequipped");
        assert_eq!(pack.take(5, 1), None);
    }

    #[test]
    fn equipping_replaces_the_one_before_and_marks_outside_the_pack_are_dropped() {
        let mut pack = Pack::of(vec![SWORD, SWORD, MAIL]);
        pack.equip(0, Gear::Wielded);
        pack.equip(1, Gear::Wielded);
        assert_eq!(pack.wielded(), Some(1));
        pack.equip(9, Gear::Worn);
        assert_eq!(pack.worn(), None);
        pack.unequip(1);
        assert_eq!(pack.wielded(), None);
        let kept = Pack::with_gear(vec![SWORD], Some(0), Some(4));
        assert_eq!((kept.wielded(), kept.worn()), (Some(0), None));
    }
}
