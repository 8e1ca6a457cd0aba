//! A morgue file's words: the plain-text record of a life that ended (died
//! or escaped), written when it ends and kept by the store (see
//! `store::morgue`), offered to its player at `/morgue/NAME/N.txt`.
//!
//! It says who the character was and how it ended, the monsters it killed
//! by kind, what it carried, the last lines of its message log, and the
//! map of the depth it ended on as it remembered it: the cells it had
//! explored, in the glyphs the clients draw, the piles it last saw there,
//! and itself as `@`. Nothing it did not remember is drawn (no monster,
//! no cell it never saw), so a morgue file tells a reader no more than
//! its player knew.

use std::collections::VecDeque;
use std::fmt::Write;

use gloam_protocol::{DeathRecord, Pos};

use crate::bestiary::Bestiary;
use crate::character::Player;
use crate::items::Catalogue;
use crate::level::Level;

/// The lines of a player's message log a morgue file ends with.
pub const LAST_LINES: usize = 20;

/// The last [`LAST_LINES`] lines of the game's log one player was sent
/// (its `Note`, `Combat` and `Others` lines: what its client's message log
/// showed, chat left out, since a morgue file is public and a whisper is
/// not), oldest first; a line that repeats the one before is counted on
/// it, as the clients count it ("You miss the rat. (x3)"). Kept beside
/// the player's connection, so it holds the lines since the player last
/// joined.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LastLines(VecDeque<(String, u32)>);

impl LastLines {
    /// Keeps `line`, forgetting the oldest beyond [`LAST_LINES`].
    pub fn push(&mut self, line: &str) {
        if let Some((last, repeats)) = self.0.back_mut()
            && last == line
        {
            *repeats += 1;
            return;
        }
        if self.0.len() == LAST_LINES {
            self.0.pop_front();
        }
        self.0.push_back((line.to_owned(), 1));
    }

    /// The lines as shown, oldest first.
    pub fn shown(&self) -> impl Iterator<Item = String> + '_ {
        self.0.iter().map(|(line, repeats)| match repeats {
            1 => line.clone(),
            n => format!("{line} (x{n})"),
        })
    }
}

/// A life that ended, as its morgue file tells it.
#[derive(Debug)]
pub struct Life<'a> {
    /// Its record in the graveyard (or the hall of the living); its
    /// `morgue` numbers this file.
    pub record: &'a DeathRecord,
    /// The player as it ended, its pack as it was then.
    pub player: &'a Player,
    /// The depth it ended on, and that depth's level.
    pub depth: u16,
    pub level: &'a Level,
    pub items: &'a Catalogue,
    /// The kinds of monster, to tell the uniques it slew.
    pub bestiary: &'a Bestiary,
    /// The last lines of its message log, oldest first.
    pub lines: &'a LastLines,
}

/// The whole file.
pub fn write(life: &Life) -> String {
    let mut out = String::new();
    who(life, &mut out);
    kills(life, &mut out);
    carried(life, &mut out);
    last_lines(life, &mut out);
    map(life, &mut out);
    out
}

/// The heading: who it was, how it ended, and what it reached.
fn who(life: &Life, out: &mut String) {
    let (r, p) = (life.record, life.player);
    let _ = writeln!(out, "Gloam morgue file: {}, life {}", r.name, r.morgue);
    out.push('\n');
    let _ = writeln!(out, "Name: {}", r.name);
    if let Some(background) = &p.background {
        let _ = writeln!(out, "Background: {background}");
    }
    let _ = writeln!(out, "Level: {} ({} experience points)", r.level, p.xp);
    let _ = writeln!(out, "Depth: {} (the deepest reached: {})", life.depth, r.depth);
    let _ = writeln!(out, "Rounds: {}", r.rounds);
    let _ = writeln!(out, "Hit points: {} of {}", p.vitals.hp, p.vitals.max_hp);
    let end = if r.escaped {
        format!("Escaped the Gloam with {}", r.killed_by)
    } else {
        format!("Killed by {} on depth {}", r.killed_by, life.depth)
    };
    let _ = writeln!(out, "{end}, {}.", r.when_utc());
}

/// The monsters it killed, by kind, most first, a unique marked so (the
/// graveyard's record counts kills alone: its morgue file names them);
/// the kills of a character saved before kills were counted by kind are
/// counted apart.
fn kills(life: &Life, out: &mut String) {
    let p = life.player;
    let _ = writeln!(out, "\nKills: {}", p.vitals.kills);
    let mut slain: Vec<(&String, &u32)> = p.slain.iter().collect();
    slain.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let unique =
        |kind: &str| life.bestiary.find(kind).is_some_and(|k| life.bestiary.kind(k).unique);
    for (kind, count) in slain {
        let mark = if unique(kind) { " (unique)" } else { "" };
        let _ = writeln!(out, "  {count:>5}  {kind}{mark}");
    }
    let counted: u32 = p.slain.values().sum();
    let before = p.vitals.kills.saturating_sub(counted);
    if before > 0 {
        let _ = writeln!(out, "  {before:>5}  (before kills were counted by kind)");
    }
}

/// What it carried, by letter, with what it wielded and wore.
fn carried(life: &Life, out: &mut String) {
    let pack = &life.player.pack;
    let _ = writeln!(out, "\nCarried:");
    if pack.is_empty() {
        let _ = writeln!(out, "  nothing");
    }
    for (slot, item) in pack.items().iter().enumerate() {
        let letter = char::from(b'a' + slot as u8);
        let words = life.items.described_for(item.kind, item.count, &life.player.known);
        let slot = Some(slot as u8);
        let gear = if pack.wielded() == slot {
            " (wielded)"
        } else if pack.worn() == slot {
            " (worn)"
        } else {
            ""
        };
        let _ = writeln!(out, "  {letter}) {words}{gear}");
    }
}

fn last_lines(life: &Life, out: &mut String) {
    let _ = writeln!(out, "\nLast messages:");
    for line in life.lines.shown() {
        let _ = writeln!(out, "  {line}");
    }
}

/// The depth as it remembered it, cut to the rows and columns it knew.
fn map(life: &Life, out: &mut String) {
    let _ = writeln!(
        out,
        "\nThe map of depth {}, as {} remembered it:\n",
        life.depth, life.record.name
    );
    let (grid, player) = (&life.level.grid, life.player);
    let Some(memory) = player.memory(life.depth) else {
        let _ = writeln!(out, "  (nothing)");
        return;
    };
    let known = |pos: Pos| memory.explored().contains(grid.index(pos));
    let cells = || grid.iter().map(|(pos, _)| pos).filter(|&pos| known(pos));
    let (Some(left), Some(right)) = (cells().map(|p| p.x).min(), cells().map(|p| p.x).max()) else {
        let _ = writeln!(out, "  (nothing)");
        return;
    };
    let (top, bottom) = (cells().map(|p| p.y).min(), cells().map(|p| p.y).max());
    for y in top.unwrap_or(0)..=bottom.unwrap_or(0) {
        let row: String = (left..=right).map(|x| glyph(life, Pos { x, y }, known)).collect();
        let _ = writeln!(out, "{}", row.trim_end());
    }
}

/// What the map shows on `pos`: the player, a remembered pile, the
/// remembered terrain, or nothing.
fn glyph(life: &Life, pos: Pos, known: impl Fn(Pos) -> bool) -> char {
    let player = life.player;
    if pos == player.pos {
        return '@';
    }
    if !known(pos) {
        return ' ';
    }
    let pile = player.memory(life.depth).and_then(|m| m.floor().get(&pos).copied());
    match pile {
        Some(top) => life.items.kind(top.kind).glyph,
        None => life.level.terrain(pos).glyph(),
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{CellSet, Lying, PlayerId, Terrain};

    use super::*;
    use crate::character::Memory;
    use crate::items::{Item, Pack};
    use crate::level::Grid;

    /// Two rooms; the player knows the left one only.
    const ROWS: [&str; 4] = ["########", "#<..#.>#", "#...#..#", "########"];

    fn level() -> Level {
        let mut grid = Grid::filled(8, 4);
        for (y, row) in ROWS.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let t = match c {
                    '.' => Terrain::Floor,
                    '<' => Terrain::StairsUp,
                    '>' => Terrain::StairsDown,
                    _ => Terrain::Wall,
                };
                grid.set(Pos::new(x as u16, y as u16), t);
            }
        }
        let arrival = Pos::new(1, 1);
        let walk = grid.walk_rows_from(&grid.open_rows(), arrival, 1);
        Level { grid, arrival, stairs_down: Pos::new(6, 1), walk, vault: None }
    }

    fn ann(level: &Level, items: &Catalogue) -> Player {
        let mut ann = Player::new(PlayerId(1), "ann".into());
        ann.pos = Pos::new(2, 1);
        ann.vitals.kills = 6;
        ann.slain =
            [("rat".to_owned(), 3), ("jackal".to_owned(), 1), ("Old Mother Rot".to_owned(), 1)]
                .into();
        let dagger = Item { kind: items.find("dagger").unwrap(), count: 1 };
        let darts = Item { kind: items.find("dart").unwrap(), count: 4 };
        ann.pack = Pack::with_gear(vec![dagger, darts], Some(0), None);
        let mut explored = CellSet::new();
        // The left room but one floor cell, never seen.
        for y in 0..4 {
            for x in (0..5).filter(|&x| (x, y) != (1, 2)) {
                explored.insert(level.grid.index(Pos::new(x, y)));
            }
        }
        let pile = Lying { kind: darts.kind, count: 2, more: false };
        let floor = [(Pos::new(3, 2), pile)].into();
        ann.memories.insert(4, Memory::from_kept(explored, floor));
        ann
    }

    fn record() -> DeathRecord {
        DeathRecord {
            name: "ann".into(),
            depth: 6,
            rounds: 812,
            kills: 5,
            killed_by: "a giant".into(),
            when: 1_796_000_000,
            level: 3,
            escaped: false,
            morgue: 2,
        }
    }

    #[test]
    fn a_morgue_file_tells_the_life_its_kills_pack_last_lines_and_map() {
        let (level, items) = (level(), Catalogue::built_in());
        let player = ann(&level, &items);
        let mut lines = LastLines::default();
        for i in 0..30 {
            lines.push(&format!("line {i}"));
        }
        for _ in 0..3 {
            lines.push("You miss the rat.");
        }
        let record = record();
        let life = Life {
            record: &record,
            player: &player,
            depth: 4,
            level: &level,
            items: &items,
            bestiary: &Bestiary::default(),
            lines: &lines,
        };
        let text = write(&life);
        let dart = items.kind(items.find("dart").unwrap()).glyph;
        let expected = format!(
            "Gloam morgue file: ann, life 2\n\n\
             Name: ann\n\
             Level: 3 (0 experience points)\n\
             Depth: 4 (the deepest reached: 6)\n\
             Rounds: 812\n\
             Hit points: 30 of 30\n\
             Killed by a giant on depth 4, {}.\n\n\
             Kills: 6\n\
             \x20     3  rat\n\
             \x20     1  Old Mother Rot (unique)\n\
             \x20     1  jackal\n\
             \x20     1  (before kills were counted by kind)\n\n\
             Carried:\n\
             \x20 a) a dagger (wielded)\n\
             \x20 b) 4 darts\n\n\
             Last messages:\n{}\
             \x20 You miss the rat. (x3)\n\n\
             The map of depth 4, as ann remembered it:\n\n\
             #####\n\
             #<@.#\n\
             # .{dart}#\n\
             #####\n",
            record.when_utc(),
            (11..30).map(|i| format!("  line {i}\n")).collect::<String>(),
        );
        assert_eq!(text, expected);
    }

    /// Nothing the player did not remember is drawn: with no memory of the
    /// depth there is no map, and a cell it never saw is blank even where
    /// stairs are.
    #[test]
    fn a_morgue_map_draws_only_what_was_remembered() {
        let (level, items) = (level(), Catalogue::built_in());
        let mut player = ann(&level, &items);
        let record = record();
        let lines = LastLines::default();
        let write_of = |player: &Player| {
            let depth = 4;
            write(&Life {
                record: &record,
                player,
                depth,
                level: &level,
                items: &items,
                bestiary: &Bestiary::default(),
                lines: &lines,
            })
        };
        let text = write_of(&player);
        let map = text.split_once("remembered it:\n\n").unwrap().1;
        assert!(!map.contains('>'), "the far room's stairs were never seen:\n{map}");
        assert_eq!(map.lines().nth(2), Some("# .{#"), "nor the cell in the room it missed");
        assert_eq!(map.lines().map(str::len).max(), Some(5), "cut to the cells it knew");
        player.memories.clear();
        let text = write_of(&player);
        assert!(text.ends_with("remembered it:\n\n  (nothing)\n"), "{text}");
    }

    /// A potion its player never learnt is named by its look, as the
    /// player knew it; one it learnt by its name.
    #[test]
    fn a_morgue_file_names_what_was_carried_as_its_player_knew_it() {
        let level = level();
        let items = Catalogue::built_in().disguised(7);
        let mut player = ann(&level, &items);
        let healing = items.find("potion of healing").unwrap();
        let sickness = items.find("potion of sickness").unwrap();
        player.pack =
            Pack::of(vec![Item { kind: healing, count: 2 }, Item { kind: sickness, count: 1 }]);
        player.known.insert(sickness);
        let (record, lines) = (record(), LastLines::default());
        let life = Life {
            record: &record,
            player: &player,
            depth: 4,
            level: &level,
            items: &items,
            bestiary: &Bestiary::default(),
            lines: &lines,
        };
        let text = write(&life);
        let look = &items.look(healing).unwrap().name;
        assert!(text.contains(&format!("a) 2 {look}s")), "{text}");
        assert!(text.contains("b) a potion of sickness"), "{text}");
        assert!(!text.contains("healing"), "never learnt, never named: {text}");
    }
}
