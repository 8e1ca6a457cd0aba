//! The byte format: bincode's standard configuration, one message per binary
//! WebSocket frame, decoded under a size limit and only when the frame holds
//! exactly one message. This is the only module that knows about bincode, so
//! the format can be swapped here alone.

use bincode::config::{self, Configuration};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{ClientMsg, ServerMsg};

/// The largest client message the server reads: a line of chat of 200
/// characters of four bytes each, with room to spare; the rest are a few bytes.
pub const MAX_CLIENT_MSG: usize = 1024;

/// The largest server message a client reads: entering a fully explored
/// level is the biggest, at a few KiB.
pub const MAX_SERVER_MSG: usize = 64 * 1024;

/// Why a frame did not decode to a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("message of {len} bytes is over the {limit}-byte limit")]
    TooLarge { len: usize, limit: usize },
    #[error("malformed message: {0}")]
    Malformed(String),
    #[error("{extra} bytes left over after the message")]
    TrailingBytes { extra: usize },
}

fn standard() -> Configuration {
    config::standard()
}

/// Encodes one message into the bytes of one frame.
pub fn encode<M: Serialize>(msg: &M) -> Vec<u8> {
    // Serializing our own plain enums into a Vec cannot fail.
    bincode::serde::encode_to_vec(msg, standard()).expect("messages always encode")
}

/// [`encode`], calling `pause` each time at least another `every` bytes
/// are written: for a large value (a depth's snapshot) encoded on a thread
/// that shares a core with others, which it lets run between the pieces.
/// The bytes are those of [`encode`].
pub fn encode_paced<M: Serialize>(msg: &M, every: usize, pause: &mut dyn FnMut()) -> Vec<u8> {
    let mut out = Paced { bytes: Vec::new(), every: every.max(1), since: 0, pause };
    bincode::serde::encode_into_writer(msg, &mut out, standard()).expect("messages always encode");
    out.bytes
}

/// The writer of [`encode_paced`].
struct Paced<'p> {
    bytes: Vec<u8>,
    every: usize,
    /// Bytes written since `pause` was last called.
    since: usize,
    pause: &'p mut dyn FnMut(),
}

impl bincode::enc::write::Writer for Paced<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), bincode::error::EncodeError> {
        self.bytes.extend_from_slice(bytes);
        self.since += bytes.len();
        if self.since >= self.every {
            self.since = 0;
            (self.pause)();
        }
        Ok(())
    }
}

/// Decodes a frame from a client.
pub fn decode_client(bytes: &[u8]) -> Result<ClientMsg, DecodeError> {
    decode_limited::<ClientMsg, MAX_CLIENT_MSG>(bytes)
}

/// Decodes a frame from the server.
pub fn decode_server(bytes: &[u8]) -> Result<ServerMsg, DecodeError> {
    decode_limited::<ServerMsg, MAX_SERVER_MSG>(bytes)
}

/// Decodes a record of the server's own (such as a depth's log entry, kept
/// in its store) under the server message's size limit.
pub fn decode_record<M: DeserializeOwned>(bytes: &[u8]) -> Result<M, DecodeError> {
    decode_limited::<M, MAX_SERVER_MSG>(bytes)
}

/// The largest snapshot of a depth's state the server reads back from its
/// store: a crowded depth's players, with their memories, take a few MiB.
pub const MAX_SNAPSHOT: usize = 64 * 1024 * 1024;

/// Decodes a snapshot of a depth's state (a record of the server's own,
/// kept in its store) under [`MAX_SNAPSHOT`].
pub fn decode_snapshot<M: DeserializeOwned>(bytes: &[u8]) -> Result<M, DecodeError> {
    decode_limited::<M, MAX_SNAPSHOT>(bytes)
}

fn decode_limited<M: DeserializeOwned, const LIMIT: usize>(bytes: &[u8]) -> Result<M, DecodeError> {
    if bytes.len() > LIMIT {
        return Err(DecodeError::TooLarge { len: bytes.len(), limit: LIMIT });
    }
    // The limit also caps every length prefix inside the message, so a
    // hostile length never turns into a huge allocation.
    let config = standard().with_limit::<LIMIT>();
    let (msg, used) = bincode::serde::decode_from_slice(bytes, config)
        .map_err(|e| DecodeError::Malformed(e.to_string()))?;
    if used != bytes.len() {
        return Err(DecodeError::TrailingBytes { extra: bytes.len() - used });
    }
    Ok(msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        Action, Carried, DeathRecord, Dir, FloorChange, ItemClass, ItemInfo, KindInfo, Lying,
        Member, MonsterChange, MonsterId, PlayerChange, PlayerId, Pos, Refusal, SightDiff, Terrain,
        Wound,
    };
    use proptest::prelude::*;

    /// A paced encoding gives the same bytes, pausing once for each piece
    /// of the size asked for that was written.
    #[test]
    fn a_paced_encoding_is_the_same_bytes_with_pauses() {
        let names: Vec<String> = (0..500).map(|i| format!("player {i}")).collect();
        let msg = ServerMsg::Roster(names);
        let whole = encode(&msg);
        let mut pauses = 0;
        let paced = encode_paced(&msg, 1000, &mut || pauses += 1);
        assert_eq!(paced, whole);
        // Each name is a write or two of a few bytes: a pause comes once
        // 1000 have gathered, so one for each 1000 bytes, give or take.
        let pieces = whole.len() / 1000;
        assert!(
            (pieces - 1..=pieces).contains(&pauses),
            "{pauses} pauses in {} bytes",
            whole.len()
        );
    }

    fn death() -> DeathRecord {
        DeathRecord {
            name: "ann".into(),
            depth: 7,
            rounds: 1234,
            kills: 17,
            killed_by: "an ogre".into(),
            when: 1_790_000_000,
            level: 9,
            escaped: false,
            morgue: 0,
        }
    }

    fn server_samples() -> Vec<ServerMsg> {
        vec![
            ServerMsg::Welcome {
                you: PlayerId(7),
                width: 80,
                height: 40,
                sight_radius: 8,
                actions_per_second: 20,
                token: Some([9; 16]),
                world: "Ærøhold <b>".into(),
            },
            ServerMsg::Refused(Refusal::NameTaken),
            ServerMsg::Refused(Refusal::WrongToken),
            ServerMsg::Refused(Refusal::Unavailable { reason: "store failed".into() }),
            ServerMsg::Refused(Refusal::WrongVersion { server: 1 }),
            ServerMsg::EnterLevel {
                depth: 2,
                width: 80,
                height: 40,
                remembered: vec![0b101, 0],
                terrain: vec![Terrain::Floor, Terrain::StairsUp],
            },
            ServerMsg::Sight(SightDiff {
                at: Pos::new(10, 20),
                hidden: vec![1, 2],
                shown: vec![3],
                revealed: vec![(4, Terrain::Wall)],
                players: vec![
                    PlayerChange::Appeared {
                        id: PlayerId(1),
                        name: "ann".into(),
                        at: Pos::new(1, 2),
                    },
                    PlayerChange::Moved { id: PlayerId(1), at: Pos::new(2, 2) },
                    PlayerChange::Vanished { id: PlayerId(1) },
                ],
                monsters: vec![MonsterChange::Vanished { id: MonsterId(9) }],
                floor: vec![
                    FloorChange {
                        at: Pos::new(9, 9),
                        top: Some(Lying { kind: 3, count: 12, more: true }),
                    },
                    FloorChange { at: Pos::new(9, 8), top: None },
                ],
            }),
            ServerMsg::Displaced(SightDiff { at: Pos::new(3, 4), ..SightDiff::default() }),
            ServerMsg::Players(vec![PlayerChange::Vanished { id: PlayerId(3) }]),
            ServerMsg::Roster(vec!["ann".into(), "bob".into()]),
            ServerMsg::Joined(vec!["cat".into(), "dog".into()]),
            ServerMsg::Left(vec!["cat".into()]),
            ServerMsg::Note("You see stairs down here.".into()),
            ServerMsg::Combat("The jackal bites you (2).".into()),
            ServerMsg::Others("bob arrives on this depth.".into()),
            ServerMsg::Kinds(vec![KindInfo { name: "orc".into(), glyph: 'o', colour: [1, 2, 3] }]),
            ServerMsg::Monsters(vec![
                MonsterChange::Appeared {
                    id: MonsterId(4),
                    kind: 1,
                    at: Pos::new(5, 6),
                    wound: Wound::Scratched,
                    asleep: true,
                },
                MonsterChange::Moved { id: MonsterId(4), at: Pos::new(6, 6) },
                MonsterChange::Slept { id: MonsterId(4), asleep: false },
                MonsterChange::Hurt { id: MonsterId(4), wound: Wound::AlmostDead },
                MonsterChange::Vanished { id: MonsterId(4) },
            ]),
            ServerMsg::ItemKinds(vec![ItemInfo {
                name: "potion of healing".into(),
                glyph: '!',
                colour: [200, 40, 40],
                class: ItemClass::Potion,
                known: true,
            }]),
            ServerMsg::Floor(vec![FloorChange { at: Pos::new(1, 1), top: None }]),
            ServerMsg::Pack(vec![
                Carried { kind: 2, count: 1, equipped: true },
                Carried { kind: 7, count: 20, equipped: false },
            ]),
            ServerMsg::Vitals { hp: 12, max: 30 },
            ServerMsg::Experience { level: 3, xp: 140, next: 280 },
            ServerMsg::Mapped { remembered: vec![0b1010], terrain: vec![Terrain::Floor; 2] },
            ServerMsg::Party(vec![Member {
                id: PlayerId(2),
                name: "bob".into(),
                hp: 20,
                max: 34,
                level: 3,
            }]),
            ServerMsg::Escaped(DeathRecord { escaped: true, ..death() }),
            ServerMsg::Waiting(vec!["bob".into()]),
            ServerMsg::Stopped,
            ServerMsg::Died(death()),
            ServerMsg::Graveyard(vec![death(), death()]),
        ]
    }

    #[test]
    fn a_death_is_dated_in_utc() {
        let at = |when| DeathRecord { when, ..death() }.when_utc();
        assert_eq!(at(0), "1970-01-01 00:00 UTC");
        assert_eq!(at(951_827_696), "2000-02-29 12:34 UTC");
        assert_eq!(at(1_796_057_261), "2026-11-30 16:47 UTC");
    }

    #[test]
    fn wounds_are_coarse_and_cover_every_hit_point() {
        assert_eq!(Wound::of(30, 30), Wound::Unhurt);
        assert_eq!(Wound::of(16, 30), Wound::Scratched);
        assert_eq!(Wound::of(15, 30), Wound::Wounded);
        assert_eq!(Wound::of(8, 30), Wound::Wounded);
        assert_eq!(Wound::of(7, 30), Wound::AlmostDead);
        assert_eq!(Wound::of(0, 0), Wound::AlmostDead);
    }

    #[test]
    fn every_server_message_round_trips() {
        for msg in server_samples() {
            assert_eq!(decode_server(&encode(&msg)), Ok(msg));
        }
    }

    #[test]
    fn every_client_message_round_trips() {
        let mut msgs = vec![
            ClientMsg::Hello { version: 1, name: "ann".into(), token: None },
            ClientMsg::Act(Action::Descend),
            ClientMsg::Act(Action::Ascend),
            ClientMsg::Act(Action::Wait),
            ClientMsg::Act(Action::Quit),
            ClientMsg::Graveyard,
        ];
        msgs.extend(Dir::ALL.map(|d| ClientMsg::Act(Action::Move(d))));
        for msg in msgs {
            assert_eq!(decode_client(&encode(&msg)), Ok(msg));
        }
    }

    #[test]
    fn trailing_bytes_are_refused() {
        let mut bytes = encode(&ClientMsg::Act(Action::Wait));
        bytes.push(0);
        assert_eq!(decode_client(&bytes), Err(DecodeError::TrailingBytes { extra: 1 }));
    }

    #[test]
    fn oversized_frame_is_refused_before_decoding() {
        let bytes = vec![0u8; MAX_CLIENT_MSG + 1];
        assert!(matches!(decode_client(&bytes), Err(DecodeError::TooLarge { .. })));
    }

    #[test]
    fn unknown_variant_is_malformed() {
        assert!(matches!(decode_client(&[9]), Err(DecodeError::Malformed(_))));
    }

    #[test]
    fn huge_length_prefix_is_refused_not_allocated() {
        // Hello (tag 0), version 1, then a string length of u64::MAX.
        let bytes = [0u8, 1, 253, 255, 255, 255, 255, 255, 255, 255, 255];
        assert!(matches!(decode_client(&bytes), Err(DecodeError::Malformed(_))));
    }

    #[test]
    fn a_move_costs_three_bytes() {
        assert_eq!(encode(&ClientMsg::Act(Action::Move(Dir::NE))).len(), 3);
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic_the_decoders(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let _ = decode_client(&bytes);
            let _ = decode_server(&bytes);
        }
    }
}

#[cfg(test)]
mod round_trip {
    //! Every message, with arbitrary contents, survives the codec.

    use super::*;
    use crate::arbitrary::{client_msg, server_msg};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn server_messages_round_trip(msg in server_msg()) {
            prop_assert_eq!(decode_server(&encode(&msg)), Ok(msg));
        }

        #[test]
        fn client_messages_round_trip(msg in client_msg()) {
            prop_assert_eq!(decode_client(&encode(&msg)), Ok(msg));
        }

        #[test]
        fn a_message_cut_short_or_padded_never_decodes(msg in client_msg(), cut in 1usize..8, pad in 1usize..4) {
            let bytes = encode(&msg);
            let short = &bytes[..bytes.len().saturating_sub(cut)];
            prop_assert!(decode_client(short).is_err());
            let mut long = bytes.clone();
            long.extend(std::iter::repeat_n(0u8, pad));
            prop_assert!(decode_client(&long).is_err());
        }
    }
}
