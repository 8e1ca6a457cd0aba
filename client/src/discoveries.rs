//! The discoveries page (`\`, as in NetHack and DCSS): what the player
//! knows of the kinds that wear looks until learnt. For each of potions,
//! scrolls and wands present in the world, a heading with how many of its
//! kinds are known, the known kinds' names, then the looks not yet known
//! on a wrapped line. A watcher sees its player's.

use gloam_protocol::{ItemClass, ItemInfo};

use crate::fit::wrap;
use crate::palette;
use crate::reading::PageLine;
use crate::state::ClientState;

/// The classes whose kinds have looks, in the page's order, with their
/// headings.
const CLASSES: [(ItemClass, &str); 3] =
    [(ItemClass::Potion, "Potions"), (ItemClass::Scroll, "Scrolls"), (ItemClass::Wand, "Wands")];

/// What the line of looks not yet known starts with.
const NOT_YET: &str = "Not yet known: ";

/// The margin of a class's lines under its heading, and of the later rows
/// of its looks not yet known.
const MARGIN: &str = "    ";
const HANG: &str = "      ";

/// The page's lines in rows of `cols` letters: a title, then each class
/// present in the world, a blank line before each.
pub(crate) fn discoveries_lines(state: &ClientState, cols: usize) -> Vec<PageLine> {
    let title = match state.watched() {
        Some(player) => format!("  {player}'s discoveries"),
        None => "  Your discoveries".to_string(),
    };
    let mut lines = vec![(title, palette::TEXT)];
    for (class, heading) in CLASSES {
        let kinds: Vec<&ItemInfo> = state.item_kinds.iter().filter(|k| k.class == class).collect();
        if !kinds.is_empty() {
            lines.push(blank());
            lines.extend(class_lines(heading, &kinds, cols));
        }
    }
    if lines.len() == 1 {
        lines.push(blank());
        lines.push(("  This world has no potions, scrolls or wands.".into(), palette::TEXT_DIM));
    }
    lines
}

/// One class's lines: "Potions: 2 of 9 known", the known kinds' names in
/// their colours, then the looks not yet known, wrapped to `cols`.
fn class_lines(heading: &str, kinds: &[&ItemInfo], cols: usize) -> Vec<PageLine> {
    let (known, unknown): (Vec<&ItemInfo>, Vec<&ItemInfo>) = kinds.iter().partition(|k| k.known);
    let count = format!("  {heading}: {} of {} known", known.len(), kinds.len());
    let mut lines = vec![(count, palette::TEXT_MIDDLE)];
    lines.extend(known.iter().map(|k| (format!("{MARGIN}{}", k.name), palette::rgb(k.colour))));
    if !unknown.is_empty() {
        let looks: Vec<&str> = unknown.iter().map(|k| k.name.as_str()).collect();
        lines.extend(hanging(&format!("{NOT_YET}{}", looks.join(", ")), cols));
    }
    lines
}

/// `text` wrapped to `cols` letters, dim: its first row under the margin,
/// the others a little further in.
fn hanging(text: &str, cols: usize) -> Vec<PageLine> {
    let rows = wrap(text, cols.saturating_sub(HANG.len()));
    rows.into_iter()
        .enumerate()
        .map(|(i, (_, row))| {
            let margin = if i == 0 { MARGIN } else { HANG };
            (format!("{margin}{row}"), palette::TEXT_DIM)
        })
        .collect()
}

fn blank() -> PageLine {
    (String::new(), palette::TEXT)
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{PlayerId, ServerMsg};

    use super::*;

    fn kind(name: &str, class: ItemClass, known: bool) -> ItemInfo {
        ItemInfo { name: name.into(), glyph: '!', colour: [1, 2, 3], class, known }
    }

    /// A world of three potions (healing known), a dagger, two scrolls
    /// (none known) and a known wand.
    fn learning() -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let kinds = vec![
            kind("potion of healing", ItemClass::Potion, true),
            kind("murky potion", ItemClass::Potion, false),
            kind("dagger", ItemClass::Weapon, true),
            kind("fizzy potion", ItemClass::Potion, false),
            kind("scroll labelled ZUN KAH", ItemClass::Scroll, false),
            kind("scroll labelled FOO", ItemClass::Scroll, false),
            kind("wand of healing", ItemClass::Wand, true),
        ];
        s.apply(&ServerMsg::ItemKinds(kinds)).unwrap();
        s
    }

    fn text(s: &ClientState, cols: usize) -> Vec<String> {
        discoveries_lines(s, cols).into_iter().map(|(t, _)| t).collect()
    }

    /// Each class present has its count, its known kinds and its looks not
    /// yet known; a class with none unknown has no such line; weapons are
    /// not listed.
    #[test]
    fn each_class_lists_its_known_kinds_then_the_looks_not_yet_known() {
        assert_eq!(
            text(&learning(), 80),
            [
                "  Your discoveries",
                "",
                "  Potions: 1 of 3 known",
                "    potion of healing",
                "    Not yet known: murky potion, fizzy potion",
                "",
                "  Scrolls: 0 of 2 known",
                "    Not yet known: scroll labelled ZUN KAH, scroll labelled FOO",
                "",
                "  Wands: 1 of 1 known",
                "    wand of healing",
            ]
        );
        let lines = discoveries_lines(&learning(), 80);
        assert_eq!(lines[3].1, palette::rgb([1, 2, 3]), "a known kind in its colour");
        assert_eq!(lines[4].1, palette::TEXT_DIM, "the looks dim");
    }

    /// The looks not yet known wrap at spaces to the page's width, the
    /// later rows further in.
    #[test]
    fn the_looks_not_yet_known_wrap_to_the_page() {
        let lines = text(&learning(), 40);
        let scrolls = lines.iter().position(|l| l.starts_with("  Scrolls")).unwrap();
        assert_eq!(
            lines[scrolls + 1..scrolls + 4],
            ["    Not yet known: scroll labelled ZUN", "      KAH, scroll labelled FOO", "",]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 40), "{lines:#?}");
    }

    /// A watcher's page is its player's.
    #[test]
    fn a_watcher_sees_its_players_discoveries() {
        let mut s = learning();
        s.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        let lines = text(&s, 80);
        assert_eq!(
            (lines[0].as_str(), lines[3].as_str()),
            ("  ann's discoveries", "    potion of healing")
        );
    }

    /// A world with no potions, scrolls or wands says so.
    #[test]
    fn a_world_without_potions_scrolls_or_wands_says_so() {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let dagger = vec![kind("dagger", ItemClass::Weapon, true)];
        s.apply(&ServerMsg::ItemKinds(dagger)).unwrap();
        assert_eq!(
            text(&s, 80),
            ["  Your discoveries", "", "  This world has no potions, scrolls or wands."]
        );
    }
}
