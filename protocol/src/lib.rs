//! The wire contract between Gloam's server and its clients.
//!
//! A client opens a WebSocket and sends [`ClientMsg::Hello`] with
//! [`PROTOCOL_VERSION`] and a name; the server answers [`ServerMsg::Welcome`]
//! or a typed [`Refusal`] followed by a close. After that the client sends
//! actions and the server sends what that player knows, as diffs: entering a
//! level, the cells that came into or left sight, the other players in sight.
//! A client that sends [`ClientMsg::Watch`] instead of the hello watches a
//! player: it is sent that player's whole view, then every message of its
//! game, and never acts.
//! Every message travels alone in one binary frame, encoded by [`codec`].
//!
//! Cells in sight are named by their index in the sight disc around the
//! viewer ([`Disc`]), and a diff's lists of them travel packed as bits, the
//! gaps between rising indices, a few bits a cell; remembered cells
//! travel as a [`CellSet`]. [`walk`] is the grid search both sides use to
//! find their way over a level.

#[cfg(any(test, feature = "arbitrary"))]
pub mod arbitrary;
pub mod calendar;
mod cells;
pub mod codec;
mod disc;
mod message;
mod packed;
mod types;
#[cfg(test)]
mod vectors;
pub mod walk;

pub use cells::CellSet;
pub use disc::Disc;
pub use message::{
    Action, AudienceCmd, BackgroundInfo, Carried, ChatTo, ClientMsg, DeathRecord, FloorChange,
    ItemClass, ItemInfo, KindInfo, Lying, Member, MonsterChange, PlayerChange, Playing,
    RecordingAsk, Refusal, ServerMsg, SightDiff, Token,
};
pub use types::{Dir, MonsterId, PlayerId, Pos, Terrain, Wound};

/// Bumped whenever a message's meaning or encoding changes.
pub const PROTOCOL_VERSION: u32 = 18;

/// How far a player sees: a cell is in range when dx² + dy² ≤ r².
pub const SIGHT_RADIUS: u8 = 8;

/// The longest player name the server accepts, in characters.
pub const MAX_NAME_CHARS: usize = 16;

/// The longest world name a host may give (`--name`), in characters: a
/// window's title holds it beside the player's name.
pub const MAX_WORLD_NAME_CHARS: usize = 40;

/// The longest address a draining server names for newcomers to go to
/// instead ([`Refusal::Draining`]), in characters.
pub const MAX_ELSEWHERE_CHARS: usize = 200;

/// The most watchers a player may have, unless the host says otherwise.
pub const DEFAULT_MAX_WATCHERS: u8 = 8;

/// The most players a [`ServerMsg::Who`] lists (the first by name): it
/// stays well inside the largest message a client decodes.
pub const MAX_WHO: usize = 500;

/// The most dead a [`ServerMsg::Graveyard`] lists: the deepest, as the list
/// is ordered. So many records of the longest names and causes of death a
/// client accepts (16 and 40 characters of four bytes each, every number
/// at its largest: about 250 bytes a record) fit well inside the largest
/// message a client decodes ([`codec::MAX_SERVER_MSG`]), however many have
/// died in a world.
pub const MAX_GRAVEYARD: usize = 200;

/// The most entries a pack holds: one a letter, `a` to `z`.
pub const PACK_SLOTS: usize = 26;

/// The longest line of chat, in characters, once trimmed.
pub const MAX_CHAT_CHARS: usize = 200;

/// The largest level a server may announce, in cells a side (every level is
/// 80 x 40 today). A client refuses a larger one before allocating anything.
pub const MAX_MAP_WIDTH: u16 = 256;
pub const MAX_MAP_HEIGHT: u16 = 256;
