//! Looking (`x`): a cursor over the map, moved as the aiming cursor is
//! (direction keys a cell, Tab and `-` from monster to monster, see
//! [`crate::aim`]), that names what the player knows of the cell under
//! it: who stands there (a monster as the list beside the map tells it,
//! a player with its hit points when in the party), the top item of a
//! pile, and the ground. Only what the player was told: a cell out of
//! sight is named as remembered, with nobody on it.

use gloam_protocol::{Lying, PlayerId, Pos, Terrain};

use crate::aim::{next_target, step_cursor, targets};
use crate::in_sight::{Seen, wound_words};
use crate::input::AimKey;
use crate::state::ClientState;

/// What an unknown cell says.
pub const UNKNOWN: &str = "You do not know this place.";

/// A look going on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    /// The cell named.
    pub cursor: Pos,
    /// Which of the monsters in sight, nearest first, Tab chose last.
    target: usize,
}

impl Look {
    /// A look from the nearest monster in sight, else from the player.
    pub fn start(state: &ClientState) -> Self {
        let me = state.at.unwrap_or_default();
        Self { cursor: targets(state).first().copied().unwrap_or(me), target: 0 }
    }

    /// What `key` does: moves the cursor, and gives false when the look
    /// ends.
    pub(crate) fn key(&mut self, state: &ClientState, key: AimKey) -> bool {
        match key {
            AimKey::Cancel => return false,
            AimKey::Step(dir) => step_cursor(state, &mut self.cursor, dir),
            AimKey::Next | AimKey::Previous => {
                let back = key == AimKey::Previous;
                next_target(state, (&mut self.cursor, &mut self.target), back);
            }
            AimKey::Throw => {}
        }
        true
    }
}

/// What the player knows of the cell at `pos`, in words: `a jackal,
/// wounded, asleep; stairs down`, `a dagger, with more under it; the
/// floor (out of sight)`, or [`UNKNOWN`].
pub fn describe(state: &ClientState, pos: Pos) -> String {
    let Some(terrain) = state.terrain(pos) else { return UNKNOWN.to_owned() };
    let in_sight = state.is_visible(pos) || state.at == Some(pos);
    let mut parts = Vec::new();
    if in_sight {
        parts.extend(who_stands(state, pos));
    }
    if let Some(top) = state.floor.get(&pos) {
        parts.push(pile(state, top));
    }
    parts.push(ground(terrain).to_owned());
    let said = parts.join("; ");
    if in_sight { said } else { format!("{said} (out of sight)") }
}

/// Who stands at `pos`, in sight: the player itself, another player, or
/// a monster.
fn who_stands(state: &ClientState, pos: Pos) -> Option<String> {
    if state.at == Some(pos) {
        let me = state.me?;
        return Some(match state.watched() {
            Some(name) => with_hit_points(state, me, name),
            None => "you".to_owned(),
        });
    }
    if let Some((id, other)) = state.others.iter().find(|(_, o)| o.at == pos) {
        return Some(with_hit_points(state, *id, &other.name));
    }
    let monster = state.monsters.values().find(|m| m.at == pos)?;
    Some(monster_words(&Seen::of(state, monster, &crate::palette::DEFAULT)))
}

/// `a jackal, unhurt`, `an orc, wounded, asleep`.
fn monster_words(seen: &Seen) -> String {
    let mut words = format!("{}, {}", a(&seen.name), wound_words(seen.wound));
    if seen.asleep {
        words.push_str(", asleep");
    }
    words
}

/// A player's name, with its hit points when it is in the party panel.
fn with_hit_points(state: &ClientState, id: PlayerId, name: &str) -> String {
    match state.party.iter().find(|m| m.id == id) {
        Some(m) if state.party.len() > 1 => format!("{name}, {}/{} HP", m.hp, m.max),
        _ => name.to_owned(),
    }
}

/// The top item of a pile: `a dagger`, `dart (12)`, and whether more lies
/// under it.
fn pile(state: &ClientState, top: &Lying) -> String {
    let name = state.item_kind(top.kind).map_or("something", |k| k.name.as_str());
    let mut words = match top.count {
        1 => a(name),
        n => format!("{name} ({n})"),
    };
    if top.more {
        words.push_str(", with more under it");
    }
    words
}

/// The ground, in words.
fn ground(terrain: Terrain) -> &'static str {
    match terrain {
        Terrain::Wall => "a wall",
        Terrain::Floor => "the floor",
        Terrain::StairsDown => "stairs down",
        Terrain::StairsUp => "stairs up",
    }
}

/// `name` with `a` or `an` before it (a name with its own `the` as it is).
/// `name` with "the" before it ("the jackal"), a unique's as it is.
pub(crate) fn the(name: &str) -> String {
    if is_proper(name) { name.to_owned() } else { format!("the {name}") }
}

/// Whether `name` is a unique's, a proper name: the server capitalises
/// those alone ("Old Mother Rot"), and they take no article.
fn is_proper(name: &str) -> bool {
    name.starts_with(|c: char| c.is_uppercase())
}

fn a(name: &str) -> String {
    match name.chars().next().map(|c| c.to_ascii_lowercase()) {
        _ if name.starts_with("the ") || is_proper(name) => name.to_owned(),
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {name}"),
        _ => format!("a {name}"),
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{
        Disc, FloorChange, ItemClass, ItemInfo, KindInfo, Member, MonsterChange, MonsterId,
        PlayerChange, ServerMsg, SightDiff, Wound,
    };

    use super::*;

    /// A unique's name (capitalised by the server) takes no article.
    #[test]
    fn a_unique_is_named_without_an_article() {
        assert_eq!(
            (a("Old Mother Rot"), the("Old Mother Rot")),
            ("Old Mother Rot".into(), "Old Mother Rot".into())
        );
        assert_eq!((a("orc"), the("orc")), ("an orc".into(), "the orc".into()));
    }

    /// The player at (5, 5) of a 20 x 10 map seeing a 3 x 3 room of floor
    /// around it with stairs down at (6, 6), a jackal asleep and wounded
    /// at (4, 4), bob at (6, 4), a pile at (4, 6); (1, 1) remembered floor
    /// with a dart on it, out of sight.
    fn room() -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        let kinds = vec![KindInfo { name: "jackal".into(), glyph: 'j', colour: [9, 9, 9] }];
        s.apply(&ServerMsg::Kinds(kinds)).unwrap();
        let item = |name: &str, class| ItemInfo {
            name: name.into(),
            glyph: ')',
            colour: [1, 1, 1],
            class,
            known: true,
        };
        let items = vec![item("dagger", ItemClass::Weapon), item("dart", ItemClass::Missile)];
        s.apply(&ServerMsg::ItemKinds(items)).unwrap();
        let disc = Disc::new(gloam_protocol::SIGHT_RADIUS);
        let mut revealed = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let t = if (dx, dy) == (1, 1) { Terrain::StairsDown } else { Terrain::Floor };
                revealed.push((disc.index(dx, dy).unwrap(), t));
            }
        }
        revealed.push((disc.index(-4, -4).unwrap(), Terrain::Floor));
        let jackal = MonsterChange::Appeared {
            id: MonsterId(1),
            kind: 0,
            at: Pos::new(4, 4),
            wound: Wound::Wounded,
            asleep: true,
        };
        let bob =
            PlayerChange::Appeared { id: PlayerId(2), name: "bob".into(), at: Pos::new(6, 4) };
        let lying = |x, y, kind, count, more| FloorChange {
            at: Pos::new(x, y),
            top: Some(Lying { kind, count, more }),
        };
        let diff = SightDiff {
            at: Pos::new(5, 5),
            revealed,
            monsters: vec![jackal],
            players: vec![bob],
            floor: vec![lying(4, 6, 0, 1, true), lying(1, 1, 1, 12, false)],
            ..SightDiff::default()
        };
        s.apply(&ServerMsg::Sight(diff)).unwrap();
        let hide = vec![disc.index(-4, -4).unwrap()];
        let out_of_sight = SightDiff { at: Pos::new(5, 5), hidden: hide, ..SightDiff::default() };
        s.apply(&ServerMsg::Sight(out_of_sight)).unwrap();
        s
    }

    #[test]
    fn a_look_names_who_stands_there_the_pile_and_the_ground() {
        let s = room();
        let at = |x, y| describe(&s, Pos::new(x, y));
        assert_eq!(at(4, 4), "a jackal, wounded, asleep; the floor");
        assert_eq!(at(5, 5), "you; the floor");
        assert_eq!(at(6, 6), "stairs down");
        assert_eq!(at(6, 4), "bob; the floor", "not in the party: no hit points");
        assert_eq!(at(4, 6), "a dagger, with more under it; the floor");
        assert_eq!(at(1, 1), "dart (12); the floor (out of sight)");
        assert_eq!(at(9, 9), UNKNOWN);
    }

    #[test]
    fn a_party_members_hit_points_are_named() {
        let mut s = room();
        let member = |id, name: &str, hp| Member {
            id: PlayerId(id),
            name: name.into(),
            hp,
            max: 30,
            level: 1,
        };
        s.apply(&ServerMsg::Party(vec![member(1, "ann", 30), member(2, "bob", 12)])).unwrap();
        assert_eq!(describe(&s, Pos::new(6, 4)), "bob, 12/30 HP; the floor");
        assert_eq!(describe(&s, Pos::new(5, 5)), "you; the floor");
    }

    #[test]
    fn the_look_starts_on_the_nearest_monster_moves_and_leaves() {
        let s = room();
        let mut look = Look::start(&s);
        assert_eq!(look.cursor, Pos::new(4, 4), "the jackal");
        assert!(look.key(&s, AimKey::Step(gloam_protocol::Dir::S)));
        assert_eq!(look.cursor, Pos::new(4, 5));
        assert!(look.key(&s, AimKey::Next));
        assert_eq!(look.cursor, Pos::new(4, 4), "back to the jackal");
        assert!(!look.key(&s, AimKey::Cancel));
        let alone = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        assert_eq!(Look::start(&alone).cursor, Pos::default());
    }

    #[test]
    fn names_take_a_or_an() {
        assert_eq!(a("orc"), "an orc");
        assert_eq!(a("jackal"), "a jackal");
        assert_eq!(a("the Gloamstone"), "the Gloamstone");
    }
}
