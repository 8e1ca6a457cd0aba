//! Fixtures for tests of the client's core and of tools built on it: a
//! client state as the server leaves it after the handshake, and on a
//! level it has not explored yet.

use gloam_protocol::{PlayerId, ServerMsg};

use crate::state::ClientState;

/// The welcome a server gives player `you` on a `width` x `height` map,
/// with the default sight and pace and no new key.
pub fn welcome(you: PlayerId, width: u16, height: u16) -> ServerMsg {
    ServerMsg::Welcome {
        you,
        width,
        height,
        sight_radius: gloam_protocol::SIGHT_RADIUS,
        actions_per_second: 20,
        token: None,
        world: String::new(),
    }
}

/// A state that has had [`welcome`] and nothing else.
pub fn welcomed(you: PlayerId, width: u16, height: u16) -> ClientState {
    let mut state = ClientState::new();
    state.apply(&welcome(you, width, height)).expect("a welcome always fits");
    state
}

/// Entering `depth`, a `width` x `height` level, remembering nothing of it.
pub fn enter_level(depth: u16, width: u16, height: u16) -> ServerMsg {
    ServerMsg::EnterLevel { depth, width, height, remembered: vec![], terrain: vec![] }
}

/// A welcomed state that has had [`enter_level`].
pub fn on_level(you: PlayerId, width: u16, height: u16, depth: u16) -> ClientState {
    let mut state = welcomed(you, width, height);
    state.apply(&enter_level(depth, width, height)).expect("an empty level always fits");
    state
}

/// Two backgrounds as a server lists them: a fighter (36 hit points,
/// to-hit and damage) and a scout (stealth and throwing, a worse to-hit).
pub fn backgrounds() -> Vec<gloam_protocol::BackgroundInfo> {
    use gloam_protocol::BackgroundInfo;
    let fighter = BackgroundInfo {
        name: "fighter".into(),
        about: "Sword and leather.".into(),
        hp: 36,
        to_hit: 5,
        damage: 2,
        stealth: 0,
        throwing: 0,
        kit: vec!["a short sword (wielded)".into(), "a potion of healing".into()],
    };
    let scout = BackgroundInfo {
        name: "scout".into(),
        about: "Quiet.".into(),
        hp: 26,
        to_hit: -5,
        damage: 0,
        stealth: 40,
        throwing: 5,
        kit: vec!["6 darts".into()],
    };
    vec![fighter, scout]
}
