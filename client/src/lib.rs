//! Gloam's client. The headless core (no SDL): [`state::ClientState`], the
//! mirror of what the player knows, built only from server messages;
//! [`input`], the key table; [`hud`], what the rows under the map say; and
//! [`net`], the connection on a tokio task. With the `window` feature,
//! [`render`] draws all of that with SDL3.

pub mod chat;
pub mod hud;
pub mod input;
pub mod net;
pub mod palette;
pub mod scene;
pub mod session;
pub mod state;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod tokens;
pub mod view;

#[cfg(feature = "window")]
pub mod app;
#[cfg(feature = "window")]
pub mod mapgen;
#[cfg(feature = "window")]
pub mod render;

pub use state::{ClientState, OtherPlayer, StateError};
