//! Gloam's integration harness: a real server on 127.0.0.1:0
//! ([`TestServer`]), simulated clients that play it over real WebSockets
//! ([`SimClient`]), and an [`Oracle`] that checks every message a simulated
//! client receives against the truth rebuilt from the world seed (and,
//! after play, its monsters against each depth's replayed history). Real
//! binaries run as child processes through [`process`].

pub mod history;
pub mod oracle;
pub mod process;
pub mod raw;
pub mod server;
pub mod sim;

/// A bestiary whose only kind lives below every depth a test reaches:
/// `--bestiary` it for a real server whose levels hold no monsters.
pub const QUIET_BESTIARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/quiet-bestiary.toml");

/// The bestiary of the round and fight scenarios: its kinds live below
/// every depth a test reaches, so only monsters placed by hand are met.
pub const ARENA_BESTIARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/arena-bestiary.toml");

pub use oracle::{Oracle, reference_fov};
pub use server::TestServer;
pub use sim::{SimClient, SimError};
