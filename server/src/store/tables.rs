//! The store's tables, the version of their layout, and the functions
//! that read them and write commands into them. Nothing else knows how a
//! record is laid out.

use gloam_protocol::{DeathRecord, Pos};
use redb::{
    Database, ReadOnlyTable, ReadTransaction, ReadableDatabase, ReadableTable, Table,
    TableDefinition, TableError, WriteTransaction,
};

use super::command::Cmd;
use crate::character::{Credential, KeptPile, Progress, Skills, Snapshot, Vitals};

/// The layout of the tables below. A store of another version is refused,
/// never rewritten. A table added since version 1 (`vitals`, `graves`) is
/// read as empty where it is missing, so a store made before it opens as
/// it was and the version stays.
pub(crate) const STORE_VERSION: u32 = 1;

/// `version`, `world-id`, then the world: `seed`, `generator`, `mix`,
/// `edition` (the content edition, in decimal; a world made before
/// editions has none, and `vaults` `1` for the second or nothing for the
/// first).
pub const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
/// Name to the SHA-256 of the character's secret token.
pub(super) const TOKENS: TableDefinition<&str, &[u8]> = TableDefinition::new("tokens");
/// Name to (depth, x, y): where the character stands or last stood.
pub(super) const PLACES: TableDefinition<&str, (u16, u16, u16)> = TableDefinition::new("places");
/// (name, depth) to the explored cells of that depth: a row-major bitset,
/// trailing zero bytes left off.
pub(super) const EXPLORED: TableDefinition<(&str, u16), &[u8]> = TableDefinition::new("explored");
/// (name, depth) to the piles the character remembers on that depth, as
/// [`KeptPile`]s encoded by the codec; no entry where it remembers none. A
/// store written before remembered piles has no such table: its
/// characters remember no pile until they see it again.
pub(super) const PILES: TableDefinition<(&str, u16), &[u8]> =
    TableDefinition::new("remembered-piles");
/// Name to (hp, max hp, kills, rounds, deepest depth). A store written
/// before monsters has no such table: its characters start unhurt.
pub(super) const VITALS: TableDefinition<&str, (u16, u16, u32, u64, u16)> =
    TableDefinition::new("vitals");
/// Name to what the character carries: its pack as (kind name, count)
/// pairs, encoded by the codec. A store written before items has no such
/// table: its characters carry nothing.
pub(super) const PACKS: TableDefinition<&str, &[u8]> = TableDefinition::new("packs");
/// Name to the character's [`Progress`] (experience, the letters it
/// wields and wears), encoded by the codec. A store written before
/// experience has no such table: its characters are at level 1.
pub(super) const PROGRESS: TableDefinition<&str, &[u8]> = TableDefinition::new("progress");
/// Name to the kinds of potion and scroll the character knows, by name,
/// encoded by the codec. A store written before unknown items has no such
/// table: its characters know none.
pub(super) const KNOWN: TableDefinition<&str, &[u8]> = TableDefinition::new("known");
/// Name to the monsters the character killed, by kind name, as (kind
/// name, count) pairs encoded by the codec. A store written before kills
/// were counted by kind has no such table: its characters' morgue files
/// count their earlier kills apart.
pub(super) const SLAIN: TableDefinition<&str, &[u8]> = TableDefinition::new("slain");
/// Per character made with a background: the background's name and the
/// skills it came with, as `(String, Skills)` by the codec (none: a
/// character of no background).
pub(super) const BACKGROUNDS: TableDefinition<&str, &[u8]> = TableDefinition::new("backgrounds");
/// Grave number to the number of its character's morgue file (a grave
/// without one was dug before morgue files: 0, none).
pub(super) const GRAVE_MORGUES: TableDefinition<u64, u32> = TableDefinition::new("grave-morgues");
/// Number in the hall of the living to the number of its morgue file (as
/// [`GRAVE_MORGUES`]).
pub(super) const LIVING_MORGUES: TableDefinition<u64, u32> = TableDefinition::new("living-morgues");
/// Grave number to the experience level its character reached (a grave
/// without one was dug before levels: level 1).
pub(super) const GRAVE_LEVELS: TableDefinition<u64, u8> = TableDefinition::new("grave-levels");
/// The hall of the living, in the order they escaped: number to (name,
/// when, deepest depth, rounds, kills, what it escaped with, level).
pub(super) const LIVING: TableDefinition<u64, Escape> = TableDefinition::new("living");
/// One of the hall of the living, as its table keeps it.
type Escape = (&'static str, u64, u16, u64, u32, &'static str, u8);
/// Grave number (0, 1, 2, ... in the order the deaths were written) to
/// (name, when it died in seconds since 1970, deepest depth, rounds, kills,
/// killed by): the dead, one grave per death.
pub(super) const GRAVES: TableDefinition<u64, (&str, u64, u16, u64, u32, &str)> =
    TableDefinition::new("graves");
/// The graveyard as a store kept it before graves were numbered: (when it
/// died in whole seconds since 1970, name) to (deepest depth, rounds,
/// kills, killed by). A name that died twice in one second kept one grave
/// of the two. Read, never written: the graves in it stay listed.
pub(super) const GRAVES_BY_SECOND: TableDefinition<(u64, &str), (u16, u64, u32, &str)> =
    TableDefinition::new("graveyard");
/// (name, life: its morgue file's number) to (the depth the life ended
/// on, that depth's rounds then): where a recording of its last rounds is
/// made from. A life that ended before recordings has no row.
pub(super) const LIFE_ENDS: TableDefinition<(&str, u32), (u16, u64)> =
    TableDefinition::new("life-ends");
/// (depth, entry number) to one entry of the depth's log: every command the
/// depth applied, in order, encoded by the world.
pub(super) const DEPTH_LOG: TableDefinition<(u16, u64), &[u8]> = TableDefinition::new("depth-log");
/// Depth to (entries kept, the depth's checksum after the last of them).
pub(super) const DEPTH_SUM: TableDefinition<u16, (u64, u64)> = TableDefinition::new("depth-sum");
/// Depth to (the number of the first entry of its current history, the
/// version of the rules that history was recorded under). Entries before
/// the first belong to a history set aside: kept, never replayed. A depth
/// with no such row began its log at entry 0, under rules 1 (a store
/// written before rules versions has no such table).
pub(super) const DEPTH_HISTORY: TableDefinition<u16, (u64, u32)> =
    TableDefinition::new("depth-history");

/// (depth, entries applied before it) to a snapshot of the depth's state
/// after them: (the rules version it was taken under, the depth's checksum
/// then, its bytes as the world wrote them). Only the newest
/// [`KEEP_SNAPSHOTS`] of a depth are kept; its log's entries all stay. A
/// store written before snapshots has no such table: its depths are
/// replayed from their histories' starts, and keep snapshots from then on.
pub(super) const DEPTH_SNAPSHOTS: TableDefinition<(u16, u64), (u32, u64, &[u8])> =
    TableDefinition::new("depth-snapshots");

/// How many snapshots a depth keeps: a rebuild reads the newest alone; the
/// few before it are for going back a little (a recording of late rounds).
pub(crate) const KEEP_SNAPSHOTS: usize = 4;

/// The name of a unique slain in the world to the name of the player who
/// slew it: it is never placed again. A store written before uniques has
/// no such table: none was slain.
pub(super) const UNIQUES_SLAIN: TableDefinition<&str, &str> = TableDefinition::new("uniques-slain");

/// The rules version of a history recorded before versions were stored.
pub(crate) const FIRST_RULES: u32 = 1;

/// A depth's stored history, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepthHistory {
    /// The number of its first entry (those before were set aside).
    pub start: u64,
    /// The version of the rules it was recorded under; `None` when no
    /// history was ever started on the depth.
    pub rules: Option<u32>,
    /// Its encoded entries, in order, from `start` without a gap.
    pub entries: Vec<Vec<u8>>,
    /// The number the next entry kept on the depth takes: after every
    /// entry stored, replayable or not, so a new history overwrites none.
    pub next: u64,
    /// If the depth was ever played: entries kept, counted from the
    /// depth's first ever, and the live depth's checksum after them.
    pub live: Option<(u64, u64)>,
    /// The names of the uniques slain in the world, read with the history:
    /// a depth built afresh leaves them out (see `Rules::clear_slain`).
    pub slain_uniques: Vec<String>,
    /// The newest snapshot of the current history, when it was read to be
    /// resumed from one (see [`Reading`]): then `entries` are those after
    /// it, not from `start`.
    pub snapshot: Option<DepthSnapshot>,
}

/// A snapshot of a depth's state, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepthSnapshot {
    /// How many entries the depth had applied (counting from its first
    /// ever): the snapshot is of its state after them.
    pub after: u64,
    /// The version of the rules it was taken under.
    pub rules: u32,
    /// The depth's checksum then.
    pub checksum: u64,
    /// The state, as the world wrote it.
    pub bytes: Vec<u8>,
}

/// How much of a depth's history a read gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// Every entry from the history's start.
    Whole,
    /// The newest snapshot of the history taken under its rules and within
    /// it, and the entries after it; the whole history when there is none.
    FromSnapshot,
    /// As `FromSnapshot`, of the snapshots taken after at most this many
    /// entries (counted from the depth's first ever): for a recording of
    /// rounds before the newest.
    SnapshotAtMost(u64),
}

/// Writes `writes` (the commands that change the store) in one
/// transaction, in their order; the others are passed over.
pub(super) fn write(db: &Database, writes: &[Cmd]) -> Result<(), redb::Error> {
    let txn = db.begin_write()?;
    {
        let mut open = Open::of(&txn)?;
        for (written, cmd) in writes.iter().enumerate() {
            if written > 0 && written.is_multiple_of(super::keeper::GIVE_WAY_EVERY) {
                super::keeper::yield_to_the_game();
            }
            match cmd {
                Cmd::Create { known, .. } => {
                    open.tokens.insert(known.name.as_str(), known.token_hash.as_slice())?;
                }
                Cmd::Save { name, snapshot } => open.save(name, snapshot)?,
                Cmd::Bury { record } => open.bury(record)?,
                Cmd::AppendLog { depth, first, entries, checksum } => {
                    let mut log = txn.open_table(DEPTH_LOG)?;
                    for (i, entry) in entries.iter().enumerate() {
                        log.insert((*depth, first + i as u64), entry.as_slice())?;
                    }
                    if let Some(checksum) = checksum {
                        let mut sums = txn.open_table(DEPTH_SUM)?;
                        sums.insert(*depth, (first + entries.len() as u64, *checksum))?;
                    }
                }
                Cmd::StartHistory { depth, start, rules } => {
                    txn.open_table(DEPTH_HISTORY)?.insert(*depth, (*start, *rules))?;
                }
                Cmd::KeepSnapshot { depth, snapshot } => keep_snapshot(&txn, *depth, snapshot)?,
                Cmd::SlayUnique { kind, by } => {
                    txn.open_table(UNIQUES_SLAIN)?.insert(kind.as_str(), by.as_str())?;
                }
                Cmd::EndLife { name, life, depth, round } => {
                    txn.open_table(LIFE_ENDS)?.insert((name.as_str(), *life), (*depth, *round))?;
                }
                Cmd::Load { .. }
                | Cmd::LifeEnd { .. }
                | Cmd::Graveyard { .. }
                | Cmd::LoadLog { .. }
                | Cmd::MakeSnapshot { .. }
                | Cmd::Flush { .. }
                | Cmd::Morgue { .. }
                | Cmd::ReadMorgue { .. }
                | Cmd::Backup { .. }
                | Cmd::Close => {}
            }
        }
    }
    super::keeper::yield_to_the_game();
    txn.commit()?;
    Ok(())
}

/// Keeps `snapshot` of depth `depth`, and of those before it the newest
/// [`KEEP_SNAPSHOTS`] less one.
fn keep_snapshot(
    txn: &WriteTransaction,
    depth: u16,
    snapshot: &DepthSnapshot,
) -> Result<(), redb::Error> {
    let mut table = txn.open_table(DEPTH_SNAPSHOTS)?;
    let DepthSnapshot { after, rules, checksum, bytes } = snapshot;
    table.insert((depth, *after), (*rules, *checksum, bytes.as_slice()))?;
    let kept: Vec<u64> = table
        .range((depth, 0)..=(depth, u64::MAX))?
        .rev()
        .map(|row| row.map(|(key, _)| key.value().1))
        .collect::<Result<_, _>>()?;
    for old in kept.into_iter().skip(KEEP_SNAPSHOTS) {
        table.remove((depth, old))?;
    }
    Ok(())
}

/// The tables a write transaction's saves and burials change, opened once
/// for all its commands.
struct Open<'t> {
    tokens: Table<'t, &'static str, &'static [u8]>,
    places: Table<'t, &'static str, (u16, u16, u16)>,
    explored: Table<'t, (&'static str, u16), &'static [u8]>,
    piles: Table<'t, (&'static str, u16), &'static [u8]>,
    vitals: Table<'t, &'static str, (u16, u16, u32, u64, u16)>,
    packs: Table<'t, &'static str, &'static [u8]>,
    progress: Table<'t, &'static str, &'static [u8]>,
    known: Table<'t, &'static str, &'static [u8]>,
    slain: Table<'t, &'static str, &'static [u8]>,
    backgrounds: Table<'t, &'static str, &'static [u8]>,
    graves: Table<'t, u64, (&'static str, u64, u16, u64, u32, &'static str)>,
    grave_levels: Table<'t, u64, u8>,
    grave_morgues: Table<'t, u64, u32>,
    living: Table<'t, u64, Escape>,
    living_morgues: Table<'t, u64, u32>,
    next_grave: u64,
    next_living: u64,
}

impl<'t> Open<'t> {
    fn of(txn: &'t WriteTransaction) -> Result<Self, redb::Error> {
        let graves = txn.open_table(GRAVES)?;
        let living = txn.open_table(LIVING)?;
        let next_grave = graves.last()?.map_or(0, |(number, _)| number.value() + 1);
        let next_living = living.last()?.map_or(0, |(number, _)| number.value() + 1);
        Ok(Self {
            tokens: txn.open_table(TOKENS)?,
            places: txn.open_table(PLACES)?,
            explored: txn.open_table(EXPLORED)?,
            piles: txn.open_table(PILES)?,
            vitals: txn.open_table(VITALS)?,
            packs: txn.open_table(PACKS)?,
            progress: txn.open_table(PROGRESS)?,
            known: txn.open_table(KNOWN)?,
            slain: txn.open_table(SLAIN)?,
            backgrounds: txn.open_table(BACKGROUNDS)?,
            graves,
            grave_levels: txn.open_table(GRAVE_LEVELS)?,
            grave_morgues: txn.open_table(GRAVE_MORGUES)?,
            living,
            living_morgues: txn.open_table(LIVING_MORGUES)?,
            next_grave,
            next_living,
        })
    }

    /// A character's save: its place, vitals, pack, progress, and each
    /// depth's explored cells and remembered piles.
    fn save(&mut self, name: &str, snapshot: &Snapshot) -> Result<(), redb::Error> {
        let Snapshot {
            depth,
            pos,
            vitals: v,
            explored: depths,
            piles: floors,
            pack,
            progress: p,
            known,
            slain,
            background,
        } = snapshot;
        self.places.insert(name, (*depth, pos.x, pos.y))?;
        self.packs.insert(name, gloam_protocol::codec::encode(pack).as_slice())?;
        self.progress.insert(name, gloam_protocol::codec::encode(p).as_slice())?;
        if known.is_empty() {
            self.known.remove(name)?;
        } else {
            self.known.insert(name, gloam_protocol::codec::encode(known).as_slice())?;
        }
        self.slain.insert(name, gloam_protocol::codec::encode(slain).as_slice())?;
        match background {
            Some(kept) => {
                self.backgrounds.insert(name, gloam_protocol::codec::encode(kept).as_slice())?;
            }
            None => _ = self.backgrounds.remove(name)?,
        }
        self.vitals.insert(name, (v.hp, v.max_hp, v.kills, v.rounds, v.deepest))?;
        for (depth, bits) in depths {
            self.explored.insert((name, *depth), bits.as_slice())?;
        }
        for (depth, floor) in floors {
            let key = (name, *depth);
            if floor.is_empty() {
                self.piles.remove(key)?;
            } else {
                self.piles.insert(key, gloam_protocol::codec::encode(floor).as_slice())?;
            }
        }
        Ok(())
    }

    /// A character's end: everything of it goes, and its record joins the
    /// graveyard, or the hall of the living when it escaped.
    fn bury(&mut self, record: &DeathRecord) -> Result<(), redb::Error> {
        let name = record.name.as_str();
        self.places.remove(name)?;
        self.vitals.remove(name)?;
        self.packs.remove(name)?;
        self.progress.remove(name)?;
        self.known.remove(name)?;
        self.slain.remove(name)?;
        self.backgrounds.remove(name)?;
        self.explored.retain_in((name, 0)..=(name, u16::MAX), |_, _| false)?;
        self.piles.retain_in((name, 0)..=(name, u16::MAX), |_, _| false)?;
        let DeathRecord { depth, rounds, kills, when, level, morgue, .. } = *record;
        let by = record.killed_by.as_str();
        if record.escaped {
            self.living.insert(self.next_living, (name, when, depth, rounds, kills, by, level))?;
            self.living_morgues.insert(self.next_living, morgue)?;
            self.next_living += 1;
        } else {
            self.graves.insert(self.next_grave, (name, when, depth, rounds, kills, by))?;
            self.grave_levels.insert(self.next_grave, level)?;
            self.grave_morgues.insert(self.next_grave, morgue)?;
            self.next_grave += 1;
        }
        Ok(())
    }
}

pub(super) fn load(db: &Database, name: &str) -> Result<Option<Snapshot>, redb::Error> {
    let txn = db.begin_read()?;
    let places = match txn.open_table(PLACES) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let Some(place) = places.get(name)? else { return Ok(None) };
    let (depth, x, y) = place.value();
    let mut depths = Vec::new();
    if let Ok(explored) = txn.open_table(EXPLORED) {
        for entry in explored.range((name, 0)..=(name, u16::MAX))? {
            let (key, bits) = entry?;
            depths.push((key.value().1, bits.value().to_vec()));
        }
    }
    let mut floors = Vec::new();
    match txn.open_table(PILES) {
        Ok(table) => {
            for entry in table.range((name, 0)..=(name, u16::MAX))? {
                let (key, bytes) = entry?;
                let depth = key.value().1;
                floors.push((depth, decode_piles(name, depth, bytes.value())));
            }
        }
        Err(TableError::TableDoesNotExist(_)) => {}
        Err(e) => return Err(e.into()),
    }
    let vitals = match txn.open_table(VITALS) {
        Ok(table) => table.get(name)?.map(|v| v.value()),
        Err(TableError::TableDoesNotExist(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let vitals = vitals.map_or_else(Vitals::default, |(hp, max_hp, kills, rounds, deepest)| {
        Vitals { hp, max_hp, kills, rounds, deepest }
    });
    let pack = match txn.open_table(PACKS) {
        Ok(table) => table.get(name)?.map(|bytes| decode_pack(name, bytes.value())),
        Err(TableError::TableDoesNotExist(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let pack = pack.unwrap_or_default();
    let progress = match txn.open_table(PROGRESS) {
        Ok(table) => table.get(name)?.map(|bytes| decode_progress(name, bytes.value())),
        Err(TableError::TableDoesNotExist(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let progress = progress.unwrap_or_default();
    let known = match txn.open_table(KNOWN) {
        Ok(table) => table.get(name)?.map(|bytes| decode_known(name, bytes.value())),
        Err(TableError::TableDoesNotExist(_)) => None,
        Err(e) => return Err(e.into()),
    };
    let known = known.unwrap_or_default();
    let slain = match open_if_there(&txn, SLAIN)? {
        Some(table) => table.get(name)?.map(|bytes| decode_slain(name, bytes.value())),
        None => None,
    };
    let slain = slain.unwrap_or_default();
    let background = match open_if_there(&txn, BACKGROUNDS)? {
        Some(table) => table.get(name)?.and_then(|bytes| decode_background(name, bytes.value())),
        None => None,
    };
    let pos = Pos { x, y };
    let piles = floors;
    let (explored, vitals) = (depths, vitals);
    let snapshot =
        Snapshot { depth, pos, vitals, explored, piles, pack, progress, known, slain, background };
    Ok(Some(snapshot))
}

/// The stored piles of one depth; a list that does not decode is reported
/// and forgotten (the piles are seen again when in sight).
pub(super) fn decode_piles(name: &str, depth: u16, bytes: &[u8]) -> Vec<KeptPile> {
    gloam_protocol::codec::decode_record(bytes).unwrap_or_else(|e| {
        tracing::error!(player = name, depth, error = %e, "stored piles do not decode: forgotten");
        Vec::new()
    })
}

/// A stored progress; one that does not decode is reported and read as a
/// new character's.
pub(super) fn decode_progress(name: &str, bytes: &[u8]) -> Progress {
    gloam_protocol::codec::decode_record(bytes).unwrap_or_else(|e| {
        tracing::error!(player = name, error = %e, "a stored progress does not decode: read as level 1");
        Progress::default()
    })
}

/// The stored kinds a character knows; a list that does not decode is
/// reported and read as none (they are learnt again by use).
pub(super) fn decode_known(name: &str, bytes: &[u8]) -> Vec<String> {
    gloam_protocol::codec::decode_record(bytes).unwrap_or_else(|e| {
        tracing::error!(player = name, error = %e, "stored item knowledge does not decode: none kept");
        Vec::new()
    })
}

/// A stored background; one that does not decode is reported and read as
/// none (the character plays on, unskilled).
pub(super) fn decode_background(name: &str, bytes: &[u8]) -> Option<(String, Skills)> {
    gloam_protocol::codec::decode_record(bytes)
        .inspect_err(|e| {
            tracing::error!(player = name, error = %e, "a stored background does not decode: read as none");
        })
        .ok()
}

/// A stored count of kills by kind; one that does not decode is reported
/// and read as none.
pub(super) fn decode_slain(name: &str, bytes: &[u8]) -> Vec<(String, u32)> {
    gloam_protocol::codec::decode_record(bytes).unwrap_or_else(|e| {
        tracing::error!(player = name, error = %e, "stored kills by kind do not decode: read as none");
        Vec::new()
    })
}

/// A stored pack; one that does not decode is reported and read as empty
/// rather than keeping its character out of the game.
pub(super) fn decode_pack(name: &str, bytes: &[u8]) -> Vec<(String, u16)> {
    gloam_protocol::codec::decode_record(bytes).unwrap_or_else(|e| {
        tracing::error!(player = name, error = %e, "a stored pack does not decode: read as empty");
        Vec::new()
    })
}

/// A depth's stored history: the entries of its current history, from
/// its first without a gap (after a gap nothing can be replayed, so
/// nothing after one is given), the rules it was made under, and its
/// checksum at the last save.
pub(super) fn depth_history(
    db: &Database,
    depth: u16,
    reading: Reading,
) -> Result<DepthHistory, redb::Error> {
    let txn = db.begin_read()?;
    let header = match open_if_there(&txn, DEPTH_HISTORY)? {
        Some(table) => table.get(depth)?.map(|v| v.value()),
        None => None,
    };
    let live = match open_if_there(&txn, DEPTH_SUM)? {
        Some(table) => table.get(depth)?.map(|v| v.value()),
        None => None,
    };
    let start = header.map_or(0, |(start, _)| start);
    let rules = header.map(|(_, rules)| rules);
    let slain_uniques = slain_uniques(&txn)?;
    let snapshot = None;
    let mut history = DepthHistory {
        start,
        rules,
        entries: Vec::new(),
        next: start,
        live,
        slain_uniques,
        snapshot,
    };
    let Some(table) = open_if_there(&txn, DEPTH_LOG)? else { return Ok(history) };
    let mut all = table.range((depth, 0)..=(depth, u64::MAX))?;
    if let Some(last) = all.next_back() {
        history.next = history.next.max(last?.0.value().1 + 1);
    }
    let most = match reading {
        Reading::Whole => None,
        Reading::FromSnapshot => Some(history.next),
        Reading::SnapshotAtMost(most) => Some(most.min(history.next)),
    };
    if let (Some(most), Some((_, rules))) = (most, header) {
        history.snapshot = newest_snapshot(&txn, depth, (start, most), rules)?;
    }
    let first = history.snapshot.as_ref().map_or(start, |s| s.after);
    for entry in table.range((depth, first)..=(depth, u64::MAX))? {
        let (key, bytes) = entry?;
        if key.value().1 != first + history.entries.len() as u64 {
            break;
        }
        history.entries.push(bytes.value().to_vec());
    }
    if history.rules.is_none() && !history.entries.is_empty() {
        history.rules = Some(FIRST_RULES);
    }
    Ok(history)
}

/// The newest snapshot of depth `depth` taken under rules `rules` within
/// its current history, which runs from entry `start` to before `next`: one
/// taken after none of its entries is no better than the depth built
/// afresh, and one as old as the history's start may be of the history set
/// aside before it.
fn newest_snapshot(
    txn: &ReadTransaction,
    depth: u16,
    (start, next): (u64, u64),
    rules: u32,
) -> Result<Option<DepthSnapshot>, redb::Error> {
    let Some(table) = open_if_there(txn, DEPTH_SNAPSHOTS)? else { return Ok(None) };
    if start >= next {
        return Ok(None);
    }
    for row in table.range((depth, start + 1)..=(depth, next))?.rev() {
        let (key, value) = row?;
        let (taken_under, checksum, bytes) = value.value();
        if taken_under == rules {
            let (after, bytes) = (key.value().1, bytes.to_vec());
            return Ok(Some(DepthSnapshot { after, rules, checksum, bytes }));
        }
    }
    Ok(None)
}

/// The names of the uniques slain in the world, in name order.
fn slain_uniques(txn: &ReadTransaction) -> Result<Vec<String>, redb::Error> {
    let Some(table) = open_if_there(txn, UNIQUES_SLAIN)? else { return Ok(Vec::new()) };
    let mut names = Vec::new();
    for entry in table.iter()? {
        names.push(entry?.0.value().to_owned());
    }
    Ok(names)
}

/// Where life number `life` of `name` ended: the depth, and that depth's
/// rounds then (see [`LIFE_ENDS`]).
pub(super) fn life_end(
    db: &Database,
    name: &str,
    life: u32,
) -> Result<Option<(u16, u64)>, redb::Error> {
    let txn = db.begin_read()?;
    let Some(table) = open_if_there(&txn, LIFE_ENDS)? else { return Ok(None) };
    Ok(table.get((name, life))?.map(|v| v.value()))
}

/// The hall of the living, first to escape first; then the dead, deepest
/// first, then the longest lived, then in the order they died.
pub(super) fn graveyard(db: &Database) -> Result<Vec<DeathRecord>, redb::Error> {
    let txn = db.begin_read()?;
    let mut dead = Vec::new();
    // Graves kept before numbering are older than every numbered one.
    if let Some(table) = open_if_there(&txn, GRAVES_BY_SECOND)? {
        for entry in table.iter()? {
            let (key, value) = entry?;
            let (when, name) = key.value();
            let (depth, rounds, kills, killed_by) = value.value();
            let (name, killed_by) = (name.to_owned(), killed_by.to_owned());
            dead.push(DeathRecord {
                name,
                depth,
                rounds,
                kills,
                killed_by,
                when,
                level: 1,
                escaped: false,
                morgue: 0,
            });
        }
    }
    let levels = open_if_there(&txn, GRAVE_LEVELS)?;
    let morgues = open_if_there(&txn, GRAVE_MORGUES)?;
    if let Some(table) = open_if_there(&txn, GRAVES)? {
        for entry in table.iter()? {
            let (number, grave) = entry?;
            let level = beside(&levels, number.value())?.unwrap_or(1);
            let morgue = beside(&morgues, number.value())?.unwrap_or(0);
            let (name, when, depth, rounds, kills, killed_by) = grave.value();
            let (name, killed_by) = (name.to_owned(), killed_by.to_owned());
            let escaped = false;
            dead.push(DeathRecord {
                name,
                depth,
                rounds,
                kills,
                killed_by,
                when,
                level,
                escaped,
                morgue,
            });
        }
    }
    Ok(in_graveyard_order(living(&txn)?, dead))
}

/// The hall of the living (in the order they escaped), then the dead
/// (given in the order they died), deepest first, then the longest lived.
pub(super) fn in_graveyard_order(
    mut living: Vec<DeathRecord>,
    mut dead: Vec<DeathRecord>,
) -> Vec<DeathRecord> {
    // A stable sort: graves alike in all three stay in the order of death.
    dead.sort_by(|a, b| {
        b.depth.cmp(&a.depth).then(b.rounds.cmp(&a.rounds)).then(a.when.cmp(&b.when))
    });
    living.append(&mut dead);
    living
}

/// The hall of the living, first to escape first.
fn living(txn: &ReadTransaction) -> Result<Vec<DeathRecord>, redb::Error> {
    let mut living = Vec::new();
    let morgues = open_if_there(txn, LIVING_MORGUES)?;
    if let Some(table) = open_if_there(txn, LIVING)? {
        for entry in table.iter()? {
            let (number, record) = entry?;
            let morgue = beside(&morgues, number.value())?.unwrap_or(0);
            let (name, when, depth, rounds, kills, with, level) = record.value();
            let (name, killed_by) = (name.to_owned(), with.to_owned());
            let escaped = true;
            living.push(DeathRecord {
                name,
                depth,
                rounds,
                kills,
                killed_by,
                when,
                level,
                escaped,
                morgue,
            });
        }
    }
    Ok(living)
}

/// What a table kept beside the graves (or the living) holds for number
/// `number`: None where the table or its row is missing.
fn beside<V>(table: &Option<ReadOnlyTable<u64, V>>, number: u64) -> Result<Option<V>, redb::Error>
where
    V: for<'a> redb::Value<SelfType<'a> = V> + 'static,
{
    let Some(table) = table else { return Ok(None) };
    Ok(table.get(number)?.map(|v| v.value()))
}

/// `table` as `txn` sees it, or None if the store never had it.
fn open_if_there<K: redb::Key + 'static, V: redb::Value + 'static>(
    txn: &ReadTransaction,
    table: TableDefinition<K, V>,
) -> Result<Option<ReadOnlyTable<K, V>>, redb::Error> {
    match txn.open_table(table) {
        Ok(table) => Ok(Some(table)),
        Err(TableError::TableDoesNotExist(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Every character the store knows, with its token's hash.
pub(super) fn read_known(db: &Database) -> Result<Vec<Credential>, redb::Error> {
    let txn = db.begin_read()?;
    let tokens = match txn.open_table(TOKENS) {
        Ok(t) => t,
        Err(TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut known = Vec::new();
    for entry in tokens.iter()? {
        let (name, hash) = entry?;
        let token_hash = <[u8; 32]>::try_from(hash.value()).map_err(|_| {
            redb::Error::Corrupted(format!("the token hash of {} is damaged", name.value()))
        })?;
        known.push(Credential { name: name.value().to_owned(), token_hash });
    }
    Ok(known)
}
