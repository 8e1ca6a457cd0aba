//! Gloam's client. The headless core (no SDL), from the bottom up:
//! [`state::ClientState`], the mirror of what the player knows, changed
//! only by server messages; [`chat`], the line being typed and what it
//! asks for; [`scene`], what one frame is drawn from (the mirror and the
//! session's own part); [`hud`] and [`view`], the rows under the map and
//! the map's glyphs, as data, and `pages` the pages of text that take
//! the map's place; [`layout`], where each goes in a window of a given
//! size (and [`zoom`], the cell size the player chose); [`input`], the key tables; [`prompt`] and [`aim`], which
//! item suits a key and where a throw is aimed; [`look`], what the look
//! cursor names; [`first_screen`], a new character's choice of
//! background; [`replay`], playing a recording back (the end page's
//! player); [`net`], the
//! connection on a tokio task; and [`session`], which ties them together:
//! keys and server messages in, a scene out. With the `window` feature,
//! [`app`] is the window's event loop and [`render`] draws the scene with
//! SDL3. The `testing` feature, for tests only, adds fixtures (`testing`).

pub mod aim;
pub mod chat;
mod discoveries;
pub mod first_screen;
mod fit;
mod glyph;
pub mod hud;
pub mod in_sight;
pub mod input;
pub mod layout;
pub mod look;
pub mod net;
mod pages;
pub mod palette;
pub mod prompt;
mod reading;
pub mod replay;
pub mod scene;
pub mod session;
pub mod state;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod tokens;
pub mod view;
#[cfg(test)]
mod web_export;
pub mod zoom;

#[cfg(feature = "window")]
pub mod app;
#[cfg(feature = "window")]
pub mod mapgen;
#[cfg(feature = "window")]
pub mod render;

pub use state::{ClientState, OtherPlayer, StateError};
