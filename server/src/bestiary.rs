//! The kinds of monster, as data: read from `assets/bestiary.toml` (built
//! into the server, or a designer's own file given with `--bestiary`) and
//! checked once at start. A mistake is one error naming the file, the line
//! and the field.

use std::path::Path;

use serde::Deserialize;

pub use crate::tuning::Dice;
use crate::tuning::{self, Entry, Fault, Source};

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

impl Behaviour {
    /// Whether it stays a few cells off its prey while the prey is healthy.
    /// Each of these names every behaviour, so a new one must say how it
    /// hunts before it compiles.
    pub fn keeps_distance(self) -> bool {
        match self {
            Behaviour::KeepsDistance => true,
            Behaviour::Hunts | Behaviour::Wanders | Behaviour::Erratic => false,
        }
    }

    /// Whether it moves at random half the time while hunting.
    pub fn staggers(self) -> bool {
        match self {
            Behaviour::Erratic => true,
            Behaviour::Hunts | Behaviour::Wanders | Behaviour::KeepsDistance => false,
        }
    }

    /// Whether it roams about when it sees nobody and has nowhere to go.
    pub fn roams(self) -> bool {
        match self {
            Behaviour::Wanders | Behaviour::Erratic => true,
            Behaviour::Hunts | Behaviour::KeepsDistance => false,
        }
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
    /// Percent chance it drops an item when it dies (0: never).
    pub drops: u8,
    /// The first world edition it lives in ([`crate::config::EDITION`]):
    /// a world made before it never meets it.
    pub since: u16,
    /// Its shot from afar, if it shoots.
    pub shoots: Option<Shot>,
    /// A blow that lands also takes an item from the pack, and it runs.
    pub steals: bool,
    /// It is shown to a player only while it stands next to it.
    pub hides: bool,
    /// When it first sets on prey, it calls every monster within this many
    /// cells (0: none): they wake and make for the prey.
    pub calls: u8,
    /// A named individual: at most one lives in a world, on one depth of
    /// its band that the world's seed picks (`mapgen::uniques`), and once
    /// slain never again. Its name is a proper name, said without an
    /// article ("Grishnakh the Kobold Chief hits you.").
    pub unique: bool,
}

/// A monster's shot at prey it sees across open ground, along the line a
/// thrown missile flies.
#[derive(Debug, Clone, PartialEq)]
pub struct Shot {
    /// The farthest it shoots, in cells (as a throw's range counts them).
    pub range: u8,
    pub damage: Dice,
    /// What it shoots, with its article: "The kobold archer shoots *an arrow*."
    pub missile: String,
}

impl Kind {
    /// The experience a kill of it is worth: its hit points times the
    /// shallowest depth it lives at, so deeper monsters are worth more.
    pub fn xp(&self) -> u32 {
        u32::from(self.hp) * u32::from(self.depths.0.max(1))
    }

    /// "the jackal", as a sentence goes on; [`capitalised`] starts one. A
    /// unique goes by its name alone: "Old Mother Rot".
    pub fn the(&self) -> String {
        if self.unique { self.name.clone() } else { format!("the {}", self.name) }
    }

    /// "a jackal", "an orc"; a unique by its name alone.
    pub fn a(&self) -> String {
        if self.unique {
            return self.name.clone();
        }
        let vowel = self.name.starts_with(['a', 'e', 'i', 'o', 'u']);
        format!("{} {}", if vowel { "an" } else { "a" }, self.name)
    }

    /// How likely it is drawn, against the others allowed at a depth.
    pub fn weight(&self) -> u32 {
        tuning::weight(self.rarity)
    }

    pub fn lives_at(&self, depth: u16) -> bool {
        (self.depths.0..=self.depths.1).contains(&depth)
    }
}

/// Every kind, in the file's order (a kind's place is its [`KindId`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Bestiary {
    kinds: Vec<Kind>,
    /// The world edition it serves: kinds of later editions live nowhere.
    edition: u16,
}

/// A bestiary that could not be used.
pub type BestiaryError = tuning::TuningError;

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
    #[serde(default)]
    drops: u8,
    #[serde(default = "first_edition")]
    since: u16,
    #[serde(default)]
    shoots: Option<RawShot>,
    #[serde(default)]
    steals: bool,
    #[serde(default)]
    hides: bool,
    #[serde(default)]
    calls: u8,
    #[serde(default)]
    unique: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShot {
    range: u8,
    damage: String,
    missile: String,
}

fn first_edition() -> u16 {
    1
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
        let (text, file) = tuning::read(path)?;
        Self::parse(&text, &file)
    }

    /// Reads and checks a bestiary's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, BestiaryError> {
        let source = Source { text, file };
        let raw: File = source.deserialize()?;
        if raw.monster.is_empty() {
            return Err(source.error(0, "no [[monster]] at all".into()));
        }
        let kinds = source.check_entries("monster", &raw.monster)?;
        if kinds.len() > usize::from(KindId::MAX) {
            return Err(source.error(0, format!("{} kinds; at most {}", kinds.len(), KindId::MAX)));
        }
        Ok(Self { kinds, edition: crate::config::EDITION })
    }

    /// No monsters at all: the dungeon as it was before it had any, for
    /// tests of walking, stairs and saving that monsters would get in the
    /// way of.
    pub fn empty() -> Self {
        Self { kinds: Vec::new(), edition: crate::config::EDITION }
    }

    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// This bestiary as a world of `edition` knows it: the kinds of later
    /// editions stay (so every kind keeps its id) but live nowhere.
    pub fn as_of(&self, edition: u16) -> Self {
        Self { kinds: self.kinds.clone(), edition }
    }

    /// The kinds, to tune in a test.
    #[cfg(test)]
    pub fn kinds_mut(&mut self) -> &mut [Kind] {
        &mut self.kinds
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

    /// The kinds drawn at `depth` (for its level, a restock, a vault's
    /// guardian or a summons), with their ids: those of the world's edition
    /// living there, uniques apart (they are placed one by one, see
    /// [`uniques`](Self::uniques)).
    pub fn living_at(&self, depth: u16) -> impl Iterator<Item = (KindId, &Kind)> {
        self.of_edition().filter(move |(_, k)| !k.unique && k.lives_at(depth))
    }

    /// The uniques of the world's edition, with their ids, in id order.
    pub fn uniques(&self) -> impl Iterator<Item = (KindId, &Kind)> {
        self.of_edition().filter(|(_, k)| k.unique)
    }

    /// The kinds of the world's edition, with their ids.
    fn of_edition(&self) -> impl Iterator<Item = (KindId, &Kind)> {
        let edition = self.edition;
        self.kinds
            .iter()
            .enumerate()
            .filter(move |(_, k)| k.since <= edition)
            .map(|(i, k)| (i as KindId, k))
    }
}

impl Entry for RawKind {
    type Checked = Kind;

    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self) -> Result<Kind, Fault> {
        check(self)
    }
}

/// Checks one entry; a failure names the field.
fn check(raw: &RawKind) -> Result<Kind, Fault> {
    let name = check_name(raw)?;
    let glyph = tuning::glyph(&raw.glyph)?;
    let colour = tuning::colour(&raw.colour)?;
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
    let shoots = raw.shoots.as_ref().map(check_shot).transpose()?;
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
        drops: raw.drops,
        since: raw.since,
        shoots,
        steals: raw.steals,
        hides: raw.hides,
        calls: raw.calls,
        unique: raw.unique,
    })
}

/// A kind's name is in lower case ("cave spider"); a unique's is a proper
/// name, capitalised ("Old Mother Rot"), and may be longer. The clients
/// read a capital as a name that takes no article.
fn check_name(raw: &RawKind) -> Result<&str, Fault> {
    let name = tuning::name(&raw.name, if raw.unique { 32 } else { 24 })?;
    let capital = name.starts_with(|c: char| c.is_uppercase());
    match (raw.unique, capital) {
        (true, false) => Err((
            "name",
            format!("{name:?}: a unique's name is capitalised, e.g. \"Old Mother Rot\""),
        )),
        (false, true) => Err((
            "name",
            format!("{name:?}: only a unique's name is capitalised (add `unique = true`)"),
        )),
        _ => Ok(name),
    }
}

/// Checks a kind's shot; a failure names the field.
fn check_shot(raw: &RawShot) -> Result<Shot, Fault> {
    let most = gloam_protocol::SIGHT_RADIUS;
    if !(2..=most).contains(&raw.range) {
        let what = format!("range {} cells: give 2 to {most} (its sight at most)", raw.range);
        return Err(("shoots", what));
    }
    let damage = raw.damage.parse().map_err(|e| ("shoots", format!("damage: {e}")))?;
    let missile = raw.missile.trim();
    let words = missile.split(' ').count();
    if words < 2
        || missile.len() > 24
        || !missile.chars().all(|c| c.is_ascii_lowercase() || c == ' ')
    {
        let what =
            format!("missile {missile:?}: give what it shoots in lower case, e.g. \"an arrow\"");
        return Err(("shoots", what));
    }
    Ok(Shot { range: raw.range, damage, missile: missile.to_owned() })
}

/// The numbers of an entry that must lie in a range; a failure names the field.
fn check_ranges(raw: &RawKind) -> Result<(), Fault> {
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
    if raw.drops > 100 {
        return Err(("drops", format!("{}: give a percentage from 0 to 100", raw.drops)));
    }
    if raw.calls > 2 * gloam_protocol::SIGHT_RADIUS {
        let most = 2 * gloam_protocol::SIGHT_RADIUS;
        return Err(("calls", format!("{} cells: give 0 (none) to {most}", raw.calls)));
    }
    tuning::depths(raw.depths)?;
    tuning::rarity(raw.rarity)?;
    tuning::edition(raw.since)?;
    if raw.unique && raw.pack != (1, 1) {
        return Err(("pack", format!("[{least}, {most}]: a unique is one alone (give [1, 1])")));
    }
    Ok(())
}

/// `text` with its first letter in capitals.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::testing::line_with;

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

    /// A kind of a later edition than its world's lives nowhere in that
    /// world, but keeps its id.
    #[test]
    fn the_new_kinds_are_of_the_third_edition_and_a_bad_shot_is_named_at_its_line() {
        let b = Bestiary::default();
        let archer = b.kind(b.find("kobold archer").unwrap());
        assert_eq!(archer.since, 3, "older worlds keep their levels");
        let shot = archer.shoots.as_ref().unwrap();
        assert_eq!((shot.range, shot.missile.as_str()), (6, "an arrow"));
        for (from, to) in [
            ("range = 6", "range = 1"),
            ("range = 6", "range = 40"),
            ("damage = \"1d4\", missile", "damage = \"x\", missile"),
            ("missile = \"an arrow\"", "missile = \"Arrow\""),
            ("missile = \"an arrow\"", "missile = \"an arrow\", rnage = 3"),
        ] {
            let text = BUILT_IN.replacen(from, to, 1);
            let e = broken(from, to);
            assert_eq!(e.line, line_with(&text, to), "{e}");
            assert!(e.what.contains("shoots") || e.what.contains("rnage"), "{e}");
        }
    }

    #[test]
    fn the_thief_the_hider_and_the_crier_are_read_and_a_bad_call_is_named() {
        let b = Bestiary::default();
        let kind = |name: &str| b.kind(b.find(name).unwrap());
        assert!(kind("pickpocket").steals && kind("lurker").hides);
        assert_eq!(kind("gnoll crier").calls, 12);
        for name in ["pickpocket", "lurker", "gnoll crier"] {
            assert_eq!(kind(name).since, 3, "{name}: older worlds keep their levels");
        }
        let e = broken("calls = 12", "calls = 40");
        assert_eq!(
            e.line,
            line_with(&BUILT_IN.replacen("calls = 12", "calls = 40", 1), "calls = 40")
        );
        assert!(e.what.contains("gnoll crier") && e.what.contains("`calls`"), "{e}");
        let e = broken("hides = true", "hides = 1");
        assert!(e.to_string().starts_with("b.toml:"), "{e}");
    }

    /// The uniques, one to each band of depths, are of the fourth edition,
    /// tougher than anything else that lives in their band, named without
    /// an article, and drawn at no depth with the other kinds.
    #[test]
    fn the_uniques_are_read_one_to_a_band_and_named_without_an_article() {
        let b = Bestiary::default();
        let uniques: Vec<(KindId, &Kind)> = b.uniques().collect();
        let bands: Vec<(u16, u16)> = uniques.iter().map(|(_, k)| k.depths).collect();
        assert_eq!(bands, [(2, 4), (5, 7), (8, 11), (12, 15)]);
        for (id, k) in &uniques {
            assert_eq!((k.since, k.pack), (4, (1, 1)), "{}", k.name);
            assert_eq!((k.the(), k.a()), (k.name.clone(), k.name.clone()));
            let band = k.depths.0..=k.depths.1;
            assert!(
                band.clone().all(|d| b.living_at(d).all(|(other, o)| other != *id && o.hp < k.hp))
            );
        }
        let grishnakh = b.kind(b.find("Grishnakh the Kobold Chief").unwrap());
        assert!(grishnakh.unique && grishnakh.calls > 0);
        let jackal = b.kind(b.find("jackal").unwrap());
        assert_eq!((jackal.the(), jackal.a()), ("the jackal".into(), "a jackal".into()));
    }

    /// A mistake in a unique is named with its file, line and field.
    #[test]
    fn a_bad_unique_is_named_at_its_line() {
        let unique = "name = \"Old Mother Rot\"";
        for (from, to, field) in [
            ("unique = true", "unique = \"yes\"", "unique"),
            (unique, "name = \"old mother rot\"", "`name`"),
            (unique, "name = \"Old Mother Rot the Everlasting Queen\"", "`name`"),
            ("name = \"jackal\"", "name = \"Jackal\"", "`name`"),
            (unique, "name = \"Old Mother Rot\"\npack = [1, 6]", "`pack`"),
        ] {
            let text = BUILT_IN.replacen(from, to, 1);
            let e = broken(from, to);
            assert_eq!(e.file, "b.toml");
            // The line of the field at fault (the last of those replaced).
            let line = line_with(&text, to.lines().last().unwrap());
            assert_eq!(e.line, line, "{e}");
            assert!(e.what.contains(field), "{e}");
        }
    }

    #[test]
    fn a_kind_of_a_later_edition_lives_nowhere_in_an_older_world() {
        let text = BUILT_IN.replacen("name = \"jackal\"", "name = \"jackal\"\nsince = 3", 1);
        let bestiary = Bestiary::parse(&text, "b.toml").unwrap();
        let jackal = bestiary.find("jackal").unwrap();
        let lives = |b: &Bestiary| b.living_at(1).any(|(id, _)| id == jackal);
        assert!(lives(&bestiary.as_of(3)));
        assert!(!lives(&bestiary.as_of(2)));
        assert_eq!(bestiary.as_of(2).find("jackal"), Some(jackal));
        let e = broken("name = \"jackal\"", "name = \"jackal\"\nsince = 0");
        assert!(e.what.contains("`since`"), "{e}");
    }

    #[test]
    fn a_bad_value_names_the_file_the_line_and_the_field() {
        let e = broken("damage = \"1d4\"", "damage = \"4x\"");
        assert_eq!(e.file, "b.toml");
        assert_eq!(e.line, line_with(&BUILT_IN.replacen("\"1d4\"", "\"4x\"", 1), "\"4x\""));
        assert!(e.what.contains("kobold") && e.what.contains("`damage`"), "{e}");
        let e = broken("colour = \"#6cb04a\"", "colour = \"green\"");
        assert!(e.what.contains("`colour`") && e.to_string().starts_with("b.toml:"), "{e}");
        let e = broken("depths = [7, 13]", "depths = [13, 7]");
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
    fn slow_monsters_act_every_other_round_and_fast_ones_twice() {
        let per_ten = |s: Speed| (0..10).map(|r| s.actions_in(r)).sum::<u32>();
        assert_eq!(
            (per_ten(Speed::Slow), per_ten(Speed::Normal), per_ten(Speed::Fast)),
            (5, 10, 20)
        );
    }
}
