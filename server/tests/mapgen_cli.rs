//! `gloam-server mapgen` prints the level a world seed and depth build, and
//! with --steps how it was built.

use std::process::Command;

use gloam_server::bestiary::Bestiary;
use gloam_server::mapgen::populate::populate;
use gloam_server::mapgen::{self, Generator, GeneratorSetting};
use gloam_server::seeds::Seeds;

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
    // The level, with the monsters its seed places drawn on it.
    let bestiary = Bestiary::default();
    let monsters = populate(&level, &bestiary, Seeds::of_world(42).depth(3), 3);
    assert!(!monsters.is_empty());
    let mut expected: Vec<Vec<char>> =
        level.grid.to_ascii().lines().map(|l| l.chars().collect()).collect();
    for m in &monsters {
        expected[usize::from(m.pos.y)][usize::from(m.pos.x)] = bestiary.kind(m.kind).glyph;
    }
    let expected: String =
        expected.into_iter().map(|row| row.into_iter().collect::<String>() + "\n").collect();
    assert!(text.contains(&expected), "{text}");
    assert!(
        text.ends_with(&format!("{} monsters:\n", monsters.len()))
            || text.contains(&format!("\n{} monsters:\n", monsters.len()))
    );
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
