//! The kinds of item, as data: read from `assets/items.toml` (built into
//! the server, or a designer's own file given with `--items`) and checked
//! once at start, the way the bestiary is. A mistake is one error naming
//! the file, the line and the field.
//!
//! A kind's class carries what that class needs and nothing else: a weapon
//! always has its dice, a potion always its effect, and only the artifact,
//! which lies on the bottom depth, has no depths or rarity.

use std::path::Path;

use crate::tuning::{self, Dice, Source};

pub use looks::{Known, Look, UNKNOWN_SINCE};
pub use pack::{Gear, Pack, joins, pile_onto, stack_onto, top_of};
pub use wands::WANDS_SINCE;
pub(crate) use words::plural;

mod file;
mod looks;
mod pack;
#[cfg(test)]
mod tests;
mod wands;
mod words;

/// The items built into the server.
pub const BUILT_IN: &str = include_str!("../../../assets/items.toml");
/// The name the built-in items go by in errors.
pub const BUILT_IN_NAME: &str = "assets/items.toml (built in)";

/// An index into the catalogue's kinds.
pub type ItemKindId = u16;

/// Items of one kind lying or carried together: a potion, a sword, a
/// stack of twelve darts. A wand is one item whose `count` is one more
/// than the charges left in it: a spent wand is still a wand, and a save,
/// a pile and a log keep its charges with no field of their own. Nobody
/// is told that count ([`Catalogue::told_count`]): a wand's charges are
/// never shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Item {
    pub kind: ItemKindId,
    pub count: u16,
}

/// An items file that could not be used.
pub type ItemsError = tuning::TuningError;

/// What a potion or scroll does to the one who uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Gives back this roll of hit points, up to the most.
    Heal(Dice),
    /// Raises the most hit points by this roll, and the hit points with them.
    Vigour(Dice),
    /// Moves the user to an open cell of its level, drawn at random.
    Teleport,
    /// Magic mapping: the whole level, kept in the user's own memory of it.
    MagicMapping,
    /// Puts to sleep every monster that sees the user.
    Sleep,
    /// Takes this roll of hit points, leaving at least one.
    Harm(Dice),
    /// For this roll of its moves, each goes a way drawn at random.
    Confuse(Dice),
    /// Wakes every monster on the level.
    Aggravate,
    /// Calls up monsters of the depth around the user.
    Summon,
}

/// What a wand does where it is aimed (see `assets/items.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zap {
    /// A bolt flies as a thrown missile does and strikes the first
    /// creature in its way for this roll.
    Bolt(Dice),
    /// The zapper moves to the aimed cell: seen, open and empty.
    Blink,
    /// Heals the player on the aimed cell by this roll.
    Heal(Dice),
    /// A bolt that slows the first monster in its way for this roll of
    /// rounds: it acts on every other round it is offered.
    Slow(Dice),
    /// Lights the cells seen from the aimed cell within this roll of
    /// cells, into the zapper's memory.
    Light(Dice),
}

/// Where an item other than the artifact lies, and how often.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// Shallowest and deepest depth it lies at.
    pub depths: (u16, u16),
    /// 1 (common) to 10 (very rare).
    pub rarity: u8,
}

impl Found {
    pub fn lies_at(&self, depth: u16) -> bool {
        (self.depths.0..=self.depths.1).contains(&depth)
    }
}

/// What an item is, with what its class needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Drunk, and used up.
    Potion { effect: Effect, found: Found },
    /// Read, and used up.
    Scroll { effect: Effect, found: Found },
    /// Wielded: `damage` is rolled when a blow lands, and `to_hit` percent
    /// points are added to the chance it does.
    Weapon { damage: Dice, to_hit: i8, found: Found },
    /// Worn: `armour` percent points are taken off a monster's chance to
    /// hit the wearer.
    Armour { armour: i8, found: Found },
    /// Thrown up to `range` cells; `stack` is the least and most lying in
    /// one pile when placed.
    Missile { damage: Dice, range: u8, stack: (u8, u8), found: Found },
    /// Zapped at a cell up to `range` cells away, while it has charges;
    /// `charges` is the least and most it holds when placed.
    Wand { zap: Zap, range: u8, charges: (u8, u8), found: Found },
    /// The goal of the game, on the bottom depth.
    Artifact,
}

impl Class {
    /// Where it lies and how often; none for the artifact.
    pub fn found(&self) -> Option<Found> {
        match *self {
            Class::Potion { found, .. }
            | Class::Scroll { found, .. }
            | Class::Weapon { found, .. }
            | Class::Armour { found, .. }
            | Class::Missile { found, .. }
            | Class::Wand { found, .. } => Some(found),
            Class::Artifact => None,
        }
    }
}

/// One kind of item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemKind {
    pub name: String,
    pub glyph: char,
    pub colour: [u8; 3],
    pub class: Class,
    /// The first world edition it lies in ([`crate::config::EDITION`]): a
    /// world made before it never finds one.
    pub since: u16,
}

impl ItemKind {
    /// Whether items of this kind gather into one stack, in a pack and on
    /// a pile: potions, scrolls and missiles do; weapons, armour and the
    /// artifact stay one apiece.
    pub fn stacks(&self) -> bool {
        matches!(self.class, Class::Potion { .. } | Class::Scroll { .. } | Class::Missile { .. })
    }

    /// What a client is told of this kind, under its own name (known: a
    /// look, where the kind has one, is put on by [`Catalogue::infos_for`]).
    pub fn info(&self) -> gloam_protocol::ItemInfo {
        use gloam_protocol::ItemClass;
        let class = match self.class {
            Class::Potion { .. } => ItemClass::Potion,
            Class::Scroll { .. } => ItemClass::Scroll,
            Class::Weapon { .. } => ItemClass::Weapon,
            Class::Armour { .. } => ItemClass::Armour,
            Class::Missile { .. } => ItemClass::Missile,
            Class::Wand { .. } => ItemClass::Wand,
            Class::Artifact => ItemClass::Artifact,
        };
        gloam_protocol::ItemInfo {
            name: self.name.clone(),
            glyph: self.glyph,
            colour: self.colour,
            class,
            known: true,
        }
    }

    /// How likely it is drawn, against the others placeable at a depth (0
    /// for the artifact, which is never drawn).
    pub fn weight(&self) -> u32 {
        self.class.found().map_or(0, |f| tuning::weight(f.rarity))
    }
}

/// Every kind of item, in the file's order (a kind's place is its
/// [`ItemKindId`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    kinds: Vec<ItemKind>,
    artifact: ItemKindId,
    /// The world edition it serves: kinds of later editions lie nowhere.
    edition: u16,
    /// How each kind looks until known, by id (empty: all are known).
    looks: Vec<Option<Look>>,
}

impl Default for Catalogue {
    fn default() -> Self {
        Self::built_in()
    }
}

impl Catalogue {
    /// The items built into the server.
    pub fn built_in() -> Self {
        Self::parse(BUILT_IN, BUILT_IN_NAME).expect("the built-in items are checked by their tests")
    }

    /// Reads and checks the items in `path`.
    pub fn load(path: &Path) -> Result<Self, ItemsError> {
        let (text, file) = tuning::read(path)?;
        Self::parse(&text, &file)
    }

    /// Reads and checks an items file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, ItemsError> {
        let source = Source { text, file };
        let raw: file::File = source.deserialize()?;
        let kinds = source.check_entries("item", &raw.item)?;
        if kinds.len() > usize::from(ItemKindId::MAX) {
            let what = format!("{} kinds; at most {}", kinds.len(), ItemKindId::MAX);
            return Err(source.error(0, what));
        }
        let artifacts: Vec<usize> =
            (0..kinds.len()).filter(|&i| kinds[i].class == Class::Artifact).collect();
        match artifacts[..] {
            [one] => Ok(Self {
                kinds,
                artifact: one as ItemKindId,
                edition: crate::config::EDITION,
                looks: Vec::new(),
            }),
            [] => Err(source.error(0, "no item of class \"artifact\": give exactly one".into())),
            [first, second, ..] => {
                let what =
                    format!("a second artifact, after {:?}: give exactly one", kinds[first].name);
                let span = raw.item[second].span();
                Err(source.field_error(span, "item", &kinds[second].name, "class", &what))
            }
        }
    }

    pub fn kinds(&self) -> &[ItemKind] {
        &self.kinds
    }

    /// These items as a world of `edition` knows them: the kinds of later
    /// editions stay (so every kind keeps its id) but lie nowhere.
    pub fn as_of(&self, edition: u16) -> Self {
        Self { edition, ..self.clone() }
    }

    /// The edition of the world these items serve.
    pub fn edition(&self) -> u16 {
        self.edition
    }

    pub fn kind(&self, id: ItemKindId) -> &ItemKind {
        &self.kinds[usize::from(id)]
    }

    /// What a client is told of every kind, in order, for a player who
    /// knows nothing yet: sent after the welcome.
    pub fn infos(&self) -> Vec<gloam_protocol::ItemInfo> {
        self.infos_for(&Known::new())
    }

    /// The kind called `name`.
    pub fn find(&self, name: &str) -> Option<ItemKindId> {
        self.kinds.iter().position(|k| k.name == name).map(|i| i as ItemKindId)
    }

    /// The kinds that may lie at `depth`, with their ids: never the artifact.
    pub fn placeable_at(&self, depth: u16) -> impl Iterator<Item = (ItemKindId, &ItemKind)> {
        self.kinds
            .iter()
            .enumerate()
            .filter(move |(_, k)| k.since <= self.edition)
            .filter(move |(_, k)| k.class.found().is_some_and(|f| f.lies_at(depth)))
            .map(|(i, k)| (i as ItemKindId, k))
    }

    /// The artifact, the goal on the bottom depth.
    pub fn artifact(&self) -> ItemKindId {
        self.artifact
    }
}
