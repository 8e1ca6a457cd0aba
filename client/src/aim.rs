//! Aiming a throw or a zap: a cursor on the map that starts on the first
//! of those it may be aimed at, else on the player; Tab, Space or `+` go
//! to the next of them farther out, `-` back, direction keys move the
//! cursor a cell, and Enter, `.`, `t`, `f` or `z` throw or zap at it.
//! Whom the cursor goes to depends on what is aimed ([`Among`]): a throw,
//! the monsters in sight; a wand known to be a wand of healing, the other
//! players in sight; another wand the player knows (striking, slow
//! monster: its bolt passes friends by), the monsters, as a throw; a wand
//! not yet known (it may heal), the monsters in sight and then the other
//! players. Each lot is taken nearest first (by walking distance, which
//! counts a diagonal step as one; the nearer of two as far by id). The server decides whether the
//! cell is in range and what the missile or the wand's magic meets on its
//! way.

use gloam_protocol::{Action, Dir, ItemClass, Pos};

use crate::input::AimKey;
use crate::state::ClientState;

/// What a wand of healing is called once the player knows it (its name in
/// `assets/items.toml`, which the server tells once the kind is learnt;
/// until then it goes by its look, "an oak wand").
pub const HEALING_WAND: &str = "wand of healing";

/// Whom Tab takes an aiming cursor to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Among {
    /// The monsters in sight: a throw, or a wand known to do harm.
    Monsters,
    /// The other players in sight: a wand known to heal.
    Friends,
    /// The monsters in sight, then the other players: a wand not known.
    Anyone,
}

impl Among {
    /// Whom a wand in the pack's `slot` is aimed at: the other players
    /// when the player knows it for a wand of healing, the monsters when
    /// it knows it for another, else anyone.
    pub fn for_wand(state: &ClientState, slot: u8) -> Self {
        let carried = state.pack.get(usize::from(slot));
        let kind = carried.and_then(|c| state.item_kind(c.kind));
        match kind {
            Some(k) if k.class == ItemClass::Wand && k.name == HEALING_WAND => Among::Friends,
            Some(k) if k.class == ItemClass::Wand && k.known => Among::Monsters,
            _ => Among::Anyone,
        }
    }

    /// Why Tab finds nobody to go to.
    fn nobody(self) -> &'static str {
        match self {
            Among::Monsters => "No monster in sight: move the cursor.",
            Among::Friends => "No other player in sight: move the cursor.",
            Among::Anyone => "Nobody in sight: move the cursor.",
        }
    }
}

/// A throw (or a zap) being aimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aim {
    /// The pack slot of the missile (or the wand).
    pub slot: u8,
    /// A wand is zapped, not a missile thrown.
    pub zaps: bool,
    /// The cell it would be thrown at.
    pub cursor: Pos,
    /// Whom Tab goes to.
    pub among: Among,
    /// Which of them, in the order [`aimed_at`] gives, Tab chose last.
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

/// The places of `all` (each with its id), nearest the player first (the
/// nearer of two as far by id, so the order holds from key to key).
fn nearest_first<I: Ord + Copy>(state: &ClientState, mut all: Vec<(Pos, I)>) -> Vec<Pos> {
    let Some(me) = state.at else { return Vec::new() };
    all.sort_by_key(|&(at, id)| (distance(me, at), id));
    all.into_iter().map(|(at, _)| at).collect()
}

/// Where the monsters in sight stand, nearest the player first.
pub fn targets(state: &ClientState) -> Vec<Pos> {
    nearest_first(state, state.monsters.iter().map(|(id, m)| (m.at, *id)).collect())
}

/// Where the other players in sight stand, nearest the player first.
pub fn friends(state: &ClientState) -> Vec<Pos> {
    nearest_first(state, state.others.iter().map(|(id, o)| (o.at, *id)).collect())
}

/// Where those `among` stand, in the order Tab goes to them.
pub fn aimed_at(state: &ClientState, among: Among) -> Vec<Pos> {
    match among {
        Among::Monsters => targets(state),
        Among::Friends => friends(state),
        Among::Anyone => [targets(state), friends(state)].concat(),
    }
}

impl Aim {
    /// Aiming the missile in `slot`, the cursor on the nearest monster in
    /// sight, else on the player.
    pub fn start(state: &ClientState, slot: u8) -> Self {
        Self::among(state, slot, Among::Monsters)
    }

    /// Aiming the wand in `slot`: a wand of healing from the nearest other
    /// player in sight, any other from the nearest monster, else the
    /// nearest other player; else from the player.
    pub fn zap(state: &ClientState, slot: u8) -> Self {
        Self { zaps: true, ..Self::among(state, slot, Among::for_wand(state, slot)) }
    }

    /// Aiming at those `among`, from the first of them (else the player).
    fn among(state: &ClientState, slot: u8, among: Among) -> Self {
        let me = state.at.unwrap_or_default();
        let cursor = aimed_at(state, among).first().copied().unwrap_or(me);
        Self { slot, zaps: false, cursor, among, target: 0 }
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
                let among = aimed_at(state, self.among);
                if next_among(state, &among, (&mut self.cursor, &mut self.target), back) {
                    AimOutcome::Moved
                } else {
                    AimOutcome::Refuse(self.among.nobody())
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
pub(crate) fn next_target(state: &ClientState, cursor: (&mut Pos, &mut usize), back: bool) -> bool {
    next_among(state, &targets(state), cursor, back)
}

/// Puts a cursor on the next of `among` (or, `back`, the one before),
/// `target` being which of them it was put on last; from the player, the
/// first press goes to the first (or, back, the last). False, and nothing
/// moved, with `among` empty.
fn next_among(
    state: &ClientState,
    among: &[Pos],
    (cursor, target): (&mut Pos, &mut usize),
    back: bool,
) -> bool {
    if among.is_empty() {
        return false;
    }
    let n = among.len();
    *target = match (Some(*cursor) == state.at, back) {
        (true, false) => 0,
        (true, true) => n - 1,
        (false, false) => (*target + 1) % n,
        (false, true) => (*target + n - 1) % n,
    };
    *cursor = among[*target];
    true
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{
        Carried, ItemInfo, KindInfo, MonsterChange, MonsterId, PlayerChange, PlayerId, ServerMsg,
        SightDiff, Wound,
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

    /// [`among`], with other players at `at` (ids from 2) and a pack of a
    /// wand of healing (a), an oak wand not yet known (b), darts (c) and a
    /// wand of striking (d).
    fn with_friends(monsters: &[(u32, (u16, u16))], friends: &[(u16, u16)]) -> ClientState {
        let mut s = among(monsters);
        let item = |name: &str, class| ItemInfo {
            name: name.into(),
            glyph: '-',
            colour: [9, 9, 9],
            class,
            known: name != "oak wand",
        };
        let kinds = vec![
            item(HEALING_WAND, ItemClass::Wand),
            item("oak wand", ItemClass::Wand),
            item("dart", ItemClass::Missile),
            item("wand of striking", ItemClass::Wand),
        ];
        s.apply(&ServerMsg::ItemKinds(kinds)).unwrap();
        let pack = (0..4).map(|kind| Carried { kind, count: 4, equipped: false });
        s.apply(&ServerMsg::Pack(pack.collect())).unwrap();
        let appeared = friends.iter().zip(2..).map(|(&(x, y), id)| PlayerChange::Appeared {
            id: PlayerId(id),
            name: format!("p{id}"),
            at: Pos::new(x, y),
        });
        s.apply(&ServerMsg::Players(appeared.collect())).unwrap();
        s
    }

    /// Where the cursor goes on `n` presses of Tab.
    fn tabbed(aim: &mut Aim, s: &ClientState, n: usize) -> Vec<Pos> {
        (0..n)
            .map(|_| {
                assert_eq!(aim.key(s, AimKey::Next), AimOutcome::Moved);
                aim.cursor
            })
            .collect()
    }

    #[test]
    fn a_wand_known_to_heal_starts_on_the_nearest_friend_and_tab_goes_to_friends_only() {
        // p2 three steps away, p3 one, p4 three too (after p2, by id).
        let s = with_friends(&[(1, (6, 5))], &[(8, 5), (5, 4), (2, 2)]);
        let mut aim = Aim::zap(&s, 0);
        assert_eq!((aim.cursor, aim.among), (Pos::new(5, 4), Among::Friends));
        let round = [Pos::new(8, 5), Pos::new(2, 2), Pos::new(5, 4)];
        assert_eq!(tabbed(&mut aim, &s, 3), round, "never the rat beside");
        aim.key(&s, AimKey::Previous);
        assert_eq!(aim.cursor, Pos::new(2, 2));
        let zap = Action::Zap { slot: 0, at: Pos::new(2, 2) };
        assert_eq!(aim.key(&s, AimKey::Throw), AimOutcome::Throw(zap));
        let alone = with_friends(&[(1, (6, 5))], &[]);
        let mut aim = Aim::zap(&alone, 0);
        assert_eq!(aim.cursor, Pos::new(5, 5), "no friend in sight: on the player");
        let nobody = AimOutcome::Refuse("No other player in sight: move the cursor.");
        assert_eq!(aim.key(&alone, AimKey::Next), nobody);
    }

    #[test]
    fn any_other_wand_goes_to_the_monsters_then_the_friends_and_a_throw_to_monsters_only() {
        let s = with_friends(&[(1, (7, 5)), (2, (5, 6))], &[(5, 4), (9, 9)]);
        let mut aim = Aim::zap(&s, 1);
        assert_eq!((aim.cursor, aim.among), (Pos::new(5, 6), Among::Anyone), "a monster first");
        let round = [Pos::new(7, 5), Pos::new(5, 4), Pos::new(9, 9), Pos::new(5, 6)];
        assert_eq!(tabbed(&mut aim, &s, 4), round);
        let mut throw = Aim::start(&s, 2);
        assert_eq!(throw.among, Among::Monsters);
        assert_eq!(tabbed(&mut throw, &s, 2), [Pos::new(7, 5), Pos::new(5, 6)]);
        let only_friends = with_friends(&[], &[(9, 9)]);
        assert_eq!(Aim::zap(&only_friends, 1).cursor, Pos::new(9, 9), "else a friend");
        assert_eq!(Aim::start(&only_friends, 2).cursor, Pos::new(5, 5), "a throw: the player");
        // A wand known to strike passes friends by: it goes to monsters only.
        let mut striking = Aim::zap(&s, 3);
        assert_eq!((striking.cursor, striking.among), (Pos::new(5, 6), Among::Monsters));
        assert_eq!(tabbed(&mut striking, &s, 2), [Pos::new(7, 5), Pos::new(5, 6)]);
        assert_eq!(Aim::zap(&only_friends, 3).cursor, Pos::new(5, 5), "no monster: the player");
    }

    /// The server's own wand of healing, as it tells the kinds of item: to
    /// a player who knows it, by the name aimed at friends; to one who
    /// does not, by its look, aimed at anyone (a renamed wand would leave
    /// the client aiming it at monsters).
    #[test]
    fn the_server_names_a_known_wand_of_healing_so_and_an_unknown_one_by_its_look() {
        use gloam_server::items::{Class, Known, Zap};
        let items = gloam_server::Config::default().world_items();
        let healing = items.find(HEALING_WAND).expect("the items have a wand of healing");
        assert!(matches!(items.kind(healing).class, Class::Wand { zap: Zap::Heal(_), .. }));
        for (known, whom) in
            [(Known::new(), Among::Anyone), (Known::from([healing]), Among::Friends)]
        {
            let mut s = among(&[]);
            s.apply(&ServerMsg::ItemKinds(items.infos_for(&known))).unwrap();
            let wand = Carried { kind: healing, count: 3, equipped: false };
            s.apply(&ServerMsg::Pack(vec![wand])).unwrap();
            assert_eq!(Among::for_wand(&s, 0), whom, "{:?}", s.item_kind(healing));
        }
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
