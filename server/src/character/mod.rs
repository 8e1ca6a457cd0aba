//! A character, below both the world that plays it and the store that
//! keeps it: the player on its depth, what it has been through, what it
//! remembers, and the snapshot and credential the store keeps of it.

pub mod experience;
mod memory;
mod player;

use gloam_protocol::Pos;

pub use memory::Memory;
pub use player::Player;

/// How much of a player's memory a save carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Every depth it has visited: on joining, leaving and the stairs.
    All,
    /// The depth it is on, the only one that changes while it walks.
    ThisDepth,
}

/// A new character's hit points (one of no background).
pub const START_HP: u16 = 30;

/// What a character's background makes it better (or worse) at than one
/// of none, for good: percent points on its blows' chance to land, hit
/// points on their damage, percent points off a sleeper's chance to wake
/// when it notices only such players, and percent points on its throws'
/// chance to land.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Skills {
    pub to_hit: i8,
    pub damage: i8,
    pub stealth: u8,
    pub throwing: i8,
}

/// What a character has been through: kept in the store, and in the
/// graveyard when it dies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Vitals {
    pub hp: u16,
    pub max_hp: u16,
    pub kills: u32,
    /// Rounds it has lived through.
    pub rounds: u64,
    /// The deepest depth it reached.
    pub deepest: u16,
}

impl Default for Vitals {
    fn default() -> Self {
        Self { hp: START_HP, max_hp: START_HP, kills: 0, rounds: 0, deepest: 1 }
    }
}

/// How a character is claimed: its name and the hash of its secret
/// key (the key itself is never kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    pub name: String,
    pub token_hash: [u8; 32],
}

/// Where a character stands and what it has explored: all of it, or (in
/// the saves made while it walks) the depth it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub depth: u16,
    pub pos: Pos,
    pub vitals: Vitals,
    /// Per depth, the explored cells in `CellSet`'s byte form.
    pub explored: Vec<(u16, Vec<u8>)>,
    /// Per depth (the same depths as `explored`), the piles it remembers
    /// there: an empty list for a depth where it remembers none.
    pub piles: Vec<(u16, Vec<KeptPile>)>,
    /// What it carries, `a` first: each kind by name (so that a host who
    /// edits the items file keeps every item that still exists) and how many.
    pub pack: Vec<(String, u16)>,
    /// Its experience, and the letters it wields and wears.
    pub progress: Progress,
    /// The kinds of potion and scroll it knows, by name.
    pub known: Vec<String>,
    /// The monsters it killed, by kind name (as [`Player::slain`]).
    pub slain: Vec<(String, u32)>,
    /// The background it was made as, and the skills that came with it
    /// (kept as they were, whatever the host's file says later).
    pub background: Option<(String, Skills)>,
}

/// A pile a character remembers, as the store keeps it: its cell, the
/// kind of its top item by name (so that a host who edits the items file
/// keeps every pile of a kind that still exists), how many, and whether
/// other items lie under it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KeptPile {
    pub at: Pos,
    pub top: String,
    pub count: u16,
    pub more: bool,
}

/// What a character earned beyond its vitals and its pack: its experience
/// points, and which of its pack's entries it wields and wears.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    pub xp: u32,
    pub wielded: Option<u8>,
    pub worn: Option<u8>,
}
