//! Aiming a throw or a zap: a cursor on the map that starts on the nearest
//! monster in sight (by walking distance, which counts a diagonal step as
//! one) or, with none in sight, on the player; Tab, Space or `+` go to
//! the next monster farther out, `-` back, direction keys move the cursor
//! a cell, and Enter, `.`, `t`, `f` or `z` throw or zap at it. The server
//! decides whether the cell is in range and what the missile or the
//! wand's magic meets on its way.

use gloam_protocol::{Action, Dir, Pos};

use crate::input::AimKey;
use crate::state::ClientState;

/// A throw (or a zap) being aimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aim {
    /// The pack slot of the missile (or the wand).
    pub slot: u8,
    /// A wand is zapped, not a missile thrown.
    pub zaps: bool,
    /// The cell it would be thrown at.
    pub cursor: Pos,
    /// Which of the monsters in sight, nearest first, Tab chose last.
    target: usize,
}

/// What a key does while aiming.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AimOutcome {
    /// Send this throw; the aiming ends.
    Throw(Action),
    Cancel,
    /// The cursor moved (or not): redraw.
    Moved,
    /// A line for the log; the aiming goes on.
    Refuse(&'static str),
}

/// Walking distance: a diagonal step counts as one.
fn distance(a: Pos, b: Pos) -> u16 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

/// Where the monsters in sight stand, nearest the player first (the
/// nearer of two as far by id, so the order holds from key to key).
pub fn targets(state: &ClientState) -> Vec<Pos> {
    let Some(me) = state.at else { return Vec::new() };
    let mut monsters: Vec<_> = state.monsters.iter().map(|(id, m)| (m.at, *id)).collect();
    monsters.sort_by_key(|&(at, id)| (distance(me, at), id));
    monsters.into_iter().map(|(at, _)| at).collect()
}

impl Aim {
    /// Aiming the missile in `slot`, the cursor on the nearest monster in
    /// sight, else on the player.
    pub fn start(state: &ClientState, slot: u8) -> Self {
        let me = state.at.unwrap_or_default();
        let cursor = targets(state).first().copied().unwrap_or(me);
        Self { slot, zaps: false, cursor, target: 0 }
    }

    /// Aiming the wand in `slot`, the cursor as for a throw.
    pub fn zap(state: &ClientState, slot: u8) -> Self {
        Self { zaps: true, ..Self::start(state, slot) }
    }

    /// The action of letting fly at `at`.
    fn action(&self, at: Pos) -> Action {
        if self.zaps {
            Action::Zap { slot: self.slot, at }
        } else {
            Action::Throw { slot: self.slot, at }
        }
    }

    /// What `key` does to the aim.
    pub(crate) fn key(&mut self, state: &ClientState, key: AimKey) -> AimOutcome {
        match key {
            AimKey::Cancel => AimOutcome::Cancel,
            AimKey::Throw if Some(self.cursor) == state.at && self.zaps => {
                AimOutcome::Refuse("Move the cursor onto what to zap at (or Esc).")
            }
            AimKey::Throw if Some(self.cursor) == state.at => {
                AimOutcome::Refuse("Move the cursor onto what to throw at (or Esc).")
            }
            AimKey::Throw => AimOutcome::Throw(self.action(self.cursor)),
            AimKey::Step(dir) => {
                step_cursor(state, &mut self.cursor, dir);
                AimOutcome::Moved
            }
            AimKey::Next | AimKey::Previous => {
                let back = matches!(key, AimKey::Previous);
                if next_target(state, (&mut self.cursor, &mut self.target), back) {
                    AimOutcome::Moved
                } else {
                    AimOutcome::Refuse("No monster in sight: move the cursor.")
                }
            }
        }
    }
}

/// Moves a cursor a cell in `dir`, never off the map.
pub(crate) fn step_cursor(state: &ClientState, cursor: &mut Pos, dir: Dir) {
    let inside = |p: &Pos| p.x < state.width && p.y < state.height;
    if let Some(next) = cursor.step(dir).filter(inside) {
        *cursor = next;
    }
}

/// Puts a cursor on the next monster in sight farther out (or, `back`,
/// nearer), `target` being which of them, nearest first, it was put on
/// last; from the player, the first press goes to the nearest (or, back,
/// the farthest). False, and nothing moved, with no monster in sight.
pub(crate) fn next_target(
    state: &ClientState,
    (cursor, target): (&mut Pos, &mut usize),
    back: bool,
) -> bool {
    let targets = targets(state);
    if targets.is_empty() {
        return false;
    }
    let n = targets.len();
    *target = match (Some(*cursor) == state.at, back) {
        (true, false) => 0,
        (true, true) => n - 1,
        (false, false) => (*target + 1) % n,
        (false, true) => (*target + n - 1) % n,
    };
    *cursor = targets[*target];
    true
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{
        KindInfo, MonsterChange, MonsterId, PlayerId, ServerMsg, SightDiff, Wound,
    };

    use super::*;

    /// The player at (5, 5) of a 20 x 10 map, with monsters at `at`.
    fn among(monsters: &[(u32, (u16, u16))]) -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        s.apply(&ServerMsg::Sight(SightDiff { at: Pos::new(5, 5), ..SightDiff::default() }))
            .unwrap();
        let rat = KindInfo { name: "rat".into(), glyph: 'r', colour: [9, 9, 9] };
        s.apply(&ServerMsg::Kinds(vec![rat])).unwrap();
        let appeared = monsters.iter().map(|&(id, (x, y))| MonsterChange::Appeared {
            id: MonsterId(id),
            kind: 0,
            at: Pos::new(x, y),
            wound: Wound::Unhurt,
            asleep: false,
        });
        s.apply(&ServerMsg::Monsters(appeared.collect())).unwrap();
        s
    }

    #[test]
    fn the_nearest_monster_by_walking_is_the_first_target_and_tab_goes_farther() {
        // (8, 8) is three diagonal steps; (1, 5) four steps west; (5, 3) two.
        let s = among(&[(1, (1, 5)), (2, (8, 8)), (3, (5, 3))]);
        assert_eq!(targets(&s), [Pos::new(5, 3), Pos::new(8, 8), Pos::new(1, 5)]);
        let mut aim = Aim::start(&s, 2);
        assert_eq!(aim.cursor, Pos::new(5, 3));
        let mut cursors = Vec::new();
        for _ in 0..3 {
            assert_eq!(aim.key(&s, AimKey::Next), AimOutcome::Moved);
            cursors.push(aim.cursor);
        }
        assert_eq!(cursors, [Pos::new(8, 8), Pos::new(1, 5), Pos::new(5, 3)], "round again");
        aim.key(&s, AimKey::Previous);
        assert_eq!(aim.cursor, Pos::new(1, 5));
        let throw = Action::Throw { slot: 2, at: Pos::new(1, 5) };
        assert_eq!(aim.key(&s, AimKey::Throw), AimOutcome::Throw(throw));
    }

    #[test]
    fn with_no_monster_in_sight_the_cursor_starts_on_the_player_and_must_move() {
        let s = among(&[]);
        let mut aim = Aim::start(&s, 0);
        assert_eq!(aim.cursor, Pos::new(5, 5));
        assert!(matches!(aim.key(&s, AimKey::Throw), AimOutcome::Refuse(_)));
        assert!(matches!(aim.key(&s, AimKey::Next), AimOutcome::Refuse(_)));
        aim.key(&s, AimKey::Step(Dir::NE));
        aim.key(&s, AimKey::Step(Dir::E));
        let throw = Action::Throw { slot: 0, at: Pos::new(7, 4) };
        assert_eq!(aim.key(&s, AimKey::Throw), AimOutcome::Throw(throw));
        assert_eq!(aim.key(&s, AimKey::Cancel), AimOutcome::Cancel);
    }

    #[test]
    fn a_wand_is_aimed_as_a_missile_and_zapped() {
        let s = among(&[(1, (6, 5))]);
        let mut aim = Aim::zap(&s, 4);
        assert_eq!((aim.cursor, aim.zaps), (Pos::new(6, 5), true));
        let zap = Action::Zap { slot: 4, at: Pos::new(6, 5) };
        assert_eq!(aim.key(&s, AimKey::Throw), AimOutcome::Throw(zap));
        aim.key(&s, AimKey::Step(Dir::W));
        let own = aim.key(&s, AimKey::Throw);
        assert_eq!(own, AimOutcome::Refuse("Move the cursor onto what to zap at (or Esc)."));
    }

    #[test]
    fn the_cursor_stays_on_the_map() {
        let s = among(&[]);
        let mut aim = Aim::start(&s, 0);
        for _ in 0..30 {
            aim.key(&s, AimKey::Step(Dir::NW));
        }
        assert_eq!(aim.cursor, Pos::new(0, 0));
        for dir in [Dir::SE, Dir::E] {
            for _ in 0..30 {
                aim.key(&s, AimKey::Step(dir));
            }
        }
        assert_eq!(aim.cursor, Pos::new(19, 9));
    }
}
