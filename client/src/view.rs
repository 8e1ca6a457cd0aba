//! What the map shows, as a list of glyphs: the decisions of drawing (which
//! cells, which characters, which colours) without the drawing itself, so
//! they are tested without a window.

use gloam_protocol::{Dir, Pos, Terrain};

pub use crate::glyph::Glyph;
use crate::hud::{
    HUD_ROWS, HudLine, MESSAGE_ROWS, PANEL_GAP, Tone, hud_at, message_cols, panel_place,
    party_panel,
};
use crate::layout::{Camera, Layout};
use crate::pages;
use crate::palette::{self, Palette, PlayerColours, Rgb, rgb};
use crate::scene::{Page, Scene};
use crate::state::ClientState;

/// A wall with no known open ground beside it is solid rock: not drawn.
fn is_rock(terrain: impl Fn(Pos) -> Option<Terrain>, pos: Pos) -> bool {
    !Dir::ALL.iter().any(|&d| pos.step(d).and_then(&terrain).is_some_and(Terrain::is_open))
}

/// The map's glyphs: known terrain (bright in sight, dim remembered; never
/// the unexplored nor solid rock), then the top item of every pile seen (in
/// its kind's colour in sight, dimmed out of it), then the monsters in sight
/// in their kinds' glyphs and colours, then the other players in sight,
/// then the player's own `@` on top, each player in its own colour; all in
/// `palette`'s colours (the server's adjusted to stand out, see
/// [`Palette::creature`]).
pub fn map_glyphs(state: &ClientState, palette: &Palette) -> Vec<Glyph> {
    let colours = palette.player_colours(&state.kinds);
    let mut glyphs = Vec::with_capacity(2048);
    for (pos, t) in state.known_cells() {
        if t == Terrain::Wall && is_rock(|p| state.terrain(p), pos) {
            continue;
        }
        let color = palette.terrain(t, state.is_visible(pos));
        glyphs.push(Glyph { col: pos.x, row: pos.y, ch: t.glyph(), color });
    }
    for (pos, top) in &state.floor {
        let (ch, colour) = match state.item_kind(top.kind) {
            Some(kind) => (kind.glyph, rgb(kind.colour)),
            None => ('?', palette.alert),
        };
        let color = if state.is_visible(*pos) {
            palette.creature(colour)
        } else {
            palette.remembered(colour)
        };
        glyphs.push(Glyph { col: pos.x, row: pos.y, ch, color });
    }
    for m in state.monsters.values() {
        let (ch, color) = match state.kind_of(m) {
            Some(kind) => (kind.glyph, palette.creature(rgb(kind.colour))),
            None => ('?', palette.alert),
        };
        glyphs.push(Glyph { col: m.at.x, row: m.at.y, ch, color });
    }
    for (id, other) in &state.others {
        let color = colours.of(*id);
        glyphs.push(Glyph { col: other.at.x, row: other.at.y, ch: '@', color });
    }
    if let (Some(at), Some(me)) = (state.at, state.me) {
        glyphs.push(Glyph { col: at.x, row: at.y, ch: '@', color: colours.of(me) });
    }
    topmost(glyphs)
}

/// One glyph a cell, as a terminal shows one letter a cell: of those
/// given for a cell, the last (a player over a monster over an item over
/// the terrain). Drawn all, the ones beneath showed through the gaps of
/// the one on top (a stair inside an `@`).
fn topmost(mut glyphs: Vec<Glyph>) -> Vec<Glyph> {
    glyphs.reverse();
    // Stable: of a cell's glyphs, the last given now comes first.
    glyphs.sort_by_key(|g| (g.row, g.col));
    glyphs.dedup_by_key(|g| (g.row, g.col));
    glyphs
}

/// The colours a line of the HUD is drawn in.
struct Tones<'a> {
    palette: &'a Palette,
    players: PlayerColours,
}

impl Tones<'_> {
    fn of(scene: &Scene<'_>) -> Self {
        Tones { palette: scene.palette, players: scene.palette.player_colours(&scene.state.kinds) }
    }

    fn color(&self, tone: Tone) -> Rgb {
        match tone {
            Tone::Bright => palette::TEXT,
            Tone::Middle => palette::TEXT_MIDDLE,
            Tone::Dim => palette::TEXT_DIM,
            Tone::Alert => self.palette.alert,
            Tone::Good => self.palette.good,
            Tone::Warn => self.palette.warn,
            Tone::Combat => self.palette.combat,
            Tone::Others => self.palette.others,
            Tone::Player(id) => self.players.of(id),
        }
    }
}

/// The HUD's glyphs, in the rows from `first_row` down, `width` letters
/// wide: its rows, and the party panel at the right of the message rows
/// behind a divider (the messages cut short before it).
pub fn hud_glyphs(scene: &Scene<'_>, first_row: u16, width: u16) -> Vec<Glyph> {
    let colours = Tones::of(scene);
    let panel = party_panel(scene.state);
    let first_message = usize::from(HUD_ROWS) - MESSAGE_ROWS;
    let (left, column) = panel_place(&panel, width);
    let mut glyphs = Vec::new();
    let messages = message_cols(scene.state, usize::from(width));
    for (i, line) in hud_at(scene, usize::from(width), messages).iter().enumerate() {
        let room = if i >= first_message && !panel.is_empty() { left - PANEL_GAP } else { width };
        glyphs.extend(line_glyphs(line, (first_row + i as u16, 0), room, &colours));
    }
    if panel.is_empty() {
        return glyphs;
    }
    let message_row = |i: usize| first_row + (first_message + i % MESSAGE_ROWS) as u16;
    for i in 0..MESSAGE_ROWS {
        let divider =
            Glyph { col: left - 2, row: message_row(i), ch: '|', color: palette::TEXT_DIM };
        glyphs.push(divider);
    }
    for (i, entry) in panel.iter().enumerate() {
        let col = left + (i / MESSAGE_ROWS) as u16 * column;
        glyphs.extend(line_glyphs(entry, (message_row(i), col), column, &colours));
    }
    glyphs
}

/// One line of the HUD as glyphs from `(row, col)`, at most `room`
/// letters, its accents in their tones.
fn line_glyphs(
    line: &HudLine,
    (row, col): (u16, u16),
    room: u16,
    colours: &Tones<'_>,
) -> Vec<Glyph> {
    let tone_at = |i: usize| {
        let accent =
            line.accents.iter().rev().find(|(from, len, _)| (*from..from + len).contains(&i));
        accent.map_or(line.tone, |&(_, _, tone)| tone)
    };
    line.text
        .chars()
        .take(usize::from(room))
        .enumerate()
        .filter(|&(_, ch)| ch != ' ')
        .map(|(i, ch)| Glyph { col: col + i as u16, row, ch, color: colours.color(tone_at(i)) })
        .collect()
}

/// What the map area shows on the scene's page: the map, or nothing when a
/// page of text takes its place (see [`page_text_glyphs`]).
pub fn page_glyphs(scene: &Scene<'_>) -> Vec<Glyph> {
    match scene.page {
        Page::Map => map_glyphs(scene.state, scene.palette),
        Page::Graveyard
        | Page::End
        | Page::Pack
        | Page::Choose(_)
        | Page::Log
        | Page::Help
        | Page::Discoveries
        | Page::Backgrounds => Vec::new(),
    }
}

/// The cell the map's view keeps in sight: the cursor's, else the
/// player's.
pub fn focus(scene: &Scene<'_>) -> Option<Pos> {
    match cursor_cell(scene) {
        Some((x, y)) => Some(Pos::new(x, y)),
        None => scene.state.at,
    }
}

/// The cell the cursor is on, when a throw is aimed or a look goes on,
/// on the map.
pub fn cursor_cell(scene: &Scene<'_>) -> Option<(u16, u16)> {
    let cursor = scene.aim.map(|aim| aim.cursor).or(scene.look);
    cursor.filter(|_| scene.page == Page::Map).map(|at| (at.x, at.y))
}

/// The camera the map's viewport in `layout` is drawn through.
pub fn camera(scene: &Scene<'_>, layout: &Layout) -> Camera {
    let view = (layout.map_cols, layout.map_rows);
    Camera::on(focus(scene), (scene.state.width, scene.state.height), view)
}

/// The map's cell drawn under the pixel `(x, y)` of a window laid out as
/// `layout`: none outside the map's viewport, off the map, or when a page
/// hides the map.
pub fn cell_under(scene: &Scene<'_>, layout: &Layout, (x, y): (f32, f32)) -> Option<Pos> {
    if scene.page != Page::Map || x < 0.0 || y < 0.0 {
        return None;
    }
    let cell = layout.cell_px.max(1);
    let (col, row) = (x as u32 / cell, y as u32 / cell);
    if col >= u32::from(layout.map_cols) || row >= u32::from(layout.map_rows) {
        return None;
    }
    let map = (scene.state.width, scene.state.height);
    camera(scene, layout).to_map((col as u16, row as u16), map)
}

/// The running text above the HUD on the scene's page (the graveyard, the
/// pack, the end of the game, the log), in `rows` rows of `width` letters
/// from the top.
pub fn page_text_glyphs(scene: &Scene<'_>, width: u16, rows: u16) -> Vec<Glyph> {
    text_glyphs(&pages::page_lines(scene, pages::page_size((width, rows))), 1, width)
}

/// The text of the scene as a window laid out as `layout` shows it, row
/// by row: the map's viewport (a cell a letter) with the list beside it
/// past the map, or the page of text in their place, padded to the map's
/// rows; then the HUD's rows. What F12 writes beside its screenshot, and
/// what the behaviour vectors compare with the page's own
/// (`web/src/render/view.ts`, `screenText`).
pub fn screen_text(scene: &Scene<'_>, layout: &Layout) -> String {
    let mut above = Vec::new();
    if scene.page == Page::Map {
        let view = (layout.map_cols, layout.map_rows);
        let camera = camera(scene, layout);
        for g in map_glyphs(scene.state, scene.palette) {
            if let Some((col, row)) = camera.to_view((g.col, g.row), view) {
                above.push(Glyph { col, row, ..g });
            }
        }
        let side = crate::in_sight::side_glyphs(scene, layout.side_cols, layout.map_rows);
        // A map cell is a letter of the text; the list starts past the map.
        above.extend(side.into_iter().map(|g| Glyph { col: layout.map_cols + 1 + g.col, ..g }));
    } else {
        let page = page_text_glyphs(scene, layout.page_cols, layout.map_rows);
        above.extend(page.into_iter().filter(|g| g.row < layout.map_rows));
    }
    let mut rows = glyph_rows(&above);
    rows.resize(rows.len().max(usize::from(layout.map_rows)), String::new());
    rows.extend(glyph_rows(&hud_glyphs(scene, 0, layout.hud_cols)));
    let mut text = rows.join("\n");
    text.push('\n');
    text
}

/// Glyphs as rows of text, the first row first, each cut after its last
/// letter.
fn glyph_rows(glyphs: &[Glyph]) -> Vec<String> {
    let rows = glyphs.iter().map(|g| usize::from(g.row) + 1).max().unwrap_or(0);
    let mut lines = vec![Vec::<char>::new(); rows];
    for g in glyphs {
        let line = &mut lines[usize::from(g.row)];
        let col = usize::from(g.col);
        if line.len() <= col {
            line.resize(col + 1, ' ');
        }
        line[col] = g.ch;
    }
    lines.into_iter().map(|l| l.into_iter().collect()).collect()
}

/// Lines of text as glyphs, one row each from `first_row`, cut at `width`.
pub fn text_glyphs(lines: &[(String, Rgb)], first_row: u16, width: u16) -> Vec<Glyph> {
    let mut glyphs = Vec::new();
    for (i, (text, color)) in lines.iter().enumerate() {
        for (col, ch) in text.chars().take(usize::from(width)).enumerate() {
            if ch != ' ' {
                glyphs.push(Glyph {
                    col: col as u16,
                    row: first_row + i as u16,
                    ch,
                    color: *color,
                });
            }
        }
    }
    glyphs
}

/// A whole level as the map shows what is in sight (for `gloam mapgen`):
/// every cell bright, solid rock left out, in the default palette.
pub fn level_glyphs(
    terrain: impl Fn(Pos) -> Option<Terrain>,
    width: u16,
    height: u16,
) -> Vec<Glyph> {
    let mut glyphs = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let pos = Pos::new(x, y);
            let Some(t) = terrain(pos) else { continue };
            if !(t == Terrain::Wall && is_rock(&terrain, pos)) {
                let color = palette::DEFAULT.terrain(t, true);
                glyphs.push(Glyph { col: x, row: y, ch: t.glyph(), color });
            }
        }
    }
    glyphs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Link;
    use gloam_protocol::PlayerId;
    use gloam_protocol::{Disc, PlayerChange, ServerMsg, SightDiff};

    /// A 7x5 room, the player in its middle seeing all of it, plus one
    /// remembered floor cell outside sight and one buried wall.
    fn state() -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let disc = Disc::new(8);
        let at = Pos::new(3, 2);
        let mut revealed = Vec::new();
        for y in 0..5u16 {
            for x in 0..7u16 {
                let border = x == 0 || y == 0 || x == 6 || y == 4;
                let t = if border {
                    Terrain::Wall
                } else if (x, y) == (5, 3) {
                    Terrain::StairsDown
                } else {
                    Terrain::Floor
                };
                let i = disc.index(i32::from(x) - 3, i32::from(y) - 2).unwrap();
                revealed.push((i, t));
            }
        }
        s.apply(&ServerMsg::Sight(SightDiff { at, revealed, ..SightDiff::default() })).unwrap();
        s.apply(&ServerMsg::Players(vec![PlayerChange::Appeared {
            id: PlayerId(4),
            name: "bob".into(),
            at: Pos::new(1, 1),
        }]))
        .unwrap();
        s
    }

    fn glyph_at(glyphs: &[Glyph], col: u16, row: u16) -> Vec<Glyph> {
        glyphs.iter().copied().filter(|g| (g.col, g.row) == (col, row)).collect()
    }

    #[test]
    fn visible_terrain_is_bright_and_each_player_in_its_colour_on_top() {
        let g = map_glyphs(&state(), &palette::DEFAULT);
        assert_eq!(
            glyph_at(&g, 0, 0)[0],
            Glyph { col: 0, row: 0, ch: '#', color: palette::DEFAULT.wall }
        );
        assert_eq!(glyph_at(&g, 5, 3)[0].ch, '>');
        assert_eq!(glyph_at(&g, 5, 3)[0].color, palette::DEFAULT.stairs);
        let colours = PlayerColours::new(&[]);
        let me = glyph_at(&g, 3, 2);
        assert_eq!(me.last().unwrap().ch, '@');
        assert_eq!(me.last().unwrap().color, colours.of(PlayerId(1)));
        let bob = glyph_at(&g, 1, 1);
        assert_eq!(bob.last().unwrap().color, colours.of(PlayerId(4)));
        assert_ne!(colours.of(PlayerId(4)), colours.of(PlayerId(1)));
    }

    #[test]
    fn no_player_is_drawn_in_a_colour_too_close_to_a_monsters() {
        use gloam_protocol::KindInfo;
        let mut s = state();
        let bob_before = PlayerColours::new(&[]).of(PlayerId(4));
        let (r, g, b) = bob_before;
        let alike = KindInfo { name: "doppelganger".into(), glyph: 'd', colour: [r, g, b] };
        s.apply(&ServerMsg::Kinds(vec![alike])).unwrap();
        let glyphs = map_glyphs(&s, &palette::DEFAULT);
        for at in [(1, 1), (3, 2)] {
            let player = glyph_at(&glyphs, at.0, at.1).last().unwrap().color;
            assert!(!palette::too_close(player, bob_before), "{at:?}");
        }
    }

    /// Three lines the width of the row, and a party of three.
    fn partying() -> ClientState {
        use gloam_protocol::Member;
        let mut s = state();
        // As wide as the messages are left of the panel (16 letters and 3
        // between its columns, and a gap of 4): no line wraps.
        for i in 0..3 {
            s.apply(&ServerMsg::Note(format!("{i}").repeat(160 - 16 - 3 - 4))).unwrap();
        }
        let member = |id, name: &str| Member {
            id: PlayerId(id),
            name: name.into(),
            hp: 9,
            max: 30,
            level: 2,
        };
        let party = vec![member(1, "ann"), member(4, "bob"), member(7, "cat")];
        s.apply(&ServerMsg::Party(party)).unwrap();
        s
    }

    #[test]
    fn the_party_panel_stands_right_of_the_messages_each_name_in_its_colour() {
        let state = partying();
        let chat = crate::chat::Chat::default();
        let g = hud_glyphs(&Scene::new(&state, &chat, &Link::Playing, Page::Map), 40, 160);
        let row = |r: u16| -> String {
            let mut line = vec![' '; 160];
            g.iter().filter(|g| g.row == r).for_each(|g| line[usize::from(g.col)] = g.ch);
            line.into_iter().collect::<String>().trim_end().to_string()
        };
        let left = 160 - "ann    9/30 Lv 2".len() - 3;
        assert_eq!(row(42), format!("{}  | ann    9/30 Lv 2", "0".repeat(left - 4)));
        assert_eq!(row(43), format!("{}  | bob    9/30 Lv 2", "1".repeat(left - 4)));
        assert_eq!(row(44), format!("{}  | cat    9/30 Lv 2", "2".repeat(left - 4)));
        assert_eq!(row(41), crate::input::KEYS_HELP, "the keys line is not cut");
        let colours = PlayerColours::new(&state.kinds);
        let bob: Vec<&Glyph> = g.iter().filter(|g| g.row == 43 && g.col >= left as u16).collect();
        assert_eq!((bob[0].ch, bob[0].color), ('b', colours.of(PlayerId(4))));
        assert_eq!(bob[3].color, palette::DEFAULT.warn, "9 of 30 is hurt");
    }

    #[test]
    fn the_party_panel_is_not_drawn_for_a_party_of_one() {
        let mut state = partying();
        state.apply(&ServerMsg::Party(vec![state.party[0].clone()])).unwrap();
        let chat = crate::chat::Chat::default();
        let g = hud_glyphs(&Scene::new(&state, &chat, &Link::Playing, Page::Map), 40, 160);
        let row = g.iter().filter(|g| g.row == 42).count();
        assert_eq!(row, 160 - 16 - 3 - 4, "the messages take the row past where the panel stood");
    }

    #[test]
    fn piles_are_drawn_in_their_kinds_colour_in_sight_and_dimmed_out_of_it() {
        use gloam_protocol::{FloorChange, ItemClass, ItemInfo, Lying};
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let dart = ItemInfo {
            name: "dart".into(),
            glyph: '{',
            colour: [200, 100, 50],
            class: ItemClass::Missile,
            known: true,
        };
        s.apply(&ServerMsg::ItemKinds(vec![dart])).unwrap();
        let top = Some(Lying { kind: 0, count: 3, more: false });
        s.apply(&ServerMsg::Floor(vec![FloorChange { at: Pos::new(4, 4), top }])).unwrap();
        let pile = map_glyphs(&s, &palette::DEFAULT)
            .into_iter()
            .find(|g| (g.col, g.row) == (4, 4))
            .unwrap();
        assert_eq!(
            (pile.ch, pile.color),
            ('{', palette::DEFAULT.remembered((200, 100, 50))),
            "out of sight"
        );
    }

    #[test]
    fn monsters_are_drawn_in_their_kinds_glyph_and_colour_under_players() {
        use gloam_protocol::{KindInfo, MonsterChange, MonsterId, Wound};
        let mut s = state();
        let orc = KindInfo { name: "orc".into(), glyph: 'o', colour: [210, 180, 60] };
        s.apply(&ServerMsg::Kinds(vec![orc])).unwrap();
        let at = Pos::new(4, 3);
        let appeared = MonsterChange::Appeared {
            id: MonsterId(3),
            kind: 0,
            at,
            wound: Wound::Unhurt,
            asleep: false,
        };
        s.apply(&ServerMsg::Monsters(vec![appeared])).unwrap();
        let g = map_glyphs(&s, &palette::DEFAULT);
        let top = glyph_at(&g, 4, 3);
        assert_eq!(top.len(), 1, "the floor beneath is not drawn through it");
        assert_eq!((top[0].ch, top[0].color), ('o', palette::DEFAULT.creature((210, 180, 60))));
        s.apply(&ServerMsg::Monsters(vec![MonsterChange::Vanished { id: MonsterId(3) }])).unwrap();
        assert_eq!(glyph_at(&map_glyphs(&s, &palette::DEFAULT), 4, 3).last().unwrap().ch, '.');
    }

    #[test]
    fn a_page_of_text_takes_the_maps_place_above_the_hud() {
        let mut s = state();
        let record = gloam_protocol::DeathRecord {
            name: "ann".into(),
            depth: 5,
            rounds: 321,
            kills: 12,
            killed_by: "an ogre".into(),
            when: 0,
            level: 1,
            escaped: false,
            morgue: 0,
        };
        s.apply(&ServerMsg::Died(record)).unwrap();
        let chat = crate::chat::Chat::default();
        let scene = Scene::new(&s, &chat, &Link::Playing, Page::End);
        assert!(page_glyphs(&scene).is_empty(), "no map under the page");
        let g = page_text_glyphs(&scene, 120, 40);
        let first: String = g.iter().filter(|g| g.row == 1).map(|g| g.ch).collect();
        assert_eq!(first, "Youdiedondepth5,killedbyanogre.");
        assert!(g.iter().all(|g| g.row < 40), "above the HUD");
    }

    /// A click lands on the cell drawn under it: a map smaller than the
    /// viewport is centred, a larger one scrolled; the side panel, the
    /// HUD and a page are no cell.
    #[test]
    fn a_pixel_is_the_map_cell_drawn_under_it() {
        let state = state();
        let (chat, link) = (crate::chat::Chat::default(), Link::Playing);
        let scene = Scene::new(&state, &chat, &link, Page::Map);
        for layout in [Layout::at(800, 600, 16, 8), Layout::at(250, 400, 10, 5)] {
            let camera = camera(&scene, &layout);
            for (x, y) in [(0, 0), (3, 2), (19, 9), (12, 7)] {
                let Some((col, row)) = camera.to_view((x, y), (layout.map_cols, layout.map_rows))
                else {
                    continue;
                };
                let (px, py) = layout.cell_at(col, row);
                let inside = (px as f32 + 0.5, (py + layout.cell_px - 1) as f32 + 0.9);
                assert_eq!(cell_under(&scene, &layout, inside), Some(Pos::new(x, y)), "{layout:?}");
            }
            let side = (layout.side_x as f32 + 1.0, 1.0);
            assert_eq!(cell_under(&scene, &layout, side), None, "the side panel");
            let hud = (1.0, layout.hud_y as f32 + 1.0);
            assert_eq!(cell_under(&scene, &layout, hud), None, "the HUD");
        }
        let centred = Layout::at(800, 600, 16, 8);
        assert_eq!(cell_under(&scene, &centred, (1.0, 1.0)), None, "left of a centred map");
        let scrolled = Layout::at(250, 400, 10, 5);
        assert!(scrolled.map_cols < 20, "{scrolled:?}");
        let pack = Scene::new(&state, &chat, &link, Page::Pack);
        let (px, py) = centred.cell_at(12, 12);
        assert_eq!(cell_under(&pack, &centred, (px as f32, py as f32)), None, "a page");
    }

    #[test]
    fn the_screens_text_is_the_map_with_the_list_beside_it_then_the_huds_rows() {
        let mut state = state();
        state.apply(&ServerMsg::Note("You see stairs.".into())).unwrap();
        let (chat, link) = (crate::chat::Chat::default(), Link::Playing);
        let mut scene = Scene::new(&state, &chat, &link, Page::Map);
        scene.look = Some(Pos::new(5, 3));
        let layout = Layout::at(1280, 720, 16, 8);
        let text = screen_text(&scene, &layout);
        let lines: Vec<&str> = text.lines().collect();
        // The 20 x 10 map is centred in the viewport, the list past it.
        let (left, top) = ((layout.map_cols - 20) / 2, (layout.map_rows - 10) / 2);
        let list = usize::from(layout.map_cols) + 1;
        assert_eq!(&lines[0][list..], " In sight", "{text}");
        assert_eq!(&lines[1][list..], " no monsters", "{text}");
        let room = usize::from(top + 2);
        assert_eq!(lines[room].trim_start(), "#..@..#", "{text}");
        assert_eq!(lines[room].len() - 7, usize::from(left), "{text}");
        let hud = usize::from(layout.map_rows);
        assert!(lines[hud + 1].starts_with("Look: stairs down   direction keys"), "{text}");
        assert!(lines.contains(&"You see stairs."), "{text}");
        let pack = screen_text(&Scene::new(&state, &chat, &link, Page::Pack), &layout);
        assert!(!pack.contains('@') && pack.contains("You see stairs."), "no map: {pack}");
    }

    /// The aiming or look cursor is drawn on the map, never over a page.
    #[test]
    fn the_cursor_is_on_the_map_only() {
        let state = state();
        let (chat, link) = (crate::chat::Chat::default(), Link::Playing);
        let mut scene = Scene::new(&state, &chat, &link, Page::Map);
        scene.look = Some(Pos::new(3, 3));
        assert_eq!(cursor_cell(&scene), Some((3, 3)));
        scene.page = Page::Pack;
        assert_eq!(cursor_cell(&scene), None);
    }

    #[test]
    fn unexplored_cells_are_not_drawn() {
        let g = map_glyphs(&state(), &palette::DEFAULT);
        assert!(glyph_at(&g, 10, 5).is_empty());
        assert_eq!(g.len(), 35, "the room's cells, two of them a player's: one glyph a cell");
    }

    #[test]
    fn remembered_terrain_is_dim_and_solid_rock_is_skipped() {
        let mut s = state();
        // Step east: the west wall column leaves sight.
        let disc = Disc::new(8);
        let hidden: Vec<u8> = (0..5).map(|y| disc.index(-3, y - 2).unwrap()).collect();
        s.apply(&ServerMsg::Sight(SightDiff {
            at: Pos::new(4, 2),
            hidden,
            ..SightDiff::default()
        }))
        .unwrap();
        let g = map_glyphs(&s, &palette::DEFAULT);
        assert_eq!(glyph_at(&g, 0, 2)[0].color, palette::DEFAULT.wall_remembered);
        // A wall known with no open neighbour known: rock.
        let mut rock = state();
        let far = SightDiff {
            at: Pos::new(3, 2),
            revealed: vec![(disc.index(8, 0).unwrap(), Terrain::Wall)],
            ..SightDiff::default()
        };
        rock.apply(&ServerMsg::Sight(far)).unwrap();
        assert!(glyph_at(&map_glyphs(&rock, &palette::DEFAULT), 11, 2).is_empty());
    }

    #[test]
    fn the_hud_sits_under_the_map() {
        let (state, chat) = (state(), crate::chat::Chat::default());
        let g = hud_glyphs(&Scene::new(&state, &chat, &Link::Playing, Page::Map), 40, 80);
        assert!(g.iter().all(|g| (40..40 + HUD_ROWS).contains(&g.row)));
        let first: String = g.iter().filter(|g| g.row == 40).map(|g| g.ch).collect();
        assert_eq!(first, "Depth1youarealonehere");
    }
}
