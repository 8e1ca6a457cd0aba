//! The five rows under the map, as data: where the player is and who else
//! is on this depth, the keys, and the last three messages (newest brightest).

use crate::input::KEYS_HELP;
use crate::state::ClientState;

/// How many rows the HUD takes under the map.
pub const HUD_ROWS: u16 = 5;
/// How many messages it shows.
pub const MESSAGE_ROWS: usize = 3;

/// How bright a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Bright,
    Middle,
    Dim,
    /// Something is wrong (the connection is gone).
    Alert,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HudLine {
    pub text: String,
    pub tone: Tone,
}

impl HudLine {
    fn new(text: impl Into<String>, tone: Tone) -> Self {
        Self { text: text.into(), tone }
    }
}

/// What the connection is doing, as the HUD reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting(String),
    Playing,
    Lost(String),
}

/// The HUD's rows, top to bottom.
pub fn hud(state: &ClientState, link: &Link) -> Vec<HudLine> {
    let status = match link {
        Link::Connecting(addr) => HudLine::new(format!("Connecting to {addr}..."), Tone::Middle),
        Link::Lost(why) => HudLine::new(format!("Disconnected: {why}  (Esc quits)"), Tone::Alert),
        Link::Playing if state.depth == 0 => HudLine::new("Joining...", Tone::Middle),
        Link::Playing => {
            let others = if state.roster.is_empty() {
                "you are alone here".to_string()
            } else {
                format!("also here: {}", state.roster.join(", "))
            };
            HudLine::new(format!("Depth {}   {others}", state.depth), Tone::Bright)
        }
    };
    let mut rows = vec![status, HudLine::new(KEYS_HELP, Tone::Dim)];
    let recent: Vec<&crate::state::LogLine> = state.log.iter().rev().take(MESSAGE_ROWS).collect();
    // Oldest of the three first, so the newest sits at the bottom.
    for (age, text) in recent.iter().enumerate().rev() {
        let tone = match age {
            0 => Tone::Bright,
            1 => Tone::Middle,
            _ => Tone::Dim,
        };
        rows.push(HudLine::new(&text.text[..], tone));
    }
    while rows.len() < usize::from(HUD_ROWS) {
        rows.push(HudLine::new("", Tone::Dim));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use gloam_protocol::{PlayerId, ServerMsg};

    fn playing(depth: u16, roster: &[&str], notes: &[&str]) -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 10, 5, depth);
        s.apply(&ServerMsg::Roster(roster.iter().map(|s| s.to_string()).collect())).unwrap();
        for n in notes {
            s.apply(&ServerMsg::Note((*n).into())).unwrap();
        }
        s
    }

    #[test]
    fn the_first_row_names_the_depth_and_the_others_here() {
        let rows = hud(&playing(3, &["bob", "cat"], &[]), &Link::Playing);
        assert_eq!(rows[0], HudLine::new("Depth 3   also here: bob, cat", Tone::Bright));
        let alone = hud(&playing(1, &[], &[]), &Link::Playing);
        assert_eq!(alone[0].text, "Depth 1   you are alone here");
        assert_eq!(alone[1].text, KEYS_HELP);
    }

    #[test]
    fn the_last_three_messages_show_newest_brightest_at_the_bottom() {
        let rows = hud(&playing(1, &[], &["one", "two", "three", "four"]), &Link::Playing);
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[2], HudLine::new("two", Tone::Dim));
        assert_eq!(rows[3], HudLine::new("three", Tone::Middle));
        assert_eq!(rows[4], HudLine::new("four", Tone::Bright));
    }

    #[test]
    fn fewer_messages_leave_blank_rows() {
        let rows = hud(&playing(1, &[], &["only"]), &Link::Playing);
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[2], HudLine::new("only", Tone::Bright));
        assert_eq!(rows[4].text, "");
    }

    #[test]
    fn a_lost_connection_says_why() {
        let rows = hud(&playing(2, &[], &[]), &Link::Lost("server shutting down".into()));
        assert_eq!(rows[0].tone, Tone::Alert);
        assert!(rows[0].text.contains("server shutting down"));
    }
}
