//! The pages of text that take the map's place, as lines with their
//! colours: the graveyard (the hall of the living above the dead), the
//! pack, the discoveries, the end of a game (a death or an escape, with the
//! graveyard) and the item prompts. Each is laid out for the rows it has
//! above the HUD: the graveyard, the pack, the help, the discoveries and
//! the end of a game scroll when they do not fit (PgUp, PgDn), each with
//! its keys (which go on, which leave) always on its last line; an item
//! prompt is cut (its question names the letters that suit).

use gloam_protocol::{DeathRecord, ItemClass};

use crate::palette;
use crate::prompt::{ItemUse, letter};
use crate::scene::{Page, Scene};
use crate::state::ClientState;

pub(crate) use crate::reading::PageLine;

/// The end page's keys for a watcher whose player's game ended (the page
/// says its own: see `web_export/keys.rs`, `WORDS`).
pub(crate) const WATCHER_END: &str = "Esc: leave";

/// What the last line of a page says when the page fits.
const LEAVE_KEYS: &str = "  Any key returns to the map.";

/// The letters a row and the lines a page has in its place above the HUD,
/// `cols` x `rows`: the first row is left blank.
pub(crate) fn page_size((cols, rows): (u16, u16)) -> (usize, usize) {
    (usize::from(cols), usize::from(rows.saturating_sub(1)))
}

/// The lines of the scene's page (none on the map), in `rows` rows of
/// `cols` letters.
pub(crate) fn page_lines(scene: &Scene<'_>, (cols, rows): (usize, usize)) -> Vec<PageLine> {
    match scene.page {
        Page::Log => {
            crate::reading::log_lines(scene.state, scene.palette, (cols, rows), scene.log_scroll)
        }
        Page::Map => Vec::new(),
        Page::End => {
            let keys = Leave::Keys(end_keys(scene.state));
            scrolled(body_lines(scene, cols), rows, scene.page_scroll, keys)
        }
        Page::Graveyard => {
            let keys = Leave::Keys(graveyard_keys(scene));
            scrolled(body_lines(scene, cols), rows, scene.page_scroll, keys)
        }
        Page::Pack | Page::Help | Page::Discoveries => {
            scrolled(body_lines(scene, cols), rows, scene.page_scroll, Leave::AnyKey)
        }
        Page::Backgrounds => {
            let name = scene.state.name.as_deref().unwrap_or_default();
            crate::first_screen::lines(name, &scene.state.backgrounds, rows)
        }
        Page::Choose(item_use) => {
            let mut lines = choose_lines(scene.state, item_use);
            lines.truncate(rows);
            lines
        }
    }
}

/// The body of a page that scrolls when it does not fit, in rows of
/// `cols` letters: the graveyard, the pack, the help, the discoveries, the
/// end of a game.
fn body_lines(scene: &Scene<'_>, cols: usize) -> Vec<PageLine> {
    match scene.page {
        Page::Graveyard => graveyard_tables(scene.graveyard, true),
        Page::End => end_body(scene),
        Page::Pack => pack_lines(scene.state),
        Page::Help => crate::reading::help_lines(),
        Page::Discoveries => crate::discoveries::discoveries_lines(scene.state, cols),
        _ => Vec::new(),
    }
}

/// How many of a page's `rows` lines its body has: all but a blank line
/// and the keys under it.
fn body_rows(rows: usize) -> usize {
    rows.saturating_sub(2)
}

/// How far the scene's page scrolls in `rows` lines of `cols` letters: 0
/// when its body fits (or it is no page that scrolls).
pub(crate) fn scroll_most(scene: &Scene<'_>, (cols, rows): (usize, usize)) -> usize {
    match body_rows(rows) {
        0 => 0,
        room => body_lines(scene, cols).len().saturating_sub(room),
    }
}

/// How far PgUp and PgDn scroll a page of `rows` lines.
pub(crate) fn scroll_step(rows: usize) -> usize {
    body_rows(rows).max(1)
}

/// Which keys leave a page, as its last line says.
enum Leave {
    /// Any key returns to the map (the pack, the help, the discoveries).
    AnyKey,
    /// These keys, and no others, go on (the end of a game).
    Keys(String),
}

/// `body` in `rows` lines, `scroll` lines down, then a blank line and the
/// keys: which leave and, when the body does not fit, which scroll it and
/// which of its lines show. The keys are always the last line.
fn scrolled(body: Vec<PageLine>, rows: usize, scroll: usize, leave: Leave) -> Vec<PageLine> {
    if rows == 0 {
        return Vec::new();
    }
    let (room, total) = (body_rows(rows), body.len());
    let scroll = scroll.min(total.saturating_sub(room));
    // Which lines show comes last: a narrow page cuts that first.
    let shown = format!("(lines {}-{} of {total})", scroll + 1, scroll + room);
    let scrolls = total > room && room > 0;
    let keys = match (leave, scrolls) {
        (Leave::AnyKey, false) => (LEAVE_KEYS.to_owned(), palette::TEXT_DIM),
        (Leave::AnyKey, true) => {
            let keys = format!("  PgUp PgDn scroll, any other key returns to the map {shown}.");
            (keys, palette::TEXT_DIM)
        }
        (Leave::Keys(keys), false) => (format!("  {keys}"), palette::TEXT),
        (Leave::Keys(keys), true) => {
            (format!("  {keys}    PgUp PgDn scroll {shown}"), palette::TEXT)
        }
    };
    let mut lines: Vec<PageLine> = body.into_iter().skip(scroll).take(room).collect();
    if rows >= 2 {
        lines.push(blank());
    }
    lines.push(keys);
    lines
}

fn blank() -> PageLine {
    (String::new(), palette::TEXT)
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
    if state.watched().is_none() {
        lines.push(blank());
        lines.push((format!("  On the map: {}", crate::input::ITEM_KEYS), palette::TEXT_MIDDLE));
    }
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

/// The end of a game: how it ended (to the player, "You died...", to a
/// watcher, "ann died..."), the character's record, then the hall of the
/// living and the graveyard.
fn end_body(scene: &Scene<'_>) -> Vec<PageLine> {
    let state = scene.state;
    let Some(d) = state.ending() else { return Vec::new() };
    let who = if state.watched().is_some() { d.name.as_str() } else { "You" };
    let (headline, colour, when) = if d.escaped {
        (format!("  {who} escaped with {}!", d.killed_by), palette::GOOD, "Escaped:")
    } else {
        let how = format!("  {who} died on depth {}, killed by {}.", d.depth, d.killed_by);
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
    ];
    if let Some(url) = crate::scene::morgue_url(scene.server, d) {
        lines.push((format!("  Morgue file:           {url}"), palette::TEXT));
    }
    if let Some(said) = scene.recording_line {
        lines.push((format!("  {:<22} {said}", "Recording:"), palette::TEXT));
    }
    lines.push(blank());
    lines.extend(graveyard_tables(scene.graveyard, false));
    lines
}

/// The keys that go on from the end of a game: a new character (and,
/// when the life has a morgue file, watching its last rounds), or for a
/// watcher whose player's game ended, leaving.
fn end_keys(state: &ClientState) -> String {
    match (state.watched(), state.ending()) {
        (Some(_), _) => WATCHER_END.to_owned(),
        (None, Some(d)) if d.morgue > 0 => format!(
            "Enter: a new character named {}    r: watch your last rounds    G: the graveyard    Esc: quit",
            d.name
        ),
        (None, Some(d)) => {
            format!("Enter: a new character named {}    G: the graveyard    Esc: quit", d.name)
        }
        (None, None) => String::new(),
    }
}

/// The most graves the graveyard page gives a letter: `a` to `z`.
const MOST_LETTERED: usize = 26;

/// The graves the graveyard page gives a letter, in the order it lists
/// them (the hall of the living, then the dead): those whose last rounds
/// can be asked for (a morgue number), the first [`MOST_LETTERED`]. The
/// first is `a`.
pub(crate) fn lettered(records: &[DeathRecord]) -> Vec<&DeathRecord> {
    let (living, dead): (Vec<&DeathRecord>, Vec<&DeathRecord>) =
        records.iter().partition(|r| r.escaped);
    living.into_iter().chain(dead).filter(|r| r.morgue > 0).take(MOST_LETTERED).collect()
}

/// The letter of the `n`th grave lettered.
fn grave_letter(n: usize) -> char {
    char::from(b'a' + n as u8)
}

/// The graveyard page's last line: the recording asked for, if any (under
/// way, or why it failed), the letters that watch a fall, and the keys
/// that go back (to the map, or to the end of a game).
fn graveyard_keys(scene: &Scene<'_>) -> String {
    let said = scene.recording_line.map(|said| format!("Recording: {said}    "));
    let graves = scene.graveyard.map_or(0, |records| lettered(records).len());
    let keys = match graves {
        0 => "Any key: back".to_owned(),
        1 => "a: watch a fall    any other key: back".to_owned(),
        n => format!("a-{}: watch a fall    any other key: back", grave_letter(n - 1)),
    };
    format!("{}{keys}", said.unwrap_or_default())
}

/// The hall of the living (those who escaped), then the dead, as tables;
/// `letters`: each grave [`lettered`] has its letter before its name.
fn graveyard_tables(graveyard: Option<&[DeathRecord]>, letters: bool) -> Vec<PageLine> {
    let Some(records) = graveyard else {
        return vec![("  The graveyard is not known yet.".into(), palette::TEXT_DIM)];
    };
    let (living, dead): (Vec<&DeathRecord>, Vec<&DeathRecord>) =
        records.iter().partition(|r| r.escaped);
    // Counts the graves lettered so far, when they are.
    let mut next = letters.then_some(0);
    let mut lines = vec![("  The hall of the living".to_string(), palette::GOOD)];
    lines.extend(record_table(&living, "escaped with", "Nobody has escaped yet.", &mut next));
    lines.push(blank());
    lines.push(("  The graveyard".to_string(), palette::TEXT));
    let none = "Nobody has died in this world yet.";
    lines.extend(record_table(&dead, "killed by", none, &mut next));
    lines
}

/// Records as a table under a header; `none` when there are none. With
/// `next` (the count of graves lettered before), each grave whose last
/// rounds can be asked for has the next letter (`  c) ann ...`).
fn record_table(
    records: &[&DeathRecord],
    last_column: &str,
    none: &str,
    next: &mut Option<usize>,
) -> Vec<PageLine> {
    if records.is_empty() {
        return vec![(format!("  {none}"), palette::TEXT_DIM)];
    }
    let margin = if next.is_some() { "     " } else { "  " };
    let header = format!(
        "{margin}{:<16} {:>5} {:>5} {:>7} {:>5}  {last_column}",
        "name", "depth", "level", "rounds", "kills"
    );
    let mut rows = vec![(header, palette::TEXT_MIDDLE)];
    for r in records {
        let margin = match next {
            Some(n) if r.morgue > 0 && *n < MOST_LETTERED => {
                *n += 1;
                format!("  {}) ", grave_letter(*n - 1))
            }
            _ => margin.to_owned(),
        };
        let text = format!(
            "{margin}{:<16} {:>5} {:>5} {:>7} {:>5}  {}",
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
            morgue: 0,
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
        let eve =
            position(&lines, "     eve                  9    11     321    12  the Gloamstone");
        let graveyard = position(&lines, "The graveyard");
        let bob = position(&lines, "     bob                  7     5     321    12  an ogre");
        assert!(hall < eve && eve < graveyard && graveyard < bob, "{lines:#?}");
        assert!(lines[hall + 1].ends_with("escaped with") && lines[graveyard + 1].ends_with("by"));

        s.apply(&ServerMsg::Graveyard(vec![record("bob", 7, 5, "an ogre", false)])).unwrap();
        position(&text(&s, Page::Graveyard), "Nobody has escaped yet.");
    }

    /// Each grave whose last rounds can be asked for (a morgue number) has
    /// a letter on the graveyard page, in the order listed (the living
    /// first), `a` to `z`; the last line says so. The end page's tables
    /// have none (its keys are its own).
    #[test]
    fn the_graveyard_page_letters_the_falls_that_can_be_watched() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let numbered = |name, escaped, morgue| DeathRecord {
            morgue,
            ..record(name, 3, 2, if escaped { "the Gloamstone" } else { "a rat" }, escaped)
        };
        let mut records = vec![numbered("bob", false, 4), numbered("old", false, 0)];
        records.push(numbered("eve", true, 2));
        records.extend((0..30).map(|i| numbered("cat", false, i + 1)));
        s.apply(&ServerMsg::Graveyard(records)).unwrap();
        let lines = text_in(&s, Page::Graveyard, 80);
        let graves = lettered(s.graveyard.as_deref().unwrap());
        assert_eq!(graves.len(), 26);
        assert_eq!((graves[0].name.as_str(), graves[1].name.as_str()), ("eve", "bob"));
        position(&lines, "     name             depth level  rounds kills  escaped with");
        position(&lines, "  a) eve                  3     2     321    12  the Gloamstone");
        position(&lines, "  b) bob                  3     2     321    12  a rat");
        position(&lines, "     old                  3     2     321    12  a rat");
        position(&lines, "  z) cat                  3     2     321    12  a rat");
        assert_eq!(lines.iter().filter(|l| l.starts_with("     cat")).count(), 30 - 24);
        assert_eq!(lines.last().unwrap(), "  a-z: watch a fall    any other key: back");
        s.apply(&ServerMsg::Graveyard(vec![numbered("bob", false, 4)])).unwrap();
        let one = text(&s, Page::Graveyard);
        assert_eq!(one.last().unwrap(), "  a: watch a fall    any other key: back");
        s.apply(&ServerMsg::Died(record("ann", 3, 2, "a rat", false))).unwrap();
        position(&text(&s, Page::End), "  bob                  3     2     321    12  a rat");
    }

    /// The text of `page` in `rows` lines, scrolled `scroll` lines down.
    fn scrolled_to(state: &ClientState, page: Page, rows: usize, scroll: usize) -> Vec<String> {
        let (chat, link) = (Chat::default(), Link::Playing);
        let mut scene = Scene::new(state, &chat, &link, page);
        scene.page_scroll = scroll;
        page_lines(&scene, (120, rows)).into_iter().map(|(t, _)| t).collect()
    }

    fn long_graveyard() -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let mut records: Vec<_> = (0..20).map(|_| record("zed", 9, 11, "it", true)).collect();
        records.extend((0..200).map(|i| record(&format!("bob{i}"), 7, 5, "an ogre", false)));
        s.apply(&ServerMsg::Graveyard(records)).unwrap();
        s
    }

    /// The graveyard's page lists everyone it was sent, a page at a time:
    /// its keys say how to scroll and stay the last line, however short.
    #[test]
    fn a_long_graveyard_page_scrolls_under_its_keys() {
        let s = long_graveyard();
        for rows in [1, 2, 3, 5, 12, 20, 39] {
            let lines = text_in(&s, Page::Graveyard, rows);
            assert!(lines.len() <= rows, "{rows} rows: {lines:#?}");
            let last = lines.last().expect("a line");
            assert!(last.contains("Any key: back"), "{rows} rows: {lines:#?}");
        }
        let lines = text_in(&s, Page::Graveyard, 12);
        assert_eq!(lines[0], "  The hall of the living");
        let total = 5 + 20 + 200;
        let keys = format!("  Any key: back    PgUp PgDn scroll (lines 1-10 of {total})");
        assert_eq!(lines[10..], ["".to_string(), keys]);
        let end = scrolled_to(&s, Page::Graveyard, 12, usize::MAX);
        assert_eq!(end[9], "     bob199               7     5     321    12  an ogre", "{end:#?}");
        assert!(end[11].contains(&format!("lines {}-{total} of {total}", total - 9)));
        let all: Vec<String> = (0..total)
            .step_by(10)
            .flat_map(|at| scrolled_to(&s, Page::Graveyard, 12, at))
            .collect();
        assert_eq!(all.iter().filter(|l| l.contains("zed")).count(), 20, "every one of the living");
    }

    /// The end page scrolls too: its record first, then everyone in the
    /// graveyard, the keys to go on always the last line.
    #[test]
    fn a_short_end_page_scrolls_under_the_keys_to_go_on() {
        let mut s = long_graveyard();
        s.apply(&ServerMsg::Died(record("ann", 3, 2, "a rat", false))).unwrap();
        let keys = "Enter: a new character named ann    G: the graveyard    Esc: quit";
        let tall = text(&s, Page::End);
        assert!(tall.len() <= 40, "{}", tall.len());
        let total = 8 + 5 + 20 + 200;
        let shown = format!("  {keys}    PgUp PgDn scroll (lines 1-38 of {total})");
        assert_eq!(tall.last().unwrap(), &shown);
        let short = text_in(&s, Page::End, 12);
        assert_eq!(short[0], "  You died on depth 3, killed by a rat.");
        assert_eq!(short[8], "  The hall of the living");
        let end = scrolled_to(&s, Page::End, 12, usize::MAX);
        assert_eq!(end[9], "  bob199               7     5     321    12  an ogre", "{end:#?}");
        assert!(end[11].starts_with(&format!("  {keys}    PgUp PgDn")), "{end:#?}");
        s.apply(&ServerMsg::Graveyard(vec![])).unwrap();
        let fits = text(&s, Page::End);
        assert_eq!(fits.last().unwrap(), &format!("  {keys}"), "it fits: {fits:#?}");
    }

    /// The help fits a tall page whole; on a short one it scrolls, its keys
    /// under it.
    #[test]
    fn a_short_help_page_scrolls_and_keeps_its_keys_on_the_last_line() {
        let s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let help = crate::reading::HELP.len();
        let tall = text(&s, Page::Help);
        assert_eq!(tall.len(), help + 2);
        assert_eq!(tall[help..], ["".to_string(), LEAVE_KEYS.to_string()]);
        let short = text_in(&s, Page::Help, 11);
        assert_eq!(short[0], "  Keys");
        let keys =
            format!("  PgUp PgDn scroll, any other key returns to the map (lines 1-9 of {help}).");
        assert_eq!(short[9..], ["".to_string(), keys]);
        let end = scrolled_to(&s, Page::Help, 11, 100);
        assert_eq!(end[8], "    Talking costs no time and waits for nobody.");
    }

    /// A full pack on a short page: its items scroll, the keys stay.
    /// The discoveries page scrolls when it does not fit, as far as the
    /// rows its looks wrap onto at the page's width.
    #[test]
    fn the_discoveries_page_wraps_to_its_width_and_scrolls() {
        use gloam_protocol::ItemInfo;
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let potion = |i: u8| ItemInfo {
            name: format!("potion {i}"),
            glyph: '!',
            colour: [1, 2, 3],
            class: ItemClass::Potion,
            known: i < 6,
        };
        s.apply(&ServerMsg::ItemKinds((0..30).map(potion).collect())).unwrap();
        let (chat, link) = (Chat::default(), Link::Playing);
        let scene = Scene::new(&s, &chat, &link, Page::Discoveries);
        // A title, a blank line, the heading and 6 known: 9, then the looks.
        assert_eq!(scroll_most(&scene, (120, 12)), 9 + 3 - 10, "3 rows of looks at 120");
        assert_eq!(scroll_most(&scene, (40, 12)), 9 + 9 - 10, "9 rows of looks at 40");
        let lines = text_in(&s, Page::Discoveries, 12);
        assert_eq!(lines[2], "  Potions: 6 of 30 known");
        assert!(lines[11].contains("PgUp PgDn"), "{lines:#?}");
    }

    #[test]
    fn a_full_pack_on_a_short_page_scrolls() {
        use gloam_protocol::{Carried, ItemInfo};
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let kind = ItemInfo {
            name: "dart".into(),
            glyph: '(',
            colour: [1, 2, 3],
            class: ItemClass::Missile,
            known: true,
        };
        s.apply(&ServerMsg::ItemKinds(vec![kind])).unwrap();
        let pack = vec![Carried { kind: 0, count: 2, equipped: false }; 26];
        s.apply(&ServerMsg::Pack(pack)).unwrap();
        let lines = text_in(&s, Page::Pack, 12);
        assert_eq!(lines.len(), 12);
        assert_eq!((lines[0].as_str(), lines[2].as_str()), ("  Your pack", "  a) dart (2)"));
        assert!(lines[11].ends_with("map (lines 1-10 of 30)."), "{lines:#?}");
        let end = scrolled_to(&s, Page::Pack, 12, 100);
        assert_eq!(end[7], "  z) dart (2)");
        assert!(end[9].starts_with("  On the map: d drop"), "{end:#?}");
    }

    #[test]
    fn the_end_page_after_a_death_gives_the_record_and_the_graveyard() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let ann = record("ann", 5, 3, "an ogre", false);
        s.apply(&ServerMsg::Died(ann.clone())).unwrap();
        s.apply(&ServerMsg::Graveyard(vec![ann])).unwrap();
        let lines = text(&s, Page::End);
        assert_eq!(lines[0], "  You died on depth 5, killed by an ogre.");
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

    /// The dying player reads of its death in the second person, on the
    /// page as in the HUD and the log; a watcher reads of its player.
    #[test]
    fn the_death_page_speaks_to_the_dead_and_to_a_watcher_of_its_player() {
        let (chat, closed) = (Chat::default(), Link::Lost("your character died".into()));
        let ann = record("ann", 5, 3, "an ogre", false);
        let mut player = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let mut watcher = player.clone();
        watcher.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        let mut read = Vec::new();
        for s in [&mut player, &mut watcher] {
            s.apply(&ServerMsg::Died(ann.clone())).unwrap();
            s.apply(&ServerMsg::Note("You die...".into())).unwrap();
            let scene = Scene::new(s, &chat, &closed, Page::End);
            let hud = crate::hud::hud(&scene);
            let page = page_lines(&scene, (120, 40));
            read.push((page[0].0.clone(), hud[0].text.clone(), s.log.back().unwrap().text.clone()));
        }
        assert_eq!(
            read,
            [
                (
                    "  You died on depth 5, killed by an ogre.".into(),
                    "You died. The game is over.".into(),
                    "You die...".into()
                ),
                (
                    "  ann died on depth 5, killed by an ogre.".into(),
                    "ann died. The game is over.".into(),
                    "ann dies...".into()
                ),
            ]
        );
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
            known: true,
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
