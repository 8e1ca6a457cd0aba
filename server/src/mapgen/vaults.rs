//! Vaults: rooms drawn by hand (`assets/vaults/*.txt`), each with its
//! guardians and its loot, that a level deeper than the first may hold.
//!
//! A vault is cut into solid rock after the generator carved the level,
//! away from the arrival point, and joined to the level by a tunnel from
//! each of its entrances (the open cells on its drawing's edge) to the
//! nearest open ground; then the finishing steps run as for any level, so
//! the level stays one connected piece and the down staircase is still the
//! cell farthest to walk to (it may lie in a vault). The level's streams
//! are untouched: which vault, and where, is drawn from a stream of its
//! own ([`DepthSeeds::vaults`]), so the rest of a level is the same with or
//! without one.
//!
//! A vault's file: a head of `key = value` lines (`#` starts a comment),
//! a line `---`, then the drawing:
//!
//! ```text
//! name = the orc barracks
//! depths = 4-12          # the depths it may be placed at
//! weight = 2             # how often, beside the others at a depth (default 1)
//! o = monster orc        # a glyph of the drawing: a monster of that kind,
//! M = monster any        #   or any kind living at the depth,
//! ! = item potion of healing   # an item of that kind,
//! ? = item any           #   or any item lying at the depth
//! ---
//! #########
//! #o.o.o.o#
//! #...M...#
//! #!..?...#
//! ###.#####
//! ```
//!
//! In the drawing `#` is wall, `.` floor, a space rock left as it is, and
//! each glyph of the legend a floor cell holding what it names.

use std::path::Path;

use gloam_protocol::{Pos, SIGHT_RADIUS, Terrain};
use rand::RngExt;

use super::populate::CLEAR_STEPS;
use crate::bestiary::Bestiary;
use crate::items::Catalogue;
use crate::level::Grid;
use crate::seeds::LevelRng;
use crate::tuning::TuningError;

/// The vaults built into the server, one file each.
const BUILT_IN: &[(&str, &str)] = &[
    ("guard-post.txt", include_str!("../../../assets/vaults/guard-post.txt")),
    ("shrine.txt", include_str!("../../../assets/vaults/shrine.txt")),
    ("cross.txt", include_str!("../../../assets/vaults/cross.txt")),
    ("larder.txt", include_str!("../../../assets/vaults/larder.txt")),
    ("orc-barracks.txt", include_str!("../../../assets/vaults/orc-barracks.txt")),
    ("armoury.txt", include_str!("../../../assets/vaults/armoury.txt")),
    ("pillared-hall.txt", include_str!("../../../assets/vaults/pillared-hall.txt")),
    ("troll-den.txt", include_str!("../../../assets/vaults/troll-den.txt")),
    ("treasury.txt", include_str!("../../../assets/vaults/treasury.txt")),
];

/// The chance that a level deeper than the first holds a vault.
pub const VAULT_CHANCE: f64 = 0.5;

/// The most cells a drawing may be wide and high.
const MOST_WIDTH: usize = 24;
const MOST_HEIGHT: usize = 12;

/// What a glyph of a vault's legend puts on its floor cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// A monster of the kind named, or (`None`) of any kind living there.
    Monster(Option<String>),
    /// An item of the kind named, or (`None`) any lying at that depth.
    Item(Option<String>),
}

/// One vault as its file draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vault {
    pub name: String,
    /// The file it came from, and the line of each glyph's legend entry.
    pub file: String,
    pub depths: std::ops::RangeInclusive<u16>,
    pub weight: u32,
    width: u16,
    height: u16,
    /// Row by row: `None` for rock left as it is.
    cells: Vec<Option<Terrain>>,
    /// What lies on some of its floor cells, by place within the drawing,
    /// with the line of the legend entry that named it.
    contents: Vec<(Pos, Content, usize)>,
}

/// Every vault a world's levels may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vaults {
    vaults: Vec<Vault>,
}

/// A vault cut into a level: which, where its drawing's top left corner
/// lies, and what lies in it, placed on the level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlacedVault {
    pub name: String,
    pub corner: Pos,
    pub width: u16,
    pub height: u16,
    pub contents: Vec<(Pos, Content)>,
}

impl PlacedVault {
    /// Whether `pos` lies within its drawing.
    pub fn covers(&self, pos: Pos) -> bool {
        (self.corner.x..self.corner.x + self.width).contains(&pos.x)
            && (self.corner.y..self.corner.y + self.height).contains(&pos.y)
    }
}

impl Vaults {
    /// The vaults built into the server (`assets/vaults/`).
    pub fn built_in() -> &'static Vaults {
        static BUILT: std::sync::LazyLock<Vaults> = std::sync::LazyLock::new(|| {
            let vaults = BUILT_IN
                .iter()
                .map(|(file, text)| Vault::parse(text, &format!("assets/vaults/{file}")))
                .collect::<Result<Vec<_>, _>>()
                .expect("the built-in vaults are good");
            Vaults { vaults }
        });
        &BUILT
    }

    /// No vaults at all: levels as their generators carve them.
    pub fn none() -> Vaults {
        Vaults { vaults: Vec::new() }
    }

    /// Every `*.txt` file of `dir`, in the order of their names.
    pub fn load(dir: &Path) -> Result<Vaults, TuningError> {
        let cannot = |e: std::io::Error| TuningError {
            file: dir.display().to_string(),
            line: 0,
            what: format!("cannot read the folder: {e}"),
        };
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .map_err(cannot)?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(cannot)?;
        paths.retain(|p| p.extension().is_some_and(|e| e == "txt"));
        paths.sort();
        let mut vaults = Vec::new();
        for path in paths {
            let (text, file) = crate::tuning::read(&path)?;
            vaults.push(Vault::parse(&text, &file)?);
        }
        Ok(Vaults { vaults })
    }

    /// Every monster or item a vault names that `bestiary` or `items` does
    /// not hold, each naming its file and line: such a glyph is filled
    /// with any monster or item of the depth instead.
    pub fn unknown_names(&self, bestiary: &Bestiary, items: &Catalogue) -> Vec<TuningError> {
        let mut unknown = Vec::new();
        for vault in &self.vaults {
            for (_, content, line) in &vault.contents {
                let missing = match content {
                    Content::Monster(Some(name)) if bestiary.find(name).is_none() => {
                        format!("no monster {name:?} in the bestiary")
                    }
                    Content::Item(Some(name)) if items.find(name).is_none() => {
                        format!("no item {name:?} among the items")
                    }
                    _ => continue,
                };
                unknown.push(TuningError { file: vault.file.clone(), line: *line, what: missing });
            }
        }
        // A glyph drawn many times is one mistake.
        unknown.dedup();
        unknown
    }

    pub fn all(&self) -> &[Vault] {
        &self.vaults
    }

    /// The vaults that may be placed at `depth`.
    fn at(&self, depth: u16) -> impl Iterator<Item = &Vault> {
        self.vaults.iter().filter(move |v| v.depths.contains(&depth))
    }

    /// Cuts a vault for `depth` into `grid`, drawn from `rng` (the level's
    /// vault stream): none on the first depth, none on half the others,
    /// and none where no room of solid rock far enough from `start` holds
    /// any of those that may lie there.
    pub fn place(
        &self,
        grid: &mut Grid,
        start: Pos,
        depth: u16,
        rng: &mut LevelRng,
    ) -> Option<PlacedVault> {
        if depth <= 1 || !rng.random_bool(VAULT_CHANCE) {
            return None;
        }
        // Drawn by weight; one with no room here gives way to the others.
        let open = grid.open_rows();
        let mut left: Vec<&Vault> = self.at(depth).collect();
        while !left.is_empty() {
            let total: u32 = left.iter().map(|v| v.weight).sum();
            let mut pick = rng.random_range(0..total);
            let at = left.iter().position(|v| {
                let here = pick < v.weight;
                pick = pick.saturating_sub(v.weight);
                here
            })?;
            let vault = left.swap_remove(at);
            let spots = vault.spots(&open, grid.width(), start);
            if !spots.is_empty() {
                let corner = spots[rng.random_range(0..spots.len())];
                let reached = grid.walk_rows_from(&open, start, 0).reached;
                return vault.cut(grid, corner, &reached);
            }
        }
        None
    }
}

impl Vault {
    /// Reads and checks one vault's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Vault, TuningError> {
        let error = |line: usize, what: String| TuningError { file: file.into(), line, what };
        let lines: Vec<&str> = text.lines().collect();
        let Some(rule) = lines.iter().position(|l| l.trim() == "---") else {
            return Err(error(0, "no line `---` between the head and the drawing".into()));
        };
        let head = Head::read(&lines[..rule], &error)?;
        let drawing: Vec<&str> = lines[rule + 1..].iter().map(|l| l.trim_end()).collect();
        let drawing = match drawing.iter().rposition(|l| !l.is_empty()) {
            Some(last) => &drawing[..=last],
            None => return Err(error(rule + 1, "no drawing after `---`".into())),
        };
        let height = drawing.len();
        let width = drawing.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        if width > MOST_WIDTH || height > MOST_HEIGHT || width < 3 || height < 3 {
            return Err(error(
                rule + 2,
                format!("the drawing is {width}x{height}; 3x3 to {MOST_WIDTH}x{MOST_HEIGHT}"),
            ));
        }
        let mut cells = vec![None; width * height];
        let mut contents = Vec::new();
        for (y, row) in drawing.iter().enumerate() {
            for (x, glyph) in row.chars().enumerate() {
                let at = Pos::new(x as u16, y as u16);
                cells[y * width + x] = match glyph {
                    ' ' => None,
                    '#' => Some(Terrain::Wall),
                    '.' => Some(Terrain::Floor),
                    other => {
                        let Some((content, line)) = head.legend(other) else {
                            return Err(error(
                                rule + 2 + y,
                                format!("{other:?} is not `#`, `.`, a space or in the legend"),
                            ));
                        };
                        contents.push((at, content, line));
                        Some(Terrain::Floor)
                    }
                };
            }
        }
        let vault = Vault {
            name: head.name.ok_or_else(|| error(rule, "no `name = ...`".into()))?,
            file: file.into(),
            depths: head.depths.ok_or_else(|| error(rule, "no `depths = FROM-TO`".into()))?,
            weight: head.weight,
            width: width as u16,
            height: height as u16,
            cells,
            contents,
        };
        vault.check_shape().map_err(|what| error(rule + 2, what))?;
        Ok(vault)
    }

    fn cell(&self, x: u16, y: u16) -> Option<Terrain> {
        self.cells[usize::from(y) * usize::from(self.width) + usize::from(x)]
    }

    fn is_edge(&self, x: u16, y: u16) -> bool {
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }

    /// Its entrances: the open cells on its drawing's edge.
    fn entrances(&self) -> impl Iterator<Item = (u16, u16)> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.is_edge(x, y) && self.cell(x, y).is_some_and(Terrain::is_open))
    }

    /// At least one entrance, and every open cell reached from them.
    fn check_shape(&self) -> Result<(), String> {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        let open = |x: usize, y: usize| self.cells[y * w + x].is_some_and(Terrain::is_open);
        let mut reached = vec![false; w * h];
        let mut todo: Vec<(usize, usize)> =
            self.entrances().map(|(x, y)| (usize::from(x), usize::from(y))).collect();
        if todo.is_empty() {
            return Err("no entrance: no open cell on the drawing's edge".into());
        }
        while let Some((x, y)) = todo.pop() {
            if std::mem::replace(&mut reached[y * w + x], true) {
                continue;
            }
            for (nx, ny) in neighbours(x, y, w, h) {
                if open(nx, ny) && !reached[ny * w + nx] {
                    todo.push((nx, ny));
                }
            }
        }
        let mut cells = (0..h).flat_map(|y| (0..w).map(move |x| (x, y)));
        match cells.find(|&(x, y)| open(x, y) && !reached[y * w + x]) {
            Some((x, y)) => Err(format!("the open cell at column {x}, row {y} has no way in")),
            None => Ok(()),
        }
    }

    /// Every corner where the vault, and the cells around it, would lie in
    /// solid rock inside the map's border, far enough from `start` that it
    /// is out of the arrival point's sight: a column of rows at a time,
    /// on the level's `open` rows as bits (`gw` cells wide).
    fn spots(&self, open: &[u128], gw: u16, start: Pos) -> Vec<Pos> {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        let (gw, gh) = (usize::from(gw), open.len());
        // Out of the arrival's sight, and beyond the steps around it where
        // no monster is placed (walking is never shorter than this).
        let far = usize::from(SIGHT_RADIUS).max(usize::from(CLEAR_STEPS)) + 1;
        let (sx, sy) = (usize::from(start.x), usize::from(start.y));
        let mut spots = Vec::new();
        // The cells around it stay off the map's border, which is never dug.
        for x in 2..gw.saturating_sub(w + 1) {
            // Its columns with the cells each side.
            let mask = ((1u128 << (w + 2)) - 1) << (x - 1);
            let gap_x = (x - 1).saturating_sub(sx).max(sx.saturating_sub(x + w));
            let mut solid = 0;
            for (y, &row) in open.iter().enumerate().take(gh - 1) {
                solid = if row & mask == 0 { solid + 1 } else { 0 };
                // Rows y - h - 1 to y solid: its top row is y - h.
                if solid >= h + 2 && y >= h + 2 {
                    let top = y - h;
                    let gap_y = (top - 1).saturating_sub(sy).max(sy.saturating_sub(y));
                    if gap_x.max(gap_y) >= far {
                        spots.push(Pos::new(x as u16, top as u16));
                    }
                }
            }
        }
        spots
    }

    /// Draws the vault with its top left at `corner`, and a tunnel from
    /// each entrance to the nearest open ground outside it that is
    /// `reached` from the arrival point.
    fn cut(&self, grid: &mut Grid, corner: Pos, reached: &[u128]) -> Option<PlacedVault> {
        let on_map = |x: u16, y: u16| Pos::new(corner.x + x, corner.y + y);
        let placed = PlacedVault {
            name: self.name.clone(),
            corner,
            width: self.width,
            height: self.height,
            contents: self
                .contents
                .iter()
                .map(|(at, c, _)| (on_map(at.x, at.y), c.clone()))
                .collect(),
        };
        let doors: Vec<Pos> = self
            .entrances()
            .filter_map(|(x, y)| {
                let (dx, dy) = if x == 0 {
                    (-1, 0)
                } else if x + 1 == self.width {
                    (1, 0)
                } else if y == 0 {
                    (0, -1)
                } else {
                    (0, 1)
                };
                let at = on_map(x, y);
                Some(Pos::new(at.x.checked_add_signed(dx)?, at.y.checked_add_signed(dy)?))
            })
            .collect();
        // Every tunnel found first, through the rock around the vault: none
        // is dug unless all can be.
        let tunnels: Vec<Vec<Pos>> = doors
            .into_iter()
            .map(|door| tunnel(grid, door, reached, |p| placed.covers(p)))
            .collect::<Option<_>>()?;
        for y in 0..self.height {
            for x in 0..self.width {
                if let Some(terrain) = self.cell(x, y) {
                    grid.set(on_map(x, y), terrain);
                }
            }
        }
        for p in tunnels.into_iter().flatten() {
            grid.set(p, Terrain::Floor);
        }
        Some(placed)
    }
}

/// The cells of a shortest four-way path through anything but the vault
/// (`inside`) from `from` to the nearest cell outside it a walk from the
/// arrival `reached` (rows of bits), `from` included and that cell not;
/// none when there is no such cell.
fn tunnel(
    grid: &Grid,
    from: Pos,
    reached: &[u128],
    inside: impl Fn(Pos) -> bool,
) -> Option<Vec<Pos>> {
    const UNSEEN: u32 = u32::MAX;
    let (w, h) = (usize::from(grid.width()), usize::from(grid.height()));
    let mut came = vec![UNSEEN; w * h];
    let start = grid.index(from);
    came[start] = start as u32;
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(i) = queue.pop_front() {
        let at = grid.pos_of(i);
        if i != start && reached[usize::from(at.y)] >> at.x & 1 == 1 {
            let mut path = Vec::new();
            let mut j = came[i] as usize;
            while j != start {
                path.push(grid.pos_of(j));
                j = came[j] as usize;
            }
            path.push(from);
            return Some(path);
        }
        for (nx, ny) in neighbours(usize::from(at.x), usize::from(at.y), w, h) {
            let next = Pos::new(nx as u16, ny as u16);
            let border = nx == 0 || ny == 0 || nx + 1 == w || ny + 1 == h;
            let j = grid.index(next);
            if !border && !inside(next) && came[j] == UNSEEN {
                came[j] = i as u32;
                queue.push_back(j);
            }
        }
    }
    None
}

/// The four cells beside (`x`, `y`) within a `w` by `h` rectangle.
fn neighbours(x: usize, y: usize, w: usize, h: usize) -> impl Iterator<Item = (usize, usize)> {
    [(0isize, -1isize), (-1, 0), (1, 0), (0, 1)].into_iter().filter_map(move |(dx, dy)| {
        let (nx, ny) = (x.checked_add_signed(dx)?, y.checked_add_signed(dy)?);
        (nx < w && ny < h).then_some((nx, ny))
    })
}

/// A vault file's head, as read.
struct Head {
    name: Option<String>,
    depths: Option<std::ops::RangeInclusive<u16>>,
    weight: u32,
    legend: Vec<(char, Content, usize)>,
}

impl Head {
    fn read(
        lines: &[&str],
        error: &impl Fn(usize, String) -> TuningError,
    ) -> Result<Head, TuningError> {
        let mut head = Head { name: None, depths: None, weight: 1, legend: Vec::new() };
        for (i, line) in lines.iter().enumerate() {
            let number = i + 1;
            let line = line.split_once(" #").map_or(*line, |(l, _)| l).trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(error(number, format!("{line:?} is not `key = value`")));
            };
            head.take(key.trim(), value.trim(), number).map_err(|what| error(number, what))?;
        }
        Ok(head)
    }

    fn take(&mut self, key: &str, value: &str, line: usize) -> Result<(), String> {
        match key {
            "name" if !value.is_empty() => self.name = Some(value.into()),
            "depths" => {
                let bad = || format!("depths {value:?}: write FROM-TO, e.g. 3-8, within 2-100");
                let (from, to) = value.split_once('-').ok_or_else(bad)?;
                let from: u16 = from.trim().parse().map_err(|_| bad())?;
                let to: u16 = to.trim().parse().map_err(|_| bad())?;
                if from < 2 || to < from || to > 100 {
                    return Err(bad());
                }
                self.depths = Some(from..=to);
            }
            "weight" => {
                let bad = || format!("weight {value:?}: a whole number from 1 to 100");
                let weight: u32 = value.parse().map_err(|_| bad())?;
                if !(1..=100).contains(&weight) {
                    return Err(bad());
                }
                self.weight = weight;
            }
            glyph if glyph.chars().count() == 1 => {
                let glyph = glyph.chars().next().expect("one character");
                if matches!(glyph, '#' | '.' | ' ') || self.legend(glyph).is_some() {
                    return Err(format!("{glyph:?} is `#`, `.` or named twice in the legend"));
                }
                self.legend.push((glyph, content(value)?, line));
            }
            _ => return Err(format!("{key:?}: not name, depths, weight or one glyph")),
        }
        Ok(())
    }

    fn legend(&self, glyph: char) -> Option<(Content, usize)> {
        let (_, content, line) = self.legend.iter().find(|(g, ..)| *g == glyph)?;
        Some((content.clone(), *line))
    }
}

/// A legend entry's value: `monster NAME`, `monster any`, `item NAME`, `item any`.
fn content(value: &str) -> Result<Content, String> {
    let (what, name) = value.split_once(' ').map_or((value, ""), |(w, n)| (w, n.trim()));
    let name = match name {
        "" => return Err(format!("{value:?}: write `monster NAME`, `item NAME` or `... any`")),
        "any" => None,
        name => Some(name.to_string()),
    };
    match what {
        "monster" => Ok(Content::Monster(name)),
        "item" => Ok(Content::Item(name)),
        _ => Err(format!("{value:?}: a glyph holds a `monster ...` or an `item ...`")),
    }
}

#[cfg(test)]
#[path = "vaults_tests.rs"]
mod tests;
