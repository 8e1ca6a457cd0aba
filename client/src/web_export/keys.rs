//! The keys as data for the page: `web/src/generated/keys.json` holds
//! what every key means in each of the window's tables (read from
//! [`crate::input`]'s own functions over every key the game can be
//! given, so the tables stay the one source), the keys row of the HUD,
//! the item keys of the pack's page, and the help page's lines; and
//! [`DIFFERENCES`], the one list of where the page means to differ from
//! the window, which the page's help and the behaviour vectors' replay
//! (`web/test/screens.test.ts`) both read.

use std::fmt::Write as _;

use crate::input::{self, AimKey, Intent, Key};
use crate::prompt::{ItemUse, PromptKey};

/// The keys a window can hand the session without Ctrl: every named key,
/// each printable ASCII character (the tables bind no other), and the
/// keypad's digits.
pub(super) fn plain_keys() -> Vec<Key> {
    let named = [
        Key::Up,
        Key::Down,
        Key::Left,
        Key::Right,
        Key::Escape,
        Key::Enter,
        Key::Tab,
        Key::Backspace,
        Key::Delete,
        Key::Home,
        Key::End,
        Key::PageUp,
        Key::PageDown,
    ];
    let chars = (' '..='~').map(Key::Char);
    let pad = (0..=9).map(Key::Numpad);
    named.into_iter().chain(chars).chain(pad).collect()
}

/// A key as the page's `Key` type spells it in JSON.
pub(super) fn key_json(key: Key) -> String {
    let text = |c: char| serde_json::to_string(&c.to_string()).expect("a string");
    match key {
        Key::Char(c) => format!("{{\"char\":{}}}", text(c)),
        Key::Ctrl(c) => format!("{{\"ctrl\":{}}}", text(c)),
        Key::Numpad(n) => format!("{{\"numpad\":{n}}}"),
        named => format!("\"{named:?}\""),
    }
}

fn item_use(u: ItemUse) -> &'static str {
    match u {
        ItemUse::Drop => "Drop",
        ItemUse::Quaff => "Quaff",
        ItemUse::Read => "Read",
        ItemUse::Wield => "Wield",
        ItemUse::Wear => "Wear",
        ItemUse::TakeOff => "TakeOff",
        ItemUse::Throw => "Throw",
        ItemUse::Zap => "Zap",
    }
}

/// An intent as JSON, named as in Rust (every variant spelt out, so a new
/// one cannot be exported without a name the page must learn).
fn intent_json(intent: Intent) -> String {
    match intent {
        Intent::Act(action) => {
            format!("{{\"Act\":{}}}", serde_json::to_string(&action).expect("an action"))
        }
        Intent::Use(u) => format!("{{\"Use\":\"{}\"}}", item_use(u)),
        Intent::Zoom(by) => format!("{{\"Zoom\":{by}}}"),
        Intent::Fire => "\"Fire\"".into(),
        Intent::Graveyard => "\"Graveyard\"".into(),
        Intent::Pack => "\"Pack\"".into(),
        Intent::Help => "\"Help\"".into(),
        Intent::Discoveries => "\"Discoveries\"".into(),
        Intent::Look => "\"Look\"".into(),
        Intent::Enter => "\"Enter\"".into(),
        Intent::ScrollBack => "\"ScrollBack\"".into(),
        Intent::ScrollForward => "\"ScrollForward\"".into(),
        Intent::Log => "\"Log\"".into(),
        Intent::Quit => "\"Quit\"".into(),
    }
}

fn aim_json(key: AimKey) -> String {
    match key {
        AimKey::Step(dir) => format!("{{\"Step\":\"{dir:?}\"}}"),
        AimKey::Next => "\"Next\"".into(),
        AimKey::Previous => "\"Previous\"".into(),
        AimKey::Throw => "\"Throw\"".into(),
        AimKey::Cancel => "\"Cancel\"".into(),
    }
}

fn prompt_json(key: PromptKey) -> Option<String> {
    match key {
        PromptKey::Letter(slot) => Some(format!("{{\"Letter\":{slot}}}")),
        PromptKey::Cancel => Some("\"Cancel\"".into()),
        PromptKey::Other => None,
    }
}

/// One table as `[key, shift, meaning]` rows, for every key and both
/// states of Shift that mean something in it.
fn table(keys: &[Key], meaning: impl Fn(Key, bool) -> Option<String>) -> String {
    let mut rows = Vec::new();
    for &key in keys {
        for shift in [false, true] {
            if let Some(m) = meaning(key, shift) {
                rows.push(format!("  [{},{shift},{m}]", key_json(key)));
            }
        }
    }
    format!("[\n{}\n]", rows.join(",\n"))
}

/// Where the page differs from the window on purpose: the one list. The
/// page's help is the window's with these lines replaced (a page has no
/// screenshot key; the browser keeps the zoom; an address can name whom
/// to watch).
pub(crate) const HELP_DIFFERENCES: &[(&str, &str)] = &[
    (
        "  zoom                    Ctrl + / Ctrl -",
        "  zoom (kept in this browser)   Ctrl + / Ctrl -",
    ),
    (
        "  screenshot              F12 (and the text on screen, as .txt)",
        "  watch a player          add ?watch=NAME to the page's address",
    ),
];

/// Words the page puts its own way: `(name, the window's, the page's,
/// why)`. The window's are its code's own constants; the page reads its
/// own from here (`web/src/state/words.ts`), and the replay of the
/// behaviour vectors gives the page the window's, so that nothing else
/// may differ.
pub(crate) const WORDS: &[(&str, &str, &str, &str)] = &[
    (
        "lost_keys",
        crate::hud::LOST_KEYS,
        "(Enter joins again)",
        "a page joins again with Enter where the window is closed with Esc",
    ),
    (
        "retry_keys",
        crate::hud::RETRY_KEYS,
        "(Enter tries now, Esc stops)",
        "a page cannot close itself: Esc stops trying again, and Enter then joins again",
    ),
    (
        "watch_with",
        crate::state::watching::WATCH_WITH,
        "?watch=NAME",
        "a page watches a player named in its address, the window one named on its command line",
    ),
    (
        "watcher_end",
        crate::pages::WATCHER_END,
        "Enter: watch {player} again",
        "a page cannot close itself: a watcher whose player's game ended watches again",
    ),
    (
        "watcher_end_keys",
        crate::hud::WATCHER_END_KEYS,
        "watch {player} again: Enter",
        "the HUD's keys row at the end, as the end page's last line says",
    ),
];

/// Keys whose outcome the page gives differently: `(key, the window's,
/// the page's, when, why)`, `when` naming the state it holds in (the
/// replay checks each by name, `web/test/screens.test.ts`). A page cannot
/// close itself, so where the window has nothing left to do but be
/// closed, Enter connects again.
pub(crate) const OUTCOME_DIFFERENCES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "Enter",
        "Ignore",
        "Again",
        "watcher_at_the_end",
        "a watcher whose player's game ended: the page cannot close itself, so it watches again",
    ),
    (
        "Enter",
        "Ignore",
        "Again",
        "link_lost",
        "the link was lost: the page joins again with Enter where the window is started again",
    ),
];

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

fn lines_json(lines: impl IntoIterator<Item = String>) -> String {
    let all: Vec<String> = lines.into_iter().map(|l| format!("  {}", json_str(&l))).collect();
    format!("[\n{}\n]", all.join(",\n"))
}

/// The page's help: the window's, with the lines of [`HELP_DIFFERENCES`]
/// replaced.
fn page_help() -> Vec<String> {
    let help = crate::reading::HELP.iter();
    help.map(|line| {
        let page = HELP_DIFFERENCES.iter().find(|(window, _)| window == line);
        page.map_or(*line, |(_, page)| page).to_owned()
    })
    .collect()
}

fn differences_json() -> String {
    let words: Vec<String> = WORDS
        .iter()
        .map(|(name, w, p, why)| {
            format!(
                "  {}: {{\"window\":{},\"page\":{},\"why\":{}}}",
                json_str(name),
                json_str(w),
                json_str(p),
                json_str(why)
            )
        })
        .collect();
    let help: Vec<String> = HELP_DIFFERENCES
        .iter()
        .map(|(w, p)| format!("  {{\"window\":{},\"page\":{}}}", json_str(w), json_str(p)))
        .collect();
    let outcomes: Vec<String> = OUTCOME_DIFFERENCES
        .iter()
        .map(|(key, w, p, when, why)| {
            format!(
                "  {{\"key\":{},\"window\":{},\"page\":{},\"when\":{},\"why\":{}}}",
                json_str(key),
                json_str(w),
                json_str(p),
                json_str(when),
                json_str(why)
            )
        })
        .collect();
    format!(
        "{{\"words\": {{\n{}\n}},\n\"help\": [\n{}\n],\n\"outcomes\": [\n{}\n]}}",
        words.join(",\n"),
        help.join(",\n"),
        outcomes.join(",\n")
    )
}

pub(super) fn render_keys(how: &str) -> String {
    let plain = plain_keys();
    let ctrl: Vec<Key> = (' '..='~').map(Key::Ctrl).collect();
    let mut s = String::from("{\n");
    let _ = writeln!(
        s,
        "\"about\": \"Generated by client/src/web_export/keys.rs; do not edit: {how}\","
    );
    let map = table(&plain, |k, shift| input::intent(k, shift).map(intent_json));
    let _ = writeln!(s, "\"map\": {map},");
    let ctrl = table(&ctrl, |k, shift| match (k, shift) {
        (Key::Ctrl(c), false) => input::ctrl_intent(c).map(intent_json),
        _ => None,
    });
    let _ = writeln!(s, "\"ctrl\": {ctrl},");
    let prompt = table(&plain, |k, shift| prompt_json(input::prompt_key(k, shift)));
    let _ = writeln!(s, "\"prompt\": {prompt},");
    let aim = table(&plain, |k, shift| input::aim_key(k, shift).map(aim_json));
    let _ = writeln!(s, "\"aim\": {aim},");
    let look = table(&plain, |k, shift| input::look_key(k, shift).map(aim_json));
    let _ = writeln!(s, "\"look\": {look},");
    let _ = writeln!(s, "\"keys_row\": {},", json_str(input::KEYS_HELP));
    let _ = writeln!(s, "\"item_keys\": {},", json_str(input::ITEM_KEYS));
    let help = crate::reading::HELP.iter().map(|l| (*l).to_owned());
    let _ = writeln!(s, "\"help\": {},", lines_json(help));
    let _ = writeln!(s, "\"page_help\": {},", lines_json(page_help()));
    let _ = writeln!(s, "\"differences\": {}", differences_json());
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables bind nothing past ASCII, so the keys written cover them.
    #[test]
    fn no_key_past_ascii_means_anything() {
        for c in ['é', 'ß', 'Ж', '€', '\u{7f}', '\n'] {
            for shift in [false, true] {
                let key = Key::Char(c);
                assert_eq!(input::intent(key, shift), None, "{c:?}");
                assert_eq!(input::aim_key(key, shift), None, "{c:?}");
                assert_eq!(input::prompt_key(key, shift), PromptKey::Other, "{c:?}");
                assert_eq!(input::ctrl_intent(c), None, "{c:?}");
            }
        }
    }

    #[test]
    fn every_help_difference_replaces_a_line_of_the_help() {
        for (window, _) in HELP_DIFFERENCES {
            assert!(crate::reading::HELP.contains(window), "{window}");
        }
    }
}
