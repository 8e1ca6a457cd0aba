//! Item prompts: an item key (`q`, `r`, `w`, `W`, `T`, `t`, `d`) asks
//! "Quaff which?" and lists, by pack letter, only the items that suit it;
//! a suitable letter is the action (or, for a throw, the aiming that
//! comes first). Which items suit is worked out from the pack each time,
//! so a pack that changes while the prompt is open is never out of date.
//! The server still judges every action: the prompt only spares the
//! player asking for what cannot be done.

use gloam_protocol::{Action, Carried, ItemClass};

use crate::state::ClientState;

/// What an item key asks to do with an item of the pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemUse {
    Drop,
    Quaff,
    Read,
    Wield,
    Wear,
    TakeOff,
    Throw,
    Zap,
}

/// A key while an item prompt is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PromptKey {
    /// The pack letter of this slot (0 is `a`).
    Letter(u8),
    Cancel,
    Other,
}

/// What a key in an open prompt comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Send this action; the prompt closes.
    Act(Action),
    /// Aim the missile (or the wand) in this slot; the prompt closes.
    Aim(u8),
    /// Esc: the prompt closes, nothing sent.
    Cancel,
    /// A letter that does not suit: this line for the log; the prompt closes.
    Refuse(String),
    /// Any other key: the prompt stays.
    Stay,
}

impl ItemUse {
    /// The verb, as the prompt and the log say it.
    pub fn verb(self) -> &'static str {
        match self {
            ItemUse::Drop => "drop",
            ItemUse::Quaff => "quaff",
            ItemUse::Read => "read",
            ItemUse::Wield => "wield",
            ItemUse::Wear => "wear",
            ItemUse::TakeOff => "take off",
            ItemUse::Throw => "throw",
            ItemUse::Zap => "zap",
        }
    }

    /// Whether an item of `class`, equipped or not, can be used so.
    fn suits(self, class: ItemClass, equipped: bool) -> bool {
        match self {
            ItemUse::Drop => true,
            ItemUse::Quaff => class == ItemClass::Potion,
            ItemUse::Read => class == ItemClass::Scroll,
            ItemUse::Wield => class == ItemClass::Weapon && !equipped,
            ItemUse::Wear => class == ItemClass::Armour && !equipped,
            ItemUse::TakeOff => equipped,
            ItemUse::Throw => class == ItemClass::Missile,
            ItemUse::Zap => class == ItemClass::Wand,
        }
    }

    /// The action for the item in `slot`; a throw or a zap has none until
    /// aimed.
    fn action(self, slot: u8) -> Option<Action> {
        match self {
            ItemUse::Drop => Some(Action::Drop(slot)),
            ItemUse::Quaff => Some(Action::Quaff(slot)),
            ItemUse::Read => Some(Action::Read(slot)),
            ItemUse::Wield => Some(Action::Wield(slot)),
            ItemUse::Wear => Some(Action::Wear(slot)),
            ItemUse::TakeOff => Some(Action::TakeOff(slot)),
            ItemUse::Throw | ItemUse::Zap => None,
        }
    }

    /// Whether the pack's entry can be used so (an item of a kind never
    /// named suits nothing but a drop).
    fn suits_carried(self, state: &ClientState, carried: &Carried) -> bool {
        match state.item_kind(carried.kind) {
            Some(kind) => self.suits(kind.class, carried.equipped),
            None => self == ItemUse::Drop,
        }
    }

    /// The slots of the pack that suit, `a` first.
    pub fn suitable(self, state: &ClientState) -> Vec<u8> {
        let suits = |(_, c): &(usize, &Carried)| self.suits_carried(state, c);
        state.pack.iter().enumerate().filter(suits).map(|(i, _)| i as u8).collect()
    }

    /// Why the player cannot open this prompt: nothing suits.
    pub fn nothing_to(self) -> String {
        format!("You have nothing to {}.", self.verb())
    }

    /// The prompt's question: `Quaff which? [a, c] (Esc to cancel)`.
    pub fn question(self, state: &ClientState) -> String {
        let letters: Vec<String> = self.suitable(state).iter().map(|&s| letter(s).into()).collect();
        let verb = self.verb();
        let mut first = verb.chars();
        let capital = first.next().map_or(String::new(), |c| c.to_uppercase().collect());
        format!("{capital}{} which? [{}] (Esc to cancel)", first.as_str(), letters.join(", "))
    }

    /// What a key does while the prompt is open.
    pub(crate) fn choose(self, state: &ClientState, key: PromptKey) -> Choice {
        let slot = match key {
            PromptKey::Cancel => return Choice::Cancel,
            PromptKey::Other => return Choice::Stay,
            PromptKey::Letter(slot) => slot,
        };
        let Some(carried) = state.pack.get(usize::from(slot)) else {
            return Choice::Refuse(format!("You have no item {}.", letter(slot)));
        };
        if !self.suits_carried(state, carried) {
            let already = matches!(self, ItemUse::Wield | ItemUse::Wear) && carried.equipped;
            let why = if already { "You already" } else { "You cannot" };
            return Choice::Refuse(format!("{why} {} that.", self.verb()));
        }
        match self.action(slot) {
            Some(action) => Choice::Act(action),
            None => Choice::Aim(slot),
        }
    }
}

/// The pack letter of a slot.
pub fn letter(slot: u8) -> char {
    char::from(b'a' + slot % 26)
}

/// The slot of the first missile of the pack, which `f` fires.
pub fn first_missile(state: &ClientState) -> Option<u8> {
    ItemUse::Throw.suitable(state).first().copied()
}

#[cfg(test)]
pub(crate) mod tests {
    use gloam_protocol::{ItemInfo, PlayerId, ServerMsg};

    use super::*;

    /// A pack of a potion, darts, a wielded dagger, a sword, worn leather,
    /// a scroll and the artifact.
    pub(crate) fn packed() -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let kind = |name: &str, class| ItemInfo {
            name: name.into(),
            glyph: '!',
            colour: [1, 2, 3],
            class,
            known: true,
        };
        let kinds = vec![
            kind("potion of healing", ItemClass::Potion),
            kind("dart", ItemClass::Missile),
            kind("dagger", ItemClass::Weapon),
            kind("leather armour", ItemClass::Armour),
            kind("scroll of mapping", ItemClass::Scroll),
            kind("Gloamstone", ItemClass::Artifact),
        ];
        s.apply(&ServerMsg::ItemKinds(kinds)).unwrap();
        let item = |kind, count, equipped| Carried { kind, count, equipped };
        let pack = vec![
            item(0, 2, false),
            item(1, 9, false),
            item(2, 1, true),
            item(2, 1, false),
            item(3, 1, true),
            item(4, 1, false),
            item(5, 1, false),
        ];
        s.apply(&ServerMsg::Pack(pack)).unwrap();
        s
    }

    #[test]
    fn each_use_lists_only_the_items_that_suit_it() {
        let s = packed();
        let table = [
            (ItemUse::Quaff, "Quaff which? [a] (Esc to cancel)"),
            (ItemUse::Read, "Read which? [f] (Esc to cancel)"),
            (ItemUse::Wield, "Wield which? [d] (Esc to cancel)"),
            (ItemUse::Wear, "Wear which? [] (Esc to cancel)"),
            (ItemUse::TakeOff, "Take off which? [c, e] (Esc to cancel)"),
            (ItemUse::Throw, "Throw which? [b] (Esc to cancel)"),
            (ItemUse::Drop, "Drop which? [a, b, c, d, e, f, g] (Esc to cancel)"),
        ];
        for (item_use, question) in table {
            assert_eq!(item_use.question(&s), question);
        }
        assert!(ItemUse::Wear.suitable(&s).is_empty(), "the only armour is worn");
        assert_eq!(ItemUse::Wear.nothing_to(), "You have nothing to wear.");
        assert_eq!(first_missile(&s), Some(1));
    }

    #[test]
    fn a_suitable_letter_is_the_action_and_others_say_why_not() {
        let s = packed();
        let choose = |u: ItemUse, c: char| u.choose(&s, PromptKey::Letter(c as u8 - b'a'));
        assert_eq!(choose(ItemUse::Quaff, 'a'), Choice::Act(Action::Quaff(0)));
        assert_eq!(choose(ItemUse::Read, 'f'), Choice::Act(Action::Read(5)));
        assert_eq!(choose(ItemUse::Wield, 'd'), Choice::Act(Action::Wield(3)));
        assert_eq!(choose(ItemUse::TakeOff, 'e'), Choice::Act(Action::TakeOff(4)));
        assert_eq!(choose(ItemUse::Drop, 'g'), Choice::Act(Action::Drop(6)));
        assert_eq!(choose(ItemUse::Throw, 'b'), Choice::Aim(1));
        assert_eq!(choose(ItemUse::Quaff, 'b'), Choice::Refuse("You cannot quaff that.".into()));
        assert_eq!(choose(ItemUse::Wield, 'c'), Choice::Refuse("You already wield that.".into()));
        assert_eq!(choose(ItemUse::Throw, 'z'), Choice::Refuse("You have no item z.".into()));
        assert_eq!(ItemUse::Quaff.choose(&s, PromptKey::Cancel), Choice::Cancel);
        assert_eq!(ItemUse::Quaff.choose(&s, PromptKey::Other), Choice::Stay);
    }
}
