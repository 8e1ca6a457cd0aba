//! Strategies for arbitrary messages, for the property tests, the
//! seeded random test vectors of the browser's codec, and (with the
//! `arbitrary` feature) the client's behaviour vectors.

use crate::{
    Action, AudienceCmd, BackgroundInfo, Carried, ChatTo, ClientMsg, DeathRecord, Dir, FloorChange,
    ItemClass, ItemInfo, KindInfo, Lying, Member, MonsterChange, MonsterId, PlayerChange, PlayerId,
    Playing, Pos, RecordingAsk, Refusal, ServerMsg, SightDiff, Terrain, Wound,
};
use proptest::collection::vec;
use proptest::prelude::*;

fn pos() -> impl Strategy<Value = Pos> {
    (any::<u16>(), any::<u16>()).prop_map(|(x, y)| Pos::new(x, y))
}

fn terrain() -> impl Strategy<Value = Terrain> {
    proptest::sample::select(Terrain::ALL.to_vec())
}

fn dir() -> impl Strategy<Value = Dir> {
    (0..8usize).prop_map(|i| Dir::ALL[i])
}

fn name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_-]{0,16}"
}

fn chat_to() -> impl Strategy<Value = ChatTo> {
    prop_oneof![Just(ChatTo::Depth), Just(ChatTo::Everyone), name().prop_map(ChatTo::Player)]
}

fn change() -> impl Strategy<Value = PlayerChange> {
    prop_oneof![
        (any::<u32>(), name(), pos()).prop_map(|(id, name, at)| PlayerChange::Appeared {
            id: PlayerId(id),
            name,
            at
        }),
        (any::<u32>(), pos()).prop_map(|(id, at)| PlayerChange::Moved { id: PlayerId(id), at }),
        any::<u32>().prop_map(|id| PlayerChange::Vanished { id: PlayerId(id) }),
    ]
}

fn wound() -> impl Strategy<Value = Wound> {
    proptest::sample::select(Wound::ALL.to_vec())
}

fn monster_change() -> impl Strategy<Value = MonsterChange> {
    prop_oneof![
        (any::<u32>(), any::<u16>(), pos(), wound(), any::<bool>()).prop_map(
            |(id, kind, at, wound, asleep)| {
                MonsterChange::Appeared { id: MonsterId(id), kind, at, wound, asleep }
            }
        ),
        (any::<u32>(), any::<bool>())
            .prop_map(|(id, asleep)| MonsterChange::Slept { id: MonsterId(id), asleep }),
        (any::<u32>(), pos()).prop_map(|(id, at)| MonsterChange::Moved { id: MonsterId(id), at }),
        (any::<u32>(), wound())
            .prop_map(|(id, wound)| MonsterChange::Hurt { id: MonsterId(id), wound }),
        any::<u32>().prop_map(|id| MonsterChange::Vanished { id: MonsterId(id) }),
    ]
}

fn death_record() -> impl Strategy<Value = DeathRecord> {
    (
        (name(), any::<u16>(), any::<u64>(), any::<u32>(), ".{0,30}", any::<u64>()),
        any::<u8>(),
        any::<bool>(),
        any::<u32>(),
    )
        .prop_map(|((name, depth, rounds, kills, killed_by, when), level, escaped, morgue)| {
            DeathRecord { name, depth, rounds, kills, killed_by, when, level, escaped, morgue }
        })
}

fn floor_change() -> impl Strategy<Value = FloorChange> {
    (pos(), any::<Option<(u16, u16, bool)>>()).prop_map(|(at, top)| FloorChange {
        at,
        top: top.map(|(kind, count, more)| Lying { kind, count, more }),
    })
}

fn item_class() -> impl Strategy<Value = ItemClass> {
    prop_oneof![
        Just(ItemClass::Potion),
        Just(ItemClass::Scroll),
        Just(ItemClass::Weapon),
        Just(ItemClass::Armour),
        Just(ItemClass::Missile),
        Just(ItemClass::Artifact),
        Just(ItemClass::Wand),
    ]
}

fn diff() -> impl Strategy<Value = SightDiff> {
    (
        pos(),
        vec(any::<u8>(), 0..40),
        vec(any::<u8>(), 0..40),
        vec((any::<u8>(), terrain()), 0..40),
        vec(change(), 0..4),
        vec(monster_change(), 0..4),
        vec(floor_change(), 0..4),
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

/// The welcome, refusals, the levels and sight, who is about.
fn joining_msg() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![
        (
            any::<u32>(),
            any::<u16>(),
            any::<u16>(),
            any::<u8>(),
            any::<u16>(),
            any::<Option<[u8; 16]>>(),
            ".{0,40}"
        )
            .prop_map(
                |(id, width, height, sight_radius, actions_per_second, token, world)| {
                    ServerMsg::Welcome {
                        you: PlayerId(id),
                        width,
                        height,
                        sight_radius,
                        actions_per_second,
                        token,
                        world,
                    }
                }
            ),
        prop_oneof![
            any::<u32>().prop_map(|server| Refusal::WrongVersion { server }),
            ".{0,40}".prop_map(|reason| Refusal::NameInvalid { reason }),
            Just(Refusal::NameTaken),
            Just(Refusal::WrongToken),
            ".{0,40}".prop_map(|reason| Refusal::Unavailable { reason }),
            ".{0,40}".prop_map(|reason| Refusal::CannotWatch { reason }),
            any::<u32>().prop_map(|players| Refusal::Full { players }),
            ".{0,20}".prop_map(|name| Refusal::NoSuchBackground { name }),
            ".{0,40}".prop_map(|reason| Refusal::NoRecording { reason }),
            proptest::option::of(".{0,40}").prop_map(|elsewhere| Refusal::Draining { elsewhere }),
        ]
        .prop_map(ServerMsg::Refused),
        (
            any::<u16>(),
            any::<u16>(),
            any::<u16>(),
            vec(any::<u8>(), 0..400),
            vec(terrain(), 0..400)
        )
            .prop_map(|(depth, width, height, remembered, terrain)| {
                ServerMsg::EnterLevel { depth, width, height, remembered, terrain }
            }),
        (vec(any::<u8>(), 0..400), vec(terrain(), 0..400))
            .prop_map(|(remembered, terrain)| ServerMsg::Mapped { remembered, terrain }),
        diff().prop_map(ServerMsg::Sight),
        diff().prop_map(ServerMsg::Displaced),
        vec(change(), 0..8).prop_map(ServerMsg::Players),
        vec(name(), 0..8).prop_map(ServerMsg::Roster),
        vec(name(), 0..8).prop_map(ServerMsg::Joined),
        vec(name(), 0..8).prop_map(ServerMsg::Left),
    ]
}

/// The game's lines, monsters and items.
fn thing_msg() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![
        ".{0,80}".prop_map(ServerMsg::Note),
        ".{0,80}".prop_map(ServerMsg::Combat),
        ".{0,80}".prop_map(ServerMsg::Others),
        vec((name(), any::<char>(), any::<[u8; 3]>()), 0..6).prop_map(|kinds| {
            ServerMsg::Kinds(
                kinds
                    .into_iter()
                    .map(|(name, glyph, colour)| KindInfo { name, glyph, colour })
                    .collect(),
            )
        }),
        vec(monster_change(), 0..8).prop_map(ServerMsg::Monsters),
        vec((name(), any::<char>(), any::<[u8; 3]>(), item_class(), any::<bool>()), 0..6).prop_map(
            |kinds| {
                ServerMsg::ItemKinds(
                    kinds
                        .into_iter()
                        .map(|(name, glyph, colour, class, known)| ItemInfo {
                            name,
                            glyph,
                            colour,
                            class,
                            known,
                        })
                        .collect(),
                )
            }
        ),
        vec(floor_change(), 0..8).prop_map(ServerMsg::Floor),
        vec(any::<(u16, u16, bool)>(), 0..26).prop_map(|pack| {
            ServerMsg::Pack(
                pack.into_iter()
                    .map(|(kind, count, equipped)| Carried { kind, count, equipped })
                    .collect(),
            )
        }),
        vec(background(), 0..5).prop_map(ServerMsg::Backgrounds),
        (name(), any::<u32>(), any::<u16>(), any::<u64>(), any::<u64>()).prop_map(
            |(player, you, depth, from, to)| ServerMsg::Recording {
                player,
                you: PlayerId(you),
                depth,
                from,
                to
            }
        ),
        (any::<u64>(), ".{0,80}").prop_map(|(round, line)| ServerMsg::Recorded {
            round,
            msg: Box::new(ServerMsg::Note(line))
        }),
        (any::<u64>(), diff()).prop_map(|(round, d)| ServerMsg::Recorded {
            round,
            msg: Box::new(ServerMsg::Sight(d))
        }),
        any::<bool>().prop_map(|cut| ServerMsg::RecordingEnd { cut }),
    ]
}

fn background() -> impl Strategy<Value = BackgroundInfo> {
    (name(), ".{0,60}", any::<u16>(), any::<[i8; 2]>(), any::<u8>(), any::<i8>(), vec(name(), 0..6))
        .prop_map(|(name, about, hp, [to_hit, damage], stealth, throwing, kit)| BackgroundInfo {
            name,
            about,
            hp,
            to_hit,
            damage,
            stealth,
            throwing,
            kit,
        })
}

/// Vitals, experience, the party, endings and the company kept.
fn life_msg() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![
        (any::<u16>(), any::<u16>()).prop_map(|(hp, max)| ServerMsg::Vitals { hp, max }),
        (any::<u8>(), any::<u32>(), any::<u32>())
            .prop_map(|(level, xp, next)| ServerMsg::Experience { level, xp, next }),
        vec((any::<u32>(), name(), any::<(u16, u16, u8)>()), 0..8).prop_map(|all| {
            ServerMsg::Party(
                all.into_iter()
                    .map(|(id, name, (hp, max, level))| Member {
                        id: PlayerId(id),
                        name,
                        hp,
                        max,
                        level,
                    })
                    .collect(),
            )
        }),
        death_record().prop_map(ServerMsg::Escaped),
        vec(name(), 0..4).prop_map(ServerMsg::Waiting),
        Just(ServerMsg::Stopped),
        Just(ServerMsg::Restarting),
        death_record().prop_map(ServerMsg::Died),
        vec(death_record(), 0..4).prop_map(ServerMsg::Graveyard),
        (name(), any::<u32>())
            .prop_map(|(player, you)| ServerMsg::Watching { player, you: PlayerId(you) }),
        vec(name(), 0..8).prop_map(ServerMsg::Watchers),
        vec((name(), any::<u8>(), any::<bool>()), 0..8).prop_map(|all| {
            let playing = all.into_iter();
            ServerMsg::Who(
                playing
                    .map(|(name, watchers, watchable)| Playing { name, watchers, watchable })
                    .collect(),
            )
        }),
    ]
}

/// Any message of the server's, each variant about as likely as another
/// (the groups weighted by how many they hold).
pub fn server_msg() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![10 => joining_msg(), 9 => thing_msg(), 11 => life_msg()]
}

pub fn client_msg() -> impl Strategy<Value = ClientMsg> {
    prop_oneof![
        (any::<u32>(), name(), any::<Option<[u8; 16]>>())
            .prop_map(|(version, name, token)| ClientMsg::Hello { version, name, token }),
        dir().prop_map(|d| ClientMsg::Act(Action::Move(d))),
        prop_oneof![
            Just(Action::Descend),
            Just(Action::Ascend),
            Just(Action::Wait),
            Just(Action::Quit),
            Just(Action::PickUp),
            any::<u8>().prop_map(Action::Drop),
            any::<u8>().prop_map(Action::Quaff),
            any::<u8>().prop_map(Action::Read),
            any::<u8>().prop_map(Action::Wield),
            any::<u8>().prop_map(Action::Wear),
            any::<u8>().prop_map(Action::TakeOff),
            (any::<u8>(), pos()).prop_map(|(slot, at)| Action::Throw { slot, at }),
            Just(Action::Explore),
            pos().prop_map(Action::Travel),
            Just(Action::Rest),
            (any::<u8>(), pos()).prop_map(|(slot, at)| Action::Zap { slot, at }),
        ]
        .prop_map(ClientMsg::Act),
        Just(ClientMsg::Graveyard),
        (chat_to(), ".{0,80}").prop_map(|(to, text)| ClientMsg::Chat { to, text }),
        Just(ClientMsg::Stop),
        (any::<u32>(), name(), any::<Option<[u8; 16]>>(), name()).prop_map(
            |(version, name, token, player)| ClientMsg::Watch { version, name, token, player }
        ),
        prop_oneof![
            Just(AudienceCmd::Refuse),
            Just(AudienceCmd::Allow),
            name().prop_map(AudienceCmd::Kick)
        ]
        .prop_map(ClientMsg::Audience),
        Just(ClientMsg::Who),
        Just(ClientMsg::Backgrounds),
        (any::<u32>(), name(), any::<Option<[u8; 16]>>(), name()).prop_map(
            |(version, name, token, background)| ClientMsg::Create {
                version,
                name,
                token,
                background
            }
        ),
        (any::<u32>(), name(), any::<u32>(), any::<u32>()).prop_map(
            |(version, name, life, rounds)| ClientMsg::Recording {
                version,
                ask: RecordingAsk::Grave { name, life, rounds }
            }
        ),
        (any::<u32>(), name(), any::<[u8; 16]>(), any::<(u16, u64, u64)>()).prop_map(
            |(version, name, token, (depth, from, to))| ClientMsg::Recording {
                version,
                ask: RecordingAsk::Mine { name, token, depth, from, to }
            }
        ),
        (any::<u32>(), (name(), name()), any::<[u8; 16]>(), any::<(u16, u64, u64)>()).prop_map(
            |(version, (name, player), token, (depth, from, to))| ClientMsg::Recording {
                version,
                ask: RecordingAsk::Past { name, token, player, depth, from, to }
            }
        ),
    ]
}
