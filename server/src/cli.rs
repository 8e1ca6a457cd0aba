//! The command-line options both binaries (`gloam-server` and the window's
//! `gloam`, which can host) share, as clap structs: which world to play, and
//! `mapgen`, a level as text with optionally every step of its building, so
//! a host can see how a level came to be and rebuild the one a player
//! reports from the world seed and depth. The rest of the library knows
//! nothing of command lines: these turn into its plain settings.

use std::collections::BTreeMap;

use gloam_protocol::Pos;

use crate::bestiary::{Bestiary, BestiaryError};
use crate::config::WorldWish;
use crate::items::{Catalogue, Item, ItemsError};
use crate::level::Level;
use crate::mapgen::populate::populate;
use crate::mapgen::stock::piles;
use crate::mapgen::uniques;
use crate::mapgen::{
    Generator, GeneratorSetting, Mix, Steps, Vaults, build_recorded, generator_with, level_seed,
    make_bottom,
};
use crate::seeds::Seeds;

/// The world a host asks for on the command line. What it leaves out is
/// taken from the stored world, or (for a new world) made up: a random seed,
/// the default generator and weights.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct WorldChoice {
    /// The seed of a new world: the same seed builds the same levels on
    /// every machine [default: random, then kept in the store].
    #[arg(long)]
    pub seed: Option<u64>,
    /// How a new world's levels are built: bsp, maze, interior, caves,
    /// drunk-area, drunk-halls, drunk-passages or mixed [default: mixed].
    #[arg(long)]
    pub generator: Option<GeneratorSetting>,
    /// Weights of a mixed world, e.g. `bsp=4,interior=2,caves=2,maze=1`
    /// (generators not named are left out; `maze=0` means no mazes).
    #[arg(long)]
    pub mix: Option<Mix>,
}

impl WorldChoice {
    /// The choice as the store settles it.
    pub fn wish(&self) -> WorldWish {
        WorldWish { seed: self.seed, generator: self.generator, mix: self.mix.clone() }
    }
}

/// The rules a host plays by, taken by both binaries (the window's when it
/// hosts): the monsters, the clock, whether players may fight, how deep
/// the dungeon goes.
#[derive(Debug, Clone, clap::Args)]
pub struct HostRules {
    /// The deepest depth: its level has no stairs down.
    #[arg(long, default_value_t = crate::config::DEFAULT_MAX_DEPTH, global = true)]
    pub max_depth: u16,
    /// The kinds of monster [default: the built-in assets/bestiary.toml].
    #[arg(long, global = true)]
    pub bestiary: Option<std::path::PathBuf>,
    /// The kinds of item [default: the built-in assets/items.toml].
    #[arg(long, global = true)]
    pub items: Option<std::path::PathBuf>,
    /// What a new character may start as [default: the built-in
    /// assets/backgrounds.toml]; every kit is checked against the items.
    #[arg(long, global = true)]
    pub backgrounds: Option<std::path::PathBuf>,
    /// A folder of vaults, one `*.txt` each [default: the built-in
    /// assets/vaults/].
    #[arg(long, global = true)]
    pub vaults: Option<std::path::PathBuf>,
    /// How long a round waits for the players it concerns before counting
    /// those who have not acted as away (see docs/turns.md).
    #[arg(long, default_value_t = crate::config::DEFAULT_TURN_DEADLINE.as_millis() as u64)]
    pub turn_deadline_ms: u64,
    /// Let players attack each other (bumping into one attacks it).
    #[arg(long, global = true)]
    pub pvp: bool,
    /// Put a monster on a level besides those its seed places, as
    /// KIND@DEPTH:X,Y (repeatable): for designing levels and for tests.
    #[arg(long = "place", global = true)]
    pub placements: Vec<crate::config::Placement>,
    /// Whether players let others watch them when they join (each can
    /// change its mind in the game with /nowatch and /allowwatch).
    #[arg(long, value_enum, default_value_t = Watchers::Allow, global = true)]
    pub watchers: Watchers,
    /// The most watchers one player may have at once.
    #[arg(long, default_value_t = gloam_protocol::DEFAULT_MAX_WATCHERS, global = true)]
    pub max_watchers: u8,
    /// Whose past a player may watch again: its own (and anyone's fall),
    /// or also others' on the depths it has been to (see
    /// docs/recordings.md).
    #[arg(long, value_enum, default_value_t = Recordings::Own, global = true)]
    pub recordings: Recordings,
    /// Rounds played elsewhere in the world while a depth stands empty for
    /// it to regain a quarter of the monsters it lost (0: never).
    #[arg(long, default_value_t = crate::config::DEFAULT_RESTOCK_EVERY, global = true)]
    pub restock_every: u64,
    /// A message of the day: a file of a few lines (10 at most, of 200
    /// characters each) every player and watcher reads on joining.
    #[arg(long, value_name = "FILE")]
    pub motd: Option<std::path::PathBuf>,
    /// The most players in the game at once: one more is refused ("the
    /// server is full"). Watchers, and a character already playing that
    /// joins again, are not counted [default: no limit].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_players: Option<u32>,
}

/// A world's name as a host gives it (`--name`): 1 to
/// [`MAX_WORLD_NAME_CHARS`](gloam_protocol::MAX_WORLD_NAME_CHARS)
/// characters once trimmed, none of them a control character.
pub fn world_name(text: &str) -> Result<String, String> {
    let name = text.trim();
    let most = gloam_protocol::MAX_WORLD_NAME_CHARS;
    if name.is_empty() || name.chars().count() > most {
        return Err(format!("a world's name is 1 to {most} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a world's name holds no control characters".into());
    }
    Ok(name.to_owned())
}

/// Where a draining world sends newcomers, as a host gives it
/// (`--drain-to`): 1 to
/// [`MAX_ELSEWHERE_CHARS`](gloam_protocol::MAX_ELSEWHERE_CHARS)
/// characters once trimmed, none of them a control character or a space.
pub fn drain_to(text: &str) -> Result<String, String> {
    let address = text.trim();
    let most = gloam_protocol::MAX_ELSEWHERE_CHARS;
    if address.is_empty() || address.chars().count() > most {
        return Err(format!("an address to drain to is 1 to {most} characters"));
    }
    if address.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("an address to drain to holds no spaces or control characters".into());
    }
    Ok(address.to_owned())
}

/// Whose past a player may ask a recording of (`--recordings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Recordings {
    /// Its own, and the last rounds of any life that ended.
    Own,
    /// Also any player's, on a depth the asker has been to: never a
    /// player's time there now, unless it lets others watch it.
    Others,
}

/// A host's default for watching (`--watchers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Watchers {
    /// Anyone may watch a player who has not said `/nowatch`.
    Allow,
    /// Nobody may watch a player who has not said `/allowwatch`.
    Deny,
}

impl HostRules {
    /// `config` playing by these rules: its bestiary and items loaded (a bad
    /// file is one error naming it), every monster placed by hand of a
    /// known kind.
    pub fn apply(&self, config: crate::Config) -> anyhow::Result<crate::Config> {
        let bestiary = bestiary(self.bestiary.as_deref())?;
        let items = items(self.items.as_deref())?;
        let vaults = vaults(self.vaults.as_deref(), &bestiary, &items)?;
        let backgrounds = backgrounds(self.backgrounds.as_deref(), &items)?;
        let config = crate::Config {
            backgrounds: std::sync::Arc::new(backgrounds),
            max_depth: self.max_depth,
            bestiary: std::sync::Arc::new(bestiary),
            items: std::sync::Arc::new(items),
            vaults: std::sync::Arc::new(vaults),
            placements: self.placements.clone(),
            turn_deadline: std::time::Duration::from_millis(self.turn_deadline_ms.max(1)),
            pvp: self.pvp,
            watchers_allowed: self.watchers == Watchers::Allow,
            max_watchers: usize::from(self.max_watchers),
            recordings_of_others: self.recordings == Recordings::Others,
            restock_every: self.restock_every,
            motd: match &self.motd {
                Some(file) => crate::motd::read(file).map_err(anyhow::Error::msg)?,
                None => Vec::new(),
            },
            max_players: self.max_players,
            ..config
        };
        config.check().map_err(anyhow::Error::msg)?;
        Ok(config)
    }
}

/// The arguments both binaries take.
#[derive(Debug, Clone, clap::Args)]
pub struct MapgenArgs {
    /// The generator; `mixed` picks the one a mixed world would at this depth.
    #[arg(long, default_value_t = GeneratorSetting::Mixed)]
    pub generator: GeneratorSetting,
    /// The world seed.
    #[arg(long)]
    pub seed: u64,
    /// The depth (levels differ per depth; depth 1 has no up staircase).
    #[arg(long, default_value_t = 1)]
    pub depth: u16,
    /// Also show every intermediate step the generator recorded.
    #[arg(long)]
    pub steps: bool,
    /// The bestiary placing the monsters [default: the built-in one].
    #[arg(long)]
    pub bestiary: Option<std::path::PathBuf>,
    /// The kinds of item laid on the level [default: the built-in ones].
    #[arg(long)]
    pub items: Option<std::path::PathBuf>,
    /// The world's deepest depth: its level has no stairs down and holds
    /// the artifact (give the server's `--max-depth`).
    #[arg(long, default_value_t = crate::config::DEFAULT_MAX_DEPTH)]
    pub max_depth: u16,
}

impl MapgenArgs {
    /// Whether the level is the world's last.
    pub fn is_bottom(&self) -> bool {
        self.depth >= crate::config::bottom_of(self.max_depth)
    }
}

/// The bestiary a host named, or the built-in one.
pub fn bestiary(file: Option<&std::path::Path>) -> Result<Bestiary, BestiaryError> {
    file.map_or_else(|| Ok(Bestiary::default()), Bestiary::load)
}

/// The items a host named, or the built-in ones.
pub fn items(file: Option<&std::path::Path>) -> Result<Catalogue, ItemsError> {
    file.map_or_else(|| Ok(Catalogue::built_in()), Catalogue::load)
}

/// The backgrounds a host named, or the built-in ones, their kits checked
/// against `items` (the built-in kits' items that `items` lacks are left
/// out, with a warning).
pub fn backgrounds(
    file: Option<&std::path::Path>,
    items: &Catalogue,
) -> anyhow::Result<crate::backgrounds::Backgrounds> {
    use crate::backgrounds::Backgrounds;
    match file {
        Some(file) => Ok(Backgrounds::load(file, items)?),
        None => {
            let (all, left_out) = Backgrounds::built_in_for(items)?;
            if let Some(first) = left_out.first() {
                tracing::warn!(
                    "the built-in backgrounds' kits name {} items this world lacks ({first}, ...): \
                     they start without them (give your own with --backgrounds)",
                    left_out.len()
                );
            }
            Ok(all)
        }
    }
}

/// The vaults a host named (every name in them known to `bestiary` and
/// `items`), or the built-in ones, a name they lack only warned of (its
/// glyph holds any monster or item of the depth).
pub fn vaults(
    dir: Option<&std::path::Path>,
    bestiary: &Bestiary,
    items: &Catalogue,
) -> Result<Vaults, crate::tuning::TuningError> {
    let Some(dir) = dir else {
        let vaults = Vaults::built_in().clone();
        let unknown = vaults.unknown_names(bestiary, items);
        if let Some(first) = unknown.first() {
            tracing::info!(
                "the built-in vaults name {} monsters or items this world lacks ({first}, ...): \
                 their cells hold any of the depth instead",
                unknown.len()
            );
        }
        return Ok(vaults);
    };
    let vaults = Vaults::load(dir)?;
    match vaults.unknown_names(bestiary, items).into_iter().next() {
        Some(unknown) => Err(unknown),
        None => Ok(vaults),
    }
}

/// The level those arguments name, with its steps when asked for: as the
/// server builds it, the bottom one without stairs down.
pub fn build(args: &MapgenArgs) -> (Generator, Level, Steps) {
    let generator = generator_with(args.generator, &Mix::default(), args.seed, args.depth);
    let mut steps = Steps::default();
    let record = args.steps.then_some(&mut steps);
    let mut level =
        build_recorded(generator, level_seed(args.seed, args.depth), args.depth, record);
    if args.is_bottom() {
        make_bottom(&mut level);
    }
    (generator, level, steps)
}

/// The text `mapgen` prints: the level with its items and monsters drawn
/// on it, and a list of each.
pub fn report(args: &MapgenArgs) -> Result<String, BestiaryError> {
    let bestiary = bestiary(args.bestiary.as_deref())?;
    let items = items(args.items.as_deref())?;
    let (generator, level, steps) = build(args);
    let seeds = Seeds::of_world(args.seed).depth(args.depth);
    let uniques = uniques::living_at(&bestiary, &Seeds::of_world(args.seed), args.depth);
    let monsters = populate(&level, &bestiary, seeds, args.depth, &uniques);
    let piles = piles(&level, &items, seeds, args.depth, args.is_bottom());
    let mut out = String::new();
    for (i, (what, grid)) in steps.frames.iter().enumerate() {
        out.push_str(&format!("step {} of {}: {what}\n", i + 1, steps.frames.len()));
        out.push_str(&grid.to_ascii());
        out.push('\n');
    }
    out.push_str(&title(args, generator, &level));
    let mut map: Vec<Vec<char>> =
        level.grid.to_ascii().lines().map(|l| l.chars().collect()).collect();
    // As a player sees them: a pile's top item over the rest, a monster
    // over the pile it stands on.
    let mut draw = |pos: Pos, glyph: char| map[usize::from(pos.y)][usize::from(pos.x)] = glyph;
    for (&pos, pile) in &piles {
        pile.last().inspect(|top| draw(pos, items.kind(top.kind).glyph));
    }
    for m in &monsters {
        draw(m.pos, bestiary.kind(m.kind).glyph);
    }
    for row in map {
        out.extend(row);
        out.push('\n');
    }
    if let Some(vault) = &level.vault {
        let (x, y) = (vault.corner.x, vault.corner.y);
        out.push_str(&format!("a vault, {}, its top left at {:?}\n", vault.name, (x, y)));
    }
    out.push_str(&format!("{} monsters:\n", monsters.len()));
    for m in &monsters {
        let kind = bestiary.kind(m.kind);
        out.push_str(&format!("  {} {} at {:?}\n", kind.glyph, kind.name, (m.pos.x, m.pos.y)));
    }
    out.push_str(&items_listed(&items, &piles));
    Ok(out)
}

/// The line above the level: which it is, where one arrives and where the
/// stairs down are (none on the bottom level).
fn title(args: &MapgenArgs, generator: Generator, level: &Level) -> String {
    let (bottom, down) = if args.is_bottom() {
        (" (the bottom)", "none".to_string())
    } else {
        ("", format!("{:?}", (level.stairs_down.x, level.stairs_down.y)))
    };
    format!(
        "{} level, world seed {}, depth {}{bottom}: arrival {:?}, stairs down {down}\n",
        generator.name(),
        args.seed,
        args.depth,
        (level.arrival.x, level.arrival.y),
    )
}

/// The items of a level's piles, one line each, a pile's top item first.
fn items_listed(items: &Catalogue, piles: &BTreeMap<Pos, Vec<Item>>) -> String {
    let count: usize = piles.values().map(Vec::len).sum();
    let mut out = format!("{count} items:\n");
    for (pos, pile) in piles {
        for item in pile.iter().rev() {
            let (glyph, words) = (items.kind(item.kind).glyph, item_listed(items, *item));
            out.push_str(&format!("  {glyph} {words} at {:?}\n", (pos.x, pos.y)));
        }
    }
    out
}

/// An item as the host's listing names it: "5 darts"; a wand is one wand,
/// with its charges ("a wand of slow monster (4 charges)").
fn item_listed(items: &Catalogue, item: Item) -> String {
    let kind = items.kind(item.kind);
    match items.charges(item) {
        Some(charges) => format!("{} ({charges} charges)", kind.described(1)),
        None => kind.described(item.count),
    }
}

/// The graveyard as `gloam-server graveyard` prints it: one line per
/// character, deepest first.
pub fn graveyard_report(dead: &[gloam_protocol::DeathRecord]) -> String {
    if dead.is_empty() {
        return "The graveyard is empty: nobody has died in this world yet.\n".into();
    }
    let mut out = format!(
        "{:<16} {:>5} {:>7} {:>5}  {:<20}  killed by\n",
        "name", "depth", "rounds", "kills", "died"
    );
    for d in dead {
        out.push_str(&format!(
            "{:<16} {:>5} {:>7} {:>5}  {:<20}  {}\n",
            d.name,
            d.depth,
            d.rounds,
            d.kills,
            d.when_utc(),
            d.killed_by
        ));
    }
    out
}

/// What `gloam-server replay` prints: depth `depth` of the stored world
/// rebuilt from its seed and its log, its checksum, and the live depth's at
/// its last save. With `reading` [`Reading::FromSnapshot`] (as a server
/// rebuilds it), from its newest snapshot and the commands after it; with
/// [`Reading::Whole`], from its seed and every command of its history.
/// Says where the replay began, how many commands it replayed and how
/// long the rebuild took (reading the store included).
pub fn replay_report(
    store: &crate::store::Store,
    config: &crate::Config,
    depth: u16,
    reading: crate::store::Reading,
) -> anyhow::Result<String> {
    let started = std::time::Instant::now();
    let stored = store.read_history(depth, reading)?;
    let crate::store::DepthHistory { start, rules, live, .. } = stored;
    if let Some(rules) = rules.filter(|&r| r != crate::world::RULES_VERSION) {
        return Ok(format!(
            "depth {depth}: its history ({} commands from command {start}) was recorded under rules {rules}, and this server plays rules {}: the server sets it aside and starts the depth afresh\n",
            stored.entries.len(),
            crate::world::RULES_VERSION
        ));
    }
    let mut out = String::new();
    let mut state = crate::world::fresh_depth(config, depth);
    let (mut from, mut entries) = (start, stored.entries);
    if let Some(snapshot) = stored.snapshot {
        match state.restore(&snapshot.bytes, snapshot.checksum) {
            Ok(()) => from = snapshot.after,
            Err(e) => {
                out.push_str(&format!(
                    "depth {depth}: the snapshot after command {} is passed over: {e}\n",
                    snapshot.after
                ));
                entries = store.depth_history(depth)?.entries;
            }
        }
    }
    let entries = crate::world::decode_history(&entries)
        .map_err(|e| anyhow::anyhow!("depth {depth}: {e}"))?;
    // The live checksum was kept after some entry (the depth's task sums
    // once a save interval, not with every part of its log): the rebuild
    // is summed there too, on its way.
    let live_at = live.and_then(|(at, _)| at.checked_sub(from)).map(|n| n as usize);
    let (before, after) = entries.split_at(live_at.unwrap_or(0).min(entries.len()));
    state.replay(before).map_err(|e| anyhow::anyhow!("depth {depth}: {e}"))?;
    let sum_at_live = state.checksum();
    state.replay(after).map_err(|e| anyhow::anyhow!("depth {depth}: {e}"))?;
    let took = started.elapsed();
    let sum = state.checksum();
    let began = if from == start { "its history's start" } else { "its newest snapshot" };
    out.push_str(&format!(
        "depth {depth}: {} commands replayed from command {from} ({began}; {} in its history), rebuilt in {:.1} ms, {} rounds, {} monsters left; checksum {sum:016x}\n",
        entries.len(),
        from - start + entries.len() as u64,
        took.as_secs_f64() * 1000.0,
        state.rounds(),
        state.monsters().count(),
    ));
    let kept_at_live = from + before.len() as u64;
    out.push_str(&live_line(live, kept_at_live, sum_at_live));
    Ok(out)
}

/// How the rebuild's checksum after `kept` commands, `sum`, compares with
/// the `live` one kept at its last save (after as many commands, unless
/// the history was cut short).
fn live_line(live: Option<(u64, u64)>, kept: u64, sum: u64) -> String {
    match live {
        Some((at, live)) if at == kept && live == sum => {
            format!("the live depth's at its last save ({at} commands): {live:016x}: the same\n")
        }
        Some((at, live)) => {
            format!("the live depth's at its last save ({at} commands): {live:016x}: DIFFERENT\n")
        }
        None => "no live checksum kept: the depth was never played\n".into(),
    }
}

/// A length of time as a host writes it: a whole number and a unit, `s`,
/// `m` or `h` (`90s`, `30m`, `6h`).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 =
        number.parse().map_err(|_| format!("{text:?} does not start with a whole number"))?;
    let seconds = match unit {
        "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        _ => return Err(format!("{text:?}: give a unit, s, m or h (e.g. 30m)")),
    };
    if seconds == 0 {
        return Err("a backup interval of zero".into());
    }
    Ok(std::time::Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapgen_args(depth: u16, bestiary: Option<std::path::PathBuf>) -> MapgenArgs {
        let generator = GeneratorSetting::One(Generator::Bsp);
        let max_depth = crate::config::DEFAULT_MAX_DEPTH;
        MapgenArgs { generator, seed: 5, depth, steps: false, bestiary, items: None, max_depth }
    }

    #[test]
    fn a_wand_is_listed_as_one_wand_with_its_charges() {
        let items = crate::Config::default().items;
        let wand = items.find("wand of slow monster").expect("a wand of slow monster");
        let dart = items.find("dart").expect("darts");
        let listed = |kind, count| item_listed(&items, Item { kind, count });
        assert_eq!(listed(wand, 5), "a wand of slow monster (4 charges)");
        assert_eq!(listed(dart, 5), "5 darts");
    }

    /// The map `report` drew, row by row.
    fn drawn_map<'t>(text: &'t str, level: &Level) -> Vec<&'t str> {
        text.lines().skip(1).take(usize::from(level.height())).collect()
    }

    #[test]
    fn mapgen_draws_and_lists_the_items_a_level_holds() {
        let args = mapgen_args(6, None);
        let text = report(&args).unwrap();
        let (_, level, _) = build(&args);
        let seeds = crate::seeds::Seeds::of_world(5).depth(6);
        let monsters = populate(&level, &Bestiary::default(), seeds, 6, &[]);
        let items = Catalogue::built_in();
        let piles = piles(&level, &items, seeds, 6, false);
        let laid: usize = piles.values().map(Vec::len).sum();
        assert!(laid > 0 && text.contains(&format!("\n{laid} items:\n")), "{text}");
        let map = drawn_map(&text, &level);
        for (pos, pile) in &piles {
            let top = items.kind(pile.last().unwrap().kind);
            let drawn = map[usize::from(pos.y)].chars().nth(usize::from(pos.x));
            if !monsters.iter().any(|m| m.pos == *pos) {
                assert_eq!(drawn, Some(top.glyph), "{} at {pos:?}", top.name);
            }
            for item in pile {
                let (glyph, words) = (items.kind(item.kind).glyph, item_listed(&items, *item));
                let line = format!("  {glyph} {words} at {:?}\n", (pos.x, pos.y));
                assert!(text.contains(&line), "{line} in {text}");
            }
        }
    }

    #[test]
    fn mapgen_shows_the_bottom_level_with_its_artifact_and_no_stairs_down() {
        let args = MapgenArgs { max_depth: 6, ..mapgen_args(6, None) };
        let text = report(&args).unwrap();
        let (_, level, _) = build(&args);
        assert!(!level.grid.to_ascii().contains('>'), "no stairs down on the bottom");
        assert!(text.contains("depth 6 (the bottom):") && text.contains("stairs down none"));
        let items = Catalogue::built_in();
        let stone = items.kind(items.artifact());
        let at = crate::mapgen::stock::artifact_cell(&level).unwrap();
        let line = format!("  {} {} at {:?}\n", stone.glyph, stone.described(1), (at.x, at.y));
        assert!(text.contains(&line), "{line} in {text}");
        let shallower = report(&mapgen_args(6, None)).unwrap();
        assert!(!shallower.contains(&stone.name), "the artifact only on the bottom");
    }

    #[test]
    fn mapgen_draws_and_lists_the_monsters_a_level_holds() {
        let text = report(&mapgen_args(6, None)).unwrap();
        let (_, level, _) = build(&mapgen_args(6, None));
        let placed = populate(
            &level,
            &Bestiary::default(),
            crate::seeds::Seeds::of_world(5).depth(6),
            6,
            &[],
        );
        assert!(text.contains(&format!("{} monsters:", placed.len())), "{text}");
        let map = drawn_map(&text, &level);
        for m in &placed {
            let kind = Bestiary::default().kind(m.kind).clone();
            let drawn = map[usize::from(m.pos.y)].chars().nth(usize::from(m.pos.x));
            assert_eq!(drawn, Some(kind.glyph), "{} at {:?}", kind.name, m.pos);
            assert!(text.contains(&format!(
                "{} {} at {:?}",
                kind.glyph,
                kind.name,
                (m.pos.x, m.pos.y)
            )));
        }
    }

    #[test]
    fn mapgen_with_a_broken_bestiary_names_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mine.toml");
        std::fs::write(&file, crate::bestiary::BUILT_IN.replacen("hp = 7", "hp = -7", 1)).unwrap();
        let e = report(&mapgen_args(1, Some(file.clone()))).unwrap_err();
        assert!(e.to_string().starts_with(&format!("{}:", file.display())), "{e}");
        assert!(e.what.contains("hp"), "{e}");
    }

    #[test]
    fn an_address_to_drain_to_is_one_word_of_at_most_200_characters() {
        assert_eq!(
            drain_to(" ws://gloam-2.example.org:7777 "),
            Ok("ws://gloam-2.example.org:7777".into())
        );
        assert_eq!(drain_to("gloam-2:7777"), Ok("gloam-2:7777".into()));
        for bad in ["", "  ", "two words", "a\u{7}bell", &"x".repeat(201)] {
            assert!(drain_to(bad).is_err(), "{bad:?}");
        }
        assert!(drain_to(&"x".repeat(200)).is_ok());
    }

    #[test]
    fn durations_read_as_hosts_write_them() {
        assert_eq!(parse_duration("90s"), Ok(std::time::Duration::from_secs(90)));
        assert_eq!(parse_duration("30m"), Ok(std::time::Duration::from_secs(1800)));
        assert_eq!(parse_duration("6h"), Ok(std::time::Duration::from_secs(21_600)));
        for bad in ["", "m", "30", "30d", "0s", "-5m"] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }
}
