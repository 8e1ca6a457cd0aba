use super::*;
use crate::tuning::testing::line_with;

fn built_in() -> Catalogue {
    Catalogue::parse(BUILT_IN, BUILT_IN_NAME).unwrap()
}

/// The name of a kind's class, to count them by.
fn class_of(kind: &ItemKind) -> &'static str {
    match kind.class {
        Class::Potion { .. } => "potion",
        Class::Scroll { .. } => "scroll",
        Class::Weapon { .. } => "weapon",
        Class::Armour { .. } => "armour",
        Class::Missile { .. } => "missile",
        Class::Wand { .. } => "wand",
        Class::Artifact => "artifact",
    }
}

#[test]
fn the_built_in_items_are_sound_and_every_depth_has_every_class() {
    let items = built_in();
    for depth in 1..=26 {
        let here: Vec<&str> = items.placeable_at(depth).map(|(_, k)| class_of(k)).collect();
        for class in ["potion", "scroll", "weapon", "armour", "missile"] {
            assert!(here.contains(&class), "depth {depth} has a {class}: {here:?}");
        }
        assert!(!here.contains(&"artifact"), "the artifact is never drawn");
    }
    let artifact = items.kind(items.artifact());
    assert_eq!(artifact.class, Class::Artifact);
    assert_eq!(artifact.weight(), 0);
    assert_eq!(items.kinds().iter().filter(|k| k.class == Class::Artifact).count(), 1);
    let healing = items.kind(items.find("potion of healing").unwrap());
    let effect = Effect::Heal(Dice { count: 4, sides: 4 });
    assert!(matches!(healing.class, Class::Potion { effect: e, .. } if e == effect));
    assert_eq!((healing.glyph, healing.colour), ('!', [0xe0, 0x50, 0x50]));
    let effects: Vec<Effect> = items
        .kinds()
        .iter()
        .filter_map(|k| match k.class {
            Class::Potion { effect, .. } | Class::Scroll { effect, .. } => Some(effect),
            _ => None,
        })
        .collect();
    for wanted in [Effect::Teleport, Effect::MagicMapping, Effect::Sleep] {
        assert!(effects.contains(&wanted), "{wanted:?}");
    }
    assert!(effects.iter().any(|e| matches!(e, Effect::Vigour(_))));
    assert_eq!(items.find("no such thing"), None);
}

#[test]
fn weapons_grow_heavier_and_rarer_with_depth() {
    let items = built_in();
    let weapons: Vec<(u16, u16, u8)> = items
        .kinds()
        .iter()
        .filter_map(|k| match k.class {
            Class::Weapon { damage, found, .. } => Some((
                found.depths.0,
                u16::from(damage.count) * u16::from(damage.sides),
                found.rarity,
            )),
            _ => None,
        })
        .collect();
    assert!(weapons.len() >= 6);
    let grows = |w: &[(u16, u16, u8)]| w[0].0 <= w[1].0 && w[0].1 <= w[1].1 && w[0].2 <= w[1].2;
    assert!(weapons.windows(2).all(grows), "{weapons:?}");
    let common = items.placeable_at(1).map(|(_, k)| k.weight()).max().unwrap();
    let deep = items.placeable_at(26).map(|(_, k)| k.weight()).min().unwrap();
    assert!(common > deep);
}

fn broken(from: &str, to: &str) -> ItemsError {
    let text = BUILT_IN.replacen(from, to, 1);
    assert_ne!(text, BUILT_IN, "{from:?} is in the file");
    Catalogue::parse(&text, "i.toml").unwrap_err()
}

/// `from` replaced by `to` in the built-in file gives an error in
/// `i.toml` on the line holding `needle`.
fn refused_on(from: &str, to: &str, needle: &str) -> ItemsError {
    let e = broken(from, to);
    let text = BUILT_IN.replacen(from, to, 1);
    assert_eq!((e.file.as_str(), e.line), ("i.toml", line_with(&text, needle)), "{e}");
    e
}

/// `from` replaced by `to` in the built-in file gives an error on the
/// line of what `to` adds, naming `item` and `field`.
fn refused_at(from: &str, to: &str, item: &str, field: &str) -> ItemsError {
    let needle = to.lines().find(|l| !from.lines().any(|f| f == *l)).unwrap();
    let e = refused_on(from, to, needle);
    assert!(e.what.starts_with(&format!("item {item:?}, field `{field}`: ")), "{e}");
    e
}

#[test]
fn a_bad_value_names_the_file_the_line_and_the_field() {
    let e = refused_at("damage = \"2d3\"", "damage = \"2x3\"", "dagger", "damage");
    assert!(e.to_string().starts_with(&format!("i.toml:{}: item \"dagger\"", e.line)), "{e}");
    // What is written, what it is made, the item and the field named.
    let bad = [
        ("colour = \"#e05050\"", "colour = \"red\"", "potion of healing", "colour"),
        ("power = \"4d4\"", "power = \"4\"", "potion of healing", "power"),
        ("to_hit = 10", "to_hit = 60", "dagger", "to_hit"),
        ("armour = 22", "armour = -51", "plate armour", "armour"),
        ("range = 6", "range = 0", "dart", "range"),
        ("range = 7", "range = 21", "throwing knife", "range"),
        ("stack = [4, 10]", "stack = [10, 4]", "dart", "stack"),
        ("stack = [2, 4]", "stack = [0, 4]", "javelin", "stack"),
        ("depths = [15, 26]", "depths = [26, 15]", "greatsword", "depths"),
        ("depths = [1, 8]", "depths = [0, 8]", "dagger", "depths"),
        ("rarity = 5\n\n# Armour", "rarity = 11\n\n# Armour", "greatsword", "rarity"),
        ("glyph = \"[\"", "glyph = \"[a\"", "leather armour", "glyph"),
        ("name = \"mace\"", "name = \"\"", "", "name"),
    ];
    for (from, to, item, field) in bad {
        refused_at(from, to, item, field);
    }
}

#[test]
fn a_misspelt_or_missing_field_is_named_with_its_line() {
    let e = refused_on("damage = \"2d6\"", "dammage = \"2d6\"", "dammage");
    assert!(e.what.contains("dammage"), "{e}");
    let e = refused_on("effect = \"map\"", "effect = \"mapping\"", "\"mapping\"");
    assert!(e.what.contains("`effect`") && e.what.contains("mapping"), "{e}");
    // A field the class needs, left out, is named at the line of the class.
    let mace = line_with(BUILT_IN, "name = \"mace\"");
    let e = broken("damage = \"2d6\"\n", "");
    assert_eq!(e.line, mace + 3, "{e}");
    assert!(e.what.starts_with("item \"mace\", field `damage`: missing"), "{e}");
    let e = broken("range = 5\n", "");
    assert!(e.what.starts_with("item \"javelin\", field `range`: missing"), "{e}");
    let e = broken("armour = 5\n", "");
    assert!(e.what.starts_with("item \"leather armour\", field `armour`: missing"), "{e}");
    let e = broken("effect = \"teleport\"\n", "");
    assert!(e.what.contains("`effect`: missing"), "{e}");
    let e = broken("power = \"1d4\"\n", "");
    assert!(e.what.starts_with("item \"potion of vigour\", field `power`: missing"), "{e}");
    let e = broken("rarity = 6\n\n# Missiles", "\n# Missiles");
    assert!(e.what.starts_with("item \"plate armour\", field `rarity`: missing"), "{e}");
    let e = broken("class = \"weapon\"", "class = \"sword\"");
    assert!(e.what.contains("`class`") && e.what.contains("sword"), "{e}");
    assert_eq!(Catalogue::parse("not toml", "i.toml").unwrap_err().line, 1);
}

#[test]
fn a_field_the_class_does_not_take_is_refused() {
    let e = refused_at(
        "power = \"4d4\"",
        "power = \"4d4\"\ndamage = \"1d6\"",
        "potion of healing",
        "damage",
    );
    assert!(e.what.contains("takes none (it takes effect, power, depths, rarity)"), "{e}");
    refused_at("to_hit = 10", "to_hit = 10\narmour = 3", "dagger", "armour");
    refused_at("armour = 5", "armour = 5\ndamage = \"1d2\"", "leather armour", "damage");
    refused_at("range = 6", "range = 6\nto_hit = 4", "dart", "to_hit");
    let teleport = "effect = \"teleport\"";
    let e = refused_at(
        teleport,
        &format!("{teleport}\npower = \"2d2\""),
        "scroll of teleportation",
        "power",
    );
    assert!(e.what.contains("rolls no dice"), "{e}");
    let artifact = "class = \"artifact\"";
    let e =
        refused_at(artifact, &format!("{artifact}\ndepths = [26, 26]"), "the Gloamstone", "depths");
    assert!(e.what.contains("bottom depth"), "{e}");
}

#[test]
fn there_is_exactly_one_artifact_and_no_name_twice() {
    let e = broken(
        "class = \"artifact\"",
        "class = \"scroll\"\neffect = \"map\"\ndepths = [1, 2]\nrarity = 1",
    );
    assert!(e.what.contains("no item of class \"artifact\""), "{e}");
    let second = format!(
        "{}\n[[item]]\nname = \"the Other Stone\"\nglyph = \"*\"\ncolour = \"#ffffff\"\nclass = \"artifact\"\n",
        BUILT_IN
    );
    let e = Catalogue::parse(&second, "i.toml").unwrap_err();
    assert!(
        e.what.starts_with("item \"the Other Stone\", field `class`: a second artifact"),
        "{e}"
    );
    assert_eq!(e.line, second.lines().count());
    let e = broken("name = \"mace\"", "name = \"dagger\"");
    assert_eq!(e.what, "item \"dagger\" is listed twice");
    assert_eq!(e.line, line_with(BUILT_IN, "name = \"mace\""));
    let e = Catalogue::load(Path::new("/no/such/items.toml")).unwrap_err();
    assert!(e.to_string().starts_with("/no/such/items.toml:0: cannot read it"), "{e}");
    let copy = Catalogue::parse(BUILT_IN, "copy.toml").unwrap();
    assert_eq!(copy, Catalogue::default());
}

/// A kind of a later edition than its world's lies nowhere in that world,
/// but keeps its id; an edition past the newest is a mistake.
#[test]
fn a_kind_of_a_later_edition_lies_nowhere_in_an_older_world() {
    let text = BUILT_IN.replacen("depths = [1, 16]", "depths = [1, 16]\nsince = 3", 1);
    let items = Catalogue::parse(&text, "i.toml").unwrap();
    let healing = items.find("potion of healing").unwrap();
    let lies = |c: &Catalogue| c.placeable_at(1).any(|(id, _)| id == healing);
    assert!(lies(&items.as_of(3)), "a world of its edition finds it");
    assert!(!lies(&items.as_of(2)), "an older world never does");
    assert_eq!(items.as_of(2).find("potion of healing"), Some(healing), "its id stays");
    let text = BUILT_IN.replacen("depths = [1, 16]", "depths = [1, 16]\nsince = 99", 1);
    let e = Catalogue::parse(&text, "i.toml").unwrap_err();
    assert!(e.what.contains("`since`") && e.what.contains("healing"), "{e}");
}

/// Every wand effect is built in, each a kind of edition 4, listed after
/// every older kind so that their ids hold.
#[test]
fn the_built_in_wands_have_every_effect_and_come_last() {
    let items = built_in();
    let wands: Vec<(usize, &ItemKind)> =
        items.kinds().iter().enumerate().filter(|(_, k)| class_of(k) == "wand").collect();
    let zaps: Vec<Zap> = wands
        .iter()
        .filter_map(|(_, k)| match k.class {
            Class::Wand { zap, .. } => Some(zap),
            _ => None,
        })
        .collect();
    assert!(zaps.iter().any(|z| matches!(z, Zap::Bolt(_))));
    assert!(zaps.contains(&Zap::Blink));
    assert!(zaps.iter().any(|z| matches!(z, Zap::Heal(_))));
    assert!(zaps.iter().any(|z| matches!(z, Zap::Slow(_))));
    assert!(zaps.iter().any(|z| matches!(z, Zap::Light(_))));
    assert!(wands.iter().all(|(_, k)| k.since == WANDS_SINCE && !k.stacks()));
    let first = wands[0].0;
    assert!(items.kinds()[first..].iter().all(|k| k.since == WANDS_SINCE), "wands come last");
    assert_eq!(items.as_of(3).placeable_at(5).filter(|(_, k)| class_of(k) == "wand").count(), 0);
    let striking = items.find("wand of striking").unwrap();
    let full = Item::wand(striking, 4);
    assert_eq!((items.charges(full), items.told_count(full)), (Some(4), 1));
    assert_eq!(items.described_for(striking, full.count, &Known::new()), "a wand of striking");
}

#[test]
fn a_bad_wand_field_names_the_file_the_line_and_the_field() {
    let bad = [
        ("charges = [4, 8]", "charges = [8, 4]", "wand of striking", "charges"),
        ("charges = [3, 6]", "charges = [3, 60]", "wand of blinking", "charges"),
        ("power = \"2d6\"", "power = \"2x6\"", "wand of striking", "power"),
        ("effect = \"blink\"", "effect = \"blink\"\npower = \"1d5\"", "wand of blinking", "power"),
        (
            "effect = \"slow\"",
            "effect = \"teleport\" # a scroll's",
            "wand of slow monster",
            "effect",
        ),
        (
            "range = 8\ncharges = [4, 8]",
            "range = 30\ncharges = [4, 8]",
            "wand of striking",
            "range",
        ),
        (
            "effect = \"heal\"\npower = \"4d4\"",
            "effect = \"bolt\"\npower = \"4d4\"",
            "potion of healing",
            "effect",
        ),
        ("range = 6\n", "range = 6\ncharges = [1, 2]\n", "dart", "charges"),
    ];
    for (from, to, item, field) in bad {
        refused_at(from, to, item, field);
    }
    let e = broken("charges = [5, 10]\n", "");
    assert!(e.what.starts_with("item \"wand of light\", field `charges`: missing"), "{e}");
    let e = broken("effect = \"light\"\npower = \"2d3\"\n", "effect = \"light\"\n");
    assert!(e.what.starts_with("item \"wand of light\", field `power`: missing"), "{e}");
}
