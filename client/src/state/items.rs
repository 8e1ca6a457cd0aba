//! The items the player knows of: the kinds the server named, the top of
//! every pile it saw on this level (drawn dim out of sight, as the map is)
//! and what it carries.

use gloam_protocol::{Carried, FloorChange, ItemInfo, PACK_SLOTS};

use super::limits::{MAX_ITEM_KINDS, MAX_KIND_NAME_CHARS, check_text};
use super::reasons;
use super::{ClientState, StateError};

impl ClientState {
    /// The kinds of item, as the server named them.
    pub(super) fn name_item_kinds(&mut self, kinds: &[ItemInfo]) -> Result<(), StateError> {
        if kinds.len() > MAX_ITEM_KINDS {
            return Err(StateError::Inconsistent(reasons::MORE_KINDS_OF_ITEM_THAN_A_CLIENT_KEEPS));
        }
        for kind in kinds {
            check_text(&kind.name, MAX_KIND_NAME_CHARS)?;
            if kind.glyph.is_control() {
                return Err(StateError::Inconsistent(reasons::ITEM_DRAWN_AS_A_CONTROL_CHARACTER));
            }
        }
        let known = |kind: u16| usize::from(kind) < kinds.len();
        if !self.floor.values().all(|l| known(l.kind)) || !self.pack.iter().all(|c| known(c.kind)) {
            return Err(StateError::Inconsistent(reasons::ITEM_KNOWN_LOST_ITS_KIND));
        }
        self.item_kinds = kinds.to_vec();
        Ok(())
    }

    /// The kind of an item, by its index.
    pub fn item_kind(&self, kind: u16) -> Option<&ItemInfo> {
        self.item_kinds.get(usize::from(kind))
    }

    /// Checks that `changes` name cells of the map and kinds the server
    /// named, without changing anything.
    pub(super) fn check_floor(&self, changes: &[FloorChange]) -> Result<(), StateError> {
        for change in changes {
            self.index(change.at).ok_or(StateError::OffTheMap(change.at))?;
            if let Some(top) = change.top {
                self.item_kind(top.kind)
                    .ok_or(StateError::Inconsistent(reasons::ITEM_OF_NO_KIND))?;
                if top.count == 0 {
                    return Err(StateError::Inconsistent(reasons::PILE_OF_NO_ITEMS));
                }
            }
        }
        Ok(())
    }

    /// What the player now knows lies on some cells (checked by `check_floor`).
    pub(super) fn apply_floor_checked(&mut self, changes: &[FloorChange]) {
        for change in changes {
            match change.top {
                Some(top) => self.floor.insert(change.at, top),
                None => self.floor.remove(&change.at),
            };
        }
    }

    /// Piles seen while the player's own view did not change.
    pub(super) fn apply_floor(&mut self, changes: &[FloorChange]) -> Result<(), StateError> {
        self.check_floor(changes)?;
        self.apply_floor_checked(changes);
        Ok(())
    }

    /// Everything the player carries now.
    pub(super) fn set_pack(&mut self, pack: &[Carried]) -> Result<(), StateError> {
        if pack.len() > PACK_SLOTS {
            return Err(StateError::Inconsistent(reasons::PACK_OF_MORE_THAN_26_ITEMS));
        }
        for carried in pack {
            self.item_kind(carried.kind)
                .ok_or(StateError::Inconsistent(reasons::ITEM_OF_NO_KIND))?;
            if carried.count == 0 {
                return Err(StateError::Inconsistent(reasons::PACK_ENTRY_OF_NO_ITEMS));
            }
        }
        self.pack = pack.to_vec();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{ItemClass, Lying, PlayerId, Pos, ServerMsg, SightDiff};

    use super::*;

    fn dart() -> ItemInfo {
        ItemInfo {
            name: "dart".into(),
            glyph: '{',
            colour: [9, 9, 9],
            class: ItemClass::Missile,
            known: true,
        }
    }

    fn with_items() -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::ItemKinds(vec![dart()])).unwrap();
        s
    }

    /// The kinds told again (the player learnt what one is) replace the
    /// last list: what it carries is named anew, and kept.
    #[test]
    fn kinds_told_again_rename_what_is_carried() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let murky = ItemInfo {
            name: "murky potion".into(),
            glyph: '!',
            colour: [1, 2, 3],
            class: ItemClass::Potion,
            known: false,
        };
        s.apply(&ServerMsg::ItemKinds(vec![murky.clone()])).unwrap();
        let carried = Carried { kind: 0, count: 2, equipped: false };
        s.apply(&ServerMsg::Pack(vec![carried])).unwrap();
        assert_eq!(s.item_kind(0).map(|k| k.name.as_str()), Some("murky potion"));
        let healing =
            ItemInfo { name: "potion of healing".into(), colour: [9, 0, 0], known: true, ..murky };
        s.apply(&ServerMsg::ItemKinds(vec![healing])).unwrap();
        assert_eq!(s.item_kind(0).map(|k| k.name.as_str()), Some("potion of healing"));
        assert_eq!(s.pack, [carried]);
    }

    #[test]
    fn piles_are_remembered_until_seen_gone_and_forgotten_on_a_new_level() {
        let mut s = with_items();
        let at = Pos::new(3, 3);
        let top = Some(Lying { kind: 0, count: 12, more: false });
        s.apply(&ServerMsg::Floor(vec![FloorChange { at, top }])).unwrap();
        assert_eq!(s.floor.get(&at).map(|l| l.count), Some(12));
        s.apply(&ServerMsg::Floor(vec![FloorChange { at, top: None }])).unwrap();
        assert!(s.floor.is_empty());
        s.apply(&ServerMsg::Floor(vec![FloorChange { at, top }])).unwrap();
        s.apply(&crate::testing::enter_level(2, 20, 10)).unwrap();
        assert!(s.floor.is_empty(), "another level's piles are not this one's");
    }

    #[test]
    fn a_pile_or_pack_that_does_not_fit_changes_nothing() {
        let mut s = with_items();
        let before = s.clone();
        let bad_kind = Some(Lying { kind: 5, count: 1, more: false });
        let off_map = FloorChange { at: Pos::new(30, 3), top: None };
        for msg in [
            ServerMsg::Floor(vec![FloorChange { at: Pos::new(1, 1), top: bad_kind }]),
            ServerMsg::Floor(vec![off_map.clone()]),
            ServerMsg::Sight(SightDiff {
                at: Pos::new(1, 1),
                floor: vec![off_map],
                ..SightDiff::default()
            }),
            ServerMsg::Pack(vec![Carried { kind: 0, count: 1, equipped: false }; 27]),
            ServerMsg::Pack(vec![Carried { kind: 3, count: 1, equipped: false }]),
            ServerMsg::Pack(vec![Carried { kind: 0, count: 0, equipped: false }]),
        ] {
            assert!(s.apply(&msg).is_err(), "{msg:?}");
            assert_eq!(s, before, "{msg:?} changed the mirror");
        }
        s.apply(&ServerMsg::Pack(vec![Carried { kind: 0, count: 3, equipped: false }])).unwrap();
        assert_eq!(s.pack.len(), 1);
    }
}
