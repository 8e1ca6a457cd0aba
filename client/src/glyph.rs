//! One character in one cell of the grid, in its colour: what the map,
//! the list beside it, the pages and the HUD are all drawn as (`view.rs`
//! makes them; the window's `render` draws them).

use crate::palette::Rgb;

/// One character in one cell of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyph {
    pub col: u16,
    pub row: u16,
    pub ch: char,
    pub color: Rgb,
}
