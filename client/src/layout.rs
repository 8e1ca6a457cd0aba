//! Where everything goes in a window of a given size: the HUD's rows
//! along the bottom, the side panel (the monsters in sight) along the
//! right, and the map's viewport in the rest, all at one cell size. The
//! cell size is the player's zoom, made smaller when the window is too
//! small for it, so the HUD always has [`MIN_TEXT_COLS`] letters a row and
//! the map [`MIN_MAP_ROWS`] rows: the window cannot be made so small that
//! the HUD is cut off ([`MIN_WINDOW`] is the least the window allows).
//! A map larger than its viewport scrolls to keep the player (or the
//! cursor) in view ([`Camera`]).

use gloam_protocol::Pos;

/// The rows of the HUD: the status row, the keys (or a prompt), the
/// game's lines and the lines of chat.
pub const HUD_ROWS: u16 = 2 + GAME_ROWS + CHAT_ROWS;
/// How many of the game's lines the HUD shows.
pub const GAME_ROWS: u16 = 5;
/// How many lines of chat it shows, under them.
pub const CHAT_ROWS: u16 = 2;
/// The fewest letters a row of running text has.
pub const MIN_TEXT_COLS: u16 = 96;
/// The fewest rows of map shown.
pub const MIN_MAP_ROWS: u16 = 12;
/// The side panel's width, in letters.
pub const SIDE_COLS: u16 = 22;
/// The smallest cell, in pixels.
pub const MIN_CELL_PX: u32 = 8;
/// The smallest window, in pixels.
pub const MIN_WINDOW: (u32, u32) = (640, 400);
/// A page's place above the HUD in the window's first size (a map of 80 x
/// 40 shown whole), in letters a row and rows: the session's until the
/// window tells it the real one.
pub const DEFAULT_PAGE: (u16, u16) = (160, 40);

/// Where everything goes, in pixels from the window's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub width: u32,
    pub height: u32,
    /// A map cell is this square.
    pub cell_px: u32,
    /// A letter of running text is this wide (and a cell high).
    pub text_px: u32,
    /// The map's viewport, in cells, from the top-left corner.
    pub map_cols: u16,
    pub map_rows: u16,
    /// The side panel: its left edge, and its letters a row (its rows are
    /// the map's).
    pub side_x: u32,
    pub side_cols: u16,
    /// The HUD's top edge, and its letters a row.
    pub hud_y: u32,
    pub hud_cols: u16,
    /// A page of text (in the map's place, the side panel's too): letters
    /// a row, and rows.
    pub page_cols: u16,
}

impl Layout {
    /// The layout of a `width` x `height` window at `cell_px`, letters
    /// `text_px` wide.
    pub fn at(width: u32, height: u32, cell_px: u32, text_px: u32) -> Self {
        let (cell_px, text_px) = (cell_px.max(1), text_px.clamp(1, cell_px.max(1)));
        let rows = (height / cell_px) as u16;
        let side_cols = SIDE_COLS;
        let side_x = width.saturating_sub(u32::from(side_cols) * text_px);
        Self {
            width,
            height,
            cell_px,
            text_px,
            map_cols: (side_x / cell_px) as u16,
            map_rows: rows.saturating_sub(HUD_ROWS),
            side_x,
            side_cols,
            hud_y: height.saturating_sub(u32::from(HUD_ROWS) * cell_px),
            hud_cols: (width / text_px).min(u32::from(u16::MAX)) as u16,
            page_cols: (width / text_px).min(u32::from(u16::MAX)) as u16,
        }
    }

    /// The layout of a `width` x `height` window at the zoom `wanted` (a
    /// cell size), or the largest smaller cell at which the HUD and the
    /// map fit; `text_px` gives a cell size's letter width (the font's).
    pub fn fit(width: u32, height: u32, wanted: u32, text_px: impl Fn(u32) -> u32) -> Self {
        let fits = |l: &Layout| l.hud_cols >= MIN_TEXT_COLS && l.map_rows >= MIN_MAP_ROWS;
        (MIN_CELL_PX..=wanted.max(MIN_CELL_PX))
            .rev()
            .map(|cell| Layout::at(width, height, cell, text_px(cell)))
            .find(fits)
            .unwrap_or_else(|| Layout::at(width, height, MIN_CELL_PX, text_px(MIN_CELL_PX)))
    }

    /// The window that shows a `map_w` x `map_h` map whole at `cell_px`.
    pub fn window_for(map_w: u16, map_h: u16, cell_px: u32, text_px: u32) -> (u32, u32) {
        let width = u32::from(map_w) * cell_px + u32::from(SIDE_COLS) * text_px;
        let height = (u32::from(map_h) + u32::from(HUD_ROWS)) * cell_px;
        (width.max(MIN_WINDOW.0), height.max(MIN_WINDOW.1))
    }

    /// The top-left pixel of a cell of the viewport.
    pub fn cell_at(&self, col: u16, row: u16) -> (u32, u32) {
        (u32::from(col) * self.cell_px, u32::from(row) * self.cell_px)
    }
}

/// Which part of the map the viewport shows: the map's cell at the
/// viewport's top-left corner (a map narrower than the viewport is
/// centred in it: its offset is then negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Camera {
    pub x: i32,
    pub y: i32,
}

impl Camera {
    /// The view of a `map` of that many cells in a viewport of `view`
    /// cells that keeps `focus` in sight: centred on it when the map is
    /// larger than the viewport (never past the map's edge), the whole
    /// map centred when it is smaller.
    pub fn on(focus: Option<Pos>, map: (u16, u16), view: (u16, u16)) -> Self {
        let axis = |focus: Option<u16>, map: u16, view: u16| -> i32 {
            let (map, view) = (i32::from(map), i32::from(view));
            if map <= view {
                -((view - map) / 2)
            } else {
                let f = focus.map_or(map / 2, i32::from);
                (f - view / 2).clamp(0, map - view)
            }
        };
        Self {
            x: axis(focus.map(|p| p.x), map.0, view.0),
            y: axis(focus.map(|p| p.y), map.1, view.1),
        }
    }

    /// The cell of a `map` of that many cells shown at a cell of the
    /// viewport, if the map reaches there.
    pub fn to_map(&self, (col, row): (u16, u16), map: (u16, u16)) -> Option<Pos> {
        let (x, y) = (i32::from(col) + self.x, i32::from(row) + self.y);
        let inside = (0..i32::from(map.0)).contains(&x) && (0..i32::from(map.1)).contains(&y);
        inside.then(|| Pos::new(x as u16, y as u16))
    }

    /// Where a cell of the map is in the viewport, if it is in it.
    pub fn to_view(&self, (x, y): (u16, u16), view: (u16, u16)) -> Option<(u16, u16)> {
        let (col, row) = (i32::from(x) - self.x, i32::from(y) - self.y);
        let inside = (0..i32::from(view.0)).contains(&col) && (0..i32::from(view.1)).contains(&row);
        inside.then_some((col as u16, row as u16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// About DejaVu Sans Mono's advance at the atlas's sizes.
    fn letters(cell: u32) -> u32 {
        (cell / 2).max(1)
    }

    #[test]
    fn at_every_window_size_allowed_and_every_zoom_the_hud_and_map_fit() {
        for width in (MIN_WINDOW.0..=2560).step_by(37) {
            for height in (MIN_WINDOW.1..=1440).step_by(29) {
                for zoom in [8, 12, 16, 24, 32, 48] {
                    let l = Layout::fit(width, height, zoom, letters);
                    let at = format!("{width}x{height} zoom {zoom}: {l:?}");
                    assert!(l.hud_cols >= MIN_TEXT_COLS, "{at}");
                    assert!(l.map_rows >= MIN_MAP_ROWS, "{at}");
                    assert!(l.cell_px <= zoom.max(MIN_CELL_PX), "{at}");
                    assert!(u32::from(l.hud_cols) * l.text_px <= width, "{at}");
                    let map_bottom = u32::from(l.map_rows) * l.cell_px;
                    assert!(
                        map_bottom <= l.hud_y
                            && l.hud_y + u32::from(HUD_ROWS) * l.cell_px <= height,
                        "{at}"
                    );
                    let map_right = u32::from(l.map_cols) * l.cell_px;
                    assert!(map_right <= l.side_x, "{at}");
                    assert!(l.side_x + u32::from(l.side_cols) * l.text_px <= width, "{at}");
                }
            }
        }
    }

    #[test]
    fn the_zoom_is_kept_where_it_fits_and_shrunk_where_it_does_not() {
        assert_eq!(Layout::fit(1280, 720, 14, letters).cell_px, 14);
        assert_eq!(Layout::fit(2560, 1440, 32, letters).cell_px, 32);
        // 800 x 500 at 32: the HUD and twelve rows of map want a smaller cell.
        let small = Layout::fit(800, 500, 32, letters);
        assert!(small.cell_px < 32 && small.cell_px >= MIN_CELL_PX, "{small:?}");
        assert!(small.hud_cols >= MIN_TEXT_COLS);
    }

    #[test]
    fn the_default_window_shows_the_whole_map_beside_the_panel_and_above_the_hud() {
        let (w, h) = Layout::window_for(80, 40, 14, 7);
        let l = Layout::at(w, h, 14, 7);
        assert!(l.map_cols >= 80 && l.map_rows >= 40, "{l:?}");
    }

    #[test]
    fn the_camera_keeps_the_focus_in_view_and_centres_a_small_map() {
        let view = (40, 20);
        let c = Camera::on(Some(Pos::new(70, 35)), (80, 40), view);
        assert_eq!(c, Camera { x: 40, y: 20 }, "not past the map's edge");
        assert_eq!(c.to_view((70, 35), view), Some((30, 15)));
        assert_eq!(c.to_view((10, 10), view), None);
        let mid = Camera::on(Some(Pos::new(40, 20)), (80, 40), view);
        assert_eq!(mid.to_view((40, 20), view), Some((20, 10)), "centred on the player");
        let small = Camera::on(Some(Pos::new(3, 3)), (20, 10), view);
        assert_eq!(small, Camera { x: -10, y: -5 });
        assert_eq!(small.to_view((0, 0), view), Some((10, 5)));
        // And back: a cell of the viewport is the map's cell drawn there.
        assert_eq!(c.to_map((30, 15), (80, 40)), Some(Pos::new(70, 35)));
        assert_eq!(small.to_map((10, 5), (20, 10)), Some(Pos::new(0, 0)));
        assert_eq!(small.to_map((9, 5), (20, 10)), None, "left of a centred map");
        assert_eq!(small.to_map((30, 5), (20, 10)), None, "right of it");
    }
}
