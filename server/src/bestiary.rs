//! The kinds of monster, as data: read from `assets/bestiary.toml` (built
//! into the server, or a designer's own file given with `--bestiary`) and
//! checked once at start. A mistake is one error naming the file, the line
//! and the field.

use std::path::Path;

use serde::Deserialize;

/// The bestiary built into the server.
pub const BUILT_IN: &str = include_str!("../../assets/bestiary.toml");
/// The name the built-in bestiary goes by in errors.
pub const BUILT_IN_NAME: &str = "assets/bestiary.toml (built in)";

/// An index into the bestiary's kinds; also what the wire calls a kind.
pub type KindId = u16;

/// How often a monster acts, per round of the players it concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Speed {
    /// On every other round.
    Slow,
    Normal,
    /// Twice a round.
    Fast,
}

impl Speed {
    /// How many times it acts in round number `round`.
    pub fn actions_in(self, round: u64) -> u32 {
        match self {
            Speed::Slow => u32::from(round.is_multiple_of(2)),
            Speed::Normal => 1,
            Speed::Fast => 2,
        }
    }
}

/// What a monster does when awake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Behaviour {
    /// Goes for the nearest player it sees, and where it last saw one.
    Hunts,
    /// Roams the level; hunts what it sees.
    Wanders,
    /// Moves at random half the time; hunts the other half.
    Erratic,
    /// Stays a few cells from its prey until the prey is badly hurt.
    KeepsDistance,
}

/// Dice: `count` dice of `sides` sides, summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dice {
    pub count: u8,
    pub sides: u8,
}

impl Dice {
    /// Rolls them with `roll(sides)`, which gives 1 to `sides`.
    pub fn roll(self, mut roll: impl FnMut(u8) -> u8) -> u16 {
        (0..self.count).map(|_| u16::from(roll(self.sides))).sum()
    }
}

impl std::str::FromStr for Dice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "{text:?} is not dice: write NdS, e.g. \"2d4\" (1 to 20 dice of 1 to 100 sides)"
            )
        };
        let (count, sides) = text.trim().split_once('d').ok_or_else(bad)?;
        let count: u8 = count.parse().map_err(|_| bad())?;
        let sides: u8 = sides.parse().map_err(|_| bad())?;
        if !(1..=20).contains(&count) || !(1..=100).contains(&sides) {
            return Err(bad());
        }
        Ok(Dice { count, sides })
    }
}

impl std::fmt::Display for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

/// One kind of monster.
#[derive(Debug, Clone, PartialEq)]
pub struct Kind {
    pub name: String,
    pub glyph: char,
    pub colour: [u8; 3],
    pub hp: u16,
    /// Percent chance an attack lands.
    pub to_hit: u8,
    pub damage: Dice,
    /// How its attack reads: "The jackal *bites* you."
    pub verb: String,
    pub speed: Speed,
    pub sight: u8,
    pub behaviour: Behaviour,
    pub asleep: bool,
    /// Least and most placed together.
    pub pack: (u8, u8),
    /// Percent of its hit points under which it flees (0: never).
    pub flees_below: u8,
    /// Shallowest and deepest depth it lives at.
    pub depths: (u16, u16),
    /// 1 (common) to 10 (very rare).
    pub rarity: u8,
}

impl Kind {
    /// "the jackal", as a sentence goes on; [`capitalised`] starts one.
    pub fn the(&self) -> String {
        format!("the {}", self.name)
    }

    /// "a jackal", "an orc".
    pub fn a(&self) -> String {
        let vowel = self.name.starts_with(['a', 'e', 'i', 'o', 'u']);
        format!("{} {}", if vowel { "an" } else { "a" }, self.name)
    }

    /// How likely it is drawn, against the others allowed at a depth.
    pub fn weight(&self) -> u32 {
        2520 / u32::from(self.rarity.max(1))
    }

    pub fn lives_at(&self, depth: u16) -> bool {
        (self.depths.0..=self.depths.1).contains(&depth)
    }
}

/// Every kind, in the file's order (a kind's place is its [`KindId`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Bestiary {
    kinds: Vec<Kind>,
}

/// A bestiary that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {what}")]
pub struct BestiaryError {
    pub file: String,
    pub line: usize,
    pub what: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    monster: Vec<toml::Spanned<RawKind>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKind {
    name: String,
    glyph: String,
    colour: String,
    hp: u16,
    to_hit: u8,
    damage: String,
    #[serde(default = "hits")]
    verb: String,
    speed: Speed,
    sight: u8,
    behaviour: Behaviour,
    #[serde(default)]
    asleep: bool,
    #[serde(default = "one_each")]
    pack: (u8, u8),
    #[serde(default)]
    flees_below: u8,
    depths: (u16, u16),
    rarity: u8,
}

fn hits() -> String {
    "hits".into()
}

fn one_each() -> (u8, u8) {
    (1, 1)
}

impl Default for Bestiary {
    fn default() -> Self {
        Self::parse(BUILT_IN, BUILT_IN_NAME).expect("the built-in bestiary is checked by its tests")
    }
}

impl Bestiary {
    /// Reads and checks the bestiary in `path`.
    pub fn load(path: &Path) -> Result<Self, BestiaryError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| BestiaryError {
            file: file.clone(),
            line: 0,
            what: format!("cannot read it: {e}"),
        })?;
        Self::parse(&text, &file)
    }

    /// Reads and checks a bestiary's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, BestiaryError> {
        let error = |offset: usize, what: String| BestiaryError {
            file: file.to_owned(),
            line: line_of(text, offset),
            what,
        };
        let raw: File = toml::from_str(text).map_err(|e| {
            let at = e.span().map(|s| s.start).unwrap_or(0);
            let what = e.message().trim();
            match field_at(text, at) {
                Some(field) if !what.contains(field) => {
                    error(at, format!("field `{field}`: {what}"))
                }
                _ => error(at, what.to_owned()),
            }
        })?;
        if raw.monster.is_empty() {
            return Err(error(0, "no [[monster]] at all".into()));
        }
        let mut kinds: Vec<Kind> = Vec::with_capacity(raw.monster.len());
        for entry in &raw.monster {
            let span = entry.span();
            let kind = check(entry.get_ref()).map_err(|(field, what)| {
                let at = field_offset(text, span.clone(), field).unwrap_or(span.start);
                error(at, format!("monster {:?}, field `{field}`: {what}", entry.get_ref().name))
            })?;
            if kinds.iter().any(|k| k.name == kind.name) {
                let at = field_offset(text, span.clone(), "name").unwrap_or(span.start);
                return Err(error(at, format!("monster {:?} is listed twice", kind.name)));
            }
            kinds.push(kind);
        }
        if kinds.len() > usize::from(KindId::MAX) {
            return Err(error(0, format!("{} kinds; at most {}", kinds.len(), KindId::MAX)));
        }
        Ok(Self { kinds })
    }

    /// No monsters at all: the dungeon as it was before it had any, for
    /// tests of walking, stairs and saving that monsters would get in the
    /// way of.
    pub fn empty() -> Self {
        Self { kinds: Vec::new() }
    }

    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// What clients are told of the kinds, in [`KindId`] order.
    pub fn kinds_info(&self) -> Vec<gloam_protocol::KindInfo> {
        let info = |k: &Kind| gloam_protocol::KindInfo {
            name: k.name.clone(),
            glyph: k.glyph,
            colour: k.colour,
        };
        self.kinds.iter().map(info).collect()
    }

    /// The kind called `name`.
    pub fn find(&self, name: &str) -> Option<KindId> {
        self.kinds.iter().position(|k| k.name == name).map(|i| i as KindId)
    }

    pub fn kind(&self, id: KindId) -> &Kind {
        &self.kinds[usize::from(id)]
    }

    /// The kinds living at `depth`, with their ids.
    pub fn living_at(&self, depth: u16) -> impl Iterator<Item = (KindId, &Kind)> {
        self.kinds
            .iter()
            .enumerate()
            .filter(move |(_, k)| k.lives_at(depth))
            .map(|(i, k)| (i as KindId, k))
    }
}

/// Checks one entry; a failure names the field.
fn check(raw: &RawKind) -> Result<Kind, (&'static str, String)> {
    let name = raw.name.trim();
    if name.is_empty() || name.chars().count() > 24 {
        return Err(("name", "give a name of 1 to 24 characters".into()));
    }
    let mut glyph = raw.glyph.chars();
    let glyph = match (glyph.next(), glyph.next()) {
        (Some(c), None) if c.is_ascii_graphic() => c,
        _ => return Err(("glyph", format!("{:?} is not one visible ASCII character", raw.glyph))),
    };
    let colour = parse_colour(&raw.colour)
        .ok_or(("colour", format!("{:?} is not \"#rrggbb\"", raw.colour)))?;
    if raw.hp == 0 {
        return Err(("hp", "a monster needs at least 1 hit point".into()));
    }
    if !(1..=100).contains(&raw.to_hit) {
        return Err(("to_hit", format!("{} is not a percentage from 1 to 100", raw.to_hit)));
    }
    let damage = raw.damage.parse().map_err(|e| ("damage", e))?;
    let verb = raw.verb.trim();
    if verb.is_empty()
        || verb.len() > 16
        || !verb.chars().all(|c| c.is_ascii_lowercase() || c == ' ')
    {
        return Err(("verb", format!("{verb:?}: give a short verb in lower case, e.g. \"bites\"")));
    }
    check_ranges(raw)?;
    Ok(Kind {
        name: name.to_owned(),
        glyph,
        colour,
        hp: raw.hp,
        to_hit: raw.to_hit,
        damage,
        verb: verb.to_owned(),
        speed: raw.speed,
        sight: raw.sight,
        behaviour: raw.behaviour,
        asleep: raw.asleep,
        pack: raw.pack,
        flees_below: raw.flees_below,
        depths: raw.depths,
        rarity: raw.rarity,
    })
}

/// The numbers of an entry that must lie in a range; a failure names the field.
fn check_ranges(raw: &RawKind) -> Result<(), (&'static str, String)> {
    if !(1..=gloam_protocol::SIGHT_RADIUS).contains(&raw.sight) {
        let most = gloam_protocol::SIGHT_RADIUS;
        return Err((
            "sight",
            format!("{} cells: give 1 to {most} (the players' own sight)", raw.sight),
        ));
    }
    let (least, most) = raw.pack;
    if least == 0 || least > most || most > 8 {
        return Err((
            "pack",
            format!("[{least}, {most}]: give [least, most] with 1 <= least <= most <= 8"),
        ));
    }
    if raw.flees_below >= 100 {
        return Err(("flees_below", format!("{}: give a percentage below 100", raw.flees_below)));
    }
    let (top, bottom) = raw.depths;
    if top == 0 || top > bottom {
        return Err(("depths", format!("[{top}, {bottom}]: give [shallowest, deepest], from 1")));
    }
    if !(1..=10).contains(&raw.rarity) {
        return Err(("rarity", format!("{}: give 1 (common) to 10 (very rare)", raw.rarity)));
    }
    Ok(())
}

fn parse_colour(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// The key of the `key = value` line holding a byte offset, if it is one.
fn field_at(text: &str, offset: usize) -> Option<&str> {
    let start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next()?;
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    key.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then_some(key)
        .filter(|k| !k.is_empty())
}

/// `text` with its first letter in capitals.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len())).map_or(1, |t| t.matches('\n').count() + 1)
}

/// Where `field = ...` starts in the entry whose span starts at `span`
/// (the span may cover only the entry's `[[monster]]` header: the entry
/// runs to the next header).
fn field_offset(text: &str, span: std::ops::Range<usize>, field: &str) -> Option<usize> {
    let rest = text.get(span.start..)?;
    let end = rest.get(1..).and_then(|r| r.find("[[")).map_or(rest.len(), |e| e + 1);
    let mut offset = span.start;
    for line in rest[..end].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.strip_prefix(field).is_some_and(|rest| rest.trim_start().starts_with('=')) {
            return Some(offset + (line.len() - trimmed.len()));
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_bestiary_is_sound_and_spans_the_first_twelve_depths() {
        let b = Bestiary::parse(BUILT_IN, BUILT_IN_NAME).unwrap();
        assert!(b.kinds().len() >= 10);
        for depth in 1..=12 {
            assert!(b.living_at(depth).count() >= 2, "depth {depth} has a choice of kinds");
        }
        let jackal = b.kinds().iter().find(|k| k.name == "jackal").unwrap();
        assert!(jackal.pack.0 >= 3, "jackals come in packs");
        assert!(b.kinds().iter().any(|k| k.behaviour == Behaviour::Erratic));
        assert!(b.kinds().iter().any(|k| k.speed == Speed::Slow && k.damage.count >= 2));
        assert!(b.kinds().iter().any(|k| k.flees_below > 0));
        assert!(b.kinds().iter().any(|k| k.behaviour == Behaviour::KeepsDistance));
    }

    fn broken(from: &str, to: &str) -> BestiaryError {
        let text = BUILT_IN.replacen(from, to, 1);
        assert_ne!(text, BUILT_IN, "{from:?} is in the file");
        Bestiary::parse(&text, "b.toml").unwrap_err()
    }

    fn line_with(text: &str, needle: &str) -> usize {
        text.lines().position(|l| l.contains(needle)).unwrap() + 1
    }

    #[test]
    fn a_bad_value_names_the_file_the_line_and_the_field() {
        let e = broken("damage = \"1d4\"", "damage = \"4x\"");
        assert_eq!(e.file, "b.toml");
        assert_eq!(e.line, line_with(&BUILT_IN.replacen("\"1d4\"", "\"4x\"", 1), "\"4x\""));
        assert!(e.what.contains("kobold") && e.what.contains("`damage`"), "{e}");
        let e = broken("colour = \"#6cb04a\"", "colour = \"green\"");
        assert!(e.what.contains("`colour`") && e.to_string().starts_with("b.toml:"), "{e}");
        let e = broken("depths = [6, 12]", "depths = [12, 6]");
        assert!(e.what.contains("ogre") && e.what.contains("`depths`"), "{e}");
        let e = broken("pack = [3, 4]", "pack = [0, 4]");
        assert!(e.what.contains("`pack`"), "{e}");
        let e = broken("glyph = \"r\"", "glyph = \"rr\"");
        assert!(e.what.contains("`glyph`"), "{e}");
    }

    #[test]
    fn a_misspelt_or_missing_field_is_named_with_its_line() {
        let text = BUILT_IN.replacen("speed = \"slow\"", "sped = \"slow\"", 1);
        let e = Bestiary::parse(&text, "b.toml").unwrap_err();
        assert!(e.what.contains("sped"), "{e}");
        assert_eq!(e.line, line_with(&text, "sped"));
        let text = BUILT_IN.replacen("speed = \"fast\"", "speed = \"quick\"", 1);
        let e = Bestiary::parse(&text, "b.toml").unwrap_err();
        assert!(e.what.contains("quick"), "{e}");
        assert_eq!(e.line, line_with(&text, "quick"));
        let e = broken("hp = 3\n", "");
        assert!(e.what.contains("hp"), "{e}");
        let e = Bestiary::parse("this is not toml", "b.toml").unwrap_err();
        assert_eq!(e.line, 1);
    }

    #[test]
    fn dice_read_and_roll_within_their_range() {
        let d: Dice = "3d6".parse().unwrap();
        assert_eq!(d, Dice { count: 3, sides: 6 });
        assert_eq!(d.to_string(), "3d6");
        assert_eq!(d.roll(|s| s), 18);
        assert_eq!(d.roll(|_| 1), 3);
        for bad in ["", "d6", "3d", "0d6", "3d0", "21d6", "3x6", "-1d4"] {
            assert!(bad.parse::<Dice>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn slow_monsters_act_every_other_round_and_fast_ones_twice() {
        let per_ten = |s: Speed| (0..10).map(|r| s.actions_in(r)).sum::<u32>();
        assert_eq!(
            (per_ten(Speed::Slow), per_ten(Speed::Normal), per_ten(Speed::Fast)),
            (5, 10, 20)
        );
    }
}
