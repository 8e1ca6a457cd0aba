//! The balance run: many characters, each alone in a world of its own
//! seed, played by one fixed, simple policy (`policy`) through the depths'
//! rules alone, with no sockets, tasks or clock, until it dies, escapes
//! with the Gloamstone or has played its rounds. What became of them is
//! the report (`report`): how deep they got, what killed them, how long
//! they lived. `gloam-balance` prints it; `docs/balance.md` shows the
//! curve it makes and how the bestiary and items were tuned against it.
//!
//! A character's life follows from its world seed alone, so a run is the
//! same on every machine and with any number of threads.

mod compare;
mod known;
mod party;
mod policy;
mod report;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use gloam_protocol::{Action, PlayerId};

pub use compare::{Comparison, MARKS, PARTY, compare};
pub use party::play_party;
pub use report::Report;

use crate::backgrounds::Background;
use crate::config::Config;
use crate::world::{Arrival, Death, Killer, Nobody, Player, Rules, fresh_depth};
use policy::{Look, Policy};

/// The one player of a balance run's world.
const ME: PlayerId = PlayerId(1);

/// What a balance run plays.
#[derive(Debug, Clone)]
pub struct Options {
    /// How many characters, each in its own world.
    pub characters: u32,
    /// The first character's world seed; the next plays the next seed.
    pub seed: u64,
    /// The most rounds a character plays before it is counted as still
    /// playing.
    pub max_rounds: u64,
    /// Threads to play on (the result is the same with any number).
    pub jobs: usize,
    /// The background every character is made as (none: a character of
    /// no background, as a plain hello makes).
    pub background: Option<Background>,
}

/// How a character's run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Killed, by a monster of this kind.
    Died(String),
    /// Up out of the dungeon with the Gloamstone.
    Escaped,
    /// Still alive after the most rounds a run allows.
    Playing,
}

/// What became of one character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Life {
    pub seed: u64,
    pub end: End,
    /// The depth it ended on.
    pub depth: u16,
    pub deepest: u16,
    pub rounds: u64,
    pub level: u8,
    pub kills: u32,
    /// Wands it zapped (the policy zaps those of striking and slow
    /// monster).
    pub zaps: u32,
    /// It held the Gloamstone at some time.
    pub found_artifact: bool,
    /// Its level, experience and the rounds it had played when it first
    /// came to each depth, from depth 1 on.
    pub arrivals: Vec<Arrived>,
}

/// A character's first coming to a depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrived {
    pub level: u8,
    pub xp: u32,
    pub rounds: u64,
}

impl Life {
    fn new(seed: u64) -> Self {
        Self {
            seed,
            end: End::Playing,
            depth: 1,
            deepest: 1,
            rounds: 0,
            level: 1,
            kills: 0,
            zaps: 0,
            found_artifact: false,
            arrivals: vec![Arrived { level: 1, xp: 0, rounds: 0 }],
        }
    }

    /// Takes in where `player` is (on `depth`) and how it fares.
    fn note(&mut self, depth: u16, player: &Player) {
        let xp = player.xp;
        let v = player.vitals;
        (self.depth, self.deepest, self.rounds, self.level, self.kills) =
            (depth, v.deepest, v.rounds, player.level(), v.kills);
        if usize::from(depth) > self.arrivals.len() {
            self.arrivals.push(Arrived { level: self.level, xp, rounds: self.rounds });
        }
    }

    /// It died, or escaped, on `rules`' depth.
    fn end(&mut self, death: Death, rules: &Rules) {
        self.note(rules.depth, &death.player);
        self.end = match death.end {
            crate::world::End::Escaped(_) => {
                self.found_artifact = true;
                End::Escaped
            }
            crate::world::End::Killed(Killer::Monster(kind)) => {
                End::Died(rules.bestiary.kind(kind).name.clone())
            }
            crate::world::End::Killed(Killer::Player(name)) => End::Died(name),
        };
    }
}

/// Plays every character of `options` in worlds built as `config` says
/// (its seed aside), and reports.
pub fn run(config: &Config, options: &Options) -> Report {
    let background = options.background.as_ref();
    run_worlds(config, options, |seed| vec![play(config, seed, options.max_rounds, background)])
}

/// Plays a party, a member of each of `config`'s backgrounds, in each
/// world of `options`, and reports every member's life.
pub fn run_parties(config: &Config, options: &Options) -> Report {
    let all = config.backgrounds.all();
    run_worlds(config, options, |seed| play_party(config, seed, options.max_rounds, all))
}

/// Plays `lives_of` each world seed of `options` on its threads, and
/// reports the lives in the order of their seeds.
fn run_worlds(
    config: &Config,
    options: &Options,
    lives_of: impl Fn(u64) -> Vec<Life> + Sync,
) -> Report {
    let seeds: Vec<u64> =
        (0..u64::from(options.characters)).map(|i| options.seed.wrapping_add(i)).collect();
    let jobs = options.jobs.clamp(1, seeds.len().max(1));
    let lives_of = &lives_of;
    let mut lives: Vec<Life> = std::thread::scope(|scope| {
        let share = seeds.len().div_ceil(jobs).max(1);
        let handles: Vec<_> = seeds
            .chunks(share)
            .map(|chunk| {
                scope.spawn(move || chunk.iter().flat_map(|&seed| lives_of(seed)).collect())
            })
            .collect();
        let lives = handles.into_iter().map(|h| h.join().expect("a character's run panicked"));
        lives.flat_map(|lives: Vec<Life>| lives).collect()
    });
    lives.sort_by_key(|life| life.seed);
    Report::of(config.bottom(), options, lives)
}

/// Plays one character (of `background`, if any) in the world of `seed`
/// for at most `max_rounds`, through the depths' rules alone with nobody
/// listening: what became of it is what the rules hand back (see
/// `rules::flow`).
pub fn play(config: &Config, seed: u64, max_rounds: u64, background: Option<&Background>) -> Life {
    let config = Config { seed, ..config.clone() };
    let mut depths: BTreeMap<u16, Rules> = BTreeMap::new();
    let mut here = fresh_depth(&config, 1).rules;
    let mut player = Player::new(ME, "balance".into());
    if let Some(background) = background {
        background.outfit(&mut player, &config.items);
    }
    here.arrive(player, Arrival::Join, &mut Nobody);
    let mut policy = Policy::default();
    let mut life = Life::new(seed);
    for _ in 0..max_rounds {
        let Some(action) = look(&here, &config, ME).map(|look| policy.choose(&look)) else { break };
        life.zaps += u32::from(matches!(action, Action::Zap { .. }));
        let Some(mut flow) = here.act(ME, action, &mut Nobody) else { continue };
        if let Some(death) = flow.deaths.pop() {
            life.end(death, &here);
            return life;
        }
        if let Some(departure) = flow.departures.pop() {
            let next = departure.depth;
            let next = depths.remove(&next).unwrap_or_else(|| fresh_depth(&config, next).rules);
            depths.insert(here.depth, std::mem::replace(&mut here, next));
            here.arrive(departure.player, departure.via, &mut Nobody);
            if here.wins(ME, departure.via)
                && let Some(escape) = here.escape(ME, &mut Nobody).deaths.pop()
            {
                life.end(escape, &here);
                return life;
            }
        }
        let me = here.player(ME).expect("the character is on its depth while it plays");
        life.note(here.depth, me);
        life.found_artifact |= me.pack.items().iter().any(|i| i.kind == config.items.artifact());
    }
    life
}

/// What the character `id` knows of its depth now.
fn look<'a>(depth: &'a Rules, config: &'a Config, id: PlayerId) -> Option<Look<'a>> {
    let me = depth.player(id)?;
    let memory = me.memory(depth.depth)?;
    let monsters = depth.monsters.values().filter(|m| memory.sees(m.pos)).collect();
    let floor = memory.recall_floor().into_iter();
    let piles = floor.filter_map(|change| Some((change.at, change.top?))).collect();
    let (level, items) = (&*depth.level, &config.items);
    Some(Look { depth: depth.depth, level, me, memory, monsters, piles, items })
}
