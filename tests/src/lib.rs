//! Gloam's integration harness: a real server on 127.0.0.1:0
//! ([`TestServer`]), simulated clients that play it over real WebSockets
//! ([`SimClient`]), and an [`Oracle`] that checks every message a simulated
//! client receives against the truth rebuilt from the world seed (and,
//! after play, its monsters against each depth's replayed history). Real
//! binaries run as child processes through [`process`].

pub mod browser;
pub mod history;
mod moves;
pub mod netns;
pub mod oracle;
pub mod postgres;
pub mod process;
pub mod raw;
pub mod scenario;
pub mod server;
pub mod sim;
pub mod storm;

/// A bestiary whose only kind lives below every depth a test reaches:
/// `--bestiary` it for a real server whose levels hold no monsters.
pub const QUIET_BESTIARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/quiet-bestiary.toml");

/// The bestiary of the round and fight scenarios: its kinds live below
/// every depth a test reaches, so only monsters placed by hand are met.
pub const ARENA_BESTIARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/arena-bestiary.toml");

/// The bestiary of the restock scenario: moths, at depth 1 only (asleep,
/// harmless, dead in a blow), so depth 1 has monsters to lose and regain
/// and depth 2 none.
pub const MOTH_BESTIARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/moth-bestiary.toml");

/// The key a fake server's welcome gives (see [`fake_welcome`]).
pub const FAKE_KEY: gloam_protocol::Token = [7; 16];

/// What a fake server in a test says first: welcome, player 1, on an
/// 80 x 40 map, at `actions_per_second`, with the key [`FAKE_KEY`].
pub fn fake_welcome(actions_per_second: u16) -> gloam_protocol::ServerMsg {
    gloam_protocol::ServerMsg::Welcome {
        you: gloam_protocol::PlayerId(1),
        width: 80,
        height: 40,
        sight_radius: gloam_protocol::SIGHT_RADIUS,
        actions_per_second,
        token: Some(FAKE_KEY),
        world: String::new(),
    }
}

/// The arrival of depth 1 of the world `seed` builds with `setting`, and
/// the floor cells in its sight `far` steps from it (as the king walks), in
/// position order: where the scenarios put the monsters they need.
pub fn floor_in_sight_of_arrival(
    seed: u64,
    setting: gloam_server::mapgen::GeneratorSetting,
    far: u16,
) -> (gloam_protocol::Pos, Vec<gloam_protocol::Pos>) {
    let level = gloam_server::mapgen::build_level(seed, 1, setting);
    let mut oracle = Oracle::new(seed, setting, gloam_protocol::SIGHT_RADIUS);
    let a = level.arrival;
    let mut cells: Vec<gloam_protocol::Pos> = oracle
        .sight(1, a)
        .into_iter()
        .filter(|&p| level.terrain(p) == gloam_protocol::Terrain::Floor)
        .filter(|p| p.x.abs_diff(a.x).max(p.y.abs_diff(a.y)) == far)
        .collect();
    cells.sort();
    assert!(!cells.is_empty(), "an open cell {far} steps from the arrival, in its sight");
    (a, cells)
}

/// The arena's bestiary, and a giant placed beside depth 1's arrival (its
/// one blow kills a new character): where the scenarios of a death begin.
pub fn giant_beside_arrival(
    seed: u64,
    setting: gloam_server::mapgen::GeneratorSetting,
) -> (gloam_server::bestiary::Bestiary, Vec<gloam_server::config::Placement>) {
    let arena = std::path::Path::new(ARENA_BESTIARY);
    let bestiary = gloam_server::bestiary::Bestiary::load(arena).expect("the arena bestiary loads");
    let pos = floor_in_sight_of_arrival(seed, setting, 1).1[0];
    let giant = gloam_server::config::Placement { kind: "giant".into(), depth: 1, pos };
    (bestiary, vec![giant])
}

/// The vi-key of a step (the window's and the page's key for it).
pub fn vi_key(d: gloam_protocol::Dir) -> &'static str {
    use gloam_protocol::Dir;
    match d {
        Dir::N => "k",
        Dir::NE => "u",
        Dir::E => "l",
        Dir::SE => "n",
        Dir::S => "j",
        Dir::SW => "b",
        Dir::W => "h",
        Dir::NW => "y",
    }
}

pub use oracle::{Oracle, reference_fov};
pub use server::TestServer;
pub use sim::{SimClient, SimError};
