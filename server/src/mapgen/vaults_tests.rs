use proptest::prelude::*;

use super::*;
use crate::bestiary::Bestiary;
use crate::items::Catalogue;
use crate::mapgen::{Generator, build_with, populate, stock};
use crate::seeds::DepthSeeds;

const GOOD: &str = "\
# a comment
name = a test room
depths = 2-9
weight = 3
o = monster orc
? = item any
---
#####
#o?.#
#...#
##.##
";

fn broken(from: &str, to: &str) -> TuningError {
    let text = GOOD.replacen(from, to, 1);
    assert_ne!(text, GOOD, "{from:?} is in the text");
    Vault::parse(&text, "v.txt").unwrap_err()
}

#[test]
fn a_vault_reads_its_head_legend_and_drawing() {
    let v = Vault::parse(GOOD, "v.txt").unwrap();
    assert_eq!((v.name.as_str(), v.depths.clone(), v.weight), ("a test room", 2..=9, 3));
    assert_eq!((v.width, v.height), (5, 4));
    let contents: Vec<_> = v.contents.iter().map(|(at, c, line)| (at.x, at.y, c, *line)).collect();
    assert_eq!(
        contents,
        [(1, 1, &Content::Monster(Some("orc".into())), 5), (2, 1, &Content::Item(None), 6),]
    );
    assert_eq!(v.entrances().collect::<Vec<_>>(), [(2, 3)]);
}

#[test]
fn a_mistake_names_the_file_and_its_line() {
    let cases = [
        ("#o?.#", "#o?x#", 9, "'x' is not"),
        ("depths = 2-9", "depths = 9-2", 3, "depths"),
        ("weight = 3", "weight = lots", 4, "weight"),
        ("o = monster orc", "o = beast orc", 5, "a glyph holds"),
        ("? = item any", "o = item any", 6, "named twice"),
        ("---", "--", 0, "no line `---`"),
        ("##.##", "#####", 8, "no entrance"),
    ];
    for (from, to, line, says) in cases {
        let e = broken(from, to);
        assert_eq!((e.file.as_str(), e.line), ("v.txt", line), "{to:?}: {e}");
        assert!(e.what.contains(says), "{to:?}: {e}");
        assert!(e.to_string().starts_with(&format!("v.txt:{line}: ")), "{e}");
    }
    // A cell walled off from every entrance.
    let e = broken("#...#\n##.##", "###.#\n#.#.#\n###.#");
    assert!(e.what.contains("no way in"), "{e}");
    let e = broken("name = a test room\n", "");
    assert!(e.what.contains("no `name"), "{e}");
}

#[test]
fn the_built_in_vaults_are_eight_or_more_and_name_only_known_things() {
    let vaults = Vaults::built_in();
    assert!(vaults.all().len() >= 8, "{} vaults", vaults.all().len());
    let unknown = vaults.unknown_names(&Bestiary::default(), &Catalogue::built_in());
    assert!(unknown.is_empty(), "{unknown:?}");
    let mut names: Vec<_> = vaults.all().iter().map(|v| &v.name).collect();
    names.dedup();
    assert_eq!(names.len(), vaults.all().len(), "each vault has a name of its own");
}

#[test]
fn a_name_the_bestiary_lacks_is_told_with_its_file_and_line() {
    let vaults = Vaults { vaults: vec![Vault::parse(GOOD, "v.txt").unwrap()] };
    let bestiary = Bestiary::parse(
        &crate::bestiary::BUILT_IN.replace("name = \"orc\"", "name = \"urk\""),
        "b.toml",
    )
    .unwrap();
    let unknown = vaults.unknown_names(&bestiary, &Catalogue::built_in());
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].to_string(), "v.txt:5: no monster \"orc\" in the bestiary");
}

/// Every built-in vault turns up over a few hundred seeds and depths, and
/// about half the levels below the first hold one.
#[test]
fn every_vault_is_placed_somewhere_and_half_the_levels_hold_one() {
    let mut seen = std::collections::BTreeSet::new();
    let (mut levels, mut with) = (0, 0);
    for seed in 0..400u64 {
        let depth = 2 + (seed % 25) as u16;
        let level = build_with(Generator::Bsp, seed, depth, Vaults::built_in(), None);
        levels += 1;
        if let Some(v) = &level.vault {
            with += 1;
            seen.insert(v.name.clone());
        }
    }
    let all: std::collections::BTreeSet<_> =
        Vaults::built_in().all().iter().map(|v| v.name.clone()).collect();
    assert_eq!(seen, all);
    assert!((levels * 3 / 10..=levels * 6 / 10).contains(&with), "{with} of {levels}");
}

fn generator() -> impl Strategy<Value = Generator> {
    proptest::sample::select(Generator::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the generator, seed and depth: a vault is drawn as its file
    /// draws it, out of the arrival point's sight; the level is one piece
    /// and its down staircase still the cell farthest to walk to; its
    /// guardians stand and its loot lies where the drawing puts them.
    #[test]
    fn a_vault_stands_as_drawn_in_one_connected_level(
        generator in generator(),
        seed in any::<u64>(),
        depth in 2u16..27,
    ) {
        let level = build_with(generator, seed, depth, Vaults::built_in(), None);
        let grid = &level.grid;
        let walk = grid.walk_from(level.arrival);
        let far = grid.iter().filter(|&(_, t)| t.is_open()).map(|(p, _)| walk.get(p)).max();
        prop_assert!(grid.iter().all(|(p, t)| !t.is_open() || walk.get(p).is_some()));
        prop_assert_eq!(Some(walk.get(level.stairs_down)), far, "stairs farthest");
        let Some(placed) = &level.vault else { return Ok(()) };
        let vault = Vaults::built_in().all().iter().find(|v| v.name == placed.name).unwrap();
        prop_assert!(vault.depths.contains(&depth));
        for y in 0..vault.height {
            for x in 0..vault.width {
                let at = Pos::new(placed.corner.x + x, placed.corner.y + y);
                match vault.cell(x, y) {
                    Some(Terrain::Wall) => prop_assert!(!grid.is_open(at), "{at:?} walled"),
                    Some(_) => prop_assert!(walk.get(at).is_some(), "{at:?} reached"),
                    None => {}
                }
            }
        }
        let (a, c) = (level.arrival, placed.corner);
        let gap_x = (i32::from(c.x) - i32::from(a.x)).max(i32::from(a.x) - i32::from(c.x + vault.width - 1));
        let gap_y = (i32::from(c.y) - i32::from(a.y)).max(i32::from(a.y) - i32::from(c.y + vault.height - 1));
        prop_assert!(gap_x.max(gap_y) > i32::from(SIGHT_RADIUS), "out of the arrival's sight");
        let seeds = DepthSeeds::from_level_seed(seed);
        let monsters = populate::populate(&level, &Bestiary::default(), seeds, depth, &[]);
        let items = Catalogue::built_in();
        let piles = stock::piles(&level, &items, seeds, depth, false);
        // Nothing stands or lies on the stairs, which may be in a vault.
        for (pos, content) in placed.contents.iter().filter(|(p, _)| *p != level.stairs_down) {
            match content {
                Content::Monster(_) => prop_assert!(monsters.iter().any(|m| m.pos == *pos), "a guardian on {pos:?}"),
                Content::Item(_) => prop_assert!(piles.contains_key(pos), "loot on {pos:?}"),
            }
        }
    }

    /// Without vaults a level is what its generator carved: the same as
    /// the levels of worlds made before there were vaults.
    #[test]
    fn no_vaults_leave_the_level_as_carved(
        generator in generator(),
        seed in any::<u64>(),
        depth in 1u16..27,
    ) {
        let plain = build_with(generator, seed, depth, &Vaults::none(), None);
        prop_assert!(plain.vault.is_none());
        let with = build_with(generator, seed, depth, Vaults::built_in(), None);
        if with.vault.is_none() {
            prop_assert_eq!(plain, with);
        }
    }
}
