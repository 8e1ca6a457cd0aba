//! The colours, after the first seed text's palette: bright in sight, dim
//! and greyer when only remembered.

use gloam_protocol::{KindInfo, PlayerId};

/// An RGB colour.
pub type Rgb = (u8, u8, u8);

pub const BACKGROUND: Rgb = (10, 10, 16);
pub(crate) const WALL: Rgb = (180, 160, 110);
pub(crate) const FLOOR: Rgb = (110, 110, 130);
pub(crate) const STAIRS: Rgb = (240, 220, 80);
pub(crate) const WALL_REMEMBERED: Rgb = (60, 55, 40);
pub(crate) const FLOOR_REMEMBERED: Rgb = (40, 40, 55);
pub(crate) const STAIRS_REMEMBERED: Rgb = (110, 100, 40);
pub(crate) const TEXT: Rgb = (200, 200, 210);
pub(crate) const TEXT_MIDDLE: Rgb = (150, 150, 160);
pub(crate) const TEXT_DIM: Rgb = (100, 100, 110);
pub(crate) const ALERT: Rgb = (240, 90, 80);
pub(crate) const GOOD: Rgb = (110, 200, 110);
pub(crate) const WARN: Rgb = (230, 200, 80);
/// The aiming cursor's frame and the fill of its cell (drawn only by the
/// window).
#[cfg_attr(not(feature = "window"), allow(dead_code))]
pub(crate) const CURSOR: Rgb = (250, 220, 90);
#[cfg_attr(not(feature = "window"), allow(dead_code))]
pub(crate) const CURSOR_FILL: Rgb = (80, 66, 18);
/// Lines about fights.
pub(crate) const COMBAT: Rgb = (235, 145, 110);
/// Lines about what other players did.
pub(crate) const OTHERS_TEXT: Rgb = (140, 190, 235);

/// Players' colours, chosen by id so each keeps its own on every client:
/// bright on the dark ground, and no two [`too_close`].
pub(crate) const PLAYERS: [Rgb; 12] = [
    (80, 190, 255),
    (255, 120, 200),
    (120, 240, 110),
    (255, 150, 40),
    (190, 130, 255),
    (250, 250, 100),
    (255, 255, 255),
    (40, 240, 220),
    (255, 70, 70),
    (180, 255, 40),
    (90, 110, 255),
    (255, 200, 170),
];

/// How far apart two colours must be, as a distance in RGB (the length of
/// their difference, each channel 0 to 255), to tell at a glance which is
/// which: about a quarter of the way from black to a full primary colour.
pub const TOO_CLOSE: f64 = 64.0;

/// Whether two colours are too close to tell apart at a glance.
pub fn too_close(a: Rgb, b: Rgb) -> bool {
    let d = |x: u8, y: u8| f64::from(x.abs_diff(y)).powi(2);
    (d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)).sqrt() < TOO_CLOSE
}

/// The colours players are drawn in, given the kinds of monster: the
/// colours of [`PLAYERS`] that are not too close to any kind's, so no `@`
/// is taken for a monster (the whole palette, should every one be).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerColours(Vec<Rgb>);

impl PlayerColours {
    pub fn new(kinds: &[KindInfo]) -> Self {
        let apart = |c: &&Rgb| !kinds.iter().any(|k| too_close(**c, rgb(k.colour)));
        let colours: Vec<Rgb> = PLAYERS.iter().filter(apart).copied().collect();
        Self(if colours.is_empty() { PLAYERS.to_vec() } else { colours })
    }

    /// The colour of player `id`'s `@` and name.
    pub fn of(&self, id: PlayerId) -> Rgb {
        self.0[id.0 as usize % self.0.len()]
    }

    /// How many colours players are told apart by.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never: there is always one colour at least.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A colour as the protocol sends it.
pub(crate) fn rgb([r, g, b]: [u8; 3]) -> Rgb {
    (r, g, b)
}

/// A colour as remembered out of sight: under half as bright, as the
/// remembered map is beside the map in sight.
pub(crate) fn dimmed((r, g, b): Rgb) -> Rgb {
    let dim = |c: u8| (u16::from(c) * 2 / 5) as u8;
    (dim(r), dim(g), dim(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(colour: [u8; 3]) -> KindInfo {
        KindInfo { name: "it".into(), glyph: 'x', colour }
    }

    #[test]
    fn too_close_is_a_distance_in_rgb() {
        assert!(too_close((100, 100, 100), (100, 100, 100)));
        assert!(too_close((100, 100, 100), (136, 136, 136)), "62 apart");
        assert!(!too_close((100, 100, 100), (137, 137, 137)), "64 apart");
        assert!(!too_close((0, 0, 0), (64, 0, 0)));
        assert!(too_close((0, 0, 0), (63, 0, 0)));
    }

    #[test]
    fn the_players_palette_is_told_apart_at_a_glance() {
        for (i, a) in PLAYERS.iter().enumerate() {
            for b in &PLAYERS[i + 1..] {
                assert!(!too_close(*a, *b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_colour_too_close_to_a_monsters_is_skipped() {
        let all = PlayerColours::new(&[]);
        assert_eq!(all.len(), PLAYERS.len());
        assert_eq!(all.of(PlayerId(0)), PLAYERS[0]);
        assert_eq!(all.of(PlayerId(13)), PLAYERS[1], "round again");
        // A monster near the first colour, and one near the third.
        let some = PlayerColours::new(&[kind([85, 185, 250]), kind([110, 230, 120])]);
        assert_eq!(some.len(), PLAYERS.len() - 2);
        assert_eq!(some.of(PlayerId(0)), PLAYERS[1]);
        assert_eq!(some.of(PlayerId(1)), PLAYERS[3]);
        for id in 0..40 {
            assert!(!too_close(some.of(PlayerId(id)), (85, 185, 250)));
        }
    }

    #[test]
    fn with_every_colour_taken_by_monsters_the_whole_palette_is_used() {
        let kinds: Vec<KindInfo> = PLAYERS.iter().map(|&(r, g, b)| kind([r, g, b])).collect();
        assert_eq!(PlayerColours::new(&kinds).len(), PLAYERS.len());
    }
}
