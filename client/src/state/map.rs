//! The level as this player knows it: each cell's terrain once seen, which
//! cells are in sight now, and where the player stands. A level is entered
//! with what the player remembers of it; each sight then hides, shows and
//! reveals cells of the disc around the player, named from its centre.

use gloam_protocol::{CellSet, Disc, Pos, SightDiff, Terrain};

use super::limits::check_size;
use super::reasons;
use super::{ClientState, StateError};

/// A level as [`ClientState::load_level`] takes it.
pub(super) struct Level<'a> {
    pub depth: u16,
    pub width: u16,
    pub height: u16,
    /// The cells remembered, as a bitset over the map, row-major.
    pub remembered: &'a [u8],
    /// The terrain of each remembered cell, in order.
    pub terrain: &'a [Terrain],
}

impl ClientState {
    /// The disc of cells in sight, known once welcomed.
    pub(super) fn sight_disc(&self) -> Result<&Disc, StateError> {
        self.disc.as_ref().ok_or(StateError::NotWelcomed)
    }

    /// Replaces the map with `level`'s, nothing in sight and the player not
    /// yet placed.
    pub(super) fn load_level(&mut self, level: &Level<'_>) -> Result<(), StateError> {
        check_size(level.width, level.height)?;
        let cells = usize::from(level.width) * usize::from(level.height);
        let remembered = remembered_cells(level.remembered, level.terrain, cells)?;
        self.depth = level.depth;
        self.width = level.width;
        self.height = level.height;
        self.at = None;
        self.known = vec![None; cells];
        self.visible = vec![false; cells];
        for (i, t) in remembered {
            self.known[i] = Some(t);
        }
        Ok(())
    }

    /// Cells of this level the player learnt without seeing them, as
    /// `load_level` takes a level's: added to what it remembers, nothing
    /// forgotten, nothing brought into sight.
    pub(super) fn add_mapped(
        &mut self,
        remembered: &[u8],
        terrain: &[Terrain],
    ) -> Result<(), StateError> {
        if self.known.is_empty() {
            return Err(StateError::Inconsistent(reasons::MAP_OF_A_LEVEL_NEVER_ENTERED));
        }
        for (i, t) in remembered_cells(remembered, terrain, self.known.len())? {
            self.known[i] = Some(t);
        }
        Ok(())
    }

    /// The map index of the cell `index` names in the sight disc around `centre`.
    fn disc_cell(&self, disc: &Disc, centre: Pos, index: u8) -> Result<usize, StateError> {
        let (dx, dy) = disc.offset(index).ok_or(StateError::OutsideDisc(index))?;
        let pos = centre.offset(dx, dy).ok_or(StateError::OutsideDisc(index))?;
        self.index(pos).ok_or(StateError::OffTheMap(pos))
    }

    /// A new sight: the cells it hides (named from the last centre), shows
    /// and reveals, and the players and monsters that came, went or moved.
    pub(super) fn apply_sight(&mut self, diff: &SightDiff) -> Result<(), StateError> {
        let disc = self.sight_disc()?;
        self.index(diff.at).ok_or(StateError::OffTheMap(diff.at))?;
        let hidden: Vec<usize> = match self.at {
            Some(before) => diff.hidden.iter().map(|&i| self.disc_cell(disc, before, i)).collect(),
            None if diff.hidden.is_empty() => Ok(Vec::new()),
            None => Err(StateError::Inconsistent(reasons::CELLS_HIDDEN_BEFORE_ANY_SIGHT)),
        }?;
        let shown: Vec<usize> = diff
            .shown
            .iter()
            .map(|&i| self.disc_cell(disc, diff.at, i))
            .collect::<Result<_, _>>()?;
        if shown.iter().any(|&c| self.known[c].is_none()) {
            return Err(StateError::Inconsistent(reasons::CELL_SHOWN_AGAIN_WAS_NEVER_REVEALED));
        }
        let revealed: Vec<(usize, Terrain)> = diff
            .revealed
            .iter()
            .map(|&(i, t)| Ok((self.disc_cell(disc, diff.at, i)?, t)))
            .collect::<Result<_, StateError>>()?;
        self.check_players(&diff.players)?;
        self.check_monsters(&diff.monsters)?;
        self.check_floor(&diff.floor)?;
        // Checked whole: from here on nothing fails.
        hidden.into_iter().for_each(|c| self.visible[c] = false);
        shown.into_iter().for_each(|c| self.visible[c] = true);
        for (c, t) in revealed {
            self.known[c] = Some(t);
            self.visible[c] = true;
        }
        self.at = Some(diff.at);
        diff.players.iter().for_each(|c| self.apply_player(c));
        diff.monsters.iter().for_each(|c| self.apply_monster(c));
        self.apply_floor_checked(&diff.floor);
        Ok(())
    }

    /// The map index of `pos`, when it is on the map of a level entered.
    pub(super) fn index(&self, pos: Pos) -> Option<usize> {
        (pos.x < self.width && pos.y < self.height && !self.known.is_empty())
            .then(|| usize::from(pos.y) * usize::from(self.width) + usize::from(pos.x))
    }

    /// The cell at map index `i`.
    fn pos_of(&self, i: usize) -> Pos {
        let w = usize::from(self.width.max(1));
        Pos::new((i % w) as u16, (i / w) as u16)
    }

    /// What the player knows of a cell: `None` when never seen.
    pub fn terrain(&self, pos: Pos) -> Option<Terrain> {
        self.index(pos).and_then(|i| self.known[i])
    }

    /// True when the cell is in sight now.
    pub fn is_visible(&self, pos: Pos) -> bool {
        self.index(pos).is_some_and(|i| self.visible[i])
    }

    /// Every known cell with its terrain, row by row.
    pub fn known_cells(&self) -> impl Iterator<Item = (Pos, Terrain)> + '_ {
        self.known.iter().enumerate().filter_map(move |(i, t)| t.map(|t| (self.pos_of(i), t)))
    }

    /// Every cell in sight now.
    pub fn visible_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.visible.iter().enumerate().filter(|(_, v)| **v).map(move |(i, _)| self.pos_of(i))
    }

    /// The first known cell of `terrain`, row by row (the down staircase,
    /// once seen).
    pub fn find(&self, terrain: Terrain) -> Option<Pos> {
        // A plain scan of the map (a crowd's bots ask on every action).
        let i = self.known.iter().position(|&t| t == Some(terrain))?;
        Some(self.pos_of(i))
    }
}

/// The cells a bitset over a map of `cells` cells names, each with its
/// entry of `terrain`: checked whole (no bit off the map, one entry a bit).
fn remembered_cells(
    bitset: &[u8],
    terrain: &[Terrain],
    cells: usize,
) -> Result<Vec<(usize, Terrain)>, StateError> {
    if bitset.len() > cells.div_ceil(8) {
        return Err(StateError::Inconsistent(reasons::REMEMBERED_BITSET_LONGER_THAN_THE_MAP));
    }
    let remembered = CellSet::from_bytes(bitset);
    if remembered.iter().any(|i| i >= cells) {
        return Err(StateError::Inconsistent(reasons::REMEMBERED_CELL_OFF_THE_MAP));
    }
    if remembered.iter().count() != terrain.len() {
        return Err(StateError::Inconsistent(reasons::NOT_ONE_TERRAIN_ENTRY_PER_REMEMBERED_CELL));
    }
    Ok(remembered.iter().zip(terrain.iter().copied()).collect())
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{PlayerId, ServerMsg};

    use super::*;

    fn welcomed() -> ClientState {
        crate::testing::welcomed(PlayerId(1), 20, 10)
    }

    fn enter(s: &mut ClientState, remembered: Vec<u8>, terrain: Vec<Terrain>) {
        s.apply(&ServerMsg::EnterLevel { depth: 1, width: 20, height: 10, remembered, terrain })
            .unwrap();
    }

    fn idx(dx: i32, dy: i32) -> u8 {
        Disc::new(8).index(dx, dy).unwrap()
    }

    #[test]
    fn entering_a_level_restores_what_was_remembered() {
        let mut s = welcomed();
        // Cells 0 and 2 of the first row.
        enter(&mut s, vec![0b101], vec![Terrain::Wall, Terrain::Floor]);
        assert_eq!(s.terrain(Pos::new(0, 0)), Some(Terrain::Wall));
        assert_eq!(s.terrain(Pos::new(1, 0)), None);
        assert_eq!(s.terrain(Pos::new(2, 0)), Some(Terrain::Floor));
        assert_eq!(s.visible_cells().count(), 0);
    }

    #[test]
    fn a_bitset_and_terrain_list_that_disagree_are_refused() {
        let mut s = welcomed();
        let msg = ServerMsg::EnterLevel {
            depth: 1,
            width: 20,
            height: 10,
            remembered: vec![0b11],
            terrain: vec![Terrain::Wall],
        };
        assert!(s.apply(&msg).is_err());
    }

    #[test]
    fn sight_reveals_shows_and_hides_relative_to_the_right_centre() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        let first = SightDiff {
            at: Pos::new(5, 5),
            revealed: vec![(idx(0, 0), Terrain::Floor), (idx(1, 0), Terrain::StairsDown)],
            ..SightDiff::default()
        };
        s.apply(&ServerMsg::Sight(first)).unwrap();
        assert_eq!(s.at, Some(Pos::new(5, 5)));
        assert!(s.is_visible(Pos::new(6, 5)));
        assert_eq!(s.find(Terrain::StairsDown), Some(Pos::new(6, 5)));
        // Step east: (5, 5) leaves sight, named from the old centre; (6, 5) stays.
        let second = SightDiff {
            at: Pos::new(6, 5),
            hidden: vec![idx(0, 0)],
            revealed: vec![(idx(1, 0), Terrain::Wall)],
            ..SightDiff::default()
        };
        s.apply(&ServerMsg::Sight(second)).unwrap();
        assert!(!s.is_visible(Pos::new(5, 5)));
        assert_eq!(s.terrain(Pos::new(5, 5)), Some(Terrain::Floor), "remembered");
        assert!(s.is_visible(Pos::new(7, 5)));
        // Step back: (5, 5) is shown again without its terrain.
        let third =
            SightDiff { at: Pos::new(5, 5), shown: vec![idx(0, 0)], ..SightDiff::default() };
        s.apply(&ServerMsg::Displaced(third)).unwrap();
        assert!(s.is_visible(Pos::new(5, 5)));
    }

    #[test]
    fn a_map_read_adds_cells_to_those_remembered_and_forgets_none() {
        let mut s = welcomed();
        // Cell 0 of the first row remembered; (1, 1) in sight.
        enter(&mut s, vec![0b1], vec![Terrain::Wall]);
        let diff = SightDiff {
            at: Pos::new(1, 1),
            revealed: vec![(idx(0, 0), Terrain::Floor)],
            ..SightDiff::default()
        };
        s.apply(&ServerMsg::Sight(diff)).unwrap();
        // Cells 2 and 3 of the first row, and the last cell of the map.
        let mut bits = vec![0u8; 25];
        bits[0] = 0b1100;
        bits[24] = 0b1000_0000;
        let terrain = vec![Terrain::Floor, Terrain::StairsDown, Terrain::Wall];
        s.apply(&ServerMsg::Mapped { remembered: bits, terrain }).unwrap();
        assert_eq!(s.terrain(Pos::new(0, 0)), Some(Terrain::Wall), "still remembered");
        assert_eq!(s.terrain(Pos::new(2, 0)), Some(Terrain::Floor));
        assert_eq!(s.terrain(Pos::new(3, 0)), Some(Terrain::StairsDown));
        assert_eq!(s.terrain(Pos::new(19, 9)), Some(Terrain::Wall));
        assert_eq!(s.terrain(Pos::new(4, 0)), None);
        assert!(s.is_visible(Pos::new(1, 1)) && !s.is_visible(Pos::new(2, 0)), "sight as it was");
        assert_eq!(s.known_cells().count(), 5);
    }

    #[test]
    fn a_map_read_that_does_not_fit_the_level_changes_nothing() {
        let mut s = welcomed();
        let unmapped = ServerMsg::Mapped { remembered: vec![1], terrain: vec![Terrain::Floor] };
        assert!(s.apply(&unmapped).is_err(), "no level entered yet");
        enter(&mut s, vec![0b1], vec![Terrain::Wall]);
        let before = s.clone();
        for (remembered, terrain) in [
            (vec![0b11], vec![Terrain::Floor]),
            (vec![0b1], vec![Terrain::Floor, Terrain::Floor]),
            (vec![0; 26], vec![]),
            (vec![], vec![Terrain::Floor]),
        ] {
            let msg = ServerMsg::Mapped { remembered, terrain };
            assert!(s.apply(&msg).is_err(), "{msg:?}");
            assert_eq!(s, before, "{msg:?} changed the mirror");
        }
    }

    #[test]
    fn showing_a_cell_never_revealed_is_an_error() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        let diff = SightDiff { at: Pos::new(5, 5), shown: vec![idx(0, 0)], ..SightDiff::default() };
        assert!(s.apply(&ServerMsg::Sight(diff)).is_err());
    }

    #[test]
    fn indices_off_the_map_are_errors() {
        let mut s = welcomed();
        enter(&mut s, vec![], vec![]);
        let diff = SightDiff {
            at: Pos::new(0, 0),
            revealed: vec![(idx(-1, 0), Terrain::Wall)],
            ..SightDiff::default()
        };
        assert!(s.apply(&ServerMsg::Sight(diff)).is_err());
        let far = SightDiff { at: Pos::new(50, 0), ..SightDiff::default() };
        assert_eq!(s.apply(&ServerMsg::Sight(far)), Err(StateError::OffTheMap(Pos::new(50, 0))));
    }
}
