//! The pages of text that take the map's place, as lines with their
//! colours: the graveyard (the hall of the living above the dead), the
//! pack, the end of a game (a death or an escape, with the graveyard) and
//! the item prompts. Each fits the rows above the HUD.

use gloam_protocol::{DeathRecord, ItemClass};

use crate::palette;
use crate::prompt::{ItemUse, letter};
use crate::scene::{Page, Scene};
use crate::state::ClientState;

pub(crate) use crate::reading::PageLine;

/// The end page's keys for a watcher whose player's game ended (the page
/// says its own: see `web_export/keys.rs`, `WORDS`).
pub(crate) const WATCHER_END: &str = "Esc: leave";

/// The most lines a page has: the rows above the HUD, but the first.
const PAGE_LINES: usize = 39;

/// The most of the hall of the living a page lists.
const MOST_LIVING: usize = 6;

/// The lines of the scene's page (none on the map), in `rows` rows of
/// `cols` letters.
pub(crate) fn page_lines(scene: &Scene<'_>, (cols, rows): (usize, usize)) -> Vec<PageLine> {
    let mut lines = match scene.page {
        Page::Log => {
            let size = (cols, rows);
            return crate::reading::log_lines(scene.state, scene.palette, size, scene.log_scroll);
        }
        Page::Map => Vec::new(),
        Page::Graveyard => graveyard_lines(scene.graveyard),
        Page::Help => crate::reading::help_lines(),
        Page::Pack => pack_lines(scene.state),
        Page::Choose(item_use) => choose_lines(scene.state, item_use),
        Page::End => end_lines(scene.state, scene.graveyard, rows.min(PAGE_LINES)),
    };
    lines.truncate(PAGE_LINES);
    lines
}

fn blank() -> PageLine {
    (String::new(), palette::TEXT)
}

/// The graveyard page: the hall of the living, then the dead.
fn graveyard_lines(graveyard: Option<&[DeathRecord]>) -> Vec<PageLine> {
    let mut lines = graveyard_tables(graveyard, PAGE_LINES - 2);
    lines.push(blank());
    lines.push(("  Any key returns to the map.".into(), palette::TEXT_DIM));
    lines
}

/// The pack's page: what the player carries, by letter, the wielded
/// weapon and the armour worn marked.
fn pack_lines(state: &ClientState) -> Vec<PageLine> {
    let title = match state.watched() {
        Some(player) => format!("  {player}'s pack"),
        None => "  Your pack".to_string(),
    };
    let mut lines = vec![(title, palette::TEXT), blank()];
    lines.extend((0..state.pack.len()).map(|slot| item_line(state, slot as u8)));
    if state.pack.is_empty() {
        let nothing = match state.watched() {
            Some(player) => format!("  {player} carries nothing."),
            None => "  You carry nothing. 'g' or ',' picks up what lies underfoot.".into(),
        };
        lines.push((nothing, palette::TEXT_DIM));
    }
    lines.push(blank());
    if state.watched().is_none() {
        lines.push((format!("  On the map: {}", crate::input::ITEM_KEYS), palette::TEXT_MIDDLE));
    }
    lines.push(("  Any key returns to the map.".into(), palette::TEXT_DIM));
    lines
}

/// An item prompt's page: its question, and the items that suit.
fn choose_lines(state: &ClientState, item_use: ItemUse) -> Vec<PageLine> {
    let mut lines = vec![(format!("  {}", item_use.question(state)), palette::TEXT), blank()];
    lines.extend(item_use.suitable(state).into_iter().map(|slot| item_line(state, slot)));
    lines
}

/// The pack's entry in `slot`: `  c) dagger (in hand)`, in its kind's
/// colour.
fn item_line(state: &ClientState, slot: u8) -> PageLine {
    let Some(carried) = state.pack.get(usize::from(slot)) else {
        return (String::new(), palette::TEXT);
    };
    let (name, colour, class) = match state.item_kind(carried.kind) {
        Some(kind) => (kind.name.as_str(), palette::rgb(kind.colour), Some(kind.class)),
        None => ("?", palette::ALERT, None),
    };
    let count = if carried.count == 1 { String::new() } else { format!(" ({})", carried.count) };
    let equipped = match (carried.equipped, class) {
        (false, _) => "",
        (true, Some(ItemClass::Weapon)) => " (in hand)",
        (true, Some(ItemClass::Armour)) => " (worn)",
        (true, _) => " (in use)",
    };
    (format!("  {}) {name}{count}{equipped}", letter(slot)), colour)
}

/// The end of a game: how it ended, the character's record, then the
/// hall of the living and the graveyard, in at most `rows` lines. The keys
/// to go on are the last line and are never cut: on a short page the
/// graveyard, then the record, give way to them.
fn end_lines(state: &ClientState, graveyard: Option<&[DeathRecord]>, rows: usize) -> Vec<PageLine> {
    let Some(d) = state.ending() else { return Vec::new() };
    let who = if state.watched().is_some() { d.name.as_str() } else { "You" };
    let (headline, colour, when) = if d.escaped {
        (format!("  {who} escaped with {}!", d.killed_by), palette::GOOD, "Escaped:")
    } else {
        let how = format!("  {} died on depth {}, killed by {}.", d.name, d.depth, d.killed_by);
        (how, palette::ALERT, "Died:")
    };
    let mut lines = vec![
        (headline, colour),
        blank(),
        (format!("  Deepest depth reached: {}", d.depth), palette::TEXT),
        (format!("  Experience level:      {}", d.level), palette::TEXT),
        (format!("  Rounds survived:       {}", d.rounds), palette::TEXT),
        (format!("  Monsters killed:       {}", d.kills), palette::TEXT),
        (format!("  {when:<22} {}", d.when_utc()), palette::TEXT),
        blank(),
    ];
    let tables = rows.saturating_sub(lines.len() + 2);
    lines.extend(graveyard_tables(graveyard, tables));
    lines.truncate(rows.saturating_sub(2));
    if rows >= 2 {
        lines.push(blank());
    }
    let keys = match state.watched() {
        Some(_) => format!("  {WATCHER_END}"),
        None => format!("  Enter: a new character named {}    Esc: quit", d.name),
    };
    lines.push((keys, palette::TEXT));
    lines
}

/// The hall of the living (those who escaped, at most [`MOST_LIVING`]),
/// then the dead, as tables in at most `rows` lines.
fn graveyard_tables(graveyard: Option<&[DeathRecord]>, rows: usize) -> Vec<PageLine> {
    let Some(records) = graveyard else {
        return vec![("  The graveyard is not known yet.".into(), palette::TEXT_DIM)];
    };
    let (living, dead): (Vec<&DeathRecord>, Vec<&DeathRecord>) =
        records.iter().partition(|r| r.escaped);
    let mut lines = vec![("  The hall of the living".to_string(), palette::GOOD)];
    lines.extend(record_table(&living, "escaped with", MOST_LIVING, "Nobody has escaped yet."));
    lines.push(blank());
    lines.push(("  The graveyard".to_string(), palette::TEXT));
    // The title, the blank line above it and the table's header are counted.
    let room = rows.saturating_sub(lines.len() + 1).max(1);
    lines.extend(record_table(&dead, "killed by", room, "Nobody has died in this world yet."));
    lines
}

/// Records as a table under a header, at most `most` of them; `none` when
/// there are none.
fn record_table(
    records: &[&DeathRecord],
    last_column: &str,
    most: usize,
    none: &str,
) -> Vec<PageLine> {
    if records.is_empty() {
        return vec![(format!("  {none}"), palette::TEXT_DIM)];
    }
    let header = format!(
        "  {:<16} {:>5} {:>5} {:>7} {:>5}  {last_column}",
        "name", "depth", "level", "rounds", "kills"
    );
    let mut rows = vec![(header, palette::TEXT_MIDDLE)];
    for r in records.iter().take(most) {
        let text = format!(
            "  {:<16} {:>5} {:>5} {:>7} {:>5}  {}",
            r.name, r.depth, r.level, r.rounds, r.kills, r.killed_by
        );
        rows.push((text, palette::TEXT));
    }
    rows
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{PlayerId, ServerMsg};

    use super::*;
    use crate::chat::Chat;
    use crate::scene::Link;

    fn record(name: &str, depth: u16, level: u8, by: &str, escaped: bool) -> DeathRecord {
        DeathRecord {
            name: name.into(),
            depth,
            rounds: 321,
            kills: 12,
            killed_by: by.into(),
            when: 0,
            level,
            escaped,
        }
    }

    fn text(state: &ClientState, page: Page) -> Vec<String> {
        text_in(state, page, 40)
    }

    fn text_in(state: &ClientState, page: Page, rows: usize) -> Vec<String> {
        let (chat, link) = (Chat::default(), Link::Playing);
        let scene = Scene::new(state, &chat, &link, page);
        page_lines(&scene, (120, rows)).into_iter().map(|(t, _)| t).collect()
    }

    fn position(lines: &[String], part: &str) -> usize {
        lines.iter().position(|l| l.contains(part)).unwrap_or_else(|| panic!("{part}: {lines:#?}"))
    }

    #[test]
    fn the_graveyard_lists_the_living_above_the_dead_with_their_levels() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let records = vec![
            record("eve", 9, 11, "the Gloamstone", true),
            record("bob", 7, 5, "an ogre", false),
        ];
        s.apply(&ServerMsg::Graveyard(records)).unwrap();
        let lines = text(&s, Page::Graveyard);
        let hall = position(&lines, "The hall of the living");
        let eve = position(&lines, "eve                  9    11     321    12  the Gloamstone");
        let graveyard = position(&lines, "The graveyard");
        let bob = position(&lines, "bob                  7     5     321    12  an ogre");
        assert!(hall < eve && eve < graveyard && graveyard < bob, "{lines:#?}");
        assert!(lines[hall + 1].ends_with("escaped with") && lines[graveyard + 1].ends_with("by"));

        s.apply(&ServerMsg::Graveyard(vec![record("bob", 7, 5, "an ogre", false)])).unwrap();
        position(&text(&s, Page::Graveyard), "Nobody has escaped yet.");
    }

    #[test]
    fn a_long_graveyard_fits_above_the_hud() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let mut records: Vec<_> = (0..20).map(|_| record("zed", 9, 11, "it", true)).collect();
        records.extend((0..200).map(|_| record("bob", 7, 5, "an ogre", false)));
        s.apply(&ServerMsg::Graveyard(records)).unwrap();
        for page in [Page::Graveyard, Page::End] {
            if page == Page::End {
                s.apply(&ServerMsg::Died(record("ann", 3, 2, "a rat", false))).unwrap();
            }
            let lines = text(&s, page);
            assert!(lines.len() <= PAGE_LINES, "{page:?}: {}", lines.len());
            let living = lines.iter().filter(|l| l.contains("zed")).count();
            assert_eq!(living, MOST_LIVING, "{page:?}");
            assert!(lines.iter().filter(|l| l.contains("bob")).count() >= 10, "{page:?}");
            assert!(lines.last().unwrap().contains("Enter") == (page == Page::End), "{lines:#?}");
        }
    }

    #[test]
    fn the_end_page_after_a_death_gives_the_record_and_the_graveyard() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let ann = record("ann", 5, 3, "an ogre", false);
        s.apply(&ServerMsg::Died(ann.clone())).unwrap();
        s.apply(&ServerMsg::Graveyard(vec![ann])).unwrap();
        let lines = text(&s, Page::End);
        assert_eq!(lines[0], "  ann died on depth 5, killed by an ogre.");
        position(&lines, "Experience level:      3");
        position(&lines, "Monsters killed:       12");
        position(&lines, "Died:                  1970-01-01 00:00 UTC");
        position(&lines, "ann                  5     3     321    12  an ogre");
        position(&lines, "Enter: a new character named ann");
    }

    #[test]
    fn a_short_end_page_keeps_its_keys_on_the_last_line() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let ann = record("ann", 5, 3, "an ogre", false);
        s.apply(&ServerMsg::Died(ann.clone())).unwrap();
        s.apply(&ServerMsg::Graveyard(vec![ann; 30])).unwrap();
        for rows in [1, 2, 5, 12, 20, 30, 39] {
            let lines = text_in(&s, Page::End, rows);
            assert!(lines.len() <= rows, "{rows} rows: {lines:#?}");
            let last = lines.last().expect("a line");
            assert!(last.contains("Enter: a new character named ann"), "{rows} rows: {lines:#?}");
        }
    }

    #[test]
    fn the_end_page_after_an_escape_says_what_the_character_escaped_with() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let ann = record("ann", 9, 8, "the Gloamstone", true);
        s.apply(&ServerMsg::Escaped(ann.clone())).unwrap();
        let lines = text(&s, Page::End);
        assert_eq!(lines[0], "  You escaped with the Gloamstone!");
        position(&lines, "Deepest depth reached: 9");
        position(&lines, "Experience level:      8");
        position(&lines, "Escaped:               1970-01-01 00:00 UTC");
        position(&lines, "The graveyard is not known yet.");
        s.apply(&ServerMsg::Graveyard(vec![ann])).unwrap();
        let lines = text(&s, Page::End);
        assert!(position(&lines, "The hall of the living") < position(&lines, "ann        "));
    }

    #[test]
    fn a_watchers_pages_name_the_player_watched_never_you() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        let pack = text(&s, Page::Pack);
        assert_eq!(
            (pack[0].as_str(), pack[2].as_str()),
            ("  ann's pack", "  ann carries nothing.")
        );
        s.apply(&ServerMsg::Escaped(record("ann", 9, 8, "the Gloamstone", true))).unwrap();
        let end = text(&s, Page::End);
        assert_eq!(end[0], "  ann escaped with the Gloamstone!");
        assert_eq!(end.last().unwrap(), "  Esc: leave");
        assert!(end.iter().chain(&pack).all(|l| !l.contains("You ")), "{end:#?}");
    }

    #[test]
    fn the_pack_page_marks_the_weapon_in_hand_and_the_armour_worn() {
        let s = crate::prompt::tests::packed();
        let lines = text(&s, Page::Pack);
        position(&lines, "On the map: d drop  q quaff");
        assert_eq!(
            lines[2..9],
            [
                "  a) potion of healing (2)",
                "  b) dart (9)",
                "  c) dagger (in hand)",
                "  d) dagger",
                "  e) leather armour (worn)",
                "  f) scroll of mapping",
                "  g) Gloamstone",
            ]
        );
    }

    #[test]
    fn a_prompt_page_asks_and_lists_only_what_suits() {
        let s = crate::prompt::tests::packed();
        let lines = text(&s, Page::Choose(ItemUse::TakeOff));
        assert_eq!(
            lines,
            [
                "  Take off which? [c, e] (Esc to cancel)",
                "",
                "  c) dagger (in hand)",
                "  e) leather armour (worn)",
            ]
        );
    }

    #[test]
    fn the_pack_page_lists_each_item_by_its_letter() {
        use gloam_protocol::{Carried, ItemClass, ItemInfo};
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let kind = |name: &str, class| ItemInfo {
            name: name.into(),
            glyph: '!',
            colour: [1, 2, 3],
            class,
        };
        let kinds =
            vec![kind("potion of healing", ItemClass::Potion), kind("dart", ItemClass::Missile)];
        s.apply(&ServerMsg::ItemKinds(kinds)).unwrap();
        let empty: Vec<String> = pack_lines(&s).into_iter().map(|(t, _)| t).collect();
        assert!(empty.iter().any(|l| l.contains("You carry nothing")), "{empty:?}");
        let pack = vec![
            Carried { kind: 0, count: 1, equipped: false },
            Carried { kind: 1, count: 9, equipped: false },
        ];
        s.apply(&ServerMsg::Pack(pack)).unwrap();
        let lines: Vec<String> = pack_lines(&s).into_iter().map(|(t, _)| t).collect();
        assert!(lines.contains(&"  a) potion of healing".to_string()), "{lines:?}");
        assert!(lines.contains(&"  b) dart (9)".to_string()), "{lines:?}");
    }
}
