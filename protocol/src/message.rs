//! The messages: one enum per direction, one variant per thing that happens.

use serde::{Deserialize, Serialize};

use crate::{Dir, MonsterId, PlayerId, Pos, Terrain, Wound};

/// A character's secret: 16 random bytes the server hands out once.
pub type Token = [u8; 16];

/// What a client sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// The first message of every connection, and only the first. `token`
    /// is the secret the server gave when the name was first played.
    Hello { version: u32, name: String, token: Option<Token> },
    /// One action. The server applies it in the player's next turn (at
    /// once, unless the player already acted in the current round of those
    /// it shares a danger with) and answers it with one [`ServerMsg::Sight`].
    Act(Action),
    /// Asks for the graveyard; answered with [`ServerMsg::Graveyard`].
    Graveyard,
    /// A line of chat (at most [`MAX_CHAT_CHARS`](crate::MAX_CHAT_CHARS)
    /// characters; the server cleans it). It costs no turn.
    Chat { to: ChatTo, text: String },
    /// Instead of [`ClientMsg::Hello`], as the first message: watch the
    /// player named `player` under this name and token (a new name is
    /// made a character, as a hello would). The server answers
    /// [`ServerMsg::Welcome`] with `you` the watched player's id, then
    /// [`ServerMsg::Watching`] and that player's whole view, then every
    /// message of its game as its own client gets it. A watcher never acts.
    Watch { version: u32, name: String, token: Option<Token>, player: String },
    /// A player's say over who watches it.
    Audience(AudienceCmd),
    /// Asks who is playing; answered with [`ServerMsg::Who`].
    Who,
    /// Ends the standing order under way (see [`Action::Explore`]), if
    /// any, spending nothing: the step already sent is the last, and
    /// [`ServerMsg::Stopped`] follows. Nothing when none is under way.
    Stop,
    /// Before the hello, at most once: asks which backgrounds a new
    /// character may take; answered with [`ServerMsg::Backgrounds`], after
    /// which the client sends its hello (or [`ClientMsg::Create`]).
    Backgrounds,
    /// Instead of [`ClientMsg::Hello`], as the first message: make a new
    /// character called `name`, of the background so named (one of
    /// [`ServerMsg::Backgrounds`]). `token` is the name's secret when the
    /// name was played before and its character died: the new life takes
    /// this background. A name already taken is refused as a hello with a
    /// wrong token is; a token whose character lives resumes it as a hello
    /// would, and the background is not used. (A plain hello with a new
    /// name, or a dead character's, makes a character of no background: 30
    /// hit points and nothing in its pack.)
    Create { version: u32, name: String, token: Option<Token>, background: String },
    /// Instead of [`ClientMsg::Hello`], as the first message: asks for a
    /// recording. The server answers [`ServerMsg::Recording`], the
    /// recording's messages and [`ServerMsg::RecordingEnd`], then closes;
    /// or refuses it ([`Refusal::NoRecording`]).
    Recording { version: u32, ask: RecordingAsk },
}

/// Which recording a client asks for: what one player was sent on one
/// depth, made again from the depth's history (see `docs/recordings.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecordingAsk {
    /// The last `rounds` rounds of a life that ended: life number `life` of
    /// `name` (its grave's `morgue`). Anyone may ask, as for its morgue file.
    Grave { name: String, life: u32, rounds: u32 },
    /// The asker's own past: `name` with its token, as a hello gives them,
    /// on `depth` from its round `from` to its round `to`.
    Mine { name: String, token: Token, depth: u16, from: u64, to: u64 },
    /// Another player's past on a depth the asker (`name`, with its token)
    /// has been to, where the host allows it (`--recordings others`): never
    /// the player's time there now unless it lets others watch it.
    Past { name: String, token: Token, player: String, depth: u16, from: u64, to: u64 },
}

/// What a player may do about its watchers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AudienceCmd {
    /// Let nobody watch: those watching are sent away (`/nowatch`).
    Refuse,
    /// Let others watch again (`/allowwatch`).
    Allow,
    /// Send one watcher away (`/kick NAME`).
    Kick(String),
}

/// Whom a line of chat is for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChatTo {
    /// Everyone on the speaker's depth.
    Depth,
    /// Everyone on the server (`/shout`).
    Everyone,
    /// One player, by name (`/w NAME`).
    Player(String),
}

/// What a player can do in one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Move(Dir),
    /// Go down the stairs stood on; away from them, travel to the nearest
    /// stairs down the player remembers (see [`Action::Explore`] for how
    /// travel goes on and stops).
    Descend,
    /// Go up the stairs stood on; away from them, travel to the nearest
    /// stairs up the player remembers.
    Ascend,
    Wait,
    /// Leave the game; the server closes the connection normally.
    Quit,
    /// Pick up the top item of the pile underfoot (all of a stack).
    PickUp,
    /// Drop the pack's item in `slot` (0 is `a`), all of a stack, onto the
    /// pile underfoot; a wielded or worn item is taken off first.
    Drop(u8),
    /// Drink the potion in `slot`.
    Quaff(u8),
    /// Read the scroll in `slot`.
    Read(u8),
    /// Wield the weapon in `slot` (the one wielded before goes back to the
    /// pack).
    Wield(u8),
    /// Wear the armour in `slot` (the armour worn before is taken off).
    Wear(u8),
    /// Take off the weapon or armour in `slot`.
    TakeOff(u8),
    /// Throw one of the missiles in `slot` at the cell `at`, which must be
    /// in sight and within the missile's range: it flies in a line and
    /// stops at the first player or monster, or the first wall.
    Throw {
        slot: u8,
        at: Pos,
    },
    /// Walk towards the nearest place the player's own memory leaves
    /// unexplored. A standing order: the server takes one step a round (as
    /// if the action were sent again at the player's pace) until there is
    /// nothing left to explore or something happens (a monster comes into
    /// view, the player is hurt, spoken to, or sees an item), and says why
    /// it stopped. Any other action the client sends ends it.
    Explore,
    /// Walk to `to`, a cell the player remembers, by cells it remembers: a
    /// standing order, as [`Action::Explore`].
    Travel(Pos),
    /// Wait until healed: a standing order, as [`Action::Explore`].
    Rest,
    /// Zap the wand in `slot` at the cell `at`, which must be in sight:
    /// what it does there is the wand's (a bolt flies as a thrown
    /// missile does).
    Zap {
        slot: u8,
        at: Pos,
    },
}

/// What the server sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMsg {
    /// The handshake succeeded.
    Welcome {
        you: PlayerId,
        width: u16,
        height: u16,
        sight_radius: u8,
        /// The pace the server applies actions at; a client should not send
        /// faster (key repeats included), or it is closed for flooding.
        actions_per_second: u16,
        /// For a character created by this join: the secret to keep and send
        /// with every later hello under this name.
        token: Option<Token>,
        /// The world's name, as its host gave it (empty: none), for the
        /// window's and the page's titles; at most
        /// [`MAX_WORLD_NAME_CHARS`](crate::MAX_WORLD_NAME_CHARS) characters.
        world: String,
    },
    /// The handshake failed; the server closes the connection after this.
    Refused(Refusal),
    /// The player is now on `depth`: forget the view of any other level and
    /// start from what the player remembers of this one. `remembered` is a
    /// bitset over the cells in row-major order (bit `i % 8` of byte `i / 8`);
    /// `terrain` holds one entry per set bit, in the same order.
    EnterLevel { depth: u16, width: u16, height: u16, remembered: Vec<u8>, terrain: Vec<Terrain> },
    /// The player learnt cells of its level without seeing them (it read
    /// magic mapping): add them to what it remembers, as `EnterLevel`'s
    /// bitset and terrain say, forgetting nothing.
    Mapped { remembered: Vec<u8>, terrain: Vec<Terrain> },
    /// What changed in the player's own sight; also the reply to each action.
    Sight(SightDiff),
    /// The player's view changed without an action of its own: another
    /// player swapped places with it (its new position and sight), or
    /// players and monsters around it changed together (`at` where it
    /// stands, no cells). Unlike `Sight`, this answers no action.
    Displaced(SightDiff),
    /// Other players in sight changed while this player's own view did not.
    Players(Vec<PlayerChange>),
    /// The names of the other players on this depth, sent on arriving there.
    Roster(Vec<String>),
    /// Other players arrived on this depth (one, or several who came
    /// at once), in the order they came.
    Joined(Vec<String>),
    /// Other players left this depth (by the stairs, or the game).
    Left(Vec<String>),
    /// A line of text for the message log: the server, the level, others.
    Note(String),
    /// A line of the log about a fight ("The jackal bites you (2).").
    Combat(String),
    /// A line of the log about what another player did ("bob arrives on
    /// this depth.", "ann goes down the stairs.").
    Others(String),
    /// The kinds of monster, sent once after the welcome: a
    /// [`MonsterChange::Appeared`]'s `kind` indexes this list.
    Kinds(Vec<KindInfo>),
    /// Monsters in sight changed while this player's own view did not.
    Monsters(Vec<MonsterChange>),
    /// The kinds of item, as the player knows them: a [`Lying`]'s or a
    /// [`Carried`]'s `kind` indexes this list. Sent after the welcome, and
    /// again (the whole list, replacing the last) when the player learns
    /// what a kind is. A potion or scroll the player has not learnt is
    /// told only by its look ("murky potion", "scroll labelled ZUN KAH",
    /// with the look's colour), never by its name.
    ItemKinds(Vec<ItemInfo>),
    /// What lies on cells: after [`ServerMsg::EnterLevel`], the items the
    /// player remembers on that level; later, piles in sight that changed
    /// while this player's own view did not.
    Floor(Vec<FloorChange>),
    /// Everything the player carries, in the order of its letters (the
    /// first is `a`): sent on arriving and whenever it changes.
    Pack(Vec<Carried>),
    /// The player's own hit points, sent on arriving and when they change.
    Vitals { hp: u16, max: u16 },
    /// The player's experience: its level, its points, and the points the
    /// next level takes (0 at the highest level). Sent on arriving and
    /// when they change.
    Experience { level: u8, xp: u32, next: u32 },
    /// The player's party (those it shares a round with), itself first;
    /// empty when it is alone. Sent whenever who is in it, or their hit
    /// points or levels, change.
    Party(Vec<Member>),
    /// The player carried the artifact back up and won; the server closes
    /// the connection after this. The record is in the hall of the living.
    Escaped(DeathRecord),
    /// Whom the round this player is in waits for (empty: nobody, or the
    /// player itself).
    Waiting(Vec<String>),
    /// The standing order the client sent ([`Action::Explore`],
    /// [`Action::Travel`], [`Action::Rest`], or the stairs' keys away from
    /// stairs once they went on) is over: done, refused or interrupted (the
    /// lines before say why). Not sent when the client's own next action
    /// ended it.
    Stopped,
    /// The player's character died; the server closes the connection after
    /// this. The same name and token start a new character: of the
    /// background chosen with a [`ClientMsg::Create`], of none with a hello.
    Died(DeathRecord),
    /// The hall of the living (those who escaped with the artifact, first
    /// to escape first) and then the dead, deepest first: at most
    /// [`MAX_GRAVEYARD`](crate::MAX_GRAVEYARD) in all (the answer to
    /// [`ClientMsg::Graveyard`]).
    Graveyard(Vec<DeathRecord>),
    /// A line of chat from player `from` (named `name`), cleaned by the
    /// server; the speaker gets its own lines back too.
    Chat { from: PlayerId, name: String, to: ChatTo, text: String },
    /// To a watcher, after its welcome: it watches `player`, whose whole
    /// view follows (entering its level, its sight, vitals and waits).
    /// `you` is the watcher's own id, as its lines of chat carry it (the
    /// welcome's `you` is the player's, whose eyes it sees through).
    Watching { player: String, you: PlayerId },
    /// Who watches the player, sent to it and to its watchers whenever
    /// that changes (empty: nobody).
    Watchers(Vec<String>),
    /// Everyone playing now, by name (the answer to [`ClientMsg::Who`]):
    /// the list to pick whom to watch from. Where they are is not told.
    Who(Vec<Playing>),
    /// The server is stopping to restart: the player is saved, and the
    /// connection closes next with close code 1012 (Service Restart). A
    /// client may come back soon. The last message of a connection.
    Restarting,
    /// The backgrounds a new character may take, in the host's order (the
    /// answer to [`ClientMsg::Backgrounds`]).
    Backgrounds(Vec<BackgroundInfo>),
    /// A recording follows (the answer to [`ClientMsg::Recording`]): what
    /// `player` was sent on `depth` in its rounds `from` to `to`, each
    /// message in a [`ServerMsg::Recorded`], then [`ServerMsg::RecordingEnd`].
    /// `you` is the player's id in the first of them (its own id in the
    /// messages, as a welcome's `you`).
    Recording { player: String, you: PlayerId, depth: u16, from: u64, to: u64 },
    /// One message of a recording, and the depth's round it was sent in.
    Recorded { round: u64, msg: Box<ServerMsg> },
    /// The recording is whole; `cut`: it stopped early, at its limit of
    /// bytes (the last round it holds is the last `Recorded`'s).
    RecordingEnd { cut: bool },
}

/// One player in the game, as [`ServerMsg::Who`] lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Playing {
    pub name: String,
    /// How many watch it.
    pub watchers: u8,
    /// Whether it lets others watch it now.
    pub watchable: bool,
}

/// What a client is told of one kind of monster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindInfo {
    pub name: String,
    pub glyph: char,
    pub colour: [u8; 3],
}

/// What a client is told of one kind of item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemInfo {
    pub name: String,
    pub glyph: char,
    pub colour: [u8; 3],
    pub class: ItemClass,
    /// Whether `name` is the kind's own: true for a kind with no look (a
    /// dagger) and for one the player learnt; false while the kind is
    /// told by its look ("murky potion").
    pub known: bool,
}

/// What a new character may start as: its name, a line about it, its
/// hit points, its skills (percent points added to its blows' and its
/// throws' chance to land, hit points added to its blows' damage, percent
/// points taken off a sleeper's chance to wake when it notices only this
/// player) and what it carries, each as "2 darts" or "a dagger (wielded)".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackgroundInfo {
    pub name: String,
    pub about: String,
    pub hp: u16,
    pub to_hit: i8,
    pub damage: i8,
    pub stealth: u8,
    pub throwing: i8,
    pub kit: Vec<String>,
}

/// What sort of thing an item is, which says what can be done with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ItemClass {
    Potion,
    Scroll,
    Weapon,
    Armour,
    Missile,
    Artifact,
    Wand,
}

/// What a player saw lying on a cell: the top item of its pile, or nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorChange {
    pub at: Pos,
    pub top: Option<Lying>,
}

/// The top item of a pile on the floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lying {
    pub kind: u16,
    /// How many of it (a stack of darts, say).
    pub count: u16,
    /// Whether other items lie under it.
    pub more: bool,
}

/// One entry of a player's pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    pub kind: u16,
    pub count: u16,
    /// Wielded (a weapon) or worn (armour).
    pub equipped: bool,
}

/// One member of a player's party, as the party panel shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub id: PlayerId,
    pub name: String,
    pub hp: u16,
    pub max: u16,
    pub level: u8,
}

/// A change in which monsters a player sees. Only the kind and a coarse
/// wound level are ever sent: never hit points or plans.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MonsterChange {
    Appeared {
        id: MonsterId,
        kind: u16,
        at: Pos,
        wound: Wound,
        /// It seems asleep.
        asleep: bool,
    },
    Moved {
        id: MonsterId,
        at: Pos,
    },
    Hurt {
        id: MonsterId,
        wound: Wound,
    },
    /// It fell asleep (`asleep`), or woke.
    Slept {
        id: MonsterId,
        asleep: bool,
    },
    /// Out of sight, or dead.
    Vanished {
        id: MonsterId,
    },
}

/// A character that died, as the graveyard keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeathRecord {
    pub name: String,
    /// The deepest depth it reached.
    pub depth: u16,
    pub rounds: u64,
    pub kills: u32,
    /// What killed it ("a jackal"); for one that escaped, what it escaped
    /// with ("the Gloamstone").
    pub killed_by: String,
    /// When, in seconds since 1970 (UTC).
    pub when: u64,
    /// The experience level it reached.
    pub level: u8,
    /// It escaped with the artifact: it is in the hall of the living.
    pub escaped: bool,
    /// Which of its name's lives this was, counted from 1: its morgue file
    /// is `/morgue/NAME/MORGUE.txt` on the server's port. 0: it has none
    /// (a grave dug before morgue files).
    pub morgue: u32,
}

/// The change in one player's sight. Disc indices in `shown` and `revealed`
/// are relative to `at`; those in `hidden` to the `at` of the previous diff on
/// this level (there are none in the first diff after entering a level).
/// On the wire its cell lists are packed as bits (see `packed.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SightDiff {
    /// Where the player stands now.
    pub at: Pos,
    /// Cells that left sight: the client keeps them as remembered.
    pub hidden: Vec<u8>,
    /// Remembered cells back in sight; their terrain is already known.
    pub shown: Vec<u8>,
    /// Cells seen for the first time, with their terrain.
    pub revealed: Vec<(u8, Terrain)>,
    /// Other players who came into sight, moved in it, or left it.
    pub players: Vec<PlayerChange>,
    /// Monsters who came into sight, moved or were hurt in it, or left it.
    pub monsters: Vec<MonsterChange>,
    /// Cells in sight whose pile is not what the player last saw there.
    pub floor: Vec<FloorChange>,
}

/// A change in which other players a player sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayerChange {
    Appeared { id: PlayerId, name: String, at: Pos },
    Moved { id: PlayerId, at: Pos },
    Vanished { id: PlayerId },
}

impl DeathRecord {
    /// When it died, as `2026-11-30 17:05 UTC`.
    pub fn when_utc(&self) -> String {
        let (days, secs) = (self.when / 86_400, self.when % 86_400);
        let (year, month, day) = crate::calendar::civil_from_days(days as i64);
        format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", secs / 3600, secs % 3600 / 60)
    }
}

/// Why the server turned a handshake down.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    WrongVersion {
        server: u32,
    },
    NameInvalid {
        reason: String,
    },
    NameTaken,
    /// The name belongs to a character whose secret token was not given.
    WrongToken,
    /// The server cannot take players now (its store failed, say).
    Unavailable {
        reason: String,
    },
    /// The player asked for cannot be watched now (not playing, refusing
    /// watchers, or watched by as many as the host allows).
    CannotWatch {
        reason: String,
    },
    /// As many players play as the host allows (`players`): try again
    /// later. A character already playing may still rejoin, and watchers
    /// are not counted.
    Full {
        players: u32,
    },
    /// [`ClientMsg::Create`] named a background the server does not have.
    NoSuchBackground {
        name: String,
    },
    /// No recording can be made of what [`ClientMsg::Recording`] asked.
    NoRecording {
        reason: String,
    },
    /// The world is closing: its host drains it (a fleet retires it, or it
    /// is being updated), so it takes no new players or watchers, while
    /// those already in play go on until they leave. `elsewhere` is where
    /// the host asks newcomers to go instead (`--drain-to`: an address,
    /// at most [`MAX_ELSEWHERE_CHARS`](crate::MAX_ELSEWHERE_CHARS)
    /// characters), if it named one. Waiting will not lift it.
    Draining {
        elsewhere: Option<String>,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::WrongVersion { server } => {
                write!(f, "wrong protocol version: the server speaks version {server}")
            }
            Refusal::NameInvalid { reason } => write!(f, "invalid name: {reason}"),
            Refusal::NameTaken => write!(f, "that name is taken by a connected player"),
            Refusal::WrongToken => {
                write!(f, "that name belongs to another player (its secret token did not match)")
            }
            Refusal::Unavailable { reason } => {
                write!(f, "the server cannot take you now: {reason}")
            }
            Refusal::CannotWatch { reason } => write!(f, "cannot watch: {reason}"),
            Refusal::Full { players } => {
                write!(f, "The server is full ({players} players); try again later.")
            }
            Refusal::NoSuchBackground { name } => {
                write!(f, "no background is called {name} here")
            }
            Refusal::NoRecording { reason } => write!(f, "no recording: {reason}"),
            Refusal::Draining { elsewhere: Some(elsewhere) } => {
                write!(f, "this world is closing and takes no newcomers: join {elsewhere} instead")
            }
            Refusal::Draining { elsewhere: None } => {
                write!(f, "this world is closing and takes no newcomers")
            }
        }
    }
}
