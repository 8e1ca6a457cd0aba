//! `gloam-server mapgen` prints the level a world seed and depth build, and
//! with --steps how it was built.

use std::process::Command;

use gloam_protocol::Pos;
use gloam_server::Config;
use gloam_server::bestiary::Bestiary;
use gloam_server::mapgen::populate::populate;
use gloam_server::mapgen::{self, Generator, GeneratorSetting};
use gloam_server::seeds::Seeds;
use gloam_server::world::fresh_depth;

fn mapgen(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gloam-server"))
        .arg("mapgen")
        .args(args)
        .output()
        .expect("gloam-server runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("text")
}

#[test]
fn the_printed_level_is_the_one_the_server_builds() {
    let text = mapgen(&["--seed", "42", "--depth", "3"]);
    let level = mapgen::build_level(42, 3, GeneratorSetting::Mixed);
    // The level, with the items and monsters its seed places drawn on it.
    let bestiary = Bestiary::default();
    let uniques = gloam_server::mapgen::uniques::living_at(&bestiary, &Seeds::of_world(42), 3);
    let monsters = populate(&level, &bestiary, Seeds::of_world(42).depth(3), 3, &uniques);
    assert!(!monsters.is_empty());
    assert!(text.contains(&server_map(&Config::with_seed(42), 3)), "{text}");
    assert!(text.contains(&format!("\n{} monsters:\n", monsters.len())));
    let kind = mapgen::generator_for(GeneratorSetting::Mixed, 42, 3);
    assert!(text.contains(&format!("{} level, world seed 42, depth 3", kind.name())));
}

#[test]
fn steps_show_how_a_level_was_built() {
    for generator in Generator::ALL {
        let text = mapgen(&["--generator", generator.name(), "--seed", "5", "--steps"]);
        let steps = text.lines().filter(|l| l.starts_with("step ")).count();
        assert!(steps >= 2, "{}: {steps} steps", generator.name());
        assert!(text.contains("finished: unreachable culled, stairs placed"));
    }
}

/// The map the server's own depth holds, drawn as a player would see all
/// of it: terrain, each pile's top item, monsters over piles.
fn server_map(config: &Config, depth: u16) -> String {
    let state = fresh_depth(config, depth);
    let level = state.level();
    let mut map: Vec<Vec<char>> =
        level.grid.to_ascii().lines().map(|l| l.chars().collect()).collect();
    for (y, row) in map.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            let pos = Pos { x: x as u16, y: y as u16 };
            if let Some(top) = state.pile_top(pos) {
                *cell = config.items.kind(top.kind).glyph;
            }
        }
    }
    for m in state.monsters() {
        map[usize::from(m.pos.y)][usize::from(m.pos.x)] = config.bestiary.kind(m.kind).glyph;
    }
    map.into_iter().map(|row| row.into_iter().collect::<String>() + "\n").collect()
}

/// Regression: the report showed the monsters and no item (and the
/// bottom level's stairs down, which the server takes away).
#[test]
fn the_printed_level_holds_the_items_and_monsters_the_server_lays() {
    let config = |max_depth| Config {
        generator: GeneratorSetting::One(Generator::Bsp),
        max_depth,
        ..Config::with_seed(7)
    };
    let text = mapgen(&["--generator", "bsp", "--seed", "7", "--depth", "4"]);
    assert!(text.contains(&server_map(&config(26), 4)), "{text}");
    assert!(!text.contains("\n0 items:\n"), "{text}");
    let bottom = mapgen(&["--generator", "bsp", "--seed", "7", "--depth", "4", "--max-depth", "4"]);
    assert!(bottom.contains(&server_map(&config(4), 4)), "{bottom}");
    assert!(bottom.contains("Gloamstone at ("), "{bottom}");
}

#[test]
fn snapshot_of_a_report() {
    insta::assert_snapshot!(mapgen(&["--generator", "bsp", "--seed", "7", "--depth", "4"]));
}
