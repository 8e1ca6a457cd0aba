//! Keys to intents, in one table per mode. On the map: arrows move in four
//! directions; vi-keys (hjkl yubn) and the numpad in eight; `.` or `>`
//! descend, `<` ascends, `5` (or numpad 5) waits; `g` or `,` picks up what
//! lies underfoot, `d` drops, `q` quaffs, `r` reads, `w` wields, `W`
//! wears, `T` takes off, `t` throws and `f` fires (throws the first
//! missile); `o` explores, `R` rests and `>` or `<` away from stairs
//! travel to the nearest known ones (standing orders the server carries
//! out a step a round until something happens; any other action ends
//! one); `x` looks; `i` shows the pack, `?` the help and `G` the
//! graveyard; Enter opens a line to talk (or, after the game ended,
//! starts again), PgUp and PgDn scroll the messages, Esc quits. An item
//! prompt takes a pack letter or Esc; aiming takes direction keys, Tab,
//! Space, `+` and `-`, Enter, `t`, `f` and Esc; looking takes the same
//! moves, and Esc or `x` to leave. `z` and Tab are left free on the map.
//! A left click on a remembered cell travels there (the window maps the
//! click to a cell, see [`crate::view::cell_under`]). The window turns its platform's key events into [`Key`]s
//! (a letter in lower case, with whether Shift is held), so the tables are
//! tested without one. Keys typed into the chat line are the session's.
//! The browser client keeps no copy of these tables: `web_export/keys.rs`
//! writes what every key means in each as `web/src/generated/keys.json`.

use std::time::Duration;

use gloam_protocol::{Action, Dir};

use crate::prompt::{ItemUse, PromptKey};

/// A key, as far as the game cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    Escape,
    Enter,
    Tab,
    Backspace,
    Delete,
    Home,
    End,
    PageUp,
    PageDown,
    /// A key that types this character (lowercase letters, digits,
    /// punctuation, the space bar).
    Char(char),
    /// A numeric keypad digit.
    Numpad(u8),
    /// A key with Ctrl held: `+` (or `=`), `-`, or a lowercase letter.
    /// Never taken for the key alone.
    Ctrl(char),
}

/// What a key press on the map asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Intent {
    Act(Action),
    /// Choose an item of the pack to do this with.
    Use(ItemUse),
    /// Throw the first missile of the pack: straight to aiming.
    Fire,
    /// Show the graveyard (or put it away).
    Graveyard,
    /// Show what the player carries (any key puts it away).
    Pack,
    /// Show the keys and the rules of the clock (any key puts them away).
    Help,
    /// Show what the player knows of potions, scrolls and wands (any key
    /// puts it away).
    Discoveries,
    /// A cursor that names what is on a cell.
    Look,
    /// Enter: open a line to talk; after a death, start a new character
    /// under the same name.
    Enter,
    /// Scroll the messages back (towards older lines) or forward.
    ScrollBack,
    ScrollForward,
    /// Larger glyphs (`1`) or smaller (`-1`).
    Zoom(i8),
    /// Open (or close) the full-screen message log.
    Log,
    Quit,
}

/// The direction a key moves in (the player, or the aiming cursor).
fn direction(key: Key) -> Option<Dir> {
    use Dir::*;
    match key {
        Key::Up | Key::Numpad(8) | Key::Char('k') => Some(N),
        Key::Down | Key::Numpad(2) | Key::Char('j') => Some(S),
        Key::Left | Key::Numpad(4) | Key::Char('h') => Some(W),
        Key::Right | Key::Numpad(6) | Key::Char('l') => Some(E),
        Key::Numpad(7) | Key::Char('y') => Some(NW),
        Key::Numpad(9) | Key::Char('u') => Some(NE),
        Key::Numpad(1) | Key::Char('b') => Some(SW),
        Key::Numpad(3) | Key::Char('n') => Some(SE),
        _ => None,
    }
}

/// The intent of a key on the map, with whether Shift is held (so
/// Shift+`.` is `>` on keyboards that report the unshifted key, and
/// Shift+`w` is `W`).
pub(crate) fn intent(key: Key, shift: bool) -> Option<Intent> {
    if let Some(dir) = direction(key) {
        return Some(Intent::Act(Action::Move(dir)));
    }
    match key {
        Key::Escape => Some(Intent::Quit),
        Key::Enter => Some(Intent::Enter),
        Key::PageUp => Some(Intent::ScrollBack),
        Key::PageDown => Some(Intent::ScrollForward),
        Key::Numpad(5) => Some(Intent::Act(Action::Wait)),
        Key::Char(c) => char_intent(c, shift),
        Key::Ctrl(c) => ctrl_intent(c),
        _ => None,
    }
}

/// The intent of a key with Ctrl held.
pub(crate) fn ctrl_intent(c: char) -> Option<Intent> {
    match c {
        '+' | '=' => Some(Intent::Zoom(1)),
        '-' => Some(Intent::Zoom(-1)),
        'p' => Some(Intent::Log),
        _ => None,
    }
}

/// The intent of a key that types `c`.
fn char_intent(c: char, shift: bool) -> Option<Intent> {
    let item = |u| Some(Intent::Use(u));
    match (c, shift) {
        ('.', true) | ('>', _) => Some(Intent::Act(Action::Descend)),
        (',', true) | ('<', _) => Some(Intent::Act(Action::Ascend)),
        ('.', false) => Some(Intent::Act(Action::Descend)),
        ('5', false) => Some(Intent::Act(Action::Wait)),
        (',', false) | ('g', false) => Some(Intent::Act(Action::PickUp)),
        ('g', true) | ('G', _) => Some(Intent::Graveyard),
        ('i', false) => Some(Intent::Pack),
        ('o', false) => Some(Intent::Act(Action::Explore)),
        ('r', true) | ('R', _) => Some(Intent::Act(Action::Rest)),
        ('x', false) => Some(Intent::Look),
        ('?', _) | ('/', true) => Some(Intent::Help),
        ('\\', false) => Some(Intent::Discoveries),
        ('d', false) => item(ItemUse::Drop),
        ('q', false) => item(ItemUse::Quaff),
        ('r', false) => item(ItemUse::Read),
        ('w', false) => item(ItemUse::Wield),
        ('w', true) | ('W', _) => item(ItemUse::Wear),
        ('t', false) => item(ItemUse::Throw),
        ('t', true) | ('T', _) => item(ItemUse::TakeOff),
        ('f', false) => Some(Intent::Fire),
        ('z', false) => item(ItemUse::Zap),
        _ => None,
    }
}

/// The meaning of a key in an item prompt: a lowercase letter names a
/// slot of the pack.
pub(crate) fn prompt_key(key: Key, shift: bool) -> PromptKey {
    match key {
        Key::Escape => PromptKey::Cancel,
        Key::Char(c @ 'a'..='z') if !shift => PromptKey::Letter(c as u8 - b'a'),
        _ => PromptKey::Other,
    }
}

/// A key while aiming a throw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AimKey {
    /// Move the cursor a cell.
    Step(Dir),
    /// The next monster in sight, farther out (Tab, Space, `+`).
    Next,
    /// The one before, nearer (`-`).
    Previous,
    /// Throw or zap at the cursor (Enter, `.`, `t`, `f`, `z`).
    Throw,
    Cancel,
}

/// The meaning of a key while aiming.
pub(crate) fn aim_key(key: Key, shift: bool) -> Option<AimKey> {
    if let Some(dir) = direction(key) {
        return Some(AimKey::Step(dir));
    }
    match (key, shift) {
        (Key::Escape, _) => Some(AimKey::Cancel),
        (Key::Enter, _) | (Key::Char('.' | 't' | 'f' | 'z'), false) => Some(AimKey::Throw),
        (Key::Tab, _) | (Key::Char(' ' | '+'), _) | (Key::Char('='), true) => Some(AimKey::Next),
        (Key::Char('-'), false) => Some(AimKey::Previous),
        _ => None,
    }
}

/// The meaning of a key while looking: the aiming cursor's moves, and
/// Esc or `x` to leave (nothing is thrown).
pub(crate) fn look_key(key: Key, shift: bool) -> Option<AimKey> {
    match (key, shift) {
        (Key::Char('x'), false) => Some(AimKey::Cancel),
        _ => aim_key(key, shift).filter(|k| *k != AimKey::Throw),
    }
}

/// Whether a key press becomes an action now. A fresh press always does; a
/// held key's repeat only once the last action was answered and the
/// server's pace allows another, so holding a key never queues up moves
/// the player cannot take back (or gets the client closed for flooding),
/// and never once a monster came into view since the key went down
/// (`monster_came`): the player is stopped, as a standing order is.
pub(crate) fn should_send(
    repeat: bool,
    monster_came: bool,
    unanswered: u32,
    since_last: Duration,
    actions_per_second: u16,
) -> bool {
    let pace = Duration::from_secs_f64(1.0 / f64::from(actions_per_second.max(1)));
    !repeat || (!monster_came && unanswered == 0 && since_last >= pace)
}

/// The most letters a row of the HUD holds in a 1280-pixel window.
#[cfg(test)]
const HUD_ROW_LETTERS: usize = 160;

/// The keys line of the HUD: what a newcomer needs first, in the order
/// a narrow window keeps them (short enough for a row of a 1280-pixel
/// window; the item keys are on the pack's page, and the numpad, `5` to
/// wait, PgUp and PgDn and F12 on the help page and in the README).
pub(crate) const KEYS_HELP: &str = "hjklyubn move  o explore  > < stairs  x look  R rest  click travel  g pick up  i pack and item keys  Enter talk  Ctrl+P log  Esc quit  ? help";

/// The item keys, as the pack's page lists them.
pub(crate) const ITEM_KEYS: &str =
    "d drop  q quaff  r read  w wield  W wear  T take off  t throw  f fire  z zap";

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
    fn arrows_move_in_four_and_wasd_no_longer_moves() {
        assert_eq!(act(Key::Up), Some(Action::Move(Dir::N)));
        assert_eq!(act(Key::Down), Some(Action::Move(Dir::S)));
        assert_eq!(act(Key::Left), Some(Action::Move(Dir::W)));
        assert_eq!(act(Key::Right), Some(Action::Move(Dir::E)));
        for c in ['w', 'a', 's', 'd'] {
            assert!(!matches!(act(Key::Char(c)), Some(Action::Move(_))), "{c}");
        }
    }

    #[test]
    fn item_keys_choose_what_to_do_with_an_item() {
        let table = [
            ('d', false, ItemUse::Drop),
            ('q', false, ItemUse::Quaff),
            ('r', false, ItemUse::Read),
            ('w', false, ItemUse::Wield),
            ('w', true, ItemUse::Wear),
            ('W', false, ItemUse::Wear),
            ('t', false, ItemUse::Throw),
            ('t', true, ItemUse::TakeOff),
            ('T', false, ItemUse::TakeOff),
            ('z', false, ItemUse::Zap),
        ];
        for (c, shift, item_use) in table {
            assert_eq!(intent(Key::Char(c), shift), Some(Intent::Use(item_use)), "{c} {shift}");
        }
        assert_eq!(intent(Key::Char('f'), false), Some(Intent::Fire));
        assert_eq!(act(Key::Char('g')), Some(Action::PickUp));
        assert_eq!(act(Key::Char(',')), Some(Action::PickUp));
        assert_eq!(intent(Key::Char('g'), true), Some(Intent::Graveyard));
        assert_eq!(intent(Key::Char('G'), false), Some(Intent::Graveyard));
        assert_eq!(intent(Key::Char('i'), false), Some(Intent::Pack));
    }

    #[test]
    fn o_explores_shift_r_rests_x_looks_and_tab_stays_free() {
        assert_eq!(act(Key::Char('o')), Some(Action::Explore));
        assert_eq!(intent(Key::Char('r'), true), Some(Intent::Act(Action::Rest)));
        assert_eq!(act(Key::Char('R')), Some(Action::Rest));
        assert_eq!(intent(Key::Char('r'), false), Some(Intent::Use(ItemUse::Read)), "r reads");
        assert_eq!(intent(Key::Char('x'), false), Some(Intent::Look));
        for (key, shift) in [(Key::Tab, false), (Key::Char('o'), true)] {
            assert_eq!(intent(key, shift), None, "{key:?} {shift}");
        }
    }

    #[test]
    fn looking_moves_like_aiming_and_esc_or_x_leave_but_nothing_throws() {
        assert_eq!(look_key(Key::Char('y'), false), Some(AimKey::Step(Dir::NW)));
        assert_eq!(look_key(Key::Numpad(3), false), Some(AimKey::Step(Dir::SE)));
        assert_eq!(look_key(Key::Tab, false), Some(AimKey::Next));
        assert_eq!(look_key(Key::Char('x'), false), Some(AimKey::Cancel));
        assert_eq!(look_key(Key::Escape, false), Some(AimKey::Cancel));
        for key in [Key::Enter, Key::Char('t'), Key::Char('f'), Key::Char('o')] {
            assert_eq!(look_key(key, false), None, "{key:?}");
        }
    }

    #[test]
    fn ctrl_plus_and_minus_zoom_and_ctrl_never_passes_for_the_key_alone() {
        assert_eq!(intent(Key::Ctrl('+'), false), Some(Intent::Zoom(1)));
        assert_eq!(intent(Key::Ctrl('='), false), Some(Intent::Zoom(1)), "+ unshifted");
        assert_eq!(intent(Key::Ctrl('-'), false), Some(Intent::Zoom(-1)));
        for c in ['k', 'q', 'g', '.'] {
            assert_eq!(intent(Key::Ctrl(c), false), None, "Ctrl+{c}");
        }
    }

    #[test]
    fn a_prompt_takes_a_lowercase_letter_or_esc() {
        assert_eq!(prompt_key(Key::Char('a'), false), PromptKey::Letter(0));
        assert_eq!(prompt_key(Key::Char('z'), false), PromptKey::Letter(25));
        assert_eq!(prompt_key(Key::Char('a'), true), PromptKey::Other);
        assert_eq!(prompt_key(Key::Char('1'), false), PromptKey::Other);
        assert_eq!(prompt_key(Key::Up, false), PromptKey::Other);
        assert_eq!(prompt_key(Key::Escape, false), PromptKey::Cancel);
    }

    #[test]
    fn aiming_moves_cycles_throws_and_cancels() {
        assert_eq!(aim_key(Key::Char('y'), false), Some(AimKey::Step(Dir::NW)));
        assert_eq!(aim_key(Key::Numpad(3), false), Some(AimKey::Step(Dir::SE)));
        assert_eq!(aim_key(Key::Left, false), Some(AimKey::Step(Dir::W)));
        for (key, shift) in [(Key::Tab, false), (Key::Char(' '), false), (Key::Char('+'), false)] {
            assert_eq!(aim_key(key, shift), Some(AimKey::Next), "{key:?}");
        }
        assert_eq!(aim_key(Key::Char('='), true), Some(AimKey::Next), "+ as Shift+=");
        assert_eq!(aim_key(Key::Char('-'), false), Some(AimKey::Previous));
        for key in [Key::Enter, Key::Char('t'), Key::Char('f'), Key::Char('z'), Key::Char('.')] {
            assert_eq!(aim_key(key, false), Some(AimKey::Throw), "{key:?}");
        }
        assert_eq!(aim_key(Key::Escape, false), Some(AimKey::Cancel));
        assert_eq!(aim_key(Key::Char('q'), false), None);
    }

    #[test]
    fn the_keys_line_fits_a_row_and_with_the_packs_names_every_item_key() {
        assert!(KEYS_HELP.chars().count() <= HUD_ROW_LETTERS, "{}", KEYS_HELP.len());
        let both = format!("{KEYS_HELP}  {ITEM_KEYS}");
        for part in [
            "g pick up",
            "i pack",
            "d drop",
            "q quaff",
            "r read",
            "w wield",
            "W wear",
            "T take off",
            "t throw",
            "f fire",
            "z zap",
            "o explore",
            "R rest",
            "x look",
            "click travel",
            "? help",
        ] {
            assert!(both.contains(part), "{part}");
        }
    }

    #[test]
    fn a_held_key_repeats_at_the_servers_pace_once_answered() {
        let ms = Duration::from_millis;
        // A fresh press goes at once, whatever is in flight.
        assert!(should_send(false, false, 3, ms(0), 20));
        // A repeat waits for the answer...
        assert!(!should_send(true, false, 1, ms(500), 20));
        // ...and for the pace: 20 a second is one every 50 ms.
        assert!(!should_send(true, false, 0, ms(30), 20));
        assert!(should_send(true, false, 0, ms(50), 20));
        assert!(should_send(true, false, 0, ms(34), 30));
    }

    #[test]
    fn a_held_key_stops_repeating_once_a_monster_came_into_view() {
        let ms = Duration::from_millis;
        assert!(!should_send(true, true, 0, ms(500), 20), "a repeat is ignored");
        assert!(should_send(false, true, 0, ms(0), 20), "a fresh press goes");
    }

    #[test]
    fn stairs_wait_and_quit() {
        assert_eq!(act(Key::Char('.')), Some(Action::Descend));
        assert_eq!(act(Key::Char('>')), Some(Action::Descend));
        assert_eq!(intent(Key::Char('.'), true), Some(Intent::Act(Action::Descend)));
        assert_eq!(act(Key::Char('<')), Some(Action::Ascend));
        assert_eq!(intent(Key::Char(','), true), Some(Intent::Act(Action::Ascend)));
        assert_eq!(act(Key::Char('5')), Some(Action::Wait));
        assert_eq!(intent(Key::Char('?'), false), Some(Intent::Help));
        assert_eq!(intent(Key::Char('/'), true), Some(Intent::Help), "? as Shift+/");
        assert_eq!(intent(Key::Escape, false), Some(Intent::Quit));
        assert_eq!(intent(Key::Enter, false), Some(Intent::Enter));
        assert_eq!(intent(Key::PageUp, false), Some(Intent::ScrollBack));
        assert_eq!(intent(Key::PageDown, false), Some(Intent::ScrollForward));
    }
}
