//! The colours, after the first seed text's palette: bright in sight, dim
//! and greyer when only remembered.

/// An RGB colour.
pub type Rgb = (u8, u8, u8);

pub const BACKGROUND: Rgb = (10, 10, 16);
pub(crate) const WALL: Rgb = (180, 160, 110);
pub(crate) const FLOOR: Rgb = (110, 110, 130);
pub(crate) const STAIRS: Rgb = (240, 220, 80);
pub(crate) const WALL_REMEMBERED: Rgb = (60, 55, 40);
pub(crate) const FLOOR_REMEMBERED: Rgb = (40, 40, 55);
pub(crate) const STAIRS_REMEMBERED: Rgb = (110, 100, 40);
pub(crate) const SELF: Rgb = (255, 255, 255);
pub(crate) const TEXT: Rgb = (200, 200, 210);
pub(crate) const TEXT_MIDDLE: Rgb = (150, 150, 160);
pub(crate) const TEXT_DIM: Rgb = (100, 100, 110);
pub(crate) const ALERT: Rgb = (240, 90, 80);
pub(crate) const GOOD: Rgb = (110, 200, 110);
pub(crate) const WARN: Rgb = (230, 200, 80);
/// The aiming cursor's frame and the fill of its cell.
pub(crate) const CURSOR: Rgb = (250, 220, 90);
pub(crate) const CURSOR_FILL: Rgb = (80, 66, 18);
/// Lines about fights.
pub(crate) const COMBAT: Rgb = (235, 145, 110);
/// Lines about what other players did.
pub(crate) const OTHERS_TEXT: Rgb = (140, 190, 235);

/// Other players' colours, chosen by id so each keeps its own.
pub(crate) const OTHERS: [Rgb; 6] = [
    (90, 200, 250),
    (250, 130, 200),
    (130, 230, 120),
    (250, 160, 60),
    (180, 140, 250),
    (240, 240, 120),
];

/// A colour as the protocol sends it.
pub(crate) fn rgb([r, g, b]: [u8; 3]) -> Rgb {
    (r, g, b)
}

/// A colour as remembered out of sight: under half as bright, as the
/// remembered map is beside the map in sight.
pub(crate) fn dimmed((r, g, b): Rgb) -> Rgb {
    let dim = |c: u8| (u16::from(c) * 2 / 5) as u8;
    (dim(r), dim(g), dim(b))
}
