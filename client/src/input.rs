//! Keys to intents, in one table: arrows and WASD move in four directions;
//! vi-keys (hjkl yubn) and the numpad in eight; `.` or `>` descend, `<`
//! ascends, `5` (or numpad 5) waits, `,` picks up what lies underfoot, `i`
//! shows the pack, Enter opens a line to talk (or, after
//! a death, starts again), PgUp and PgDn scroll the messages, Esc quits.
//! The window turns its platform's key events into [`Key`]s, so the table
//! is tested without one. Keys typed into the chat line are the session's.

use std::time::Duration;

use gloam_protocol::{Action, Dir};

/// A key, as far as the game cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    Escape,
    Enter,
    Backspace,
    Delete,
    Home,
    End,
    PageUp,
    PageDown,
    /// A key that types this character (lowercase letters, digits, punctuation).
    Char(char),
    /// A numeric keypad digit.
    Numpad(u8),
}

/// What a key press asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Intent {
    Act(Action),
    /// Show the graveyard (or put it away).
    Graveyard,
    /// Show what the player carries (any key puts it away).
    Pack,
    /// Enter: open a line to talk; after a death, start a new character
    /// under the same name.
    Enter,
    /// Scroll the messages back (towards older lines) or forward.
    ScrollBack,
    ScrollForward,
    Quit,
}

/// The intent of a key, with whether Shift is held (so Shift+`.` is `>` on
/// keyboards that report the unshifted key).
pub(crate) fn intent(key: Key, shift: bool) -> Option<Intent> {
    use Dir::*;
    let walk = |d| Some(Intent::Act(Action::Move(d)));
    match key {
        Key::Escape => Some(Intent::Quit),
        Key::Enter => Some(Intent::Enter),
        Key::PageUp => Some(Intent::ScrollBack),
        Key::PageDown => Some(Intent::ScrollForward),
        Key::Backspace | Key::Delete | Key::Home | Key::End => None,
        Key::Up => walk(N),
        Key::Down => walk(S),
        Key::Left => walk(W),
        Key::Right => walk(E),
        Key::Numpad(n) => match n {
            8 => walk(N),
            9 => walk(NE),
            6 => walk(E),
            3 => walk(SE),
            2 => walk(S),
            1 => walk(SW),
            4 => walk(W),
            7 => walk(NW),
            5 => Some(Intent::Act(Action::Wait)),
            _ => None,
        },
        Key::Char(c) => match (c, shift) {
            ('.', true) | ('>', _) => Some(Intent::Act(Action::Descend)),
            (',', true) | ('<', _) => Some(Intent::Act(Action::Ascend)),
            ('.', false) => Some(Intent::Act(Action::Descend)),
            ('5', false) => Some(Intent::Act(Action::Wait)),
            (',', false) => Some(Intent::Act(Action::PickUp)),
            ('w', _) | ('k', _) => walk(N),
            ('s', _) | ('j', _) => walk(S),
            ('a', _) | ('h', _) => walk(W),
            ('d', _) | ('l', _) => walk(E),
            ('y', _) => walk(NW),
            ('u', _) => walk(NE),
            ('b', _) => walk(SW),
            ('n', _) => walk(SE),
            ('g', _) => Some(Intent::Graveyard),
            ('i', _) => Some(Intent::Pack),
            _ => None,
        },
    }
}

/// Whether a key press becomes an action now. A fresh press always does; a
/// held key's repeat only once the last action was answered and the
/// server's pace allows another, so holding a key never queues up moves
/// the player cannot take back (or gets the client closed for flooding).
pub(crate) fn should_send(
    repeat: bool,
    unanswered: u32,
    since_last: Duration,
    actions_per_second: u16,
) -> bool {
    let pace = Duration::from_secs_f64(1.0 / f64::from(actions_per_second.max(1)));
    !repeat || (unanswered == 0 && since_last >= pace)
}

/// The keys line of the HUD (short enough for a row of a 1280-pixel window).
pub(crate) const KEYS_HELP: &str = "move/attack: arrows wasd hjklyubn numpad  down: . >  up: <  wait: 5  pick up: ,  pack: i  talk: Enter  messages: PgUp PgDn  graveyard: g  screenshot: F12  quit: Esc";

#[cfg(test)]
mod tests {
    use super::*;

    fn act(key: Key) -> Option<Action> {
        match intent(key, false) {
            Some(Intent::Act(a)) => Some(a),
            _ => None,
        }
    }

    #[test]
    fn vi_keys_move_in_eight_directions() {
        let table = [
            ('k', Dir::N),
            ('u', Dir::NE),
            ('l', Dir::E),
            ('n', Dir::SE),
            ('j', Dir::S),
            ('b', Dir::SW),
            ('h', Dir::W),
            ('y', Dir::NW),
        ];
        for (c, d) in table {
            assert_eq!(act(Key::Char(c)), Some(Action::Move(d)), "{c}");
        }
    }

    #[test]
    fn the_numpad_moves_in_eight_directions_and_waits_on_five() {
        let table = [
            (8, Dir::N),
            (9, Dir::NE),
            (6, Dir::E),
            (3, Dir::SE),
            (2, Dir::S),
            (1, Dir::SW),
            (4, Dir::W),
            (7, Dir::NW),
        ];
        for (n, d) in table {
            assert_eq!(act(Key::Numpad(n)), Some(Action::Move(d)), "numpad {n}");
        }
        assert_eq!(act(Key::Numpad(5)), Some(Action::Wait));
        assert_eq!(act(Key::Numpad(0)), None);
    }

    #[test]
    fn arrows_and_wasd_move_in_four() {
        assert_eq!(act(Key::Up), Some(Action::Move(Dir::N)));
        assert_eq!(act(Key::Down), Some(Action::Move(Dir::S)));
        assert_eq!(act(Key::Left), Some(Action::Move(Dir::W)));
        assert_eq!(act(Key::Right), Some(Action::Move(Dir::E)));
        assert_eq!(act(Key::Char('w')), Some(Action::Move(Dir::N)));
        assert_eq!(act(Key::Char('a')), Some(Action::Move(Dir::W)));
        assert_eq!(act(Key::Char('s')), Some(Action::Move(Dir::S)));
        assert_eq!(act(Key::Char('d')), Some(Action::Move(Dir::E)));
    }

    #[test]
    fn a_held_key_repeats_at_the_servers_pace_once_answered() {
        let ms = Duration::from_millis;
        // A fresh press goes at once, whatever is in flight.
        assert!(should_send(false, 3, ms(0), 20));
        // A repeat waits for the answer...
        assert!(!should_send(true, 1, ms(500), 20));
        // ...and for the pace: 20 a second is one every 50 ms.
        assert!(!should_send(true, 0, ms(30), 20));
        assert!(should_send(true, 0, ms(50), 20));
        assert!(should_send(true, 0, ms(34), 30));
    }

    #[test]
    fn stairs_wait_and_quit() {
        assert_eq!(act(Key::Char('.')), Some(Action::Descend));
        assert_eq!(act(Key::Char('>')), Some(Action::Descend));
        assert_eq!(intent(Key::Char('.'), true), Some(Intent::Act(Action::Descend)));
        assert_eq!(act(Key::Char('<')), Some(Action::Ascend));
        assert_eq!(intent(Key::Char(','), true), Some(Intent::Act(Action::Ascend)));
        assert_eq!(act(Key::Char(',')), Some(Action::PickUp));
        assert_eq!(act(Key::Char('5')), Some(Action::Wait));
        assert_eq!(intent(Key::Escape, false), Some(Intent::Quit));
        assert_eq!(act(Key::Char('q')), None);
        assert_eq!(intent(Key::Char('g'), false), Some(Intent::Graveyard));
        assert_eq!(intent(Key::Char('i'), false), Some(Intent::Pack));
        assert_eq!(intent(Key::Enter, false), Some(Intent::Enter));
        assert_eq!(intent(Key::PageUp, false), Some(Intent::ScrollBack));
        assert_eq!(intent(Key::PageDown, false), Some(Intent::ScrollForward));
    }
}
