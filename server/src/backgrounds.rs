//! Backgrounds: what a new character may start as, as a designer tunes it
//! in `assets/backgrounds.toml` (or the file given with `--backgrounds`).
//! Each gives its hit points, its skills and the kit it starts with; the
//! file is checked at start, against the items, and a mistake is named by
//! file, line and field as the bestiary's are.

use std::path::Path;

use serde::Deserialize;

use crate::character::{Player, Skills};
use crate::items::{Catalogue, Class, Gear, Item, ItemKindId, Pack};
use crate::tuning::{self, Entry, Fault, Source};

/// The built-in backgrounds, checked by the tests.
const BUILT_IN: &str = include_str!("../../assets/backgrounds.toml");
const BUILT_IN_NAME: &str = "assets/backgrounds.toml";

/// The longest a background's line about itself may be, in characters.
const MOST_ABOUT_CHARS: usize = 100;

/// The most backgrounds a file may hold (one a letter on the first screen).
const MOST_BACKGROUNDS: usize = 26;

/// One background, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Background {
    pub name: String,
    pub about: String,
    pub hp: u16,
    pub skills: Skills,
    /// What it starts with, in the order of its letters, by kind name and
    /// count (a wand's count is its charges)
    /// (each found in the world's own items when a character is made: a kind
    /// they lack is left out); the first weapon is wielded and the first
    /// armour worn.
    pub kit: Vec<(String, u16)>,
}

/// Every background, in the file's order (the first screen's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backgrounds {
    all: Vec<Background>,
}

/// A backgrounds file that could not be used.
pub type BackgroundsError = tuning::TuningError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    background: Vec<toml::Spanned<RawBackground>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBackground {
    name: String,
    about: String,
    hp: u16,
    #[serde(default)]
    to_hit: i8,
    #[serde(default)]
    damage: i8,
    #[serde(default)]
    stealth: u8,
    #[serde(default)]
    throwing: i8,
    #[serde(default)]
    kit: Vec<RawKit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKit {
    item: String,
    #[serde(default = "one")]
    count: u16,
}

fn one() -> u16 {
    1
}

/// A background checked but for its kit, whose names the items resolve.
struct Unkitted {
    background: Background,
    kit: Vec<(String, u16)>,
}

impl Entry for RawBackground {
    type Checked = Unkitted;

    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self) -> Result<Unkitted, Fault> {
        let name = tuning::name(&self.name, gloam_protocol::MAX_NAME_CHARS)?;
        let about = self.about.trim();
        if about.chars().count() > MOST_ABOUT_CHARS {
            return Err(("about", format!("at most {MOST_ABOUT_CHARS} characters")));
        }
        if !(1..=999).contains(&self.hp) {
            return Err(("hp", "give 1 to 999 hit points".into()));
        }
        let percent = |field: &'static str, value: i8| {
            if (-50..=50).contains(&value) {
                Ok(())
            } else {
                Err((field, "give -50 to 50 percent points".to_owned()))
            }
        };
        percent("to_hit", self.to_hit)?;
        percent("throwing", self.throwing)?;
        if !(-5..=5).contains(&self.damage) {
            return Err(("damage", "give -5 to 5 hit points".into()));
        }
        if self.stealth > 90 {
            return Err(("stealth", "give 0 to 90 percent points".into()));
        }
        if self.kit.len() > gloam_protocol::PACK_SLOTS {
            return Err(("kit", format!("at most {} entries", gloam_protocol::PACK_SLOTS)));
        }
        if let Some(k) = self.kit.iter().find(|k| !(1..=99).contains(&k.count)) {
            return Err(("kit", format!("{:?}: give a count of 1 to 99", k.item)));
        }
        let skills = Skills {
            to_hit: self.to_hit,
            damage: self.damage,
            stealth: self.stealth,
            throwing: self.throwing,
        };
        let background = Background {
            name: name.to_owned(),
            about: about.to_owned(),
            hp: self.hp,
            skills,
            kit: Vec::new(),
        };
        let kit = self.kit.iter().map(|k| (k.item.trim().to_owned(), k.count)).collect();
        Ok(Unkitted { background, kit })
    }
}

impl Backgrounds {
    /// The built-in backgrounds, their kits named by the built-in items.
    pub fn built_in() -> Self {
        Self::parse(BUILT_IN, BUILT_IN_NAME, &Catalogue::built_in())
            .expect("the built-in backgrounds are checked by their tests")
    }

    /// Reads and checks the backgrounds in `path`, their kits against `items`.
    pub fn load(path: &Path, items: &Catalogue) -> Result<Self, BackgroundsError> {
        let (text, file) = tuning::read(path)?;
        Self::parse(&text, &file, items)
    }

    /// Reads and checks a backgrounds file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str, items: &Catalogue) -> Result<Self, BackgroundsError> {
        Self::parse_kits(text, file, items, false).map(|(all, _)| all)
    }

    /// The built-in backgrounds for a host's own `items`: a kit's entry
    /// the items lack is left out, and named in the list given back (for
    /// the host's log), rather than refusing to start.
    pub fn built_in_for(items: &Catalogue) -> Result<(Self, Vec<String>), BackgroundsError> {
        Self::parse_kits(BUILT_IN, BUILT_IN_NAME, items, true)
    }

    /// Reads and checks a backgrounds file; `lenient`, a kit's entry of no
    /// such item is left out and named in the list given back.
    fn parse_kits(
        text: &str,
        file: &str,
        items: &Catalogue,
        lenient: bool,
    ) -> Result<(Self, Vec<String>), BackgroundsError> {
        let source = Source { text, file };
        let raw: File = source.deserialize()?;
        if raw.background.is_empty() {
            return Err(source.error(0, "no [[background]] at all".into()));
        }
        if raw.background.len() > MOST_BACKGROUNDS {
            let what = format!("{} backgrounds; at most {MOST_BACKGROUNDS}", raw.background.len());
            return Err(source.error(0, what));
        }
        let checked = source.check_entries("background", &raw.background)?;
        let mut all = Vec::with_capacity(checked.len());
        let mut left_out = Vec::new();
        for (raw, Unkitted { mut background, kit }) in raw.background.iter().zip(checked) {
            let fault = |what: String| {
                source.field_error(raw.span(), "background", &background.name, "kit", &what)
            };
            for (name, count) in kit {
                if lenient && items.find(&name).is_none() {
                    left_out.push(name);
                    continue;
                }
                let kind = kit_kind(items, &name).map_err(fault)?;
                let stacks = items.kind(kind).stacks();
                let wand = matches!(items.kind(kind).class, Class::Wand { .. });
                if count > 1 && !stacks && !wand {
                    return Err(fault(format!("{name:?} does not stack: list it once per item")));
                }
                background.kit.push((name, count));
            }
            all.push(background);
        }
        Ok((Self { all }, left_out))
    }

    pub fn all(&self) -> &[Background] {
        &self.all
    }

    /// The background called `name`.
    pub fn find(&self, name: &str) -> Option<&Background> {
        self.all.iter().find(|b| b.name == name)
    }

    /// What a client is told of them, the kits named by `items`.
    pub fn infos(&self, items: &Catalogue) -> Vec<gloam_protocol::BackgroundInfo> {
        self.all.iter().map(|b| b.info(items)).collect()
    }
}

/// The kind of item a kit names: any but the artifact.
fn kit_kind(items: &Catalogue, name: &str) -> Result<ItemKindId, String> {
    let Some(kind) = items.find(name) else {
        return Err(format!("no item is called {name:?} in the items"));
    };
    if matches!(items.kind(kind).class, Class::Artifact) {
        return Err("a character cannot start with the artifact".into());
    }
    Ok(kind)
}

impl Background {
    /// Makes a new `player` of this background: its hit points, skills
    /// and kit (of the kinds `items`, the world's, holds; never the
    /// artifact), the first weapon wielded and the first armour worn; it
    /// knows the kinds of potion and scroll it starts with.
    pub fn outfit(&self, player: &mut Player, items: &Catalogue) {
        player.vitals.hp = self.hp;
        player.vitals.max_hp = self.hp;
        player.skills = self.skills;
        player.background = Some(self.name.clone());
        let mut pack = Pack::default();
        for (name, count) in &self.kit {
            let Ok(kind) = kit_kind(items, name) else { continue };
            let item = match items.kind(kind).class {
                Class::Wand { .. } => Item::wand(kind, *count),
                _ => Item { kind, count: *count },
            };
            let stacks = items.kind(item.kind).stacks();
            let Ok(slot) = pack.add(item, stacks) else { continue };
            if items.look(item.kind).is_some() {
                player.known.insert(item.kind);
            }
            let gear = match items.kind(item.kind).class {
                Class::Weapon { .. } if pack.wielded().is_none() => Some(Gear::Wielded),
                Class::Armour { .. } if pack.worn().is_none() => Some(Gear::Worn),
                _ => None,
            };
            if let Some(gear) = gear {
                pack.equip(slot, gear);
            }
        }
        player.pack = pack;
    }

    /// What a client is told of it: its kit named by `items` as a new
    /// character of it knows them.
    pub fn info(&self, items: &Catalogue) -> gloam_protocol::BackgroundInfo {
        let mut player = Player::new(gloam_protocol::PlayerId(0), String::new());
        self.outfit(&mut player, items);
        let kit = player
            .pack
            .items()
            .iter()
            .enumerate()
            .map(|(slot, item)| {
                let count = items.told_count(*item);
                let words = items.described_for(item.kind, count, &player.known);
                match player.pack.gear_at(slot as u8) {
                    Some(Gear::Wielded) => format!("{words} (wielded)"),
                    Some(Gear::Worn) => format!("{words} (worn)"),
                    None => words,
                }
            })
            .collect();
        let Skills { to_hit, damage, stealth, throwing } = self.skills;
        gloam_protocol::BackgroundInfo {
            name: self.name.clone(),
            about: self.about.clone(),
            hp: self.hp,
            to_hit,
            damage,
            stealth,
            throwing,
            kit,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broken(from: &str, to: &str) -> BackgroundsError {
        assert!(BUILT_IN.contains(from), "{from:?} is not in the built-in file");
        let text = BUILT_IN.replacen(from, to, 1);
        Backgrounds::parse(&text, "b.toml", &Catalogue::built_in()).unwrap_err()
    }

    #[test]
    fn the_built_in_backgrounds_are_four_or_more_and_differ() {
        let all = Backgrounds::built_in();
        assert!(all.all().len() >= 4);
        for (i, b) in all.all().iter().enumerate() {
            assert!(!b.kit.is_empty(), "{} starts with nothing", b.name);
            for other in &all.all()[i + 1..] {
                assert!(
                    (b.hp, b.skills) != (other.hp, other.skills),
                    "{} and {} are alike",
                    b.name,
                    other.name
                );
            }
        }
        assert_eq!(all.find("scout").map(|b| b.skills.stealth), Some(40));
        assert!(all.find("bard").is_none());
    }

    #[test]
    fn a_fighter_starts_armed_armoured_and_knowing_its_potion() {
        let items = Catalogue::built_in().disguised(7);
        let fighter = Backgrounds::built_in().find("fighter").unwrap().clone();
        let mut ann = Player::new(gloam_protocol::PlayerId(1), "ann".into());
        fighter.outfit(&mut ann, &items);
        assert_eq!((ann.vitals.hp, ann.vitals.max_hp), (36, 36));
        assert_eq!(ann.skills, Skills { to_hit: 5, damage: 2, stealth: 0, throwing: 0 });
        assert_eq!(ann.background.as_deref(), Some("fighter"));
        let sword = items.find("short sword").unwrap();
        let potion = items.find("potion of healing").unwrap();
        assert_eq!(ann.pack.get(ann.pack.wielded().unwrap()).map(|i| i.kind), Some(sword));
        assert!(ann.pack.worn().is_some());
        assert_eq!(ann.known.iter().copied().collect::<Vec<_>>(), vec![potion]);
        let info = fighter.info(&items);
        assert_eq!(
            info.kit,
            ["a short sword (wielded)", "a leather armour (worn)", "a potion of healing"]
                .map(String::from)
        );
        assert_eq!((info.hp, info.to_hit, info.damage), (36, 5, 2));
    }

    #[test]
    fn an_adept_starts_with_charged_wands_it_knows_and_nobody_is_told_the_charges() {
        let items = Catalogue::built_in().disguised(7);
        let adept = Backgrounds::built_in().find("adept").unwrap().clone();
        let mut ann = Player::new(gloam_protocol::PlayerId(1), "ann".into());
        adept.outfit(&mut ann, &items);
        let striking = items.find("wand of striking").unwrap();
        let wand = ann.pack.items().iter().find(|i| i.kind == striking).copied().unwrap();
        assert_eq!(items.charges(wand), Some(8));
        assert!(ann.known.contains(&striking), "it knows its own wands");
        let kit = adept.info(&items).kit;
        assert!(kit.contains(&"a wand of striking".to_owned()), "{kit:?}");
    }

    #[test]
    fn a_kit_of_no_such_item_is_named_at_its_line() {
        let e = broken("{ item = \"short sword\" }", "{ item = \"vorpal blade\" }");
        assert_eq!(e.file, "b.toml");
        assert!(e.what.contains("background \"fighter\", field `kit`"), "{e}");
        assert!(e.what.contains("vorpal blade"), "{e}");
        assert_eq!(
            e.line,
            crate::tuning::testing::line_with(BUILT_IN, "kit = ["),
            "the fighter's kit"
        );
        let e = broken("{ item = \"short sword\" }", "{ item = \"short sword\", count = 2 }");
        assert!(e.what.contains("does not stack"), "{e}");
        let e = broken("{ item = \"short sword\" }", "{ item = \"the Gloamstone\" }");
        assert!(e.what.contains("artifact"), "{e}");
    }

    #[test]
    fn the_built_in_kits_leave_out_what_a_hosts_items_lack() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/items.toml"),
        )
        .unwrap();
        let keep = |block: &&str| {
            ["name = \"dart\"", "name = \"dagger\"", "class = \"artifact\""]
                .iter()
                .any(|n| block.contains(n))
        };
        let kept: Vec<&str> = text.split("[[item]]").skip(1).filter(keep).collect();
        let items =
            Catalogue::parse(&format!("[[item]]{}", kept.join("[[item]]")), "i.toml").unwrap();
        let (all, left_out) = Backgrounds::built_in_for(&items).unwrap();
        assert!(left_out.contains(&"short sword".to_owned()), "{left_out:?}");
        let scout = all.find("scout").unwrap();
        let kit: Vec<&str> = scout.kit.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(kit, ["dagger", "dart"]);
        let mut ann = Player::new(gloam_protocol::PlayerId(1), "ann".into());
        Backgrounds::built_in().find("fighter").unwrap().outfit(&mut ann, &items);
        assert_eq!(ann.vitals.max_hp, 36, "a fighter still, in a world without its kit");
        assert!(ann.pack.is_empty(), "its sword, armour and potion are not in these items");
        assert!(
            Backgrounds::parse(BUILT_IN, "b.toml", &items).is_err(),
            "a host's own file is strict"
        );
    }

    #[test]
    fn a_skill_out_of_range_names_its_field_and_line() {
        let e = broken("stealth = 40", "stealth = 95");
        assert!(e.what.contains("field `stealth`"), "{e}");
        assert_eq!(e.line, crate::tuning::testing::line_with(BUILT_IN, "stealth = 40"));
        let e = broken("hp = 36", "hp = 0");
        assert!(e.what.contains("field `hp`"), "{e}");
        let e = broken("throwing = 20", "throwing = 60");
        assert!(e.what.contains("field `throwing`"), "{e}");
        let e = broken("hp = 36", "hp = 36\nluck = 3");
        assert!(e.what.contains("luck"), "{e}");
    }
}
