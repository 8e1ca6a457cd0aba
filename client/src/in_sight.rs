//! The list of the monsters in sight beside the map: each one's letter in
//! its colour, its name, how hurt it looks and whether it seems asleep,
//! nearest first. What is told of a monster is one [`Seen`], which the
//! look cursor (`look.rs`) shares.

use gloam_protocol::Wound;

use crate::glyph::Glyph;
use crate::palette::{self, Palette, Rgb};
use crate::scene::Scene;
use crate::state::{ClientState, SeenMonster};

/// A monster in sight as the list (and a look) tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub glyph: char,
    pub colour: Rgb,
    pub name: String,
    pub wound: Wound,
    pub asleep: bool,
}

impl Seen {
    /// A monster in sight as `palette` draws it.
    pub fn of(state: &ClientState, monster: &SeenMonster, palette: &Palette) -> Self {
        let (wound, asleep) = (monster.wound, monster.asleep);
        match state.kind_of(monster) {
            Some(kind) => Seen {
                glyph: kind.glyph,
                colour: palette.creature(palette::rgb(kind.colour)),
                name: kind.name.clone(),
                wound,
                asleep,
            },
            None => Seen { glyph: '?', colour: palette.alert, name: "?".into(), wound, asleep },
        }
    }

    /// How it looks, as the list says it: `wounded`, `asleep` (an unhurt
    /// sleeper), or `wounded, asleep`.
    pub fn status(&self) -> String {
        let wound = wound_words(self.wound);
        match (self.asleep, self.wound) {
            (false, _) => wound.to_owned(),
            (true, Wound::Unhurt) => "asleep".to_owned(),
            (true, _) => format!("{wound}, asleep"),
        }
    }
}

/// How hurt a monster looks, in words.
pub fn wound_words(wound: Wound) -> &'static str {
    match wound {
        Wound::Unhurt => "unhurt",
        Wound::Scratched => "scratched",
        Wound::Wounded => "wounded",
        Wound::AlmostDead => "almost dead",
    }
}

/// The monsters in sight, nearest the player first (as aiming orders them).
pub fn seen(scene: &Scene<'_>, palette: &Palette) -> Vec<Seen> {
    let state = scene.state;
    let mut near: Vec<_> = state.monsters.iter().collect();
    let me = state.at.unwrap_or_default();
    near.sort_by_key(|(id, m)| (me.x.abs_diff(m.at.x).max(me.y.abs_diff(m.at.y)), **id));
    near.into_iter().map(|(_, m)| Seen::of(state, m, palette)).collect()
}

/// The side panel's glyphs, `cols` letters wide and `rows` high: a title,
/// then a monster a row (`r rat wounded`, `j jackal unhurt, asleep`; what
/// does not fit after the name goes on a row of its own, indented); those
/// that do not fit are counted on the last row.
pub fn side_glyphs(scene: &Scene<'_>, cols: u16, rows: u16) -> Vec<Glyph> {
    let seen = seen(scene, scene.palette);
    let width = usize::from(cols.saturating_sub(1));
    let mut lines: Vec<(String, Rgb, Option<Rgb>)> =
        vec![("In sight".into(), palette::TEXT_MIDDLE, None)];
    if seen.is_empty() {
        lines.push(("no monsters".into(), palette::TEXT_DIM, None));
    }
    let room = usize::from(rows).saturating_sub(1);
    for (i, s) in seen.iter().enumerate() {
        let entry = entry_rows(s, width);
        let left = seen.len() - i;
        // The last row is kept to count those left out, unless this is the last.
        let needed = entry.len() + usize::from(left > 1);
        if lines.len() - 1 + needed > room {
            lines.push((format!("+{left} more"), palette::TEXT_DIM, None));
            break;
        }
        let letter = Some(s.colour);
        lines.extend(entry.into_iter().enumerate().map(|(row, text)| {
            let tone = if s.asleep { palette::TEXT_MIDDLE } else { palette::TEXT };
            (text, tone, letter.filter(|_| row == 0))
        }));
    }
    let mut glyphs = Vec::new();
    for (row, (text, colour, letter)) in lines.iter().enumerate().take(usize::from(rows)) {
        for (col, ch) in text.chars().take(width).enumerate() {
            let color = match (col, letter) {
                (0, Some(c)) => *c,
                _ => *colour,
            };
            if ch != ' ' {
                glyphs.push(Glyph { col: col as u16 + 1, row: row as u16, ch, color });
            }
        }
    }
    glyphs
}

/// A monster's rows in the list, `width` letters wide: one, or the name
/// (broken between words when it is too long for a row, as a unique's
/// may be) and then what it looks like, indented, when both do not fit.
fn entry_rows(s: &Seen, width: usize) -> Vec<String> {
    let whole = format!("{} {} {}", s.glyph, s.name, s.status());
    if whole.chars().count() <= width {
        return vec![whole];
    }
    let mut rows = wrapped(&format!("{} {}", s.glyph, s.name), width);
    rows.push(format!("  {}", s.status()));
    rows
}

/// `text` in rows of at most `width` letters, broken between words, the
/// rows after the first indented by two (a word longer than a row is cut
/// where the row ends).
fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let started = !row.trim_start().is_empty();
        if started && row.chars().count() + 1 + word.chars().count() > width {
            rows.push(std::mem::replace(&mut row, "  ".to_owned()));
        } else if started {
            row.push(' ');
        }
        row.push_str(word);
    }
    rows.push(row);
    rows
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{KindInfo, MonsterChange, MonsterId, PlayerId, Pos, ServerMsg, SightDiff};

    use super::*;
    use crate::chat::Chat;
    use crate::scene::{Link, Page};

    fn among() -> crate::ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::Sight(SightDiff { at: Pos::new(5, 5), ..SightDiff::default() }))
            .unwrap();
        let kind = |name: &str, glyph| KindInfo { name: name.into(), glyph, colour: [200, 60, 60] };
        s.apply(&ServerMsg::Kinds(vec![kind("rat", 'r'), kind("jackal", 'j')])).unwrap();
        let at = |id, kind, x, wound| MonsterChange::Appeared {
            id: MonsterId(id),
            kind,
            at: Pos::new(x, 5),
            wound,
            asleep: false,
        };
        s.apply(&ServerMsg::Monsters(vec![
            at(1, 1, 9, Wound::Unhurt),
            at(2, 0, 6, Wound::AlmostDead),
        ]))
        .unwrap();
        s
    }

    fn rows(glyphs: &[Glyph]) -> Vec<String> {
        let most = glyphs.iter().map(|g| g.row).max().unwrap_or(0);
        (0..=most)
            .map(|r| {
                let mut line = vec![' '; 30];
                glyphs.iter().filter(|g| g.row == r).for_each(|g| line[usize::from(g.col)] = g.ch);
                line.into_iter().collect::<String>().trim().to_string()
            })
            .collect()
    }

    #[test]
    fn the_list_names_each_monster_in_sight_nearest_first_with_its_wound() {
        let s = among();
        let (chat, link) = (Chat::default(), Link::Playing);
        let scene = Scene::new(&s, &chat, &link, Page::Map);
        let g = side_glyphs(&scene, 22, 20);
        assert_eq!(rows(&g), ["In sight", "r rat almost dead", "j jackal unhurt"]);
        let letter = g.iter().find(|g| g.ch == 'r' && g.row == 1).unwrap();
        assert_eq!(letter.color, palette::DEFAULT.creature((200, 60, 60)), "the map's colour");
        assert!(g.iter().all(|g| g.col < 22));
        let crowded = side_glyphs(&scene, 22, 2);
        assert_eq!(rows(&crowded), ["In sight", "+2 more"]);
    }

    /// A sleeper says so (an unhurt one in one word); a wounded sleeper
    /// too long for a row goes on to the next, and the count of those
    /// left out counts the rows each takes.
    #[test]
    fn the_list_says_which_monsters_seem_asleep() {
        let mut s = among();
        let slept = |id, asleep| MonsterChange::Slept { id: MonsterId(id), asleep };
        s.apply(&ServerMsg::Monsters(vec![slept(1, true), slept(2, true)])).unwrap();
        let (chat, link) = (Chat::default(), Link::Playing);
        let scene = Scene::new(&s, &chat, &link, Page::Map);
        let g = side_glyphs(&scene, 22, 20);
        assert_eq!(rows(&g), ["In sight", "r rat", "almost dead, asleep", "j jackal asleep"]);
        let indented = g.iter().filter(|g| g.row == 2).map(|g| g.col).min();
        assert_eq!(indented, Some(3), "under the name, not the letter");
        assert_eq!(rows(&side_glyphs(&scene, 22, 3)), ["In sight", "+2 more"]);
        assert_eq!(rows(&side_glyphs(&scene, 22, 4)).len(), 4, "just room for both");
        s.apply(&ServerMsg::Monsters(vec![slept(1, false)])).unwrap();
        let scene = Scene::new(&s, &chat, &link, Page::Map);
        assert_eq!(rows(&side_glyphs(&scene, 22, 20))[3], "j jackal unhurt", "woke");
    }

    #[test]
    fn a_name_too_long_for_a_row_is_broken_between_words() {
        let mut s = among();
        let chief =
            KindInfo { name: "Grishnakh the Kobold Chief".into(), glyph: 'k', colour: [9; 3] };
        let rat = KindInfo { name: "rat".into(), glyph: 'r', colour: [200, 60, 60] };
        s.apply(&ServerMsg::Kinds(vec![rat, chief])).unwrap();
        let (chat, link) = (Chat::default(), Link::Playing);
        let scene = Scene::new(&s, &chat, &link, Page::Map);
        let rows = rows(&side_glyphs(&scene, 19, 20));
        let wanted = ["In sight", "r rat almost dead", "k Grishnakh the", "Kobold Chief", "unhurt"];
        assert_eq!(rows, wanted, "the whole name, not 'Grishnakh the Kobol'");
    }

    #[test]
    fn with_no_monster_in_sight_the_list_says_so() {
        let s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let (chat, link) = (Chat::default(), Link::Playing);
        let g = side_glyphs(&Scene::new(&s, &chat, &link, Page::Map), 22, 20);
        assert_eq!(rows(&g), ["In sight", "no monsters"]);
    }
}
