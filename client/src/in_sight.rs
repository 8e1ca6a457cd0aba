//! The list of the monsters in sight beside the map: each one's letter in
//! its colour, its name and how hurt it looks, nearest first. What is told
//! of a monster is one [`Seen`], so the look cursor can share it and a
//! field the server adds later (whether it seems asleep) is one more here.

use gloam_protocol::Wound;

use crate::palette::{self, Palette, Rgb};
use crate::scene::Scene;
use crate::view::Glyph;

/// A monster in sight as the list (and a look) tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub glyph: char,
    pub colour: Rgb,
    pub name: String,
    pub wound: Wound,
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
    near.into_iter()
        .map(|(_, m)| match state.kind_of(m) {
            Some(kind) => Seen {
                glyph: kind.glyph,
                colour: palette.creature(palette::rgb(kind.colour)),
                name: kind.name.clone(),
                wound: m.wound,
            },
            None => Seen { glyph: '?', colour: palette.alert, name: "?".into(), wound: m.wound },
        })
        .collect()
}

/// The side panel's glyphs, `cols` letters wide and `rows` high: a title,
/// then a monster a row (`r  rat   wounded`); those that do not fit are
/// counted on the last row.
pub fn side_glyphs(scene: &Scene<'_>, cols: u16, rows: u16) -> Vec<Glyph> {
    let seen = seen(scene, scene.palette);
    let mut lines: Vec<(String, Rgb, Option<Rgb>)> =
        vec![("In sight".into(), palette::TEXT_MIDDLE, None)];
    if seen.is_empty() {
        lines.push(("no monsters".into(), palette::TEXT_DIM, None));
    }
    let room = usize::from(rows).saturating_sub(1);
    let shown = if seen.len() > room { room.saturating_sub(1) } else { seen.len() };
    for s in &seen[..shown] {
        let text = format!("{} {} {}", s.glyph, s.name, wound_words(s.wound));
        lines.push((text, palette::TEXT, Some(s.colour)));
    }
    if shown < seen.len() {
        lines.push((format!("+{} more", seen.len() - shown), palette::TEXT_DIM, None));
    }
    let mut glyphs = Vec::new();
    for (row, (text, colour, letter)) in lines.iter().enumerate() {
        for (col, ch) in text.chars().take(usize::from(cols.saturating_sub(1))).enumerate() {
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

    #[test]
    fn with_no_monster_in_sight_the_list_says_so() {
        let s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let (chat, link) = (Chat::default(), Link::Playing);
        let g = side_glyphs(&Scene::new(&s, &chat, &link, Page::Map), 22, 20);
        assert_eq!(rows(&g), ["In sight", "no monsters"]);
    }
}
