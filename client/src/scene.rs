//! What one frame is drawn from: the mirror of what the server said, and
//! the session's own part of the window (the line being typed, how far the
//! messages are scrolled back, which page shows, a throw being aimed or a
//! look, the state of the link).
//! The HUD and the view read a [`Scene`]; the session makes one.

use gloam_protocol::{DeathRecord, Pos};

use crate::aim::Aim;
use crate::chat::Chat;
use crate::palette::{self, Palette};
use crate::prompt::ItemUse;
use crate::state::ClientState;

/// What the connection is doing, as the HUD reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting(String),
    Playing,
    /// The link was lost and is tried again by itself: why it was lost,
    /// and the whole seconds left before the next try (none while a try
    /// is under way).
    Retrying {
        why: String,
        left: Option<u64>,
    },
    /// Lost for good: why (a refusal that will not change, an end the
    /// server meant, a broken server). Esc quits.
    Lost(String),
}

/// What the area above the HUD shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Page {
    #[default]
    Map,
    /// The graveyard, asked for with `G`.
    Graveyard,
    /// What the player carries, asked for with `i`.
    Pack,
    /// An item prompt: the items of the pack that suit this use.
    Choose(ItemUse),
    /// The character's game ended (it died, or escaped with the
    /// artifact): its record, and the graveyard.
    End,
    /// The whole message log, to read back (Ctrl+P).
    Log,
    /// The keys and the rules of the clock (`?`).
    Help,
    /// What the player knows of potions, scrolls and wands (`\`).
    Discoveries,
    /// A new character's first screen: the backgrounds to choose from.
    Backgrounds,
}

/// Everything one frame is drawn from.
#[derive(Debug, Clone, Copy)]
pub struct Scene<'a> {
    pub state: &'a ClientState,
    /// The line being typed and the scroll of the messages.
    pub chat: &'a Chat,
    pub link: &'a Link,
    pub page: Page,
    /// The graveyard as it may be shown: none while a fresh one is awaited.
    pub graveyard: Option<&'a [DeathRecord]>,
    /// A throw being aimed: its cursor is drawn on the map.
    pub aim: Option<Aim>,
    /// The look cursor's cell, while looking: drawn on the map, and named
    /// in the HUD.
    pub look: Option<Pos>,
    /// The colours of the map and the HUD's tones.
    pub palette: &'static Palette,
    /// Esc was pressed in play: the HUD asks whether to quit.
    pub asking_to_quit: bool,
    /// How many rows the log page is scrolled back from the newest.
    pub log_scroll: usize,
    /// How many lines the graveyard, pack, help or end page is scrolled down
    /// (when it does not fit).
    pub page_scroll: usize,
    /// The address the session connects to (`ws://host:port`): the end
    /// page names the morgue file on the same host. Empty: not known.
    pub server: &'a str,
    /// The end page's line about the character's last rounds: asked for,
    /// or why they could not be had.
    pub recording_line: Option<&'a str>,
    /// A recording playing: the map is its player's, and the HUD says
    /// where the playback stands and its keys.
    pub replay: Option<&'a crate::replay::Replay>,
}

/// Where the morgue file of `record` is served, on the host of the server
/// at `server` (`ws://host:port/...`, or `wss://`): `http://host:port/morgue/NAME/N.txt`,
/// the name percent-encoded as a browser's `encodeURIComponent` does. None
/// when the record has no morgue file or `server` is no such address.
pub fn morgue_url(server: &str, record: &DeathRecord) -> Option<String> {
    if record.morgue == 0 {
        return None;
    }
    let (scheme, rest) = match server.split_once("://")? {
        ("ws", rest) => ("http", rest),
        ("wss", rest) => ("https", rest),
        _ => return None,
    };
    let host = rest.split(['/', '?', '#']).next().filter(|h| !h.is_empty())?;
    let mut name = String::new();
    for b in record.name.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'!' | b'~' | b'*' => {
                name.push(char::from(b))
            }
            b'\'' | b'(' | b')' => name.push(char::from(b)),
            _ => name.push_str(&format!("%{b:02X}")),
        }
    }
    Some(format!("{scheme}://{host}/morgue/{name}/{}.txt", record.morgue))
}

impl<'a> Scene<'a> {
    /// `state` on `page`, with the graveyard as the mirror last heard it.
    pub fn new(state: &'a ClientState, chat: &'a Chat, link: &'a Link, page: Page) -> Self {
        Self {
            state,
            chat,
            link,
            page,
            graveyard: state.graveyard.as_deref(),
            aim: None,
            look: None,
            palette: &palette::DEFAULT,
            asking_to_quit: false,
            log_scroll: 0,
            page_scroll: 0,
            server: "",
            recording_line: None,
            replay: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_morgue_url_is_on_the_servers_host_with_the_name_encoded() {
        let record = |name: &str, morgue| DeathRecord {
            name: name.into(),
            depth: 1,
            rounds: 1,
            kills: 0,
            killed_by: "a rat".into(),
            when: 0,
            level: 1,
            escaped: false,
            morgue,
        };
        let ann = record("ann", 3);
        let at = |server| morgue_url(server, &ann);
        assert_eq!(
            at("ws://127.0.0.1:7878").as_deref(),
            Some("http://127.0.0.1:7878/morgue/ann/3.txt")
        );
        assert_eq!(
            at("wss://example.org/gloam?x").as_deref(),
            Some("https://example.org/morgue/ann/3.txt")
        );
        assert_eq!(at("ws://[::1]:9/").as_deref(), Some("http://[::1]:9/morgue/ann/3.txt"));
        let zoe = morgue_url("ws://h:1", &record("Zoë_9-x", 12));
        assert_eq!(zoe.as_deref(), Some("http://h:1/morgue/Zo%C3%AB_9-x/12.txt"));
        assert_eq!(morgue_url("ws://h:1", &record("ann", 0)), None, "a record without a file");
        assert_eq!(at("http://h:1"), None);
        assert_eq!(at("ws://"), None);
        assert_eq!(at(""), None);
    }
}
