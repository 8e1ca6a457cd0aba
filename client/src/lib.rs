//! The headless core of Gloam's client: the player's mirror of what it knows
//! ([`state::ClientState`]), built only from the messages the server sends.
//! No window and no sockets here, so it is tested directly and shared by the
//! window and by the simulated clients of the tests and the load tool.

pub mod state;

pub use state::{ClientState, OtherPlayer, StateError};
