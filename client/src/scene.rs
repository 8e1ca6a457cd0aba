//! The session's part of what a frame shows: the state of the link and
//! which page is up. The HUD and the view read them; the session sets them.

/// What the connection is doing, as the HUD reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting(String),
    Playing,
    Lost(String),
}

/// What the area above the HUD shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Page {
    #[default]
    Map,
    /// The graveyard, asked for with `g`.
    Graveyard,
    /// The character died: its record, and the graveyard.
    Death,
}
