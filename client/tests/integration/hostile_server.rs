//! The state mirror against any sequence of server messages, as a broken or
//! hostile server might send: it never panics, a message that does not fit
//! changes nothing, and what it holds stays within the protocol's limits.

use gloam_client::ClientState;
use gloam_client::state::{LOG_LINES, MAX_NOTE_CHARS, MAX_ROSTER};
use gloam_protocol::{
    Carried, ChatTo, DeathRecord, FloorChange, ItemClass, ItemInfo, KindInfo, Lying,
    MAX_MAP_HEIGHT, MAX_MAP_WIDTH, Member, MonsterChange, MonsterId, PlayerChange, PlayerId, Pos,
    Refusal, ServerMsg, SightDiff, Terrain, Wound,
};
use proptest::prelude::*;

fn terrain() -> impl Strategy<Value = Terrain> {
    proptest::sample::select(Terrain::ALL.to_vec())
}

/// Mostly small maps, so that sight and players often fit; sometimes huge.
fn side() -> impl Strategy<Value = u16> {
    prop_oneof![8 => 1u16..24, 1 => Just(0u16), 1 => 250u16..=u16::MAX]
}

fn pos() -> impl Strategy<Value = Pos> {
    prop_oneof![4 => (0u16..24, 0u16..24), 1 => (any::<u16>(), any::<u16>())]
        .prop_map(|(x, y)| Pos::new(x, y))
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![4 => "[a-d]{1,3}", 1 => "[a-z]{0,40}"]
}

fn change() -> impl Strategy<Value = PlayerChange> {
    let id = (0u32..4).prop_map(PlayerId);
    prop_oneof![
        (id.clone(), name(), pos()).prop_map(|(id, name, at)| PlayerChange::Appeared {
            id,
            name,
            at
        }),
        (id.clone(), pos()).prop_map(|(id, at)| PlayerChange::Moved { id, at }),
        id.prop_map(|id| PlayerChange::Vanished { id }),
    ]
}

fn wound() -> impl Strategy<Value = Wound> {
    proptest::sample::select(Wound::ALL.to_vec())
}

/// Monsters of the first few kinds (sometimes of kinds never named).
fn monster_change() -> impl Strategy<Value = MonsterChange> {
    let id = (0u32..4).prop_map(MonsterId);
    prop_oneof![
        (id.clone(), prop_oneof![4 => 0u16..3, 1 => any::<u16>()], pos(), wound(), any::<bool>())
            .prop_map(|(id, kind, at, wound, asleep)| MonsterChange::Appeared {
                id,
                kind,
                at,
                wound,
                asleep
            }),
        (id.clone(), pos()).prop_map(|(id, at)| MonsterChange::Moved { id, at }),
        (id.clone(), any::<bool>()).prop_map(|(id, asleep)| MonsterChange::Slept { id, asleep }),
        (id.clone(), wound()).prop_map(|(id, wound)| MonsterChange::Hurt { id, wound }),
        id.prop_map(|id| MonsterChange::Vanished { id }),
    ]
}

/// Piles of the first few kinds of item (sometimes of kinds never named).
fn floor_change() -> impl Strategy<Value = FloorChange> {
    let top = (prop_oneof![4 => 0u16..3, 1 => any::<u16>()], 0u16..30, any::<bool>())
        .prop_map(|(kind, count, more)| Lying { kind, count, more });
    (pos(), proptest::option::of(top)).prop_map(|(at, top)| FloorChange { at, top })
}

fn record() -> impl Strategy<Value = DeathRecord> {
    (name(), any::<u16>(), name(), any::<u8>(), any::<bool>()).prop_map(
        |(name, depth, killed_by, level, escaped)| DeathRecord {
            name,
            depth,
            rounds: 10,
            kills: 1,
            killed_by,
            when: 0,
            level,
            escaped,
            morgue: 0,
        },
    )
}

/// A map read: mostly a few cells of a small map with one terrain entry
/// each (sometimes one too many or too few), sometimes any bytes.
fn mapped() -> impl Strategy<Value = ServerMsg> {
    let few = (proptest::collection::btree_set(0usize..600, 0..8), -1i8..=1, terrain()).prop_map(
        |(cells, skew, t)| {
            let mut remembered = vec![0u8; cells.last().map_or(0, |c| c / 8 + 1)];
            cells.iter().for_each(|c| remembered[c / 8] |= 1 << (c % 8));
            let count = (cells.len() as isize + isize::from(skew)).max(0) as usize;
            ServerMsg::Mapped { remembered, terrain: vec![t; count] }
        },
    );
    let any_bytes = (
        proptest::collection::vec(any::<u8>(), 0..60),
        proptest::collection::vec(terrain(), 0..12),
    )
        .prop_map(|(remembered, terrain)| ServerMsg::Mapped { remembered, terrain });
    prop_oneof![3 => few, 1 => any_bytes]
}

/// A party of the first few players (the welcomed one is 0), sometimes
/// with more hit points than their most.
fn party() -> impl Strategy<Value = Vec<Member>> {
    let member = (0u32..4, name(), 0u16..40, 0u16..40, any::<u8>())
        .prop_map(|(id, name, hp, max, level)| Member { id: PlayerId(id), name, hp, max, level });
    proptest::collection::vec(member, 0..5)
}

/// A cell of the radius-8 sight disc: mostly on the middle row (within a
/// few cells of the viewer, so on small maps too), sometimes anywhere.
fn disc_index() -> impl Strategy<Value = u8> {
    prop_oneof![3 => 95u8..102, 1 => any::<u8>()]
}

fn diff() -> impl Strategy<Value = SightDiff> {
    (
        pos(),
        proptest::collection::vec(disc_index(), 0..3),
        proptest::collection::vec(disc_index(), 0..3),
        proptest::collection::vec((disc_index(), terrain()), 0..8),
        proptest::collection::vec(change(), 0..4),
        proptest::collection::vec(monster_change(), 0..4),
        proptest::collection::vec(floor_change(), 0..3),
    )
        .prop_map(|(at, hidden, shown, revealed, players, monsters, floor)| SightDiff {
            at,
            hidden,
            shown,
            revealed,
            players,
            monsters,
            floor,
        })
}

fn message() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![
        1 => (side(), side(), 0u8..12).prop_map(|(width, height, sight_radius)| ServerMsg::Welcome {
            you: PlayerId(0),
            width,
            height,
            sight_radius,
            actions_per_second: 20,
            token: None,
            world: String::new(),
        }),
        2 => (side(), side(), proptest::collection::vec(any::<u8>(), 0..8), proptest::collection::vec(terrain(), 0..12))
            .prop_map(|(width, height, remembered, terrain)| ServerMsg::EnterLevel {
                depth: 1, width, height, remembered, terrain,
            }),
        6 => diff().prop_map(ServerMsg::Sight),
        1 => diff().prop_map(ServerMsg::Displaced),
        3 => proptest::collection::vec(change(), 0..5).prop_map(ServerMsg::Players),
        1 => proptest::collection::vec(name(), 0..5).prop_map(ServerMsg::Roster),
        1 => proptest::collection::vec(name(), 0..4).prop_map(ServerMsg::Joined),
        1 => proptest::collection::vec(name(), 0..4).prop_map(ServerMsg::Left),
        1 => "[ -~]{0,600}".prop_map(ServerMsg::Note),
        1 => Just(ServerMsg::Refused(Refusal::NameTaken)),
        1 => "[ -~]{0,600}".prop_map(ServerMsg::Combat),
        1 => "[ -~]{0,600}".prop_map(ServerMsg::Others),
        1 => proptest::collection::vec((name(), any::<char>()), 0..4).prop_map(|kinds| {
            ServerMsg::Kinds(kinds.into_iter().map(|(name, glyph)| KindInfo { name, glyph, colour: [9, 9, 9] }).collect())
        }),
        3 => proptest::collection::vec(monster_change(), 0..5).prop_map(ServerMsg::Monsters),
        1 => proptest::collection::vec((name(), any::<char>()), 0..4).prop_map(|kinds| {
            ServerMsg::ItemKinds(kinds.into_iter().map(|(name, glyph)| ItemInfo { name, glyph, colour: [9, 9, 9], class: ItemClass::Potion, known: true }).collect())
        }),
        2 => proptest::collection::vec(floor_change(), 0..5).prop_map(ServerMsg::Floor),
        1 => proptest::collection::vec((0u16..4, 0u16..5), 0..30).prop_map(|pack| {
            ServerMsg::Pack(pack.into_iter().map(|(kind, count)| Carried { kind, count, equipped: false }).collect())
        }),
        1 => (any::<u16>(), any::<u16>()).prop_map(|(hp, max)| ServerMsg::Vitals { hp, max }),
        1 => proptest::collection::vec(name(), 0..3).prop_map(ServerMsg::Waiting),
        3 => mapped(),
        1 => (any::<u8>(), any::<u32>(), any::<u32>()).prop_map(|(level, xp, next)| ServerMsg::Experience { level, xp, next }),
        2 => party().prop_map(ServerMsg::Party),
        1 => record().prop_map(ServerMsg::Died),
        1 => record().prop_map(ServerMsg::Escaped),
        1 => proptest::collection::vec(record(), 0..3).prop_map(ServerMsg::Graveyard),
        2 => (0u32..3, name(), prop_oneof![Just(ChatTo::Depth), Just(ChatTo::Everyone), name().prop_map(ChatTo::Player)], ".{0,260}")
            .prop_map(|(from, name, to, text)| ServerMsg::Chat { from: PlayerId(from), name, to, text }),
        1 => (name(), 0u32..3).prop_map(|(player, you)| ServerMsg::Watching { player, you: PlayerId(you) }),
        1 => proptest::collection::vec(name(), 0..300).prop_map(ServerMsg::Watchers),
        1 => proptest::collection::vec((name(), any::<u8>(), any::<bool>()), 0..600).prop_map(|all| {
            ServerMsg::Who(all.into_iter().map(|(name, watchers, watchable)| gloam_protocol::Playing { name, watchers, watchable }).collect())
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn any_messages_leave_the_mirror_whole_and_bounded(
        on_a_level in any::<bool>(),
        msgs in proptest::collection::vec(message(), 1..40)
    ) {
        let mut state = if on_a_level {
            gloam_client::testing::on_level(PlayerId(0), 20, 20, 1)
        } else {
            ClientState::new()
        };
        for msg in &msgs {
            let before = state.clone();
            if state.apply(msg).is_err() {
                prop_assert_eq!(&state, &before, "a refused message changed the mirror: {:?}", msg);
            }
            prop_assert!(state.width <= MAX_MAP_WIDTH && state.height <= MAX_MAP_HEIGHT);
            prop_assert!(state.known_cells().count() <= usize::from(MAX_MAP_WIDTH) * usize::from(MAX_MAP_HEIGHT));
            prop_assert!(state.roster.len() <= MAX_ROSTER && state.others.len() <= MAX_ROSTER);
            prop_assert!(state.log.len() <= LOG_LINES);
            prop_assert!(state.log.iter().all(|l| l.chars().count() <= MAX_NOTE_CHARS));
            if let Some(at) = state.at {
                prop_assert!(at.x < state.width && at.y < state.height);
            }
            for other in state.others.values() {
                prop_assert!(other.at.x < state.width && other.at.y < state.height);
            }
            prop_assert!(state.monsters.len() <= MAX_ROSTER);
            for m in state.monsters.values() {
                prop_assert!(m.at.x < state.width && m.at.y < state.height);
                prop_assert!(state.kind_of(m).is_some(), "every monster is of a named kind");
            }
            if let Some((hp, max)) = state.hp {
                prop_assert!(hp <= max && max > 0);
            }
            prop_assert!(state.party.len() <= MAX_ROSTER);
            prop_assert!(state.party.iter().all(|m| m.hp <= m.max && m.max > 0));
            prop_assert!(state.party.first().is_none_or(|m| Some(m.id) == state.me), "the player first");
            prop_assert!(state.death.as_ref().is_none_or(|r| !r.escaped));
            prop_assert!(state.escape.as_ref().is_none_or(|r| r.escaped));
        }
    }
}

/// The figure from the report: a server announcing a 65535 x 65535 level
/// is refused before anything is allocated, and the mirror is as it was.
#[test]
fn a_giant_level_is_refused_before_anything_is_allocated() {
    let mut state = gloam_client::testing::welcomed(PlayerId(1), 80, 40);
    let before = state.clone();
    for msg in [
        gloam_client::testing::welcome(PlayerId(1), u16::MAX, u16::MAX),
        gloam_client::testing::enter_level(1, u16::MAX, u16::MAX),
    ] {
        let refused = state.apply(&msg);
        assert!(refused.is_err(), "{msg:?}");
        assert_eq!(state, before);
    }
    // A step off the map after a good level changes nothing either.
    state.apply(&gloam_client::testing::enter_level(1, 80, 40)).unwrap();
    let before = state.clone();
    let bad = SightDiff {
        at: Pos::new(5, 5),
        // The middle of the radius-8 disc: the viewer's own cell.
        revealed: vec![(98, Terrain::Floor)],
        players: vec![PlayerChange::Moved { id: PlayerId(9), at: Pos::new(1, 1) }],
        ..SightDiff::default()
    };
    assert!(state.apply(&ServerMsg::Sight(bad)).is_err());
    assert_eq!(state, before, "the revealed cell was not taken from a refused diff");
}
