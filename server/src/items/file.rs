//! The items file as written, and its checks into the kinds the game
//! uses: each field is checked against the entry's class.

use serde::Deserialize;

use super::{Class, Effect, Found, ItemKind, Zap};
use crate::tuning::{self, Dice, Entry, Fault};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File {
    #[serde(default)]
    pub(super) item: Vec<toml::Spanned<RawItem>>,
}

/// An `[[item]]` as written: the fields of every class, each checked
/// against the entry's own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawItem {
    name: String,
    glyph: String,
    colour: String,
    class: ClassName,
    effect: Option<EffectName>,
    power: Option<String>,
    damage: Option<String>,
    to_hit: Option<i8>,
    armour: Option<i8>,
    range: Option<u8>,
    stack: Option<(u8, u8)>,
    charges: Option<(u8, u8)>,
    depths: Option<(u16, u16)>,
    rarity: Option<u8>,
    since: Option<u16>,
}

/// A class as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum ClassName {
    Potion,
    Scroll,
    Weapon,
    Armour,
    Missile,
    Wand,
    Artifact,
}

/// An effect as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum EffectName {
    Heal,
    Vigour,
    Teleport,
    Map,
    Sleep,
    Harm,
    Confuse,
    Aggravate,
    Summon,
    Bolt,
    Blink,
    Slow,
    Light,
}

impl ClassName {
    /// The fields it takes besides name, glyph, colour and class.
    fn fields(self) -> &'static [&'static str] {
        match self {
            ClassName::Potion | ClassName::Scroll => &["effect", "power", "depths", "rarity"],
            ClassName::Weapon => &["damage", "to_hit", "depths", "rarity"],
            ClassName::Armour => &["armour", "depths", "rarity"],
            ClassName::Missile => &["damage", "range", "stack", "depths", "rarity"],
            ClassName::Wand => &["effect", "power", "range", "charges", "depths", "rarity"],
            ClassName::Artifact => &[],
        }
    }

    /// As the file writes it.
    fn name(self) -> &'static str {
        match self {
            ClassName::Potion => "potion",
            ClassName::Scroll => "scroll",
            ClassName::Weapon => "weapon",
            ClassName::Armour => "armour",
            ClassName::Missile => "missile",
            ClassName::Wand => "wand",
            ClassName::Artifact => "artifact",
        }
    }
}

impl Entry for RawItem {
    type Checked = ItemKind;

    fn name(&self) -> &str {
        &self.name
    }

    fn check(&self) -> Result<ItemKind, Fault> {
        let name = tuning::name(&self.name, 32)?;
        let glyph = tuning::glyph(&self.glyph)?;
        let colour = tuning::colour(&self.colour)?;
        self.check_fields()?;
        let since = self.since.unwrap_or(1);
        tuning::edition(since)?;
        Ok(ItemKind { name: name.to_owned(), glyph, colour, class: self.class()?, since })
    }
}

impl RawItem {
    /// The fields besides name, glyph, colour and class, and whether each
    /// is given.
    fn given(&self) -> [(&'static str, bool); 10] {
        [
            ("effect", self.effect.is_some()),
            ("power", self.power.is_some()),
            ("damage", self.damage.is_some()),
            ("to_hit", self.to_hit.is_some()),
            ("armour", self.armour.is_some()),
            ("range", self.range.is_some()),
            ("stack", self.stack.is_some()),
            ("charges", self.charges.is_some()),
            ("depths", self.depths.is_some()),
            ("rarity", self.rarity.is_some()),
        ]
    }

    /// No field is given that the class does not take.
    fn check_fields(&self) -> Result<(), Fault> {
        let takes = self.class.fields();
        let Some((field, _)) = self.given().into_iter().find(|(f, on)| *on && !takes.contains(f))
        else {
            return Ok(());
        };
        let class = self.class.name();
        let what = match self.class {
            ClassName::Artifact => {
                "the artifact lies on the bottom depth, and takes no field besides \
                 name, glyph, colour and class"
                    .to_owned()
            }
            _ => format!("class \"{class}\" takes none (it takes {})", takes.join(", ")),
        };
        Err((field, what))
    }

    /// `value` of `field`, which the class needs.
    fn needs<T>(&self, field: &'static str, value: Option<T>) -> Result<T, Fault> {
        let class = self.class.name();
        value.ok_or_else(|| (field, format!("missing: class \"{class}\" needs it")))
    }

    /// The dice written in `field`, which the class needs.
    fn dice(&self, field: &'static str, text: Option<&str>) -> Result<Dice, Fault> {
        self.needs(field, text)?.parse().map_err(|e| (field, e))
    }

    /// The class with what it needs; a field missing or out of range is
    /// named.
    fn class(&self) -> Result<Class, Fault> {
        Ok(match self.class {
            ClassName::Potion => Class::Potion { effect: self.effect()?, found: self.found()? },
            ClassName::Scroll => Class::Scroll { effect: self.effect()?, found: self.found()? },
            ClassName::Weapon => Class::Weapon {
                damage: self.dice("damage", self.damage.as_deref())?,
                to_hit: percent_points("to_hit", self.to_hit.unwrap_or(0))?,
                found: self.found()?,
            },
            ClassName::Armour => Class::Armour {
                armour: percent_points("armour", self.needs("armour", self.armour)?)?,
                found: self.found()?,
            },
            ClassName::Missile => Class::Missile {
                damage: self.dice("damage", self.damage.as_deref())?,
                range: self.range()?,
                stack: self.stack()?,
                found: self.found()?,
            },
            ClassName::Wand => Class::Wand {
                zap: self.zap()?,
                range: self.range()?,
                charges: self.charges()?,
                found: self.found()?,
            },
            ClassName::Artifact => Class::Artifact,
        })
    }

    /// The dice in `power`, if given.
    fn power(&self) -> Result<Option<crate::tuning::Dice>, Fault> {
        match &self.power {
            Some(power) => Ok(Some(power.parse().map_err(|e| ("power", e))?)),
            None => Ok(None),
        }
    }

    /// A wand's effect, with its power where it rolls.
    fn zap(&self) -> Result<Zap, Fault> {
        let effect = self.needs("effect", self.effect)?;
        let power = self.power()?;
        let rolled = |zap: fn(Dice) -> Zap| {
            let missing = ("power", "missing: give the dice its effect rolls, e.g. \"2d6\"".into());
            power.map(zap).ok_or(missing)
        };
        match effect {
            EffectName::Bolt => rolled(Zap::Bolt),
            EffectName::Heal => rolled(Zap::Heal),
            EffectName::Slow => rolled(Zap::Slow),
            EffectName::Light => rolled(Zap::Light),
            EffectName::Blink if power.is_some() => {
                Err(("power", "the effect \"blink\" rolls no dice: leave it out".into()))
            }
            EffectName::Blink => Ok(Zap::Blink),
            _ => Err((
                "effect",
                "a wand's effect is one of \"bolt\", \"blink\", \"heal\", \"slow\" or \"light\""
                    .into(),
            )),
        }
    }

    /// The least and most charges a wand holds when placed.
    fn charges(&self) -> Result<(u8, u8), Fault> {
        match self.needs("charges", self.charges)? {
            (least, most) if least <= most && most <= 50 => Ok((least, most)),
            (least, most) => Err((
                "charges",
                format!("[{least}, {most}]: give [least, most] with least <= most <= 50"),
            )),
        }
    }

    /// A potion's or scroll's effect, with its power where it rolls.
    fn effect(&self) -> Result<Effect, Fault> {
        let effect = self.needs("effect", self.effect)?;
        let power = self.power()?;
        let rolled = |effect: fn(Dice) -> Effect| {
            let missing = ("power", "missing: give the dice its effect rolls, e.g. \"4d4\"".into());
            power.map(effect).ok_or(missing)
        };
        let fixed = |effect: Effect, name: &str| match power {
            Some(_) => Err(("power", format!("the effect \"{name}\" rolls no dice: leave it out"))),
            None => Ok(effect),
        };
        match effect {
            EffectName::Heal => rolled(Effect::Heal),
            EffectName::Vigour => rolled(Effect::Vigour),
            EffectName::Teleport => fixed(Effect::Teleport, "teleport"),
            EffectName::Map => fixed(Effect::MagicMapping, "map"),
            EffectName::Sleep => fixed(Effect::Sleep, "sleep"),
            EffectName::Harm => rolled(Effect::Harm),
            EffectName::Confuse => rolled(Effect::Confuse),
            EffectName::Aggravate => fixed(Effect::Aggravate, "aggravate"),
            EffectName::Summon => fixed(Effect::Summon, "summon"),
            EffectName::Bolt | EffectName::Blink | EffectName::Slow | EffectName::Light => Err((
                "effect",
                "a wand's effect: a potion's or scroll's is one of \"heal\", \"vigour\", \
                 \"teleport\", \"map\", \"sleep\", \"harm\", \"confuse\", \"aggravate\" or \"summon\""
                    .into(),
            )),
        }
    }

    fn range(&self) -> Result<u8, Fault> {
        match self.needs("range", self.range)? {
            range @ 1..=20 => Ok(range),
            range => Err(("range", format!("{range} cells: give 1 to 20"))),
        }
    }

    fn stack(&self) -> Result<(u8, u8), Fault> {
        match self.needs("stack", self.stack)? {
            (least, most) if least >= 1 && least <= most && most <= 50 => Ok((least, most)),
            (least, most) => Err((
                "stack",
                format!("[{least}, {most}]: give [least, most] with 1 <= least <= most <= 50"),
            )),
        }
    }

    /// Where it lies and how often.
    fn found(&self) -> Result<Found, Fault> {
        let depths = tuning::depths(self.needs("depths", self.depths)?)?;
        let rarity = tuning::rarity(self.needs("rarity", self.rarity)?)?;
        Ok(Found { depths, rarity })
    }
}

/// Percent points of a bonus or a penalty, -50 to 50.
fn percent_points(field: &'static str, points: i8) -> Result<i8, Fault> {
    if !(-50..=50).contains(&points) {
        return Err((field, format!("{points}: give percent points from -50 to 50")));
    }
    Ok(points)
}
