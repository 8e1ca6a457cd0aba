//! The first screen of a new character: which background it starts as.
//! A name this client keeps no token for is a new character, so its
//! connection opens with [`ClientMsg::Backgrounds`] instead of the hello
//! ([`opening`]); the server lists them, the screen shows each under a
//! letter (its name, hit points, the skills it has, a line about it and
//! its kit), and the letter pressed makes the character
//! ([`ClientMsg::Create`], [`choose`]) on the same connection. Esc leaves
//! (the window quits, the page goes back to its name form). A returning
//! character (a token kept) and a watcher say their hello as before. After
//! a death (or an escape), the new life opens with the same screen, and
//! the choice is sent with the token kept: the name stays the player's.
//! The page does the same (`web/src/session/first.ts`).

use gloam_protocol::{BackgroundInfo, ClientMsg, PROTOCOL_VERSION, Token};

use crate::input::Key;
use crate::palette;
use crate::prompt::letter;
use crate::reading::PageLine;

/// The first screen's last line: its keys.
pub const FIRST_KEYS: &str = "Press a letter to choose; Esc leaves.";

/// The first message of a connection as `name`: a watcher's watch, a
/// returning character's hello (a token kept, and no `new_life` after a
/// death), a new character of the background named on the command line
/// (with the token, if any), or else the question that opens the first
/// screen.
pub fn opening(
    name: String,
    token: Option<Token>,
    watch: Option<String>,
    background: Option<String>,
    new_life: bool,
) -> ClientMsg {
    if watch.is_some() || (token.is_some() && !new_life) {
        return crate::net::hello(name, token, watch);
    }
    match background {
        Some(background) => {
            ClientMsg::Create { version: PROTOCOL_VERSION, name, token, background }
        }
        None => ClientMsg::Backgrounds,
    }
}

/// What a key on the first screen does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Make the character: send this.
    Create(ClientMsg),
    Leave,
    /// A key that names no background.
    Nothing,
}

/// What `key` does on the first screen of `name` (with its `token`, if
/// kept: a new life after a death), listing `list`: a letter of the list
/// creates that background, Esc leaves.
pub fn choose(name: &str, token: Option<Token>, list: &[BackgroundInfo], key: Key) -> Choice {
    let Key::Char(c) = key else {
        return if key == Key::Escape { Choice::Leave } else { Choice::Nothing };
    };
    let picked = list.iter().enumerate().find(|(i, _)| letter(*i as u8) == c);
    match picked {
        Some((_, background)) => Choice::Create(ClientMsg::Create {
            version: PROTOCOL_VERSION,
            name: name.to_owned(),
            token,
            background: background.name.clone(),
        }),
        None => Choice::Nothing,
    }
}

/// A skill as the screen says it: "+5" or "-5" (a bonus), or as it is
/// (stealth, a percent).
fn signed(n: i8) -> String {
    if n < 0 { n.to_string() } else { format!("+{n}") }
}

/// The skills a background has, the others left out: "to-hit +5,
/// damage +2", "stealth 40, throwing +5"; "no skills" when none.
pub fn skills(b: &BackgroundInfo) -> String {
    let mut said = Vec::new();
    if b.to_hit != 0 {
        said.push(format!("to-hit {}", signed(b.to_hit)));
    }
    if b.damage != 0 {
        said.push(format!("damage {}", signed(b.damage)));
    }
    if b.stealth != 0 {
        said.push(format!("stealth {}", b.stealth));
    }
    if b.throwing != 0 {
        said.push(format!("throwing {}", signed(b.throwing)));
    }
    if said.is_empty() { "no skills".into() } else { said.join(", ") }
}

/// The first screen of `name` in `rows` lines: a question, each
/// background (a letter, its name, hit points and skills; a line about
/// it; its kit), then the keys, always the last line. A short screen cuts
/// the backgrounds' lines, never the keys.
pub(crate) fn lines(name: &str, list: &[BackgroundInfo], rows: usize) -> Vec<PageLine> {
    if rows == 0 {
        return Vec::new();
    }
    let mut body = vec![
        (format!("  Welcome, {name}. Who will you be? Choose a background:"), palette::TEXT),
        (String::new(), palette::TEXT),
    ];
    for (i, b) in list.iter().enumerate() {
        let head = format!("  {}) {:<12} {:>3} hp   {}", letter(i as u8), b.name, b.hp, skills(b));
        body.push((head, palette::GOOD));
        body.push((format!("       {}", b.about), palette::TEXT));
        body.push((format!("       Carries: {}", b.kit.join(", ")), palette::TEXT_DIM));
        body.push((String::new(), palette::TEXT));
    }
    body.truncate(rows.saturating_sub(1));
    body.push((format!("  {FIRST_KEYS}"), palette::TEXT));
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fighter() -> BackgroundInfo {
        crate::testing::backgrounds()[0].clone()
    }

    fn scout() -> BackgroundInfo {
        crate::testing::backgrounds()[1].clone()
    }

    #[test]
    fn a_new_name_asks_for_the_backgrounds_and_a_kept_token_says_hello() {
        let ann = || "ann".to_owned();
        assert_eq!(opening(ann(), None, None, None, false), ClientMsg::Backgrounds);
        let hello =
            ClientMsg::Hello { version: PROTOCOL_VERSION, name: ann(), token: Some([1; 16]) };
        assert_eq!(opening(ann(), Some([1; 16]), None, None, false), hello);
        assert_eq!(opening(ann(), Some([1; 16]), None, Some("scout".into()), false), hello);
        let create = ClientMsg::Create {
            version: PROTOCOL_VERSION,
            name: ann(),
            token: None,
            background: "scout".into(),
        };
        assert_eq!(opening(ann(), None, None, Some("scout".into()), false), create);
        let watch = opening(ann(), None, Some("bob".into()), None, false);
        assert!(matches!(watch, ClientMsg::Watch { player, .. } if player == "bob"));
    }

    #[test]
    fn a_new_life_after_a_death_asks_for_the_backgrounds_and_creates_with_the_token() {
        let ann = || "ann".to_owned();
        let kept = Some([1; 16]);
        assert_eq!(opening(ann(), kept, None, None, true), ClientMsg::Backgrounds);
        let create = ClientMsg::Create {
            version: PROTOCOL_VERSION,
            name: ann(),
            token: kept,
            background: "scout".into(),
        };
        assert_eq!(opening(ann(), kept, None, Some("scout".into()), true), create);
        let list = [fighter(), scout()];
        assert_eq!(choose("ann", kept, &list, Key::Char('b')), Choice::Create(create));
        let watch = opening(ann(), kept, Some("bob".into()), None, true);
        assert!(matches!(watch, ClientMsg::Watch { .. }), "a watcher watches");
    }

    #[test]
    fn only_the_skills_a_background_has_are_said() {
        assert_eq!(skills(&fighter()), "to-hit +5, damage +2");
        assert_eq!(skills(&scout()), "to-hit -5, stealth 40, throwing +5");
        let plain = BackgroundInfo { to_hit: 0, damage: 0, ..fighter() };
        assert_eq!(skills(&plain), "no skills");
    }

    #[test]
    fn the_screen_lists_each_background_by_letter_with_its_kit_and_the_keys_last() {
        let text: Vec<String> =
            lines("ann", &[fighter(), scout()], 40).into_iter().map(|(t, _)| t).collect();
        assert_eq!(text[0], "  Welcome, ann. Who will you be? Choose a background:");
        assert_eq!(text[2], "  a) fighter       36 hp   to-hit +5, damage +2");
        assert_eq!(text[3], "       Sword and leather.");
        assert_eq!(text[4], "       Carries: a short sword (wielded), a potion of healing");
        assert_eq!(text[6], "  b) scout         26 hp   to-hit -5, stealth 40, throwing +5");
        assert_eq!(
            text.last().map(String::as_str),
            Some("  Press a letter to choose; Esc leaves.")
        );
        let short = lines("ann", &[fighter(), scout()], 5);
        assert_eq!(short.len(), 5);
        assert_eq!(short[4].0, format!("  {FIRST_KEYS}"), "the keys stay on a short screen");
        assert!(lines("ann", &[fighter()], 0).is_empty());
    }

    #[test]
    fn a_letter_creates_its_background_and_esc_leaves() {
        let list = [fighter(), scout()];
        let create = ClientMsg::Create {
            version: PROTOCOL_VERSION,
            name: "ann".into(),
            token: None,
            background: "scout".into(),
        };
        assert_eq!(choose("ann", None, &list, Key::Char('b')), Choice::Create(create));
        let third = choose("ann", None, &list, Key::Char('c'));
        assert_eq!(third, Choice::Nothing, "no third background");
        assert_eq!(choose("ann", None, &list, Key::Enter), Choice::Nothing);
        assert_eq!(choose("ann", None, &list, Key::Escape), Choice::Leave);
    }
}
