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
        }
    }
}
