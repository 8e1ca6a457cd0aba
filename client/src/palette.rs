//! The colours. Running text has one set ([`TEXT`] and its kin); the map
//! and the tones of the HUD come from a [`Palette`], chosen with
//! `--palette`: `default` (bright in sight, dimmer and greyer when only
//! remembered) or `colourblind` (Okabe and Ito's colours for what must be
//! told apart: the stairs, the players, the health tones).
//!
//! Every glyph of the map reaches [`MIN_CONTRAST`] against the background
//! (WCAG 2's ratio for graphics): colours the server sends (monsters,
//! items) are adjusted when drawn ([`Palette::creature`]), and so kept
//! apart from the terrain colours, so a letter is never read as a wall,
//! the floor or the stairs.

use gloam_protocol::{KindInfo, PlayerId, Terrain};

/// An RGB colour.
pub type Rgb = (u8, u8, u8);

pub const BACKGROUND: Rgb = (10, 10, 16);
pub(crate) const TEXT: Rgb = (200, 200, 210);
pub(crate) const TEXT_MIDDLE: Rgb = (150, 150, 160);
pub(crate) const TEXT_DIM: Rgb = (118, 118, 130);
/// Headlines of pages: a good end, a bad one.
pub(crate) const GOOD: Rgb = (110, 200, 110);
pub(crate) const ALERT: Rgb = (240, 90, 80);
/// The cursor's frame (drawn only by the window). Its cell is not filled:
/// the map's glyphs reach 3:1 against the background with little to
/// spare, and any fill lighter than the background takes them under it
/// (a green kobold on the old gold fill was hard to read).
#[cfg_attr(not(feature = "window"), allow(dead_code))]
pub(crate) const CURSOR: Rgb = (250, 220, 90);

/// The least contrast a glyph of the map has against [`BACKGROUND`]:
/// WCAG 2's figure for graphics and large text.
pub const MIN_CONTRAST: f64 = 3.0;

/// The colours of the map and the HUD's tones.
#[derive(Debug, PartialEq, Eq)]
pub struct Palette {
    pub name: &'static str,
    pub wall: Rgb,
    pub floor: Rgb,
    pub stairs: Rgb,
    pub wall_remembered: Rgb,
    pub floor_remembered: Rgb,
    pub stairs_remembered: Rgb,
    /// Healthy; hurt; in danger (and things gone wrong).
    pub good: Rgb,
    pub warn: Rgb,
    pub alert: Rgb,
    /// Lines about fights, and about what other players did.
    pub combat: Rgb,
    pub others: Rgb,
    /// Players' colours, chosen by id so each keeps its own on every
    /// client; no two [`too_close`].
    pub players: &'static [Rgb],
}

/// The palette of the first seed text: sand walls, blue-grey floor, and
/// stairs in a cyan nothing else on the map is drawn in.
pub static DEFAULT: Palette = Palette {
    name: "default",
    wall: (180, 160, 110),
    floor: (118, 122, 148),
    stairs: (64, 224, 255),
    wall_remembered: (112, 104, 86),
    floor_remembered: (92, 94, 112),
    stairs_remembered: (40, 150, 175),
    good: (110, 200, 110),
    warn: (230, 200, 80),
    alert: (240, 90, 80),
    combat: (235, 145, 110),
    others: (140, 190, 235),
    players: &[
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
    ],
};

/// Okabe and Ito's colour-blind-safe set for what must be told apart:
/// yellow stairs, the players in the set's other colours, blue for health
/// and orange and vermilion for harm (never red against green).
pub static COLOURBLIND: Palette = Palette {
    name: "colourblind",
    wall: (170, 160, 140),
    floor: (118, 122, 140),
    stairs: (240, 228, 66),
    wall_remembered: (112, 106, 94),
    floor_remembered: (92, 94, 108),
    stairs_remembered: (150, 142, 40),
    good: (86, 180, 233),
    warn: (230, 159, 0),
    alert: (213, 94, 0),
    combat: (204, 121, 167),
    others: (86, 180, 233),
    players: &[
        (86, 180, 233),
        (230, 159, 0),
        (0, 158, 115),
        (204, 121, 167),
        (255, 255, 255),
        (213, 94, 0),
        (0, 114, 178),
    ],
};

/// Every palette, by name.
pub static PALETTES: [&Palette; 2] = [&DEFAULT, &COLOURBLIND];

/// A `--palette` name no palette has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no palette named {0:?} (there are: default, colourblind)")]
pub struct UnknownPalette(pub String);

impl Palette {
    /// The palette called `name`.
    pub fn named(name: &str) -> Result<&'static Palette, UnknownPalette> {
        PALETTES.iter().copied().find(|p| p.name == name).ok_or(UnknownPalette(name.to_owned()))
    }

    /// A cell's terrain, in sight or remembered.
    pub fn terrain(&self, t: Terrain, visible: bool) -> Rgb {
        match (t, visible) {
            (Terrain::Wall, true) => self.wall,
            (Terrain::Wall, false) => self.wall_remembered,
            (Terrain::Floor, true) => self.floor,
            (Terrain::Floor, false) => self.floor_remembered,
            (Terrain::StairsDown | Terrain::StairsUp, true) => self.stairs,
            (Terrain::StairsDown | Terrain::StairsUp, false) => self.stairs_remembered,
        }
    }

    /// Whether `c` could be taken for the terrain at a glance.
    fn like_terrain(&self, c: Rgb) -> bool {
        [self.wall, self.floor, self.stairs, self.floor_remembered, self.stairs_remembered]
            .iter()
            .any(|&t| too_close(c, t))
    }

    /// A monster's (or an item's) colour as the map draws it: the nearest
    /// colour, darker or lighter, that reaches [`MIN_CONTRAST`] and is not
    /// like the terrain's (the colour itself when it already is).
    pub fn creature(&self, c: Rgb) -> Rgb {
        let clear = |c: Rgb| contrast(c, BACKGROUND) >= MIN_CONTRAST && !self.like_terrain(c);
        (0..=16)
            .flat_map(|i| {
                [
                    blend(c, (255, 255, 255), f64::from(i) * 0.06),
                    blend(c, (0, 0, 0), f64::from(i) * 0.06),
                ]
            })
            .find(|&c| clear(c))
            .unwrap_or_else(|| lift(c))
    }

    /// A pile's colour out of sight: its kind's, greyed towards the
    /// remembered floor, still at [`MIN_CONTRAST`].
    pub fn remembered(&self, c: Rgb) -> Rgb {
        lift(blend(self.creature(c), self.floor_remembered, 0.55))
    }

    /// The colours players are drawn in, given the kinds of monster.
    pub fn player_colours(&self, kinds: &[KindInfo]) -> PlayerColours {
        let taken = |c: Rgb| {
            self.like_terrain(c) || kinds.iter().any(|k| too_close(c, self.creature(rgb(k.colour))))
        };
        let colours: Vec<Rgb> = self.players.iter().copied().filter(|&c| !taken(c)).collect();
        PlayerColours(if colours.is_empty() { self.players.to_vec() } else { colours })
    }
}

/// A colour's relative luminance, as WCAG 2 defines it.
pub fn luminance((r, g, b): Rgb) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// WCAG 2's contrast ratio of two colours (1 to 21).
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// `a` moved a fraction `t` of the way to `b`.
fn blend(a: Rgb, b: Rgb, t: f64) -> Rgb {
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// `c`, lightened just enough to reach [`MIN_CONTRAST`].
fn lift(c: Rgb) -> Rgb {
    (0..=20)
        .map(|i| blend(c, (255, 255, 255), f64::from(i) * 0.05))
        .find(|&c| contrast(c, BACKGROUND) >= MIN_CONTRAST)
        .unwrap_or((255, 255, 255))
}

/// How far apart two colours must be, as a distance in RGB (the length of
/// their difference, each channel 0 to 255), to tell at a glance which is
/// which: about a quarter of the way from black to a full primary colour.
pub const TOO_CLOSE: f64 = 64.0;

/// Whether two colours are too close to tell apart at a glance.
pub fn too_close(a: Rgb, b: Rgb) -> bool {
    let d = |x: u8, y: u8| f64::from(x.abs_diff(y)).powi(2);
    (d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)).sqrt() < TOO_CLOSE
}

/// The colours players are drawn in: the palette's that are not too close
/// to any kind of monster's (as drawn) nor to the terrain's, so no `@` is
/// taken for a monster or the stairs (the whole palette, should every one
/// be).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerColours(Vec<Rgb>);

impl PlayerColours {
    /// With the default palette.
    pub fn new(kinds: &[KindInfo]) -> Self {
        DEFAULT.player_colours(kinds)
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
    fn contrast_is_wcags_ratio() {
        assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
        assert!((contrast((255, 255, 255), (255, 255, 255)) - 1.0).abs() < 1e-9);
        // WCAG's own example: #777777 on white is 4.48.
        assert!((contrast((0x77, 0x77, 0x77), (255, 255, 255)) - 4.48).abs() < 0.01);
    }

    #[test]
    fn each_palettes_players_are_told_apart_at_a_glance() {
        for palette in PALETTES {
            for (i, a) in palette.players.iter().enumerate() {
                for b in &palette.players[i + 1..] {
                    assert!(!too_close(*a, *b), "{}: {a:?} {b:?}", palette.name);
                }
            }
        }
    }

    #[test]
    fn a_colour_too_close_to_a_monsters_or_the_terrains_is_skipped() {
        let all = PlayerColours::new(&[]);
        let free: Vec<Rgb> =
            DEFAULT.players.iter().copied().filter(|&c| !DEFAULT.like_terrain(c)).collect();
        assert_eq!(all.len(), free.len());
        assert!(free.len() >= 8, "{free:?}");
        assert_eq!(all.of(PlayerId(0)), free[0]);
        assert_eq!(all.of(PlayerId(free.len() as u32 + 1)), free[1], "round again");
        // A monster near the second free colour.
        let (r, g, b) = free[1];
        let some = PlayerColours::new(&[kind([r, g, b])]);
        assert_eq!(some.len(), free.len() - 1);
        for id in 0..40 {
            assert!(!too_close(some.of(PlayerId(id)), free[1]));
        }
    }

    #[test]
    fn with_every_colour_taken_by_monsters_the_whole_palette_is_used() {
        let kinds: Vec<KindInfo> =
            DEFAULT.players.iter().map(|&(r, g, b)| kind([r, g, b])).collect();
        assert_eq!(PlayerColours::new(&kinds).len(), DEFAULT.players.len());
    }

    #[test]
    fn a_creature_like_the_terrain_or_too_dark_is_drawn_apart_from_it() {
        for palette in PALETTES {
            for c in [palette.wall, palette.floor, palette.stairs, (20, 20, 30), (160, 140, 120)] {
                let drawn = palette.creature(c);
                assert!(contrast(drawn, BACKGROUND) >= MIN_CONTRAST, "{c:?} -> {drawn:?}");
                assert!(!palette.like_terrain(drawn), "{}: {c:?} -> {drawn:?}", palette.name);
            }
            let clear = (200, 60, 60);
            assert_eq!(DEFAULT.creature(clear), clear, "a clear colour is kept");
            assert!(contrast(palette.remembered((60, 30, 30)), BACKGROUND) >= MIN_CONTRAST);
        }
    }

    #[test]
    fn a_palette_is_chosen_by_name_and_a_wrong_name_says_which_there_are() {
        assert_eq!(Palette::named("colourblind").unwrap().name, "colourblind");
        assert_eq!(Palette::named("default").unwrap(), &DEFAULT);
        let err = Palette::named("sepia").unwrap_err().to_string();
        assert_eq!(err, "no palette named \"sepia\" (there are: default, colourblind)");
    }
}
