//! Every colour the map draws a glyph in, in every palette, reaches 3:1
//! contrast against the background (WCAG 2's figure for graphics), and the
//! stairs and the floor are told apart at a glance from every monster and
//! every player. The kinds of monster and item are read from the asset
//! files the server reads, so a kind added there is checked here too.
//! The ratios are printed: `cargo test -p gloam-client --test integration
//! contrast:: -- --nocapture`.

use std::path::PathBuf;

use gloam_client::palette::{
    BACKGROUND, MIN_CONTRAST, PALETTES, Palette, Rgb, contrast, too_close,
};
use gloam_protocol::{KindInfo, PlayerId, Terrain};

fn asset(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets").join(name)
}

fn monsters() -> Vec<KindInfo> {
    let path = asset("bestiary.toml");
    gloam_server::bestiary::Bestiary::load(&path).expect("the bestiary loads").kinds_info()
}

fn hex((r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Every glyph colour of the map in `palette`, named.
fn glyph_colours(palette: &Palette) -> Vec<(String, Rgb)> {
    let mut all = Vec::new();
    for (t, name) in [
        (Terrain::Wall, "wall #"),
        (Terrain::Floor, "floor ."),
        (Terrain::StairsDown, "stairs > <"),
    ] {
        all.push((format!("{name} in sight"), palette.terrain(t, true)));
        all.push((format!("{name} remembered"), palette.terrain(t, false)));
    }
    for kind in monsters() {
        let [r, g, b] = kind.colour;
        let name = format!("monster {} {} (bestiary {})", kind.glyph, kind.name, hex((r, g, b)));
        all.push((name, palette.creature((r, g, b))));
    }
    let items = gloam_server::items::Catalogue::load(&asset("items.toml")).expect("items load");
    for item in items.infos() {
        let [r, g, b] = item.colour;
        let name = format!("item {} {}", item.glyph, item.name);
        all.push((format!("{name} in sight"), palette.creature((r, g, b))));
        all.push((format!("{name} remembered"), palette.remembered((r, g, b))));
    }
    let players = palette.player_colours(&monsters());
    for i in 0..players.len() {
        all.push((format!("player @ {i}"), players.of(PlayerId(i as u32))));
    }
    all
}

#[test]
fn every_glyph_colour_reaches_three_to_one_against_the_background() {
    let mut failed = Vec::new();
    for palette in PALETTES {
        println!("palette {} against the background {}:", palette.name, hex(BACKGROUND));
        for (name, colour) in glyph_colours(palette) {
            let ratio = contrast(colour, BACKGROUND);
            println!("  {ratio:5.2}:1  {}  {name}", hex(colour));
            if ratio < MIN_CONTRAST {
                failed.push(format!("{}: {name} {} is {ratio:.2}:1", palette.name, hex(colour)));
            }
        }
    }
    assert!(failed.is_empty(), "under {MIN_CONTRAST}:1: {failed:#?}");
}

#[test]
fn the_stairs_and_the_floor_are_told_apart_from_every_monster_and_player() {
    for palette in PALETTES {
        let players = palette.player_colours(&monsters());
        let mut others: Vec<(String, Rgb)> = monsters()
            .iter()
            .map(|k| (k.name.clone(), palette.creature((k.colour[0], k.colour[1], k.colour[2]))))
            .collect();
        others.extend(
            (0..players.len()).map(|i| (format!("player {i}"), players.of(PlayerId(i as u32)))),
        );
        for (what, colour) in others {
            for (t, terrain) in [(Terrain::StairsDown, "stairs"), (Terrain::Floor, "floor")] {
                for visible in [true, false] {
                    let ground = palette.terrain(t, visible);
                    assert!(
                        !too_close(colour, ground),
                        "{}: {what} {} looks like the {terrain} {}",
                        palette.name,
                        hex(colour),
                        hex(ground)
                    );
                }
            }
        }
        let stairs = palette.terrain(Terrain::StairsDown, true);
        for t in [Terrain::Wall, Terrain::Floor] {
            assert!(
                !too_close(stairs, palette.terrain(t, true)),
                "{}: stairs and {t:?}",
                palette.name
            );
            assert!(
                !too_close(stairs, palette.terrain(t, false)),
                "{}: stairs and {t:?}",
                palette.name
            );
        }
    }
}
