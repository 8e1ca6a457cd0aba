//! What the browser client (`web/`) shares with this one, written as JSON
//! by the tests below so it is never copied by hand:
//! `web/src/generated/palette.json`, the colours of both palettes, the
//! running text's and the background, with samples of what
//! [`Palette::creature`], [`Palette::remembered`] and
//! [`Palette::player_colours`] give, for the TypeScript port of those to
//! be checked against; `web/src/generated/limits.json`, the protocol's
//! version and limits, the mirror's limits and the layout's sizes;
//! `web/src/generated/keys.json` (`keys.rs`), every key table, the keys
//! row, the help and the one list of where the page differs on purpose;
//! `web/src/generated/refusals.json`, the words of every reason the
//! mirror gives for refusing a message (`state/reasons.rs`, and the typed
//! reasons as templates);
//! and `web/test/screens.json` (`screens.rs`), the behaviour vectors:
//! sessions played through the window's [`crate::session::Session`],
//! step by step, that the page's replays must match.
//! The committed files must be what these tests generate; after changing
//! a colour, a limit, a key, a page's text or anything the session shows,
//! run
//! `GLOAM_WRITE_WEB=1 cargo test -p gloam-client --no-default-features --lib web_export`
//! (`GLOAM_WRITE_PALETTE=1`, the older name, works too), then `npm run
//! build` in `web/` (the page bundles `src/generated/`), and commit them
//! with `web/dist/`. `web/README.md` tells what each file holds.

use std::fmt::Write as _;

use gloam_protocol::KindInfo;

use crate::palette::{self, PALETTES, Palette, Rgb};

const PALETTE_PATH: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/generated/palette.json");
const LIMITS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/generated/limits.json");
const SCREENS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/test/screens.json");
const REFUSALS_PATH: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/generated/refusals.json");
const KEYS_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/generated/keys.json");
/// Either name asks the tests to write the files instead of checking them.
const WRITE: [&str; 2] = ["GLOAM_WRITE_WEB", "GLOAM_WRITE_PALETTE"];
const HOW: &str =
    "run GLOAM_WRITE_WEB=1 cargo test -p gloam-client --no-default-features --lib web_export";

mod keys;
mod screens;

/// Writes `fresh` to `path` when asked to, else fails unless it is there.
fn fresh_or_fail(path: &str, fresh: &str, file: &str) {
    if WRITE.iter().any(|name| std::env::var_os(name).is_some()) {
        if let Some(dir) = std::path::Path::new(path).parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("cannot make {dir:?}: {e}"));
        }
        std::fs::write(path, fresh).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed != fresh {
        let line = committed.lines().zip(fresh.lines()).position(|(a, b)| a != b);
        let line = line.unwrap_or(committed.lines().count().min(fresh.lines().count()));
        panic!("{file} is stale: {HOW} (it differs from line {})", line + 1);
    }
}

fn colour((r, g, b): Rgb) -> String {
    format!("[{r},{g},{b}]")
}

fn colours(list: impl IntoIterator<Item = Rgb>) -> String {
    let all: Vec<String> = list.into_iter().map(colour).collect();
    format!("[{}]", all.join(","))
}

fn palette_json(p: &Palette) -> String {
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  \"name\": \"{}\",", p.name);
    for (key, c) in [
        ("wall", p.wall),
        ("floor", p.floor),
        ("stairs", p.stairs),
        ("wall_remembered", p.wall_remembered),
        ("floor_remembered", p.floor_remembered),
        ("stairs_remembered", p.stairs_remembered),
        ("good", p.good),
        ("warn", p.warn),
        ("alert", p.alert),
        ("combat", p.combat),
        ("others", p.others),
    ] {
        let _ = writeln!(s, "  \"{key}\": {},", colour(c));
    }
    let _ = writeln!(s, "  \"players\": {}", colours(p.players.iter().copied()));
    s.push('}');
    s
}

/// Colours to try the adjustments on: the palettes' own, greys, and a
/// spread of the cube (the server's monster and item colours are any).
fn sample_colours() -> Vec<Rgb> {
    let mut list: Vec<Rgb> = Vec::new();
    for p in PALETTES {
        list.extend([p.wall, p.floor, p.stairs, p.floor_remembered, p.stairs_remembered]);
        list.extend(p.players.iter().copied());
    }
    list.extend((0..=8).map(|i| (i * 31, i * 31, i * 31)));
    for r in [0u8, 90, 170, 255] {
        for g in [0u8, 60, 140, 230] {
            for b in [0u8, 120, 255] {
                list.push((r, g, b));
            }
        }
    }
    list
}

fn kind(c: Rgb) -> KindInfo {
    KindInfo { name: "it".into(), glyph: 'x', colour: [c.0, c.1, c.2] }
}

/// Sets of monster colours to choose the players' colours against.
fn sample_kinds() -> Vec<Vec<Rgb>> {
    let mut sets = vec![Vec::new()];
    for p in PALETTES {
        sets.push(p.players.to_vec());
        sets.push(p.players.iter().copied().step_by(2).collect());
        sets.push(vec![p.players[1], (200, 60, 60), (20, 20, 30)]);
    }
    sets
}

fn checks_json() -> String {
    let mut s = String::from("{\n  \"creature\": [\n");
    let samples = sample_colours();
    let rows: Vec<String> = samples
        .iter()
        .map(|&c| {
            let per: Vec<String> = PALETTES
                .iter()
                .map(|p| format!("{},{}", colour(p.creature(c)), colour(p.remembered(c))))
                .collect();
            format!("    [{},{}]", colour(c), per.join(","))
        })
        .collect();
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  ],\n  \"player_colours\": [\n");
    let rows: Vec<String> = sample_kinds()
        .iter()
        .map(|set| {
            let kinds: Vec<KindInfo> = set.iter().copied().map(kind).collect();
            let per: Vec<String> = PALETTES
                .iter()
                .map(|p| {
                    let chosen = p.player_colours(&kinds);
                    colours(
                        (0..chosen.len() as u32).map(|i| chosen.of(gloam_protocol::PlayerId(i))),
                    )
                })
                .collect();
            format!("    [{},{}]", colours(set.iter().copied()), per.join(","))
        })
        .collect();
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  ]\n}");
    s
}

fn render_palette() -> String {
    let mut s = String::from("{\n");
    let _ =
        writeln!(s, "\"about\": \"Generated by client/src/web_export.rs; do not edit: {HOW}\",");
    for (key, c) in [
        ("background", palette::BACKGROUND),
        ("text", palette::TEXT),
        ("text_middle", palette::TEXT_MIDDLE),
        ("text_dim", palette::TEXT_DIM),
        ("good", palette::GOOD),
        ("alert", palette::ALERT),
        ("cursor", palette::CURSOR),
    ] {
        let _ = writeln!(s, "\"{key}\": {},", colour(c));
    }
    let _ = writeln!(s, "\"min_contrast\": {:?},", palette::MIN_CONTRAST);
    let _ = writeln!(s, "\"too_close\": {:?},", palette::TOO_CLOSE);
    let all: Vec<String> = PALETTES.iter().map(|p| palette_json(p)).collect();
    let _ = writeln!(s, "\"palettes\": [\n{}\n],", all.join(",\n"));
    // Input, then for each palette (in order) the creature and remembered
    // colours; a set of monster colours, then each palette's players' colours.
    let _ = writeln!(s, "\"checks\": {}", checks_json());
    s.push_str("}\n");
    s
}

fn render_limits() -> String {
    use crate::layout;
    use crate::state::limits;
    let numbers: [(&str, usize); 27] = [
        ("protocol_version", gloam_protocol::PROTOCOL_VERSION as usize),
        ("max_name_chars", gloam_protocol::MAX_NAME_CHARS),
        ("max_world_name_chars", gloam_protocol::MAX_WORLD_NAME_CHARS),
        ("max_chat_chars", gloam_protocol::MAX_CHAT_CHARS),
        ("pack_slots", gloam_protocol::PACK_SLOTS),
        ("max_who", gloam_protocol::MAX_WHO),
        ("max_map_width", usize::from(gloam_protocol::MAX_MAP_WIDTH)),
        ("max_map_height", usize::from(gloam_protocol::MAX_MAP_HEIGHT)),
        ("max_sight_radius", usize::from(gloam_protocol::Disc::MAX_RADIUS)),
        ("log_lines", limits::LOG_LINES),
        ("max_note_chars", limits::MAX_NOTE_CHARS),
        ("max_roster", limits::MAX_ROSTER),
        ("max_kinds", limits::MAX_KINDS),
        ("max_item_kinds", limits::MAX_ITEM_KINDS),
        ("max_kind_name_chars", limits::MAX_KIND_NAME_CHARS),
        ("max_graveyard", limits::MAX_GRAVEYARD),
        ("max_backgrounds", limits::MAX_BACKGROUNDS),
        ("max_watchers", limits::MAX_WATCHERS),
        ("game_rows", usize::from(layout::GAME_ROWS)),
        ("chat_rows", usize::from(layout::CHAT_ROWS)),
        ("min_text_cols", usize::from(layout::MIN_TEXT_COLS)),
        ("min_map_rows", usize::from(layout::MIN_MAP_ROWS)),
        ("side_cols", usize::from(layout::SIDE_COLS)),
        ("min_cell_px", layout::MIN_CELL_PX as usize),
        ("default_page_cols", usize::from(layout::DEFAULT_PAGE.0)),
        ("default_page_rows", usize::from(layout::DEFAULT_PAGE.1)),
        ("default_zoom", crate::zoom::DEFAULT as usize),
    ];
    let mut s = String::from("{\n");
    let _ =
        writeln!(s, "\"about\": \"Generated by client/src/web_export.rs; do not edit: {HOW}\",");
    for (key, n) in numbers {
        let _ = writeln!(s, "\"{key}\": {n},");
    }
    let steps: Vec<String> = crate::zoom::STEPS.iter().map(u32::to_string).collect();
    let _ = writeln!(s, "\"zoom_steps\": [{}]", steps.join(","));
    s.push_str("}\n");
    s
}

#[test]
fn palette_json_is_fresh() {
    fresh_or_fail(PALETTE_PATH, &render_palette(), "palette.json");
}

#[test]
fn limits_json_is_fresh() {
    fresh_or_fail(LIMITS_PATH, &render_limits(), "limits.json");
}

#[test]
fn keys_json_is_fresh() {
    fresh_or_fail(KEYS_PATH, &keys::render_keys(HOW), "keys.json");
}

#[test]
fn screens_json_is_fresh() {
    fresh_or_fail(SCREENS_PATH, &screens::render_screens(HOW), "screens.json");
}

/// The typed reasons' words, as templates: each rendered with values no
/// message holds, then those values named.
fn typed_reasons() -> [(&'static str, String); 4] {
    use crate::StateError;
    use gloam_protocol::Pos;
    let name = |text: String, values: &[(&str, &str)]| {
        values.iter().fold(text, |t, (value, name)| t.replace(value, &format!("{{{name}}}")))
    };
    [
        ("not_welcomed", StateError::NotWelcomed.to_string()),
        (
            "off_the_map",
            name(
                StateError::OffTheMap(Pos::new(65534, 65533)).to_string(),
                &[("65534", "x"), ("65533", "y")],
            ),
        ),
        ("outside_disc", name(StateError::OutsideDisc(254).to_string(), &[("254", "index")])),
        (
            "too_large",
            name(
                StateError::TooLarge { width: 65534, height: 65533 }.to_string(),
                &[("65534", "width"), ("65533", "height")],
            ),
        ),
    ]
}

fn render_refusals() -> String {
    let text = |s: &str| serde_json::to_string(s).expect("a string");
    let mut s = String::from("{\n");
    let _ = writeln!(
        s,
        "\"about\": \"Generated by client/src/web_export/mod.rs; do not edit: {HOW}\","
    );
    let typed: Vec<String> =
        typed_reasons().iter().map(|(k, v)| format!("  \"{k}\": {}", text(v))).collect();
    let _ = writeln!(s, "\"typed\": {{\n{}\n}},", typed.join(",\n"));
    let all: Vec<String> =
        crate::state::reasons::ALL.iter().map(|(k, v)| format!("  \"{k}\": {}", text(v))).collect();
    let _ = writeln!(s, "\"reasons\": {{\n{}\n}}", all.join(",\n"));
    s.push_str("}\n");
    s
}

#[test]
fn refusals_json_is_fresh() {
    fresh_or_fail(REFUSALS_PATH, &render_refusals(), "refusals.json");
}
