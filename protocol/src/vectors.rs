//! The test vectors that keep the browser's codec (`web/src/protocol`)
//! byte for byte equal to this one. `web/test/vectors.json` holds:
//!
//! - `samples`: a sample of every variant of both messages and of every
//!   enum inside them, at the edges of the format (varint widths, empty and
//!   full lists, options both ways, non-ASCII text, packed diffs);
//! - `random`: seeded random messages from the property tests' strategies;
//! - `mutants`: frames bent from the samples (a byte changed, added or
//!   removed), with what this codec makes of them: the message, or `null`
//!   when it refuses them.
//!
//! Each gives serde's JSON of the message (the shape the TypeScript types
//! mirror) and the hex of its frame. The browser's tests decode every frame
//! and compare with the JSON, encode every message and compare with the
//! bytes, and refuse exactly the mutants refused here. The committed file
//! must be what this test generates; after changing a message, run
//! `GLOAM_WRITE_VECTORS=1 cargo test -p gloam-protocol` and commit it.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserializer, Serialize};

use crate::arbitrary::{client_msg, server_msg};
use crate::codec::{self, DecodeError};
use crate::{
    Action, AudienceCmd, BackgroundInfo, Carried, ChatTo, ClientMsg, DeathRecord, Dir, FloorChange,
    ItemClass, ItemInfo, KindInfo, Lying, Member, MonsterChange, MonsterId, PROTOCOL_VERSION,
    PlayerChange, PlayerId, Playing, Pos, RecordingAsk, Refusal, ServerMsg, SightDiff, Terrain,
    Wound,
};

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/test/vectors.json");
const STALE: &str = "vectors.json is stale: run GLOAM_WRITE_VECTORS=1 cargo test -p gloam-protocol";

/// Bytes around the varint widths' edges (250 is one byte, 251 three).
const TOKEN: [u8; 16] = [0, 1, 127, 128, 249, 250, 251, 252, 253, 254, 255, 16, 8, 4, 2, 1];

#[test]
fn vectors_json_is_fresh() {
    let fresh = render();
    if std::env::var_os("GLOAM_WRITE_VECTORS").is_some() {
        std::fs::write(PATH, &fresh).expect("writes web/test/vectors.json");
        return;
    }
    let committed = std::fs::read_to_string(PATH).unwrap_or_default();
    if committed != fresh {
        let line = committed.lines().zip(fresh.lines()).position(|(a, b)| a != b);
        let line = line.unwrap_or(committed.lines().count().min(fresh.lines().count()));
        panic!("{STALE} (it differs from line {})", line + 1);
    }
}

#[test]
fn every_variant_of_every_enum_has_a_sample() {
    let (client, server) = (client_samples(), server_samples());
    let rendered: String = client.iter().map(json).chain(server.iter().map(json)).collect();
    covers(&client, &rendered);
    covers(&server, &rendered);
    covers(&actions(), &rendered);
    covers(&chat_tos(), &rendered);
    covers(&audience_cmds(), &rendered);
    covers(&Terrain::ALL, &rendered);
    covers(&Dir::ALL, &rendered);
    covers(&Wound::ALL, &rendered);
    covers(&item_classes(), &rendered);
    covers(&refusals(), &rendered);
    covers(&monster_changes(), &rendered);
    covers(&player_changes(), &rendered);
}

#[test]
fn every_sample_round_trips_within_its_limit() {
    for msg in client_samples() {
        let bytes = codec::encode(&msg);
        assert!(bytes.len() <= codec::MAX_CLIENT_MSG, "{msg:?} is too big");
        assert_eq!(codec::decode_client(&bytes), Ok(msg));
    }
    for msg in server_samples() {
        let bytes = codec::encode(&msg);
        assert!(bytes.len() <= codec::MAX_SERVER_MSG, "{msg:?} is too big");
        assert_eq!(codec::decode_server(&bytes), Ok(msg));
    }
}

#[test]
fn the_mutants_hold_both_verdicts() {
    let verdicts: Vec<bool> = mutants().iter().map(|m| m.decoded.is_some()).collect();
    assert!(verdicts.iter().filter(|&&ok| ok).count() >= 20, "too few mutants decode");
    assert!(verdicts.iter().filter(|&&ok| !ok).count() >= 20, "too few mutants are refused");
}

/// Every variant serde knows of `T` (read from its derived `Deserialize`,
/// so a variant added later is counted) is among the samples, and every
/// sample is inside the message samples (`rendered`, their JSON).
fn covers<T: Serialize + DeserializeOwned>(samples: &[T], rendered: &str) {
    let name = std::any::type_name::<T>();
    let have: BTreeSet<String> = samples.iter().map(variant_of).collect();
    for variant in variant_names::<T>() {
        assert!(have.contains(*variant), "no sample of {name}::{variant}: add one in vectors.rs");
    }
    for sample in samples {
        assert!(
            rendered.contains(&json(sample)),
            "{name} sample {} is in no message",
            json(sample)
        );
    }
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("messages serialise to JSON")
}

/// The serde name of an externally tagged enum value's variant.
fn variant_of<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value).expect("messages serialise to JSON") {
        serde_json::Value::String(name) => name,
        serde_json::Value::Object(map) if map.len() == 1 => map.keys().next().unwrap().clone(),
        other => panic!("not an externally tagged enum: {other}"),
    }
}

/// The variant names `T`'s `Deserialize` hands to `deserialize_enum`.
fn variant_names<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Names<'a>(&'a mut &'static [&'static str]);
    impl<'de> Deserializer<'de> for Names<'_> {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not an enum"))
        }
        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _: &'static str,
            variants: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = variants;
            Err(de::Error::custom("only the names were asked for"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map struct
            identifier ignored_any
        }
    }
    let mut names: &'static [&'static str] = &[];
    let _ = T::deserialize(Names(&mut names));
    assert!(!names.is_empty(), "{} is not an enum", std::any::type_name::<T>());
    names
}

// ---- The file --------------------------------------------------------------

fn render() -> String {
    let mut random = Vec::new();
    let mut runner = seeded(29);
    for _ in 0..100 {
        random.push(vector("client", &generate(&mut runner, client_msg())));
    }
    for _ in 0..200 {
        random.push(vector("server", &generate(&mut runner, server_msg())));
    }
    let samples = client_samples()
        .iter()
        .map(|m| vector("client", m))
        .chain(server_samples().iter().map(|m| vector("server", m)))
        .collect::<Vec<_>>();
    let mutants = mutants().iter().chain(&edges()).map(Mutant::line).collect::<Vec<_>>();
    let mut out = String::from("{\n\"about\": ");
    out += &json(
        &"Generated by protocol/src/vectors.rs; do not edit: run GLOAM_WRITE_VECTORS=1 cargo test -p gloam-protocol",
    );
    for (name, lines) in [("samples", samples), ("random", random), ("mutants", mutants)] {
        write!(out, ",\n\"{name}\": [\n{}\n]", lines.join(",\n")).unwrap();
    }
    out + "\n}\n"
}

/// One line: `dir` is whose message it is ("client" or "server").
fn vector<M: Serialize>(dir: &str, msg: &M) -> String {
    format!(
        "{{\"dir\":\"{dir}\",\"variant\":{},\"json\":{},\"hex\":\"{}\"}}",
        json(&variant_of(msg)),
        json(msg),
        hex(&codec::encode(msg))
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        write!(s, "{b:02x}").unwrap();
        s
    })
}

fn seeded(seed: u8) -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

fn generate<S: Strategy>(runner: &mut TestRunner, strategy: S) -> S::Value {
    strategy.new_tree(runner).expect("strategies always generate").current()
}

/// A sample frame bent out of shape, and what this codec made of it.
struct Mutant {
    client: bool,
    bytes: Vec<u8>,
    decoded: Option<String>,
}

impl Mutant {
    fn new(client: bool, bytes: Vec<u8>) -> Self {
        fn shown<M: Serialize>(r: Result<M, DecodeError>) -> Option<String> {
            r.ok().map(|m| json(&m))
        }
        let decoded = if client {
            shown(codec::decode_client(&bytes))
        } else {
            shown(codec::decode_server(&bytes))
        };
        Mutant { client, bytes, decoded }
    }

    fn line(&self) -> String {
        let dir = if self.client { "client" } else { "server" };
        let json = self.decoded.as_deref().unwrap_or("null");
        format!("{{\"dir\":\"{dir}\",\"json\":{json},\"hex\":\"{}\"}}", hex(&self.bytes))
    }
}

/// Seeded changes to the samples' frames: a byte set (often to a varint's
/// width marker, 251 to 255), added or removed.
fn mutants() -> Vec<Mutant> {
    let frames: Vec<(bool, Vec<u8>)> = client_samples()
        .iter()
        .map(|m| (true, codec::encode(m)))
        .chain(server_samples().iter().map(|m| (false, codec::encode(m))))
        .collect();
    let mut runner = seeded(30);
    let change = (0..frames.len(), any::<prop::sample::Index>(), 0..4u8, any::<u8>(), 251..=255u8);
    (0..300)
        .map(|_| {
            let (frame, at, how, byte, marker) = generate(&mut runner, change.clone());
            let (client, mut bytes) = frames[frame].clone();
            let at = at.index(bytes.len());
            match how {
                0 => bytes[at] = byte,
                1 => bytes[at] = marker,
                2 => bytes.insert(at, byte),
                _ => {
                    bytes.remove(at);
                }
            }
            Mutant::new(client, bytes)
        })
        .collect()
}

/// Frames at the edges of what bincode takes: a varint longer than it needs
/// to be is taken (251 then two bytes for 5), one wider than its type is
/// not; a bool or an option's tag is 0 or 1; a char is one whole UTF-8
/// character.
fn edges() -> Vec<Mutant> {
    let client: [&[u8]; 11] = [
        &[251, 1, 0, 0, 0],                       // Act's tag as a u16: Move N
        &[252, 1, 0, 0, 0, 3],                    // Act's tag as a u32: Wait
        &[253, 1, 0, 0, 0, 0, 0, 0, 0, 3],        // the tag as a u64: refused
        &[0, 251, 11, 0, 3, b'a', b'n', b'n', 0], // Hello's version as a u16
        &[0, 252, 11, 0, 0, 0, 3, b'a', b'n', b'n', 0],
        &[0, 11, 253, 3, 0, 0, 0, 0, 0, 0, 0, b'a', b'n', b'n', 0], // a u64 length
        &[0, 11, 254, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, b'a', b'n', b'n', 0],
        &[0, 11, 3, b'a', b'n', b'n', 2], // a token's option tagged 2
        &[1, 12, 0, 251, 5, 0, 7],        // Throw at x 5 as a u16
        &[1, 12, 0, 252, 5, 0, 0, 0, 7],  // x as a u32: refused
        &[1, 12, 0, 255, 7],              // the reserved marker: refused
    ];
    let mut all: Vec<Mutant> = client.iter().map(|b| Mutant::new(true, b.to_vec())).collect();
    let kinds = |glyph: &[u8]| [&[13, 1, 1, b'o'][..], glyph, &[1, 2, 3]].concat();
    let died = |rounds: &[u8], when: &[u8]| {
        [&[24, 3, b'b', b'o', b'b', 7][..], rounds, &[0, 0], when, &[1, 0]].concat()
    };
    let server: [Vec<u8>; 11] = [
        died(&[251, 7, 0], &[252, 9, 0, 0, 0]), // u64s as a u16 and a u32
        died(&[0], &[253, 9, 0, 0, 0, 0, 0, 0, 0]),
        died(&[254, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &[0]), // a u128: refused
        vec![29, 1, 1, b'a', 0, 2], // a Who entry's bool of 2
        vec![29, 1, 1, b'a', 0, 1],
        kinds(&[0xc3, 0xa9]),             // é
        kinds(&[0xc0, 0x80]),             // an overlong NUL
        kinds(&[0xed, 0xa0, 0x80]),       // a surrogate
        kinds(&[0xf4, 0x90, 0x80, 0x80]), // past U+10FFFF
        vec![4, 0, 0, 251, 1, 0, 0x0e],   // a diff's cells' length as a u16
        vec![4, 0, 0, 2, 0x0e, 0],        // a byte of cells too many
    ];
    all.extend(server.into_iter().map(|b| Mutant::new(false, b)));
    all
}

// ---- The samples -----------------------------------------------------------

fn item_classes() -> Vec<ItemClass> {
    use ItemClass::*;
    vec![Potion, Scroll, Weapon, Armour, Missile, Artifact, Wand]
}

fn actions() -> Vec<Action> {
    use Action::*;
    let mut all: Vec<Action> = Dir::ALL.into_iter().map(Move).collect();
    all.extend([Descend, Ascend, Wait, Quit, PickUp, Drop(0), Quaff(25), Read(250), Wield(251)]);
    all.extend([Wear(255), TakeOff(1), Explore, Rest, Travel(Pos::new(79, 39))]);
    all.extend([Throw { slot: 3, at: Pos::new(250, 251) }, Travel(Pos::new(65535, 65535))]);
    all.push(Zap { slot: 4, at: Pos::new(7, 300) });
    all
}

fn chat_tos() -> Vec<ChatTo> {
    vec![
        ChatTo::Depth,
        ChatTo::Everyone,
        ChatTo::Player("ann".into()),
        ChatTo::Player("Zoë".into()),
    ]
}

fn audience_cmds() -> Vec<AudienceCmd> {
    vec![AudienceCmd::Refuse, AudienceCmd::Allow, AudienceCmd::Kick("bob".into())]
}

fn refusals() -> Vec<Refusal> {
    vec![
        Refusal::WrongVersion { server: PROTOCOL_VERSION },
        Refusal::WrongVersion { server: u32::MAX },
        Refusal::NameInvalid { reason: "a name is 1 to 16 letters, digits, - or _".into() },
        Refusal::NameTaken,
        Refusal::WrongToken,
        Refusal::Unavailable { reason: "the store failed".into() },
        Refusal::CannotWatch { reason: "ann lets nobody watch".into() },
        Refusal::Full { players: 8 },
        Refusal::Full { players: u32::MAX },
        Refusal::NoSuchBackground { name: "bard".into() },
        Refusal::NoRecording { reason: "that life left no recording".into() },
        Refusal::Draining { elsewhere: None },
        Refusal::Draining { elsewhere: Some("ws://gloam-2.example.org:7777".into()) },
    ]
}

fn monster_changes() -> Vec<MonsterChange> {
    let id = MonsterId(251);
    let mut all = vec![
        MonsterChange::Appeared {
            id,
            kind: 0,
            at: Pos::new(5, 6),
            wound: Wound::Unhurt,
            asleep: true,
        },
        MonsterChange::Moved { id, at: Pos::new(65535, 250) },
        MonsterChange::Slept { id, asleep: true },
        MonsterChange::Slept { id: MonsterId(0), asleep: false },
        MonsterChange::Vanished { id: MonsterId(u32::MAX) },
    ];
    all.extend(Wound::ALL.map(|wound| MonsterChange::Hurt { id, wound }));
    all
}

fn player_changes() -> Vec<PlayerChange> {
    vec![
        PlayerChange::Appeared { id: PlayerId(65536), name: "Zoë".into(), at: Pos::new(1, 2) },
        PlayerChange::Moved { id: PlayerId(65535), at: Pos::new(2, 2) },
        PlayerChange::Vanished { id: PlayerId(u32::MAX) },
    ]
}

/// Asks for recordings, one of each kind, at the edges of their numbers.
fn recording_asks() -> Vec<ClientMsg> {
    vec![
        ClientMsg::Recording {
            version: 17,
            ask: RecordingAsk::Grave { name: "ann".into(), life: 2, rounds: 100 },
        },
        ClientMsg::Recording {
            version: u32::MAX,
            ask: RecordingAsk::Mine {
                name: "Zoë".into(),
                token: TOKEN,
                depth: 65535,
                from: (1 << 53) + 1,
                to: u64::MAX,
            },
        },
        ClientMsg::Recording {
            version: 17,
            ask: RecordingAsk::Past {
                name: "bob".into(),
                token: TOKEN,
                player: "Ærø".into(),
                depth: 2,
                from: 250,
                to: 251,
            },
        },
    ]
}

fn client_samples() -> Vec<ClientMsg> {
    let hello = |version, name: &str, token| ClientMsg::Hello { version, name: name.into(), token };
    let mut all = vec![
        hello(PROTOCOL_VERSION, "ann", None),
        hello(250, "Zoë", Some(TOKEN)),
        hello(251, "Ærø_ĳ-8", Some([0; 16])),
        hello(65535, "", Some([255; 16])),
        hello(65536, "a", None),
        hello(u32::MAX, "🐉🐉🐉🐉", None),
        ClientMsg::Graveyard,
        ClientMsg::Who,
        ClientMsg::Stop,
        ClientMsg::Backgrounds,
        ClientMsg::Create {
            version: 15,
            name: "ann".into(),
            token: None,
            background: "fighter".into(),
        },
        ClientMsg::Create {
            version: 251,
            name: "Zoë".into(),
            token: Some(TOKEN),
            background: "Ærø ✓".into(),
        },
        ClientMsg::Watch { version: 11, name: "cat".into(), token: None, player: "ann".into() },
        ClientMsg::Watch {
            version: 1 << 20,
            name: "Zoë".into(),
            token: Some(TOKEN),
            player: "Ærø".into(),
        },
    ];
    all.extend(recording_asks());
    all.extend(actions().into_iter().map(ClientMsg::Act));
    all.extend(audience_cmds().into_iter().map(ClientMsg::Audience));
    let texts = ["hello", "", "héllo wörld ✓ 🐉", "\"quoted\" \\ back\tslash\n\u{7f}\u{1}"];
    all.extend(
        chat_tos()
            .into_iter()
            .zip(texts)
            .map(|(to, text)| ClientMsg::Chat { to, text: text.into() }),
    );
    // A length of 251 takes three bytes; 200 four-byte characters is the
    // longest line of chat.
    all.push(ClientMsg::Chat { to: ChatTo::Depth, text: "a".repeat(251) });
    all.push(ClientMsg::Chat { to: ChatTo::Everyone, text: "𝄞".repeat(200) });
    all
}

fn death(name: &str, rounds: u64, when: u64, escaped: bool) -> DeathRecord {
    DeathRecord {
        name: name.into(),
        depth: 7,
        rounds,
        kills: 65536,
        killed_by: if escaped { "the Gloamstone".into() } else { "a jackal".into() },
        when,
        level: 9,
        escaped,
        morgue: if escaped { 1 } else { u32::MAX },
    }
}

fn diffs() -> Vec<SightDiff> {
    use Terrain::*;
    let lists = SightDiff {
        at: Pos::new(10, 20),
        hidden: vec![1, 2],
        shown: vec![3],
        revealed: vec![(4, Wall), (9, StairsDown)],
        players: player_changes(),
        monsters: monster_changes(),
        floor: vec![
            FloorChange { at: Pos::new(9, 9), top: Some(Lying { kind: 3, count: 12, more: true }) },
            FloorChange { at: Pos::new(9, 8), top: None },
        ],
    };
    vec![
        SightDiff::default(),
        // A step north: the bottom row leaves, the top row comes in.
        SightDiff {
            at: Pos::new(40, 20),
            hidden: (190..=196).collect(),
            shown: (0..=6).collect(),
            revealed: vec![(3, Floor), (4, Wall)],
            ..SightDiff::default()
        },
        // A step east: gaps a row wide, so a larger Rice parameter.
        SightDiff {
            at: Pos::new(250, 251),
            hidden: vec![0, 9, 22, 37, 54, 71, 88, 105, 122, 139, 156, 173, 188],
            shown: vec![8, 21, 36, 53, 70, 87, 104, 121, 138, 155, 172, 187, 196],
            revealed: vec![(104, StairsUp)],
            ..SightDiff::default()
        },
        // Lists that do not rise travel a byte an index.
        SightDiff {
            at: Pos::new(65535, 65535),
            hidden: vec![5, 5, 3, 255, 0],
            shown: vec![255],
            revealed: vec![(7, StairsUp), (2, Wall)],
            ..SightDiff::default()
        },
        SightDiff {
            hidden: vec![0, 255],
            shown: vec![0, 1, 2, 3],
            revealed: (0..=255).map(|i| (i, Terrain::ALL[usize::from(i) % 4])).collect(),
            ..SightDiff::default()
        },
        // The longest list the decoder takes.
        SightDiff {
            hidden: (0..1024).map(|i| (i * 7 % 256) as u8).collect(),
            ..SightDiff::default()
        },
        SightDiff { players: player_changes(), ..SightDiff::default() },
        SightDiff { monsters: monster_changes(), ..SightDiff::default() },
        SightDiff { floor: lists.floor.clone(), ..SightDiff::default() },
        lists,
    ]
}

/// The welcome, the levels, who is about.
fn joining_samples() -> Vec<ServerMsg> {
    use ServerMsg::*;
    let names = |all: &[&str]| all.iter().map(|&n| n.to_owned()).collect::<Vec<_>>();
    vec![
        Welcome {
            you: PlayerId(7),
            width: 80,
            height: 40,
            sight_radius: 8,
            actions_per_second: 20,
            token: Some(TOKEN),
            world: "Gloamhold".into(),
        },
        Welcome {
            you: PlayerId(u32::MAX),
            width: 250,
            height: 251,
            sight_radius: 255,
            actions_per_second: 65535,
            token: None,
            world: String::new(),
        },
        EnterLevel { depth: 1, width: 80, height: 40, remembered: vec![], terrain: vec![] },
        EnterLevel {
            depth: 65535,
            width: 256,
            height: 256,
            remembered: (0..251).map(|i| i as u8).collect(),
            terrain: (0..251).map(|i| Terrain::ALL[i % 4]).collect(),
        },
        Mapped { remembered: vec![0b1010, 0, 255], terrain: Terrain::ALL.to_vec() },
        Players(vec![]),
        Players(player_changes()),
        Roster(vec![]),
        Roster(names(&["ann", "Zoë", "🐉"])),
        Joined(names(&["cat"])),
        Left(names(&["cat", "dog"])),
    ]
}

/// The game's lines.
fn line_samples() -> Vec<ServerMsg> {
    use ServerMsg::*;
    vec![
        Note("You see stairs down here.".into()),
        Note(String::new()),
        // A decoder must keep a leading byte order mark (a browser's drops it
        // unless told not to).
        Note("\u{feff}a line that starts with a byte order mark".into()),
        Combat("The jackal bites you (2).".into()),
        Others("Zoë arrives on this depth — “hi”.".into()),
    ]
}

/// Monsters and items: their kinds, the floor, the pack.
fn thing_samples() -> Vec<ServerMsg> {
    use ServerMsg::*;
    vec![
        Kinds(vec![]),
        Kinds(
            [('o', [0, 250, 255]), ('é', [251, 1, 2]), ('✓', [3, 4, 5]), ('🐉', [6, 7, 8])]
                .map(|(glyph, colour)| KindInfo { name: format!("kind {glyph}"), glyph, colour })
                .into(),
        ),
        Monsters(monster_changes()),
        ItemKinds(
            item_classes()
                .into_iter()
                .enumerate()
                .map(|(i, class)| ItemInfo {
                    name: format!("{class:?}"),
                    glyph: '!',
                    colour: [200, 40, 40],
                    class,
                    known: i % 2 == 0,
                })
                .collect(),
        ),
        Floor(vec![]),
        Floor(vec![
            FloorChange { at: Pos::new(1, 1), top: None },
            FloorChange {
                at: Pos::new(2, 1),
                top: Some(Lying { kind: 65535, count: 251, more: false }),
            },
        ]),
        Pack(vec![]),
        Pack(vec![
            Carried { kind: 2, count: 1, equipped: true },
            Carried { kind: 250, count: 65535, equipped: false },
        ]),
    ]
}

/// Vitals, experience, the party, endings and the company kept.
fn life_samples() -> Vec<ServerMsg> {
    use ServerMsg::*;
    let names = |all: &[&str]| all.iter().map(|&n| n.to_owned()).collect::<Vec<_>>();
    vec![
        Vitals { hp: 250, max: 251 },
        Vitals { hp: 0, max: 65535 },
        Experience { level: 1, xp: 0, next: 65535 },
        Experience { level: 255, xp: 65536, next: u32::MAX },
        Party(vec![]),
        Party(vec![
            Member { id: PlayerId(1), name: "ann".into(), hp: 20, max: 34, level: 3 },
            Member { id: PlayerId(251), name: "Zoë".into(), hp: 251, max: 65535, level: 255 },
        ]),
        Escaped(death("ann", 1234, 1_790_000_000, true)),
        // Past what a JavaScript number holds exactly.
        Died(death("bob", u64::MAX, (1 << 53) + 1, false)),
        Died(death("Zoë", 1 << 32, 65536, false)),
        Waiting(vec![]),
        Waiting(names(&["bob"])),
        Stopped,
        Restarting,
        Backgrounds(vec![]),
        Backgrounds(vec![
            BackgroundInfo {
                name: "fighter".into(),
                about: "Fights up close in mail.".into(),
                hp: 36,
                to_hit: 10,
                damage: 1,
                stealth: 0,
                throwing: 0,
                kit: names(&["a long sword (wielded)", "3 potions of healing"]),
            },
            BackgroundInfo {
                name: "Ærø".into(),
                about: String::new(),
                hp: 65535,
                to_hit: -128,
                damage: 127,
                stealth: 255,
                throwing: -1,
                kit: vec![],
            },
        ]),
        Graveyard(vec![]),
        Graveyard(vec![death("ann", 250, 251, true), death("Ærø", 0, 0, false)]),
        Recording { player: "ann".into(), you: PlayerId(4), depth: 3, from: 1100, to: 1200 },
        Recording {
            player: "Zoë".into(),
            you: PlayerId(u32::MAX),
            depth: 65535,
            from: 0,
            to: u64::MAX,
        },
        Recorded { round: 1150, msg: Box::new(Note("A jackal bites you (3).".into())) },
        Recorded { round: (1 << 53) + 1, msg: Box::new(Vitals { hp: 0, max: 65535 }) },
        Recorded { round: 0, msg: Box::new(Stopped) },
        RecordingEnd { cut: false },
        RecordingEnd { cut: true },
        Watching { player: "ann".into(), you: PlayerId(12) },
        Watchers(vec![]),
        Watchers(names(&["cat", "Zoë"])),
        Who(vec![]),
        Who(vec![
            Playing { name: "ann".into(), watchers: 0, watchable: true },
            Playing { name: "Zoë".into(), watchers: 255, watchable: false },
        ]),
    ]
}

fn server_samples() -> Vec<ServerMsg> {
    use ServerMsg::*;
    let mut all = joining_samples();
    all.extend(line_samples());
    all.extend(thing_samples());
    all.extend(life_samples());
    all.extend(refusals().into_iter().map(Refused));
    all.extend(diffs().into_iter().map(Sight));
    all.push(Displaced(SightDiff { at: Pos::new(3, 4), ..SightDiff::default() }));
    all.push(Displaced(diffs().pop().expect("diffs")));
    all.extend(chat_tos().into_iter().enumerate().map(|(i, to)| Chat {
        from: PlayerId(249 + i as u32),
        name: "Zoë".into(),
        to,
        text: "héllo 🐉".into(),
    }));
    all
}
