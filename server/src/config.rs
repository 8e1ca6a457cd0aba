//! Every tunable of the server, with defaults that serve a local game.

use std::sync::Arc;
use std::time::Duration;

use crate::backgrounds::Backgrounds;
use crate::bestiary::Bestiary;
use crate::items::Catalogue;
use crate::mapgen::{GeneratorSetting, Mix, Vaults};

/// What a world is built from: the same spec builds the same levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldSpec {
    pub seed: u64,
    pub generator: GeneratorSetting,
    pub mix: Mix,
    /// Which edition of the game's content it was made with
    /// ([`EDITION`]): a world keeps the levels and rules its players know
    /// when later editions add to them.
    pub edition: u16,
}

/// The edition of the game's content new worlds are made with:
/// 1. the first dungeon;
/// 2. vaults in the levels;
/// 3. potions and scrolls unknown until tried, and the kinds of monster
///    and item marked `since = 3` in the bestiary and the items;
/// 4. backgrounds, wands and unique monsters (`since = 4`).
///
/// A world keeps the edition it was made with: its levels are drawn only
/// from the kinds of its edition and before.
pub const EDITION: u16 = 4;

impl WorldSpec {
    /// Whether its levels hold vaults (edition 2 on).
    pub fn vaults(&self) -> bool {
        self.edition >= 2
    }
}

/// What a host asked for of a world; each part left out is taken from the
/// stored world, or for a new world a fresh seed and the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorldWish {
    pub seed: Option<u64>,
    pub generator: Option<GeneratorSetting>,
    pub mix: Option<Mix>,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// The world seed: every depth's level derives from it.
    pub seed: u64,
    pub generator: GeneratorSetting,
    /// The weights a mixed world draws its generators by.
    pub mix: Mix,
    pub sight_radius: u8,
    /// Sustained actions per second one player may take.
    pub actions_per_second: u32,
    /// Actions a player may take at once before the rate applies.
    pub action_burst: u32,
    /// How long a new connection has to send its request head (an upgrade
    /// or a page request), then to finish the WebSocket upgrade, then to say
    /// hello: each in turn.
    pub handshake_timeout: Duration,
    /// How long shutdown waits for connections to close.
    pub shutdown_grace: Duration,
    /// Replies (one per command that concerns the player) queued for one
    /// connection before it counts as too slow.
    pub outbox_capacity: usize,
    /// Commands queued for one depth's task.
    pub depth_queue: usize,
    /// Actions read ahead of the pace; a client that sends more is flooding.
    pub action_queue: usize,
    /// How long a client may stay silent before it is pinged.
    pub ping_interval: Duration,
    /// How long it then has to answer.
    pub ping_timeout: Duration,
    /// How long one write to a client may wait on a client that does not read.
    pub send_timeout: Duration,
    /// Connections served at once; those over it are told to try again later.
    pub max_connections: usize,
    /// The kernel's send buffer for each connection: small, so a client that
    /// stops reading is noticed (and costs little) long before megabytes queue up.
    pub socket_send_buffer: usize,
    /// New characters one client address may create in an hour. A
    /// household behind one address makes a few; a script in a loop is
    /// stopped after these.
    pub new_characters_per_address_per_hour: u32,
    /// How often one client address may say hello.
    pub hello_pace: HelloPace,
    /// Characters the world keeps at most: each is a few KiB in the store,
    /// so the default keeps a full world's store to tens of megabytes.
    pub max_characters: usize,
    /// How often a backup of the store is written while the server runs
    /// (`None`: only when asked, with SIGUSR1).
    pub backup_every: Option<Duration>,
    /// Backups kept in the data folder's `backups/`; older ones are removed.
    pub backups_kept: usize,
    /// The deepest depth: its level has no way further down.
    pub max_depth: u16,
    /// How long a depth nobody is on keeps its level and task before
    /// freeing them (it is rebuilt exactly from the seed when someone returns).
    pub depth_idle: Duration,
    /// How often the players who moved are saved: a crash loses at most
    /// this much of their walking (plus one commit).
    pub save_interval: Duration,
    /// How many commands a depth's log holds between two snapshots of its
    /// state: a rebuild after a restart replays at most about this many
    /// (see `world::keeping`).
    pub snapshot_every: u64,
    /// The kinds of monster.
    pub bestiary: Arc<Bestiary>,
    /// The kinds of item.
    pub items: Arc<Catalogue>,
    /// What a new character may start as.
    pub backgrounds: Arc<Backgrounds>,
    /// The hand-drawn rooms levels may hold (`--vaults DIR`).
    pub vaults: Arc<Vaults>,
    /// Monsters put on levels besides those their seeds place (for tests
    /// and for designing levels).
    pub placements: Vec<Placement>,
    /// How long a round waits for the players it concerns, from its first
    /// action (see `docs/turns.md`).
    pub turn_deadline: Duration,
    /// Players may attack each other.
    pub pvp: bool,
    /// Whether a player who joins lets others watch it, until it says
    /// otherwise (`/nowatch`, `/allowwatch`).
    pub watchers_allowed: bool,
    /// The most watchers one player may have at once.
    pub max_watchers: usize,
    /// Whether a player may ask for a recording of another player's past
    /// on a depth it has been to (`--recordings others`; see
    /// `world::recordings`), not only of its own and of any fall.
    pub recordings_of_others: bool,
    /// Rounds played in the world while a depth stands empty for each
    /// period after which it regains some of the monsters it lost (see
    /// `world::absence`); 0: never.
    pub restock_every: u64,
    /// The world's name (`--name`; empty: none), told in the welcome for
    /// the window's and the page's titles, and on `/status`.
    pub world_name: String,
    /// The message of the day (`--motd`): lines told to each player and
    /// watcher on joining, already checked (see `crate::motd`).
    pub motd: Vec<String>,
    /// The most players in the game at once (`--max-players`; `None`: no
    /// limit). Watchers, and a character already playing that joins again,
    /// are not counted as new players.
    pub max_players: Option<u32>,
    /// What the server tells its clients when it stops.
    pub farewell: Farewell,
    /// Where a draining world sends newcomers (`--drain-to`: an address
    /// told in `Refusal::Draining`; `None`: nowhere named). See
    /// docs/hosting.md.
    pub drain_to: Option<String>,
}

/// What a server that stops tells its clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Farewell {
    /// It is restarting (`gloam-server` stopped by SIGTERM or Ctrl-C, as a
    /// service manager restarts it): each player and watcher is saved, told
    /// `ServerMsg::Restarting`, and closed with 1012 (Service Restart), so
    /// its client may come back soon.
    #[default]
    Restart,
    /// It is gone for good (a window that hosted the world was closed):
    /// each client is closed with 1001 (Going Away).
    GoingAway,
}

/// How often one client address may say hello (to play or to watch): a
/// burst, then a steady pace; a hello over it is refused with how long to
/// wait (see `net::hellos`). Each hello costs the server a claim, a load or
/// a store write, and an arrival on a depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HelloPace {
    /// Hellos one address may say at once: a household behind one address
    /// joins together, and a client that lost its connection comes back.
    pub burst: u32,
    /// Hellos one address may say a second once its burst is spent.
    pub per_second: u32,
    /// Whether the host's own machine (loopback) is paced too. Off by
    /// default, as loopback is not held to the hourly quota of new
    /// characters either: the host's load tools and tests join hundreds at
    /// once, and a proxy on the same machine would put every player behind
    /// that one address.
    pub loopback: bool,
}

impl Default for HelloPace {
    fn default() -> Self {
        Self { burst: 10, per_second: 1, loopback: false }
    }
}

/// A monster a host put on a level by hand: `KIND@DEPTH:X,Y`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub kind: String,
    pub depth: u16,
    pub pos: gloam_protocol::Pos,
}

impl std::str::FromStr for Placement {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("{text:?}: write KIND@DEPTH:X,Y, e.g. kobold@1:30,12");
        let (kind, rest) = text.rsplit_once('@').ok_or_else(bad)?;
        let (depth, cell) = rest.split_once(':').ok_or_else(bad)?;
        let (x, y) = cell.split_once(',').ok_or_else(bad)?;
        let number = |t: &str| t.trim().parse::<u16>().map_err(|_| bad());
        let pos = gloam_protocol::Pos::new(number(x)?, number(y)?);
        let depth = number(depth)?;
        if kind.trim().is_empty() || depth == 0 {
            return Err(bad());
        }
        Ok(Placement { kind: kind.trim().to_owned(), depth, pos })
    }
}

/// How long a round waits by default: longer than nearly every pause
/// between keys in a fight (a second or so), so that friends who are
/// playing are never counted away, yet short enough that one who left the
/// keyboard costs the others one breath, not a wait they notice.
pub const DEFAULT_TURN_DEADLINE: Duration = Duration::from_millis(2000);

/// The default bottom of the dungeon: deep enough for a long game (the
/// bestiary spans depths 1 to 12 and beyond), shallow enough that a world's
/// levels stay a handful of kilobytes each to rebuild.
pub const DEFAULT_MAX_DEPTH: u16 = 26;

/// Rounds played elsewhere for a depth left alone to regain a quarter of
/// the monsters it lost: a few minutes of one player's play, so a depth
/// cleared by a group is quiet for their visit and its return, and a
/// depth cleared long ago by someone else is not.
pub const DEFAULT_RESTOCK_EVERY: u64 = 300;

/// The deepest depth in play in a world of `max_depth`, kept between 1
/// and one less than `u16::MAX` so that `depth + 1` never overflows.
pub fn bottom_of(max_depth: u16) -> u16 {
    max_depth.clamp(1, u16::MAX - 1)
}

impl Config {
    /// The deepest depth in play (see [`bottom_of`]).
    pub fn bottom(&self) -> u16 {
        bottom_of(self.max_depth)
    }

    pub fn with_seed(seed: u64) -> Self {
        Self { seed, ..Self::default() }
    }

    /// A world of `seed` with no monsters (see [`Bestiary::empty`]).
    pub fn quiet(seed: u64) -> Self {
        Self { seed, bestiary: Arc::new(Bestiary::empty()), ..Self::default() }
    }

    /// Checks what the host asked for against the bestiary: every monster
    /// placed by hand is of a known kind, and no unique (it lives once, on
    /// the depth the world's seed gives it).
    pub fn check(&self) -> Result<(), String> {
        for p in &self.placements {
            if self.bestiary.find(&p.kind).is_some_and(|k| self.bestiary.kind(k).unique) {
                return Err(format!(
                    "--place {}: a unique is not placed by hand; it lives once, on the depth the world's seed gives it",
                    p.kind
                ));
            }
            if self.bestiary.find(&p.kind).is_none() {
                let known: Vec<&str> =
                    self.bestiary.kinds().iter().map(|k| k.name.as_str()).collect();
                return Err(format!(
                    "--place {}: no such monster; the bestiary has {}",
                    p.kind,
                    known.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// The items as this world shows them: its potions and scrolls
    /// disguised by its seed, in an edition that has them unknown.
    pub fn world_items(&self) -> Arc<Catalogue> {
        Arc::new(self.items.disguised(self.seed))
    }

    /// This configuration, playing `world`.
    pub fn playing(self, world: WorldSpec) -> Self {
        let vaults = if world.vaults() { self.vaults } else { Arc::new(Vaults::none()) };
        let bestiary = Arc::new(self.bestiary.as_of(world.edition));
        let items = Arc::new(self.items.as_of(world.edition));
        let (seed, generator, mix) = (world.seed, world.generator, world.mix);
        Self { seed, generator, mix, vaults, bestiary, items, ..self }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            seed: 0,
            generator: GeneratorSetting::Mixed,
            mix: Mix::default(),
            sight_radius: gloam_protocol::SIGHT_RADIUS,
            actions_per_second: 20,
            action_burst: 20,
            handshake_timeout: Duration::from_secs(5),
            shutdown_grace: Duration::from_secs(5),
            outbox_capacity: 512,
            depth_queue: 1024,
            action_queue: 20,
            ping_interval: Duration::from_secs(15),
            ping_timeout: Duration::from_secs(15),
            send_timeout: Duration::from_secs(5),
            max_connections: 1024,
            socket_send_buffer: 32 * 1024,
            save_interval: Duration::from_millis(250),
            snapshot_every: crate::world::SNAPSHOT_EVERY,
            new_characters_per_address_per_hour: 10,
            hello_pace: HelloPace::default(),
            max_characters: 10_000,
            backup_every: None,
            backups_kept: 5,
            max_depth: DEFAULT_MAX_DEPTH,
            depth_idle: Duration::from_secs(180),
            bestiary: Arc::new(Bestiary::default()),
            items: Arc::new(Catalogue::built_in()),
            backgrounds: Arc::new(Backgrounds::built_in()),
            vaults: Arc::new(Vaults::built_in().clone()),
            placements: Vec::new(),
            turn_deadline: DEFAULT_TURN_DEADLINE,
            pvp: false,
            watchers_allowed: true,
            max_watchers: usize::from(gloam_protocol::DEFAULT_MAX_WATCHERS),
            recordings_of_others: false,
            restock_every: DEFAULT_RESTOCK_EVERY,
            world_name: String::new(),
            motd: Vec::new(),
            max_players: None,
            farewell: Farewell::Restart,
            drain_to: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unique_is_never_placed_by_hand() {
        let place = |kind: &str| Config {
            bestiary: Arc::new(Bestiary::default()),
            placements: vec![Placement {
                kind: kind.into(),
                depth: 1,
                pos: gloam_protocol::Pos::new(3, 3),
            }],
            ..Config::with_seed(1)
        };
        assert_eq!(place("jackal").check(), Ok(()));
        let refused = place("Old Mother Rot").check().unwrap_err();
        assert!(refused.contains("a unique is not placed by hand"), "{refused}");
    }
}
