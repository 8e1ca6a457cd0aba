//! The session's item keys: an item key opens a prompt of the items that
//! suit it (or says there are none); a letter sends the action, or for a
//! throw starts aiming; `f` aims the first missile at once. Esc puts a
//! prompt or an aim away without quitting. A letter that does not suit is
//! refused in the log and closes the prompt (so the keys that follow a
//! slip are never taken as choices); any other key leaves it open.

use std::time::Instant;

use super::{KeyOutcome, Mode, Session};
use crate::aim::{Aim, AimOutcome};
use crate::input::{Key, aim_key, prompt_key};
use crate::prompt::{Choice, ItemUse, first_missile};

impl Session {
    /// An item key on the map: the prompt, or why there is none.
    pub(super) fn open_prompt(&mut self, item_use: ItemUse) -> KeyOutcome {
        if self.refuse_a_watcher() {
            return KeyOutcome::Redraw;
        }
        if item_use.suitable(&self.state).is_empty() {
            self.note(item_use.nothing_to());
        } else {
            self.mode = Mode::Choosing(item_use);
        }
        KeyOutcome::Redraw
    }

    /// `f`: aim the first missile of the pack.
    pub(super) fn fire(&mut self) -> KeyOutcome {
        if self.refuse_a_watcher() {
            return KeyOutcome::Redraw;
        }
        match first_missile(&self.state) {
            Some(slot) => self.mode = Mode::Aiming(Aim::start(&self.state, slot)),
            None => self.note("You have nothing to fire.".into()),
        }
        KeyOutcome::Redraw
    }

    /// A key while an item prompt is open.
    pub(super) fn on_prompt_key(
        &mut self,
        item_use: ItemUse,
        key: Key,
        shift: bool,
        now: Instant,
    ) -> KeyOutcome {
        match item_use.choose(&self.state, prompt_key(key, shift)) {
            Choice::Act(action) => {
                self.mode = Mode::Map;
                match self.act(action, false, now) {
                    // Not sent: the prompt is closed all the same.
                    KeyOutcome::Ignore => KeyOutcome::Redraw,
                    outcome => outcome,
                }
            }
            Choice::Aim(slot) if item_use == ItemUse::Zap => {
                self.mode = Mode::Aiming(Aim::zap(&self.state, slot));
                KeyOutcome::Redraw
            }
            Choice::Aim(slot) => {
                self.mode = Mode::Aiming(Aim::start(&self.state, slot));
                KeyOutcome::Redraw
            }
            Choice::Cancel => {
                self.mode = Mode::Map;
                KeyOutcome::Redraw
            }
            Choice::Refuse(why) => {
                self.note(why);
                self.mode = Mode::Map;
                KeyOutcome::Redraw
            }
            Choice::Stay => KeyOutcome::Ignore,
        }
    }

    /// A key while a throw is aimed.
    pub(super) fn on_aim_key(
        &mut self,
        mut aim: Aim,
        key: Key,
        shift: bool,
        now: Instant,
    ) -> KeyOutcome {
        let Some(key) = aim_key(key, shift) else { return KeyOutcome::Ignore };
        let outcome = aim.key(&self.state, key);
        self.mode = Mode::Aiming(aim);
        match outcome {
            AimOutcome::Throw(action) => {
                self.mode = Mode::Map;
                match self.act(action, false, now) {
                    KeyOutcome::Ignore => KeyOutcome::Redraw,
                    outcome => outcome,
                }
            }
            AimOutcome::Cancel => {
                self.mode = Mode::Map;
                KeyOutcome::Redraw
            }
            AimOutcome::Moved => KeyOutcome::Redraw,
            AimOutcome::Refuse(why) => {
                self.note(why.into());
                KeyOutcome::Redraw
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{
        Action, Carried, ClientMsg, ItemClass, ItemInfo, KindInfo, MonsterChange, MonsterId,
        PlayerId, Pos, ServerMsg, SightDiff, Wound,
    };

    use super::*;
    use crate::net::NetEvent;
    use crate::scene::Page;

    /// Playing at (5, 5) with a potion (a), darts (b), a wielded dagger
    /// (c), a wand (d) and a kobold at (7, 5).
    fn armed() -> Session {
        let mut s = super::super::tests::playing();
        let kind = |name: &str, class| ItemInfo {
            name: name.into(),
            glyph: '!',
            colour: [1, 2, 3],
            class,
            known: name != "oak wand",
        };
        let kinds = vec![
            kind("potion of healing", ItemClass::Potion),
            kind("dart", ItemClass::Missile),
            kind("dagger", ItemClass::Weapon),
            kind("oak wand", ItemClass::Wand),
        ];
        let item = |kind, count, equipped| Carried { kind, count, equipped };
        let kobold = KindInfo { name: "kobold".into(), glyph: 'k', colour: [9, 9, 9] };
        let at = Pos::new(7, 5);
        let monster = MonsterChange::Appeared {
            id: MonsterId(4),
            kind: 0,
            at,
            wound: Wound::Unhurt,
            asleep: false,
        };
        for msg in [
            ServerMsg::ItemKinds(kinds),
            ServerMsg::Pack(vec![
                item(0, 1, false),
                item(1, 6, false),
                item(2, 1, true),
                item(3, 1, false),
            ]),
            ServerMsg::Kinds(vec![kobold]),
            ServerMsg::Sight(SightDiff { at: Pos::new(5, 5), ..SightDiff::default() }),
            ServerMsg::Monsters(vec![monster]),
        ] {
            s.on_net(NetEvent::Msg(msg));
        }
        s
    }

    fn press(s: &mut Session, key: Key, shift: bool) -> KeyOutcome {
        s.on_key(key, shift, false, Instant::now())
    }

    fn last_note(s: &Session) -> &str {
        &s.state.log.back().expect("a line in the log").text
    }

    fn sends(action: Action) -> KeyOutcome {
        KeyOutcome::Send(ClientMsg::Act(action))
    }

    #[test]
    fn q_asks_which_potion_and_its_letter_quaffs_it() {
        let mut s = armed();
        assert_eq!(press(&mut s, Key::Char('q'), false), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Choose(ItemUse::Quaff));
        assert_eq!(press(&mut s, Key::Char('a'), false), sends(Action::Quaff(0)));
        assert_eq!(s.page(), Page::Map, "the prompt closed");
    }

    #[test]
    fn a_letter_that_does_not_suit_is_refused_and_closes_the_prompt() {
        let mut s = armed();
        press(&mut s, Key::Char('q'), false);
        assert_eq!(press(&mut s, Key::Up, false), KeyOutcome::Ignore, "no step from a prompt");
        assert_eq!(s.page(), Page::Choose(ItemUse::Quaff));
        assert_eq!(press(&mut s, Key::Char('b'), false), KeyOutcome::Redraw);
        assert_eq!(last_note(&s), "You cannot quaff that.");
        assert_eq!(s.page(), Page::Map, "a slip closes the prompt");
        press(&mut s, Key::Char('q'), false);
        assert_eq!(press(&mut s, Key::Char('x'), false), KeyOutcome::Redraw);
        assert_eq!(last_note(&s), "You have no item x.");
        assert_eq!(s.page(), Page::Map);
        press(&mut s, Key::Char('q'), false);
        assert_eq!(press(&mut s, Key::Escape, false), KeyOutcome::Redraw, "Esc cancels, not quits");
        assert_eq!(s.page(), Page::Map);
    }

    #[test]
    fn with_nothing_suitable_the_key_says_so_and_sends_nothing() {
        let mut s = armed();
        for (c, shift, says) in [
            ('r', false, "You have nothing to read."),
            ('w', true, "You have nothing to wear."),
            ('w', false, "You have nothing to wield."),
        ] {
            assert_eq!(press(&mut s, Key::Char(c), shift), KeyOutcome::Redraw);
            assert_eq!((last_note(&s), s.page()), (says, Page::Map));
        }
        press(&mut s, Key::Char('t'), true);
        assert_eq!(press(&mut s, Key::Char('c'), false), sends(Action::TakeOff(2)));
        press(&mut s, Key::Char('d'), false);
        assert_eq!(press(&mut s, Key::Char('c'), false), sends(Action::Drop(2)));
    }

    #[test]
    fn t_chooses_a_missile_then_aims_at_the_nearest_monster() {
        let mut s = armed();
        press(&mut s, Key::Char('t'), false);
        assert_eq!(s.page(), Page::Choose(ItemUse::Throw));
        assert_eq!(press(&mut s, Key::Char('b'), false), KeyOutcome::Redraw);
        assert_eq!((s.page(), s.scene().aim.map(|a| a.cursor)), (Page::Map, Some(Pos::new(7, 5))));
        assert_eq!(press(&mut s, Key::Char('k'), false), KeyOutcome::Redraw, "the cursor moves");
        assert_eq!(
            press(&mut s, Key::Enter, false),
            sends(Action::Throw { slot: 1, at: Pos::new(7, 4) })
        );
        assert_eq!(s.scene().aim, None, "the aim is over");
    }

    #[test]
    fn z_chooses_a_wand_then_aims_and_enter_or_dot_zaps_and_esc_cancels() {
        let mut s = armed();
        press(&mut s, Key::Char('z'), false);
        assert_eq!(s.page(), Page::Choose(ItemUse::Zap));
        assert_eq!(press(&mut s, Key::Char('b'), false), KeyOutcome::Redraw);
        assert_eq!(last_note(&s), "You cannot zap that.", "darts are no wand");
        press(&mut s, Key::Char('z'), false);
        assert_eq!(press(&mut s, Key::Char('d'), false), KeyOutcome::Redraw);
        assert_eq!(
            s.scene().aim.map(|a| (a.slot, a.zaps, a.cursor)),
            Some((3, true, Pos::new(7, 5)))
        );
        assert_eq!(press(&mut s, Key::Escape, false), KeyOutcome::Redraw, "Esc cancels");
        assert_eq!((s.scene().aim, s.page()), (None, Page::Map));
        press(&mut s, Key::Char('z'), false);
        press(&mut s, Key::Char('d'), false);
        press(&mut s, Key::Char('l'), false);
        assert_eq!(
            press(&mut s, Key::Char('.'), false),
            sends(Action::Zap { slot: 3, at: Pos::new(8, 5) })
        );
        assert_eq!(s.scene().aim, None, "the aim is over");
        press(&mut s, Key::Char('z'), false);
        press(&mut s, Key::Char('d'), false);
        assert_eq!(
            press(&mut s, Key::Enter, false),
            sends(Action::Zap { slot: 3, at: Pos::new(7, 5) })
        );
    }

    #[test]
    fn f_fires_the_first_missile_without_asking_and_esc_cancels() {
        let mut s = armed();
        press(&mut s, Key::Char('f'), false);
        assert_eq!(s.scene().aim.map(|a| (a.slot, a.cursor)), Some((1, Pos::new(7, 5))));
        assert_eq!(press(&mut s, Key::Escape, false), KeyOutcome::Redraw);
        assert_eq!(s.scene().aim, None);
        press(&mut s, Key::Char('f'), false);
        assert_eq!(
            press(&mut s, Key::Char('f'), false),
            sends(Action::Throw { slot: 1, at: Pos::new(7, 5) })
        );
        s.on_net(NetEvent::Msg(ServerMsg::Pack(vec![])));
        assert_eq!(press(&mut s, Key::Char('f'), false), KeyOutcome::Redraw);
        assert_eq!(last_note(&s), "You have nothing to fire.");
    }

    #[test]
    fn entering_a_level_puts_the_aim_away() {
        let mut s = armed();
        press(&mut s, Key::Char('f'), false);
        s.on_net(NetEvent::Msg(crate::testing::enter_level(2, 20, 10)));
        assert_eq!(s.scene().aim, None);
    }

    #[test]
    fn a_watcher_opens_no_prompt() {
        let mut s = armed();
        s.on_net(NetEvent::Msg(ServerMsg::Watching { player: "ann".into(), you: PlayerId(7) }));
        for c in ['q', 'f'] {
            assert_eq!(press(&mut s, Key::Char(c), false), KeyOutcome::Redraw);
            assert_eq!(s.page(), Page::Map);
            assert!(last_note(&s).starts_with("You are watching ann"));
        }
    }
}
