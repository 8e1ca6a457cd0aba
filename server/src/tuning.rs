//! What the designer's files (the bestiary, the items) share: dice, the
//! checks of a name, glyph, colour, depths and rarity, and how a mistake
//! becomes one error naming the file, the line and the field.

use std::ops::Range;
use std::path::Path;

use serde::de::DeserializeOwned;
use toml::Spanned;

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

/// A designer's file that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {what}")]
pub struct TuningError {
    pub file: String,
    pub line: usize,
    pub what: String,
}

/// What is wrong with one entry: the field, and what is wrong with it.
pub(crate) type Fault = (&'static str, String);

/// One entry of a file as read (a `[[monster]]`, an `[[item]]`), which
/// checks into what the game uses.
pub(crate) trait Entry {
    type Checked;

    /// Its name as written.
    fn name(&self) -> &str;

    /// Checks it; a failure names the field.
    fn check(&self) -> Result<Self::Checked, Fault>;
}

/// Reads the file at `path`: its text, and its name for errors.
pub(crate) fn read(path: &Path) -> Result<(String, String), TuningError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok((text, file)),
        Err(e) => Err(TuningError { file, line: 0, what: format!("cannot read it: {e}") }),
    }
}

/// A file's text with the name it goes by in errors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub text: &'a str,
    pub file: &'a str,
}

impl Source<'_> {
    /// An error at a byte offset of the text.
    pub(crate) fn error(&self, offset: usize, what: String) -> TuningError {
        TuningError { file: self.file.to_owned(), line: line_of(self.text, offset), what }
    }

    /// The text as TOML of shape `T`; a mistake of syntax, type or name is
    /// one error at its line, naming the field when the TOML reader did not.
    pub(crate) fn deserialize<T: DeserializeOwned>(&self) -> Result<T, TuningError> {
        toml::from_str(self.text).map_err(|e| {
            let at = e.span().map(|s| s.start).unwrap_or(0);
            let what = e.message().trim();
            match field_at(self.text, at) {
                Some(field) if !what.contains(field) => {
                    self.error(at, format!("field `{field}`: {what}"))
                }
                _ => self.error(at, what.to_owned()),
            }
        })
    }

    /// An error in `field` of the entry (a `noun` called `name`) whose span
    /// is `span`: at the field's line, or where it is missing, at the line
    /// of the entry's `class` (if it has one) or its header.
    pub(crate) fn field_error(
        &self,
        span: Range<usize>,
        noun: &str,
        name: &str,
        field: &str,
        what: &str,
    ) -> TuningError {
        let at = field_offset(self.text, span.clone(), field)
            .or_else(|| field_offset(self.text, span.clone(), "class"))
            .unwrap_or(span.start);
        self.error(at, format!("{noun} {name:?}, field `{field}`: {what}"))
    }

    /// Checks every entry, in order; the first mistake, or a name listed
    /// twice, is the error.
    pub(crate) fn check_entries<E: Entry>(
        &self,
        noun: &str,
        entries: &[Spanned<E>],
    ) -> Result<Vec<E::Checked>, TuningError> {
        let mut checked = Vec::with_capacity(entries.len());
        for (i, entry) in entries.iter().enumerate() {
            let (span, raw) = (entry.span(), entry.get_ref());
            let kind = raw.check().map_err(|(field, what)| {
                self.field_error(span.clone(), noun, raw.name(), field, &what)
            })?;
            let name = raw.name().trim();
            if entries[..i].iter().any(|e| e.get_ref().name().trim() == name) {
                let at = field_offset(self.text, span.clone(), "name").unwrap_or(span.start);
                return Err(self.error(at, format!("{noun} {name:?} is listed twice")));
            }
            checked.push(kind);
        }
        Ok(checked)
    }
}

/// A name of 1 to `most` characters, trimmed.
pub(crate) fn name(raw: &str, most: usize) -> Result<&str, Fault> {
    let name = raw.trim();
    if name.is_empty() || name.chars().count() > most {
        return Err(("name", format!("give a name of 1 to {most} characters")));
    }
    Ok(name)
}

/// One visible ASCII character.
pub(crate) fn glyph(raw: &str) -> Result<char, Fault> {
    let mut glyph = raw.chars();
    match (glyph.next(), glyph.next()) {
        (Some(c), None) if c.is_ascii_graphic() => Ok(c),
        _ => Err(("glyph", format!("{raw:?} is not one visible ASCII character"))),
    }
}

/// A colour written `"#rrggbb"`.
pub(crate) fn colour(raw: &str) -> Result<[u8; 3], Fault> {
    parse_colour(raw).ok_or(("colour", format!("{raw:?} is not \"#rrggbb\"")))
}

/// `[shallowest, deepest]`, from depth 1.
pub(crate) fn depths((top, bottom): (u16, u16)) -> Result<(u16, u16), Fault> {
    if top == 0 || top > bottom {
        return Err(("depths", format!("[{top}, {bottom}]: give [shallowest, deepest], from 1")));
    }
    Ok((top, bottom))
}

/// 1 (common) to 10 (very rare).
pub(crate) fn rarity(rarity: u8) -> Result<u8, Fault> {
    if !(1..=10).contains(&rarity) {
        return Err(("rarity", format!("{rarity}: give 1 (common) to 10 (very rare)")));
    }
    Ok(rarity)
}

/// The first world edition a kind is found in: 1 to the newest.
pub(crate) fn edition(since: u16) -> Result<u16, Fault> {
    let newest = crate::config::EDITION;
    if !(1..=newest).contains(&since) {
        return Err(("since", format!("{since}: give a world edition from 1 to {newest}")));
    }
    Ok(since)
}

/// How likely a kind of rarity `rarity` is drawn against the others
/// allowed where it is.
pub(crate) fn weight(rarity: u8) -> u32 {
    2520 / u32::from(rarity.max(1))
}

/// The kind a `roll` below the weights' sum falls on, each kind taking a
/// share of the rolls as large as its weight (the last for a roll past them).
pub(crate) fn pick<K: Copy + Default>(kinds: &[(K, u32)], mut roll: u32) -> K {
    for &(id, weight) in kinds {
        if roll < weight {
            return id;
        }
        roll -= weight;
    }
    kinds.last().map(|&(id, _)| id).unwrap_or_default()
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

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len())).map_or(1, |t| t.matches('\n').count() + 1)
}

/// Where `field = ...` starts in the entry whose span starts at `span`
/// (the span may cover only the entry's `[[...]]` header: the entry runs
/// to the next header).
fn field_offset(text: &str, span: Range<usize>, field: &str) -> Option<usize> {
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

/// What the tests of the designer's files share.
#[cfg(test)]
pub(crate) mod testing {
    /// The 1-based line of the first line of `text` holding `needle`.
    pub(crate) fn line_with(text: &str, needle: &str) -> usize {
        text.lines().position(|l| l.contains(needle)).unwrap() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
