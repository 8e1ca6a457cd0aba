//! Small value types both sides need.

use serde::{Deserialize, Serialize};

/// A cell of a level; (0, 0) is the top-left corner.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Pos {
    pub x: u16,
    pub y: u16,
}

impl Pos {
    pub const fn new(x: u16, y: u16) -> Self {
        Self { x, y }
    }

    /// The cell `dx, dy` away, or `None` when that falls off the u16 range.
    pub fn offset(self, dx: i32, dy: i32) -> Option<Pos> {
        let x = u16::try_from(i32::from(self.x) + dx).ok()?;
        let y = u16::try_from(i32::from(self.y) + dy).ok()?;
        Some(Pos { x, y })
    }

    pub fn step(self, dir: Dir) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        self.offset(dx, dy)
    }
}

/// What a cell is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    Wall,
    Floor,
    StairsDown,
    StairsUp,
}

impl Terrain {
    pub const ALL: [Terrain; 4] =
        [Terrain::Wall, Terrain::Floor, Terrain::StairsDown, Terrain::StairsUp];

    /// Walls stop walking and sight; everything else is open ground.
    pub const fn is_open(self) -> bool {
        !matches!(self, Terrain::Wall)
    }

    /// The character the map shows for this terrain.
    pub const fn glyph(self) -> char {
        match self {
            Terrain::Wall => '#',
            Terrain::Floor => '.',
            Terrain::StairsDown => '>',
            Terrain::StairsUp => '<',
        }
    }
}

/// The eight directions a player can step in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [Dir::N, Dir::NE, Dir::E, Dir::SE, Dir::S, Dir::SW, Dir::W, Dir::NW];

    /// The step as (dx, dy), with y growing downwards.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    /// The direction of a one-cell step, if `(dx, dy)` is one.
    pub fn from_delta(dx: i32, dy: i32) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.delta() == (dx, dy))
    }
}

/// A connected player, unique while the server runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub u32);

impl std::fmt::Display for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A monster on a depth, unique on that depth while it is in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MonsterId(pub u32);

/// How hurt a monster looks: all a player is told of its hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Wound {
    Unhurt,
    /// Above half its hit points.
    Scratched,
    /// A quarter to a half.
    Wounded,
    /// Under a quarter.
    AlmostDead,
}

impl Wound {
    pub const ALL: [Wound; 4] =
        [Wound::Unhurt, Wound::Scratched, Wound::Wounded, Wound::AlmostDead];

    /// The look of something with `hp` of `max` hit points.
    pub fn of(hp: u16, max: u16) -> Wound {
        let (hp, max) = (u32::from(hp), u32::from(max.max(1)));
        if hp >= max {
            Wound::Unhurt
        } else if hp * 2 > max {
            Wound::Scratched
        } else if hp * 4 >= max {
            Wound::Wounded
        } else {
            Wound::AlmostDead
        }
    }
}
