//! How potions, scrolls and wands look until they are known: "a murky
//! potion", "a scroll labelled ZUN KAH", "an oak wand". Each world draws its own looks from its
//! seed, so a colour learnt in one world means nothing in the next, and a
//! player learns a kind by using one or by seeing someone use one (the
//! knowledge is the player's, and travels with it).

use std::collections::BTreeSet;

use rand::RngExt;
use rand::seq::SliceRandom;

use super::{Catalogue, Class, ItemKindId};
use crate::seeds::Seeds;

/// The first edition whose potions and scrolls (and wands, from
/// [`super::WANDS_SINCE`]) are unknown until tried.
pub const UNKNOWN_SINCE: u16 = 3;

/// How a kind looks to one who does not know it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    /// "murky potion", "scroll labelled ZUN KAH".
    pub name: String,
    pub colour: [u8; 3],
}

/// The kinds one player knows (of those that have a look).
pub type Known = BTreeSet<ItemKindId>;

/// The colours of potions, each with its own look.
const POTIONS: &[(&str, [u8; 3])] = &[
    ("murky", [0x8a, 0x7a, 0x52]),
    ("fizzing", [0xd8, 0xe0, 0x70]),
    ("violet", [0xa0, 0x70, 0xe0]),
    ("smoky", [0x9a, 0x9a, 0xa8]),
    ("crimson", [0xd0, 0x30, 0x40]),
    ("golden", [0xe8, 0xc0, 0x40]),
    ("milky", [0xe8, 0xe8, 0xe0]),
    ("bubbling", [0x60, 0xc0, 0xc0]),
    ("viscous", [0x70, 0xa0, 0x40]),
    ("glowing", [0xf0, 0xf0, 0x90]),
    ("inky", [0x50, 0x60, 0xd0]),
    ("amber", [0xe0, 0x90, 0x30]),
    ("pink", [0xf0, 0x90, 0xc0]),
    ("silver", [0xc8, 0xd0, 0xd8]),
    ("brown", [0xa0, 0x70, 0x40]),
    ("emerald", [0x40, 0xc0, 0x70]),
];

/// The syllables scroll labels are made of.
const SYLLABLES: &[&str] = &[
    "ZUN", "KAH", "BLA", "XIM", "ORT", "VEL", "NOK", "THU", "ASH", "RIM", "GOR", "PEL", "DRA",
    "MUK", "ISH", "TEV", "YOL", "KRE", "FAN", "ULD",
];

/// The woods (and such) wands are made of, each with its own look.
const WANDS: &[(&str, [u8; 3])] = &[
    ("oak", [0xa0, 0x78, 0x40]),
    ("bone", [0xe8, 0xe0, 0xc8]),
    ("ebony", [0x70, 0x60, 0x70]),
    ("willow", [0xb0, 0xc0, 0x70]),
    ("iron", [0x90, 0x98, 0xa0]),
    ("crystal", [0xc0, 0xe8, 0xf0]),
    ("copper", [0xd0, 0x80, 0x50]),
    ("yew", [0xc0, 0x90, 0x60]),
    ("glass", [0xa8, 0xd8, 0xd0]),
    ("jade", [0x50, 0xb0, 0x80]),
];

/// The colour of every scroll: old parchment, warmer than the text.
const PAPER: [u8; 3] = [0xe0, 0xc0, 0x80];

impl Catalogue {
    /// These items as the world of `seed` shows them: from
    /// [`UNKNOWN_SINCE`] on, each potion and scroll looks as the seed
    /// draws until it is known; before, every kind is known by name.
    pub fn disguised(&self, seed: u64) -> Self {
        let mut items = self.clone();
        items.looks = if self.edition() >= UNKNOWN_SINCE { self.draw_looks(seed) } else { vec![] };
        items
    }

    fn draw_looks(&self, seed: u64) -> Vec<Option<Look>> {
        let mut rng = Seeds::of_world(seed).looks();
        let mut potions: Vec<usize> = (0..POTIONS.len()).collect();
        potions.shuffle(&mut rng);
        let mut potions = potions.into_iter();
        let mut labels = BTreeSet::new();
        let mut label = |rng: &mut crate::seeds::LevelRng| loop {
            let pick =
                |rng: &mut crate::seeds::LevelRng| SYLLABLES[rng.random_range(0..SYLLABLES.len())];
            let text = format!("{} {}", pick(rng), pick(rng));
            if labels.insert(text.clone()) {
                break text;
            }
        };
        let mut look = |kind: &super::ItemKind, rng: &mut crate::seeds::LevelRng| match kind.class {
            Class::Potion { .. } => potions.next().map(|i| {
                let (word, colour) = POTIONS[i];
                Look { name: format!("{word} potion"), colour }
            }),
            Class::Scroll { .. } => {
                Some(Look { name: format!("scroll labelled {}", label(rng)), colour: PAPER })
            }
            _ => None,
        };
        let mut looks: Vec<Option<Look>> = self.kinds().iter().map(|k| look(k, &mut rng)).collect();
        self.draw_wand_looks(seed, &mut looks);
        looks
    }

    /// The looks of wands, from a stream of their own: the potions and
    /// scrolls of a world made before wands look as they did.
    fn draw_wand_looks(&self, seed: u64, looks: &mut [Option<Look>]) {
        let mut woods: Vec<usize> = (0..WANDS.len()).collect();
        woods.shuffle(&mut Seeds::of_world(seed).wand_looks());
        let mut woods = woods.into_iter();
        for (kind, look) in self.kinds().iter().zip(looks.iter_mut()) {
            if let Class::Wand { .. } = kind.class {
                *look = woods.next().map(|i| {
                    let (word, colour) = WANDS[i];
                    Look { name: format!("{word} wand"), colour }
                });
            }
        }
    }

    /// How kind `kind` looks until known; none for a kind always known.
    pub fn look(&self, kind: ItemKindId) -> Option<&Look> {
        self.looks.get(usize::from(kind)).and_then(Option::as_ref)
    }

    /// Whether kind `kind` is known by name to one who knows `known`.
    pub fn is_known(&self, kind: ItemKindId, known: &Known) -> bool {
        self.look(kind).is_none() || known.contains(&kind)
    }

    /// The name of kind `kind` to one who knows `known`.
    pub fn name_for(&self, kind: ItemKindId, known: &Known) -> &str {
        match self.look(kind) {
            Some(look) if !known.contains(&kind) => &look.name,
            _ => &self.kind(kind).name,
        }
    }

    /// `count` of kind `kind` in words, as one who knows `known` names
    /// them: "a murky potion", "2 potions of healing".
    pub fn described_for(&self, kind: ItemKindId, count: u16, known: &Known) -> String {
        // A wand's count holds its charges: it is one wand.
        let count = if let Class::Wand { .. } = self.kind(kind).class { 1 } else { count };
        super::words::described(self.name_for(kind, known), count)
    }

    /// One of kind `kind` with "the", as one who knows `known` names it.
    pub fn the_for(&self, kind: ItemKindId, known: &Known) -> String {
        super::words::the(self.name_for(kind, known))
    }

    /// What a client is told of every kind, in order, for a player who
    /// knows `known`: an unknown kind only by its look (and not `known`).
    pub fn infos_for(&self, known: &Known) -> Vec<gloam_protocol::ItemInfo> {
        // A kind keeps its look's colour once known (as in NetHack): the
        // potion on the floor does not change colour, and no learnt kind
        // wears a colour another's look has.
        let info = |(id, kind): (usize, &super::ItemKind)| {
            let mut info = kind.info();
            if let Some(look) = self.look(id as ItemKindId) {
                info.colour = look.colour;
                if !known.contains(&(id as ItemKindId)) {
                    info.name = look.name.clone();
                    info.known = false;
                }
            }
            info
        };
        self.kinds().iter().enumerate().map(info).collect()
    }
}
