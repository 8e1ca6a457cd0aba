//! An item in words: "a potion of healing", "12 darts", "the Gloamstone".

use super::ItemKind;

impl ItemKind {
    /// `count` of this kind, as a sentence names them: with "a" or "an"
    /// for one (none before a name that starts with "the"), with the
    /// count and the plural for more.
    pub fn described(&self, count: u16) -> String {
        described(&self.name, count)
    }

    /// One of this kind with "the": "the dagger", "the Gloamstone".
    pub fn the(&self) -> String {
        the(&self.name)
    }
}

/// `count` of an item called `name`, as a sentence names them.
pub(super) fn described(name: &str, count: u16) -> String {
    if count != 1 {
        return format!("{count} {}", plural(name));
    }
    if name.starts_with("the ") || name.starts_with("The ") {
        return name.to_owned();
    }
    let vowel = name.chars().next().is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// One item called `name` with "the".
pub(super) fn the(name: &str) -> String {
    if name.starts_with("the ") || name.starts_with("The ") {
        return name.to_owned();
    }
    format!("the {name}")
}

/// The plural of an item's name: its head word made plural ("potions of
/// healing", "throwing knives", "darts").
pub(crate) fn plural(name: &str) -> String {
    let split = name.find(" of ").or_else(|| name.find(" labelled "));
    let (head, tail) = match split {
        Some(at) => name.split_at(at),
        None => (name, ""),
    };
    let (before, word) = match head.rfind(' ') {
        Some(at) => head.split_at(at + 1),
        None => ("", head),
    };
    let word = if let Some(stem) = word.strip_suffix("fe") {
        format!("{stem}ves")
    } else if ["s", "x", "ch", "sh"].iter().any(|end| word.ends_with(end)) {
        format!("{word}es")
    } else {
        format!("{word}s")
    };
    format!("{before}{word}{tail}")
}

#[cfg(test)]
mod tests {
    use crate::items::Catalogue;

    fn described(name: &str, count: u16) -> String {
        let items = Catalogue::built_in();
        let kind = items.find(name).unwrap_or_else(|| panic!("{name} is built in"));
        items.kind(kind).described(count)
    }

    #[test]
    fn items_are_named_with_their_article_or_their_count() {
        assert_eq!(described("potion of healing", 1), "a potion of healing");
        assert_eq!(described("potion of healing", 3), "3 potions of healing");
        assert_eq!(described("dart", 12), "12 darts");
        assert_eq!(described("throwing knife", 2), "2 throwing knives");
        assert_eq!(described("the Gloamstone", 1), "the Gloamstone");
        assert!(described("javelin", 1).starts_with("a "));
    }
}
