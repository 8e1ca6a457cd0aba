//! The compact wire form of a [`SightDiff`]: its cell lists packed as bits.
//!
//! A move brings a few cells into sight and takes a few out, each named by
//! its disc index; sent as one byte apiece with a length before each list,
//! the lists and their lengths were most of every `Sight`. Here they travel
//! as one bit string, least significant bit first:
//!
//! - whether a list of players, of monsters and of floor changes follow
//!   the bit string (each is left out when empty, length and all): one bit
//!   0 when none does (a diff alone on a level), else a 1 and one bit each;
//! - `hidden`, `shown` and the indices of `revealed`, each as a list (below);
//! - the terrain of each revealed cell, two bits apiece.
//!
//! A list is its length plus one in Elias gamma code, then (when not empty)
//! one bit saying whether its indices rise strictly. Rising indices, which
//! the server always sends, go as the first in a byte, then (when there are
//! more) the gaps between them (each index less the one before less one) in
//! Rice code with a three bit parameter the encoder picks; any other list
//! goes as a byte an index,
//! so every list survives the trip unchanged. Cells near each other in a
//! disc have near indices, so a typical gap takes four or five bits.
//!
//! The serde form of a diff is then a tuple: `at`, the bit string as bytes,
//! and the players, monsters and floor changes when their flags say so.
//! That is for compact formats (bincode) only: in a human-readable one
//! (JSON, as the browser codec's test vectors print every message) a diff
//! is the plain struct of its fields, so the packing is the codec's secret.

use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{FloorChange, MonsterChange, PlayerChange, Pos, SightDiff, Terrain};

/// The longest list a diff can hold: a disc index is a byte, and a list
/// names each cell at most once when it rises; a list that does not rise is
/// still capped, so a hostile length costs nothing.
const MAX_LIST: usize = 1024;

impl Serialize for SightDiff {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            return Fields::from(self).serialize(serializer);
        }
        let (has_players, has_monsters) = (!self.players.is_empty(), !self.monsters.is_empty());
        let has_floor = !self.floor.is_empty();
        let mut bits = BitWriter::default();
        if has_players || has_monsters || has_floor {
            bits.push(1, 1);
            bits.push(u32::from(has_players), 1);
            bits.push(u32::from(has_monsters), 1);
            bits.push(u32::from(has_floor), 1);
        } else {
            bits.push(0, 1);
        }
        put_list(&mut bits, &self.hidden);
        put_list(&mut bits, &self.shown);
        let revealed: Vec<u8> = self.revealed.iter().map(|&(i, _)| i).collect();
        put_list(&mut bits, &revealed);
        for &(_, terrain) in &self.revealed {
            bits.push(terrain_code(terrain), 2);
        }
        let bytes = bits.finish();
        let len = 2 + usize::from(has_players) + usize::from(has_monsters) + usize::from(has_floor);
        let mut tuple = serializer.serialize_tuple(len)?;
        tuple.serialize_element(&self.at)?;
        tuple.serialize_element(&AsBytes(&bytes))?;
        if has_players {
            tuple.serialize_element(&self.players)?;
        }
        if has_monsters {
            tuple.serialize_element(&self.monsters)?;
        }
        if has_floor {
            tuple.serialize_element(&self.floor)?;
        }
        tuple.end()
    }
}

impl<'de> Deserialize<'de> for SightDiff {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            return OwnedFields::deserialize(deserializer).map(SightDiff::from);
        }
        deserializer.deserialize_tuple(5, DiffVisitor)
    }
}

/// A diff as a human-readable format shows it: its fields, unpacked.
#[derive(Serialize)]
#[serde(rename = "SightDiff")]
struct Fields<'a> {
    at: Pos,
    hidden: &'a [u8],
    shown: &'a [u8],
    revealed: &'a [(u8, Terrain)],
    players: &'a [PlayerChange],
    monsters: &'a [MonsterChange],
    floor: &'a [FloorChange],
}

impl<'a> From<&'a SightDiff> for Fields<'a> {
    fn from(d: &'a SightDiff) -> Self {
        let SightDiff { at, hidden, shown, revealed, players, monsters, floor } = d;
        Fields { at: *at, hidden, shown, revealed, players, monsters, floor }
    }
}

#[derive(Deserialize)]
#[serde(rename = "SightDiff", deny_unknown_fields)]
struct OwnedFields {
    at: Pos,
    hidden: Vec<u8>,
    shown: Vec<u8>,
    revealed: Vec<(u8, Terrain)>,
    players: Vec<PlayerChange>,
    monsters: Vec<MonsterChange>,
    floor: Vec<FloorChange>,
}

impl From<OwnedFields> for SightDiff {
    fn from(f: OwnedFields) -> Self {
        let OwnedFields { at, hidden, shown, revealed, players, monsters, floor } = f;
        SightDiff { at, hidden, shown, revealed, players, monsters, floor }
    }
}

struct DiffVisitor;

impl<'de> Visitor<'de> for DiffVisitor {
    type Value = SightDiff;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a packed sight diff")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SightDiff, A::Error> {
        let missing = |what| de::Error::custom(format_args!("sight diff without its {what}"));
        let at = seq.next_element()?.ok_or_else(|| missing("position"))?;
        let ByteBuf(bytes) = seq.next_element()?.ok_or_else(|| missing("cells"))?;
        let mut bits = BitReader::new(&bytes);
        let cells = read_cells(&mut bits).map_err(de::Error::custom)?;
        let mut diff = SightDiff { at, ..cells.diff };
        if cells.has_players {
            diff.players = seq.next_element()?.ok_or_else(|| missing("players"))?;
        }
        if cells.has_monsters {
            diff.monsters = seq.next_element()?.ok_or_else(|| missing("monsters"))?;
        }
        if cells.has_floor {
            diff.floor = seq.next_element()?.ok_or_else(|| missing("floor"))?;
        }
        Ok(diff)
    }
}

/// What the bit string of a diff holds.
struct Cells {
    has_players: bool,
    has_monsters: bool,
    has_floor: bool,
    diff: SightDiff,
}

fn read_cells(bits: &mut BitReader) -> Result<Cells, String> {
    let lists = bits.read(1)? == 1;
    let has_players = lists && bits.read(1)? == 1;
    let has_monsters = lists && bits.read(1)? == 1;
    let has_floor = lists && bits.read(1)? == 1;
    let hidden = read_list(bits)?;
    let shown = read_list(bits)?;
    let revealed = read_list(bits)?
        .into_iter()
        .map(|i| Ok((i, Terrain::ALL[bits.read(2)? as usize])))
        .collect::<Result<_, String>>()?;
    if !bits.rest_is_padding() {
        return Err("sight diff: bits left over after its cells".into());
    }
    Ok(Cells {
        has_players,
        has_monsters,
        has_floor,
        diff: SightDiff { hidden, shown, revealed, ..SightDiff::default() },
    })
}

fn terrain_code(terrain: Terrain) -> u32 {
    Terrain::ALL.iter().position(|&t| t == terrain).expect("every terrain is in ALL") as u32
}

fn put_list(bits: &mut BitWriter, indices: &[u8]) {
    bits.push_gamma(indices.len() as u32 + 1);
    if indices.is_empty() {
        return;
    }
    let rising = indices.windows(2).all(|w| w[0] < w[1]);
    bits.push(u32::from(rising), 1);
    if !rising {
        for &i in indices {
            bits.push(u32::from(i), 8);
        }
        return;
    }
    bits.push(u32::from(indices[0]), 8);
    let gaps: Vec<u32> = indices.windows(2).map(|w| u32::from(w[1] - w[0] - 1)).collect();
    if gaps.is_empty() {
        return;
    }
    let cost = |k: u32| gaps.iter().map(|g| (g >> k) + 1 + k).sum::<u32>();
    let k = (0..8).min_by_key(|&k| cost(k)).expect("eight choices");
    bits.push(k, 3);
    for gap in gaps {
        for _ in 0..gap >> k {
            bits.push(1, 1);
        }
        bits.push(0, 1);
        bits.push(gap & ((1 << k) - 1), k);
    }
}

fn read_list(bits: &mut BitReader) -> Result<Vec<u8>, String> {
    let len = bits.read_gamma()? - 1;
    let len = usize::try_from(len).map_err(|_| "sight diff: list too long")?;
    if len > MAX_LIST {
        return Err(format!("sight diff: a list of {len} cells is over {MAX_LIST}"));
    }
    if len == 0 {
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(len.min(256));
    if bits.read(1)? == 0 {
        for _ in 0..len {
            out.push(bits.read(8)? as u8);
        }
        return Ok(out);
    }
    let first = bits.read(8)?;
    out.push(first as u8);
    if len == 1 {
        return Ok(out);
    }
    let k = bits.read(3)?;
    let mut next = first + 1;
    for _ in 1..len {
        let high = bits.count_run(1, 256)?;
        let index = next + (high << k | bits.read(k)?);
        let index = u8::try_from(index).map_err(|_| "sight diff: a cell index past 255")?;
        out.push(index);
        next = u32::from(index) + 1;
    }
    Ok(out)
}

/// Bits written least significant first.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    pending: u64,
    count: u32,
}

impl BitWriter {
    /// The low `n` bits of `value` (n ≤ 32).
    fn push(&mut self, value: u32, n: u32) {
        debug_assert!(n <= 32 && (n == 32 || value >> n == 0));
        self.pending |= u64::from(value) << self.count;
        self.count += n;
        while self.count >= 8 {
            self.bytes.push(self.pending as u8);
            self.pending >>= 8;
            self.count -= 8;
        }
    }

    /// `value` ≥ 1 in Elias gamma code: as many zeros as it has bits after
    /// its highest, a one, then those bits.
    fn push_gamma(&mut self, value: u32) {
        let extra = 31 - value.leading_zeros();
        self.push(0, extra);
        self.push(1, 1);
        self.push(value & ((1 << extra) - 1), extra);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.count > 0 {
            self.bytes.push(self.pending as u8);
        }
        self.bytes
    }
}

/// Reads what a [`BitWriter`] wrote; running off the end is an error.
struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> BitReader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    /// Up to the next 57 bits, from one little-endian load, and how many
    /// of them there are.
    fn peek(&self) -> (u64, usize) {
        let first = self.at / 8;
        let mut word = [0u8; 8];
        let take = self.bytes.len().saturating_sub(first).min(8);
        word[..take].copy_from_slice(&self.bytes[first..first + take]);
        let valid = (take * 8).saturating_sub(self.at % 8).min(57);
        (u64::from_le_bytes(word) >> (self.at % 8), valid)
    }

    /// The next `n` bits (n ≤ 32).
    fn read(&mut self, n: u32) -> Result<u32, String> {
        let (bits, valid) = self.peek();
        if n as usize > valid {
            return Err("sight diff: cells cut short".into());
        }
        self.at += n as usize;
        Ok((bits & ((1u64 << n) - 1)) as u32)
    }

    /// How many `bit`s come before the next other bit (which is consumed
    /// too), if fewer than `limit`.
    fn count_run(&mut self, bit: u64, limit: u32) -> Result<u32, String> {
        let mut count = 0;
        loop {
            let (bits, valid) = self.peek();
            let run = (if bit == 1 { !bits } else { bits }).trailing_zeros().min(valid as u32);
            count += run;
            if count >= limit {
                return Err("sight diff: a run of bits past any list or disc".into());
            }
            if (run as usize) < valid {
                self.at += run as usize + 1;
                return Ok(count);
            }
            if valid == 0 {
                return Err("sight diff: cells cut short".into());
            }
            self.at += valid;
        }
    }

    fn read_gamma(&mut self) -> Result<u32, String> {
        let extra = self.count_run(0, 17)?;
        Ok(1 << extra | self.read(extra)?)
    }

    /// True when only the zero bits that fill the last byte remain.
    fn rest_is_padding(&self) -> bool {
        self.bytes.len() == self.at.div_ceil(8)
            && self
                .bytes
                .last()
                .is_none_or(|&b| self.at.is_multiple_of(8) || b >> (self.at % 8) == 0)
    }
}

struct AsBytes<'a>(&'a [u8]);

impl Serialize for AsBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BytesVisitor;
        impl<'de> Visitor<'de> for BytesVisitor {
            type Value = ByteBuf;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }
        }
        deserializer.deserialize_byte_buf(BytesVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec;
    use crate::{Pos, ServerMsg};

    fn round_trip(diff: &SightDiff) -> SightDiff {
        let bytes = codec::encode(&ServerMsg::Sight(diff.clone()));
        match codec::decode_server(&bytes) {
            Ok(ServerMsg::Sight(back)) => back,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_step_north_takes_a_few_bits_a_cell() {
        // The bottom row of the disc leaves sight, a row at the top comes in.
        let diff = SightDiff {
            at: Pos::new(40, 20),
            hidden: (190..=196).collect(),
            shown: (0..=6).collect(),
            revealed: vec![(3, Terrain::Floor), (4, Terrain::Wall)],
            ..SightDiff::default()
        };
        assert_eq!(round_trip(&diff), diff);
        let size = codec::encode(&ServerMsg::Sight(diff)).len();
        assert!(size <= 4 + 9, "14 cells and two terrains in {size} bytes");
    }

    #[test]
    fn a_step_east_costs_no_more_than_a_byte_a_cell() {
        // A column leaves on the west and one comes in on the east: the
        // indices are a row apart, the gaps the largest a walk makes.
        let diff = SightDiff {
            at: Pos::new(40, 20),
            hidden: vec![0, 9, 22, 37, 54, 71, 88, 105, 122, 139, 156, 173, 188],
            shown: vec![8, 21, 36, 53, 70, 87, 104, 121, 138, 155, 172, 187, 196],
            revealed: vec![(104, Terrain::Floor)],
            ..SightDiff::default()
        };
        assert_eq!(round_trip(&diff), diff);
        let size = codec::encode(&ServerMsg::Sight(diff)).len();
        assert!(size <= 4 + 27, "27 cells in {size} bytes");
    }

    #[test]
    fn lists_that_do_not_rise_still_arrive_unchanged() {
        let diff = SightDiff {
            hidden: vec![5, 5, 3, 255, 0],
            shown: vec![255],
            revealed: vec![(7, Terrain::StairsUp), (2, Terrain::Wall)],
            ..SightDiff::default()
        };
        assert_eq!(round_trip(&diff), diff);
    }

    #[test]
    fn cut_or_padded_cells_are_refused() {
        let diff =
            SightDiff { hidden: vec![1, 2, 3], shown: vec![100, 150], ..SightDiff::default() };
        let bytes = codec::encode(&ServerMsg::Sight(diff));
        // Tag, two bytes of position, the length of the cells, then the cells.
        let (head, cells) = bytes.split_at(4);
        let mut cut = head.to_vec();
        cut[3] -= 1;
        cut.extend_from_slice(&cells[..cells.len() - 1]);
        assert!(codec::decode_server(&cut).is_err(), "cut short");
        let mut padded = head.to_vec();
        padded[3] += 1;
        padded.extend_from_slice(cells);
        padded.push(0);
        assert!(codec::decode_server(&padded).is_err(), "a byte too many");
    }

    #[test]
    fn a_human_readable_diff_is_its_fields() {
        let diff = SightDiff {
            at: Pos::new(1, 2),
            hidden: vec![3],
            revealed: vec![(4, Terrain::Wall)],
            ..SightDiff::default()
        };
        let json = serde_json::to_string(&diff).unwrap();
        assert_eq!(
            json,
            r#"{"at":{"x":1,"y":2},"hidden":[3],"shown":[],"revealed":[[4,"Wall"]],"players":[],"monsters":[],"floor":[]}"#
        );
        assert_eq!(serde_json::from_str::<SightDiff>(&json).unwrap(), diff);
    }

    proptest::proptest! {
        /// Whatever follows a Sight's tag decodes to some diff or is
        /// refused; it never panics, however it sets the lengths.
        #[test]
        fn any_bytes_after_a_sight_tag_decode_or_are_refused(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80)
        ) {
            let mut frame = codec::encode(&ServerMsg::Sight(SightDiff::default()))[..1].to_vec();
            frame.extend(bytes);
            let _ = codec::decode_server(&frame);
        }
    }
}
