//! The behaviour vectors: sessions played through the window's headless
//! [`Session`], written as `web/test/screens.json` for the page's
//! `Session` to replay (`web/test/screens.test.ts`), so the two clients
//! cannot drift apart unseen. Each session has a window size (a
//! [`Layout`]) and steps: a key (with Shift and repeat), typed text, a
//! click at a pixel, a server message (its frame in hex, as
//! `web/test/vectors.json` gives them) or the connection closing, a
//! message on the recording's own connection (after `r`'s
//! [`KeyOutcome::Ask`]) or its closing, time passing, a resize; for each,
//! what the window did (the outcome of a key, the message sent), the
//! screen's text after it ([`screen_text`]: only the rows that changed, as
//! `rows` of `[index, text]`, and the number of rows, `height`, when that
//! changed; nothing when the screen did not) and, for a message, the
//! reason the mirror refused it.
//!
//! The scripted sessions walk through the game's screens: the arrival,
//! walking, talking, the item prompts and aiming, looking, the log, the
//! help, the quit question, the end pages, the graveyard, a life's last
//! rounds played on the player page (and refused), a fall watched from
//! the graveyard by its letter (in play, and over the end page), a lost link,
//! every key the window is given, and hostile messages, one a session;
//! and at a short window, where the pages do not fit.
//! The random ones are seeded (so the file is the same each run): random
//! keys over a level with monsters and a pack, and random messages from
//! the protocol's own strategies ([`gloam_protocol::arbitrary`]). Time is
//! a fixed instant plus each step's offset, for key repeats.

use std::time::{Duration, Instant};

use gloam_protocol::{
    ChatTo, ClientMsg, DeathRecord, Disc, FloorChange, ItemClass, ItemInfo, KindInfo, Lying,
    Member, MonsterChange, MonsterId, PlayerChange, PlayerId, Playing, Pos, Refusal, ServerMsg,
    SightDiff, Terrain, Wound,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

use super::keys::{key_json, plain_keys};
use crate::input::Key;
use crate::layout::Layout;
use crate::net::NetEvent;
use crate::session::retry::Ending;
use crate::session::{KeyOutcome, Session, Tick};
use crate::tokens::TokenSlot;
use crate::view::{cell_under, screen_text};

/// The window sizes the sessions are played at: `(width, height, cell,
/// letter)` pixels, wide, middling, narrow (no narrower than the HUD's
/// least, so rows are cut) and as narrow as a page on a telephone (the
/// window is never so small, but the page may be).
const LAYOUTS: [(u32, u32, u32, u32); 4] =
    [(1280, 720, 16, 9), (800, 600, 14, 8), (480, 360, 12, 6), (360, 300, 10, 5)];

/// A short window: 640 x 360 at a large zoom, whose map has 13 rows (the
/// least a window fits its cells to is 12), so a page has 12 lines.
const SHORT: (u32, u32, u32, u32) = (640, 360, 16, 6);

/// What the session's token slot says of a new key: it has no store.
const TOKEN_NOTE: &str = "No config directory: your character's key is not kept.";

/// How much the clock moves between steps, unless a step says otherwise.
const STEP_MS: u64 = 30;

/// The level the scripted sessions play on: a room, a corridor, another
/// room with the stairs.
const LEVEL: &[&str] = &[
    "##############################",
    "#........#####################",
    "#........#####################",
    "#..............###############",
    "#........#####.###############",
    "#........#####.......#########",
    "##########..........>#########",
    "##########...........#########",
    "##############################",
];

fn level_width() -> u16 {
    LEVEL[0].len() as u16
}

fn level_height() -> u16 {
    LEVEL.len() as u16
}

fn terrain_at(p: Pos) -> Option<Terrain> {
    let row = LEVEL.get(usize::from(p.y))?;
    Some(match row.as_bytes().get(usize::from(p.x))? {
        b'#' => Terrain::Wall,
        b'>' => Terrain::StairsDown,
        b'<' => Terrain::StairsUp,
        _ => Terrain::Floor,
    })
}

/// The cells of [`LEVEL`] in a disc around `at`, as `(index, cell)`.
fn in_disc(disc: &Disc, at: Pos) -> Vec<(u8, Pos, Terrain)> {
    let r = i32::from(gloam_protocol::SIGHT_RADIUS);
    let mut cells = Vec::new();
    for dy in -r..=r {
        for dx in -r..=r {
            let (Some(i), Some(p)) = (disc.index(dx, dy), at.offset(dx, dy)) else { continue };
            if let Some(t) = terrain_at(p) {
                cells.push((i, p, t));
            }
        }
    }
    cells.sort_by_key(|c| c.0);
    cells
}

/// The sight a step from `before` to `at` brings: what left the disc
/// hidden, all of the new disc revealed (the mirror takes a known cell
/// revealed again).
fn sight(before: Option<Pos>, at: Pos) -> SightDiff {
    let disc = Disc::new(gloam_protocol::SIGHT_RADIUS);
    let now = in_disc(&disc, at);
    let hidden = match before {
        Some(b) => in_disc(&disc, b)
            .into_iter()
            .filter(|(_, p, _)| !now.iter().any(|(_, q, _)| q == p))
            .map(|(i, _, _)| i)
            .collect(),
        None => Vec::new(),
    };
    let revealed = now.iter().map(|&(i, _, t)| (i, t)).collect();
    SightDiff { at, hidden, revealed, ..SightDiff::default() }
}

fn welcome(token: Option<[u8; 16]>) -> ServerMsg {
    ServerMsg::Welcome {
        you: PlayerId(1),
        width: level_width(),
        height: level_height(),
        sight_radius: gloam_protocol::SIGHT_RADIUS,
        actions_per_second: 20,
        token,
        world: String::new(),
    }
}

/// The welcome of a world its host named.
fn named_welcome(world: &str) -> ServerMsg {
    let mut msg = welcome(None);
    if let ServerMsg::Welcome { world: name, .. } = &mut msg {
        *name = world.to_owned();
    }
    msg
}

fn enter_level(depth: u16) -> ServerMsg {
    ServerMsg::EnterLevel {
        depth,
        width: level_width(),
        height: level_height(),
        remembered: vec![],
        terrain: vec![],
    }
}

fn kinds() -> ServerMsg {
    let kind = |name: &str, glyph, colour| KindInfo { name: name.into(), glyph, colour };
    ServerMsg::Kinds(vec![kind("rat", 'r', [150, 110, 80]), kind("orc", 'o', [80, 170, 60])])
}

fn item_kinds() -> ServerMsg {
    let item = |name: &str, glyph, class| ItemInfo {
        name: name.into(),
        glyph,
        colour: [200, 180, 90],
        class,
        known: true,
    };
    ServerMsg::ItemKinds(vec![
        item("potion of healing", '!', ItemClass::Potion),
        item("dart", '(', ItemClass::Missile),
        item("dagger", ')', ItemClass::Weapon),
        item("leather armour", '[', ItemClass::Armour),
        item("scroll of mapping", '?', ItemClass::Scroll),
    ])
}

fn pack() -> ServerMsg {
    let carried = |kind, count, equipped| gloam_protocol::Carried { kind, count, equipped };
    ServerMsg::Pack(vec![
        carried(0, 2, false),
        carried(1, 6, false),
        carried(2, 1, true),
        carried(3, 1, false),
        carried(4, 1, false),
    ])
}

fn monster(id: u32, kind: u16, at: Pos, asleep: bool) -> MonsterChange {
    MonsterChange::Appeared { id: MonsterId(id), kind, at, wound: Wound::Unhurt, asleep }
}

fn record(name: &str, escaped: bool) -> DeathRecord {
    DeathRecord {
        name: name.into(),
        depth: 3,
        rounds: 412,
        kills: 7,
        killed_by: if escaped { "the Gloamstone".into() } else { "an orc".into() },
        when: 1_790_000_000,
        level: 4,
        escaped,
        morgue: 2,
    }
}

fn chat(from: u32, name: &str, to: ChatTo, text: &str) -> ServerMsg {
    ServerMsg::Chat { from: PlayerId(from), name: name.into(), to, text: text.into() }
}

/// A key pressed, or the other inputs a step can be.
#[derive(Debug, Clone)]
enum Input {
    Key(Key, bool, bool),
    Text(String),
    Click(u32, u32),
    Msg(ServerMsg),
    /// The connection ended, why and how.
    Closed(String, Ending),
    /// Time passes, this many ms more than a step.
    Wait(u64),
    /// The window is resized to `(width, height, cell, letter)`.
    Resize((u32, u32, u32, u32)),
    /// A message on the recording's own connection (`r` on the end page).
    Recorded(ServerMsg),
    /// The recording's connection ended, why and how.
    RecordingClosed(String, Ending),
}

/// One session being played and written down.
struct Recorder {
    name: String,
    /// The name the session joins under.
    who: String,
    session: Session,
    layout: Layout,
    size: (u32, u32, u32, u32),
    base: Instant,
    ms: u64,
    /// Where the player stands, as the scripted world last said.
    at: Option<Pos>,
    steps: Vec<String>,
    /// The screen before the first step.
    start: Vec<String>,
    screen: Vec<String>,
    /// The title before the first step, and as it is now.
    start_title: String,
    title: String,
}

impl Recorder {
    fn new(name: &str, size: (u32, u32, u32, u32)) -> Self {
        Self::joining_as(name, size, "ann")
    }

    /// A session joining under `who`.
    fn joining_as(name: &str, size: (u32, u32, u32, u32), who: &str) -> Self {
        let slot = TokenSlot { store: None, server: "ws://here".into(), name: who.into() };
        let mut session = Session::new("ws://here".into(), slot);
        let layout = Layout::at(size.0, size.1, size.2, size.3);
        // As the window tells its session on every resize (`app.rs`).
        session.resize(layout.page_cols, layout.map_rows);
        let mut r = Self {
            name: name.into(),
            who: who.into(),
            session,
            layout,
            size,
            base: Instant::now(),
            ms: 0,
            at: None,
            steps: Vec::new(),
            start: Vec::new(),
            screen: Vec::new(),
            start_title: String::new(),
            title: String::new(),
        };
        r.screen = r.screen_now();
        r.start = r.screen.clone();
        r.title = r.session.title();
        r.start_title = r.title.clone();
        r
    }

    fn screen_now(&self) -> Vec<String> {
        // Split at each newline only (`lines` would also eat a `\r` a
        // server's text left at a row's end).
        let text = screen_text(&self.session.scene(), &self.layout);
        let rows = text.strip_suffix('\n').unwrap_or(&text);
        rows.split('\n').map(str::to_owned).collect()
    }

    fn now(&self) -> Instant {
        self.base + Duration::from_millis(self.ms)
    }

    /// Plays one step and writes it down; gives what the key did.
    fn step(&mut self, input: Input) -> KeyOutcome {
        self.ms += STEP_MS;
        if let Input::Wait(ms) = input {
            self.ms += ms;
        }
        let now = self.now();
        let mut step = serde_json::Map::new();
        step.insert("at".into(), json!(self.ms));
        let outcome = self.apply(&input, &mut step, now);
        if let Some(outcome) = &outcome {
            step.insert("out".into(), outcome_json(outcome));
            if let KeyOutcome::Send(msg) = outcome {
                self.session.sent(msg, now);
            }
        }
        self.tick_and_look(&mut step, now);
        self.steps.push(serde_json::to_string(&Value::Object(step)).unwrap());
        outcome.unwrap_or(KeyOutcome::Ignore)
    }

    /// Hands `input` to the session as the window would, writing it into
    /// `step`; gives what a key, a text or a click did (nothing for the rest).
    fn apply(
        &mut self,
        input: &Input,
        step: &mut serde_json::Map<String, Value>,
        now: Instant,
    ) -> Option<KeyOutcome> {
        match input {
            Input::Key(key, shift, repeat) => {
                step.insert("key".into(), serde_json::from_str(&key_json(*key)).unwrap());
                step.insert("shift".into(), json!(shift));
                step.insert("repeat".into(), json!(repeat));
                Some(self.session.on_key(*key, *shift, *repeat, now))
            }
            Input::Text(text) => {
                step.insert("text".into(), json!(text));
                Some(self.session.on_text(text))
            }
            Input::Click(x, y) => {
                step.insert("click".into(), json!([x, y]));
                let cell = cell_under(&self.session.scene(), &self.layout, (*x as f32, *y as f32));
                Some(self.session.on_click(cell, now))
            }
            Input::Msg(msg) => {
                step.insert("msg".into(), json!(hex(&gloam_protocol::codec::encode(msg))));
                step.insert("variant".into(), json!(variant(msg)));
                let refused = self.hear(msg.clone());
                step.insert("refused".into(), json!(refused));
                None
            }
            Input::Closed(reason, ending) => {
                step.insert("closed".into(), json!(reason));
                step.insert("ending".into(), ending_json(*ending));
                let event = NetEvent::Closed { reason: reason.clone(), ending: *ending };
                self.session.on_net(event);
                None
            }
            Input::Wait(_) => {
                step.insert("wait".into(), json!(true));
                None
            }
            &Input::Resize(size) => {
                step.insert("resize".into(), json!([size.0, size.1, size.2, size.3]));
                self.layout = Layout::at(size.0, size.1, size.2, size.3);
                self.session.resize(self.layout.page_cols, self.layout.map_rows);
                None
            }
            Input::Recorded(msg) => {
                step.insert("recording".into(), json!(hex(&gloam_protocol::codec::encode(msg))));
                step.insert("variant".into(), json!(variant(msg)));
                self.session.on_recording(NetEvent::Msg(msg.clone()));
                None
            }
            Input::RecordingClosed(reason, ending) => {
                step.insert("recording_closed".into(), json!(reason));
                step.insert("ending".into(), ending_json(*ending));
                let event = NetEvent::Closed { reason: reason.clone(), ending: *ending };
                self.session.on_recording(event);
                None
            }
        }
    }

    /// What follows a step as the window does it: the tick after every
    /// event (a try to connect again may be due), then the screen and the
    /// title, each written into `step` when it changed.
    fn tick_and_look(&mut self, step: &mut serde_json::Map<String, Value>, now: Instant) {
        if self.session.tick(now) == Tick::Connect {
            step.insert("connect".into(), json!(true));
        }
        let screen = self.screen_now();
        if screen != self.screen {
            step.insert("rows".into(), json!(changed_rows(&self.screen, &screen)));
            if screen.len() != self.screen.len() {
                step.insert("height".into(), json!(screen.len()));
            }
            self.screen = screen;
        }
        let title = self.session.title();
        if title != self.title {
            step.insert("title".into(), json!(title));
            self.title = title;
        }
    }

    /// Gives the session `msg`; the reason it was refused, if it was.
    fn hear(&mut self, msg: ServerMsg) -> Option<String> {
        let lost_before = matches!(self.session.scene().link, crate::scene::Link::Lost(_));
        self.session.on_net(NetEvent::Msg(msg));
        match self.session.scene().link {
            crate::scene::Link::Lost(why) if !lost_before => {
                why.strip_prefix("the server is broken or hostile: ").map(str::to_owned)
            }
            _ => None,
        }
    }

    fn key(&mut self, key: Key) -> KeyOutcome {
        self.step(Input::Key(key, false, false))
    }

    fn shifted(&mut self, key: Key) -> KeyOutcome {
        self.step(Input::Key(key, true, false))
    }

    fn ch(&mut self, c: char) -> KeyOutcome {
        self.key(Key::Char(c))
    }

    fn text(&mut self, text: &str) {
        self.step(Input::Text(text.into()));
    }

    fn msg(&mut self, msg: ServerMsg) {
        self.step(Input::Msg(msg));
    }

    /// Opens a line, types `text` and says it.
    fn say(&mut self, text: &str) -> KeyOutcome {
        self.key(Key::Enter);
        self.text(text);
        self.key(Key::Enter)
    }

    /// The world's answer to a key: a step where the player can go, else
    /// a plain sight (the round passed).
    fn answer(&mut self, outcome: &KeyOutcome) {
        self.answer_with(outcome, Vec::new());
    }

    /// [`Self::answer`], with `monsters` coming into view.
    fn answer_with(&mut self, outcome: &KeyOutcome, monsters: Vec<MonsterChange>) {
        let KeyOutcome::Send(ClientMsg::Act(action)) = outcome else { return };
        let Some(at) = self.at else { return };
        let to = match action {
            gloam_protocol::Action::Move(dir) => {
                at.step(*dir).filter(|p| terrain_at(*p).is_some_and(Terrain::is_open))
            }
            _ => None,
        };
        let to = to.unwrap_or(at);
        self.msg(ServerMsg::Sight(SightDiff { monsters, ..sight(Some(at), to) }));
        self.at = Some(to);
    }

    /// Presses `key` and lets the world answer.
    fn walk(&mut self, key: Key) {
        let outcome = self.key(key);
        self.answer(&outcome);
    }

    /// Welcomed, on the level, at `at`, seeing what is there.
    fn arrive(&mut self, at: Pos) {
        self.msg(welcome(None));
        self.msg(enter_level(1));
        self.msg(kinds());
        self.msg(item_kinds());
        self.msg(ServerMsg::Sight(sight(None, at)));
        self.at = Some(at);
    }

    /// [`Self::arrive`], with a pack, a rat and an orc in sight, company
    /// and a few lines of the game.
    fn arrive_equipped(&mut self) {
        self.arrive(Pos::new(4, 3));
        self.msg(pack());
        self.msg(ServerMsg::Vitals { hp: 14, max: 20 });
        self.msg(ServerMsg::Experience { level: 2, xp: 30, next: 60 });
        let monsters =
            vec![monster(7, 0, Pos::new(7, 2), false), monster(9, 1, Pos::new(2, 5), true)];
        self.msg(ServerMsg::Monsters(monsters));
        let top = Lying { kind: 0, count: 1, more: false };
        self.msg(ServerMsg::Floor(vec![FloorChange { at: Pos::new(5, 4), top: Some(top) }]));
        self.msg(ServerMsg::Roster(vec!["ann".into(), "bob".into()]));
        self.msg(ServerMsg::Combat("The rat bites you.".into()));
    }

    fn json(&self) -> String {
        let (w, h, cell, letter) = self.size;
        format!(
            "{{\"name\":{},\"who\":{},\"layout\":[{w},{h},{cell},{letter}],\"start\":{},\"title\":{},\"steps\":[\n{}\n]}}",
            json!(self.name),
            json!(self.who),
            json!(self.start),
            json!(self.start_title),
            self.steps.join(",\n")
        )
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn variant(msg: &ServerMsg) -> String {
    match serde_json::to_value(msg).expect("messages serialise") {
        Value::String(name) => name,
        Value::Object(map) => map.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    }
}

/// How a connection ended, as the page's replay reads it.
fn ending_json(ending: Ending) -> Value {
    match ending {
        Ending::Dropped => json!("Dropped"),
        Ending::Unreadable => json!("Unreadable"),
        Ending::Code(code) => json!({ "Code": code }),
    }
}

/// A key's outcome as the page's replay reads it.
fn outcome_json(outcome: &KeyOutcome) -> Value {
    match outcome {
        KeyOutcome::Send(msg) => json!({ "Send": serde_json::to_value(msg).unwrap() }),
        KeyOutcome::Zoom(by) => json!({ "Zoom": by }),
        KeyOutcome::Again => json!("Again"),
        KeyOutcome::Redraw => json!("Redraw"),
        KeyOutcome::Quit => json!("Quit"),
        KeyOutcome::Ignore => json!("Ignore"),
        KeyOutcome::Ask(msg) => json!({ "Ask": serde_json::to_value(msg).unwrap() }),
    }
}

/// A scripted session, played at each of `sizes`.
type Script = fn(&mut Recorder);

fn arrival(r: &mut Recorder) {
    r.key(Key::Up);
    r.msg(welcome(Some([7; 16])));
    r.msg(enter_level(1));
    r.msg(kinds());
    r.msg(ServerMsg::Sight(sight(None, Pos::new(2, 2))));
    r.at = Some(Pos::new(2, 2));
    r.msg(ServerMsg::Roster(vec!["ann".into()]));
    r.msg(ServerMsg::Note("You arrive in the gloam.".into()));
    r.msg(ServerMsg::Vitals { hp: 20, max: 20 });
    r.msg(ServerMsg::Joined(vec!["bob".into()]));
    r.msg(ServerMsg::Players(vec![PlayerChange::Appeared {
        id: PlayerId(2),
        name: "bob".into(),
        at: Pos::new(3, 3),
    }]));
}

fn walking(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    for key in [Key::Char('l'), Key::Right, Key::Numpad(3), Key::Char('n'), Key::Char('k')] {
        r.walk(key);
    }
    // Held down: a repeat waits for the answer, then for the pace.
    let held = r.step(Input::Key(Key::Char('l'), false, false));
    r.step(Input::Key(Key::Char('l'), false, true));
    r.answer(&held);
    r.step(Input::Key(Key::Char('l'), false, true));
    r.ms += 100;
    let late = r.step(Input::Key(Key::Char('l'), false, true));
    r.answer(&late);
    r.walk(Key::Char('5'));
    r.walk(Key::Numpad(5));
    r.walk(Key::Char('h'));
    r.walk(Key::Char('y'));
    r.walk(Key::Char('.'));
    r.shifted(Key::Char('.'));
    r.ch('<');
    r.ch('o');
    r.key(Key::Escape);
    r.msg(ServerMsg::Stopped);
    r.shifted(Key::Char('r'));
    r.msg(ServerMsg::Note("You rest.".into()));
    r.msg(ServerMsg::Stopped);
    r.msg(ServerMsg::Players(vec![PlayerChange::Appeared {
        id: PlayerId(3),
        name: "cy".into(),
        at: Pos::new(4, 2),
    }]));
    r.msg(ServerMsg::Party(vec![
        Member { id: PlayerId(1), name: "ann".into(), hp: 20, max: 20, level: 1 },
        Member { id: PlayerId(3), name: "cy".into(), hp: 5, max: 18, level: 2 },
    ]));
    r.msg(ServerMsg::Waiting(vec!["cy".into()]));
    r.walk(Key::Char('j'));
    r.msg(ServerMsg::Waiting(vec![]));
    r.msg(ServerMsg::Displaced(sight(r.at, Pos::new(3, 4))));
    r.msg(enter_level(2));
    r.msg(ServerMsg::Sight(sight(None, Pos::new(12, 6))));
}

/// A key held down along the corridor: its repeats stop when a rat comes
/// into view, even once the rat is gone, until the key is pressed again.
fn holding(r: &mut Recorder) {
    r.arrive(Pos::new(2, 3));
    let held = |r: &mut Recorder| r.step(Input::Key(Key::Char('l'), false, true));
    let first = r.ch('l');
    r.answer(&first);
    let repeat = held(r);
    r.answer(&repeat);
    let repeat = held(r);
    r.answer_with(&repeat, vec![monster(7, 0, Pos::new(9, 3), false)]);
    r.ms += 100;
    assert_eq!(held(r), KeyOutcome::Ignore, "the rat stops the key");
    r.msg(ServerMsg::Monsters(vec![MonsterChange::Vanished { id: MonsterId(7) }]));
    r.ms += 100;
    assert_eq!(held(r), KeyOutcome::Ignore, "until it is pressed again");
    let fresh = r.ch('l');
    r.answer(&fresh);
    let repeat = held(r);
    r.answer(&repeat);
    // A monster already in view at the fresh press does not stop it.
    r.msg(ServerMsg::Monsters(vec![monster(9, 1, Pos::new(12, 3), true)]));
    let fresh = r.ch('l');
    r.answer(&fresh);
    let repeat = held(r);
    assert!(matches!(repeat, KeyOutcome::Send(_)), "the sleeping orc was in view at the press");
    r.answer(&repeat);
}

fn talking(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.key(Key::Enter);
    for key in [Key::Char('k'), Key::Up, Key::Numpad(8), Key::Char('.')] {
        r.key(key);
    }
    r.text("kk hi");
    for key in [Key::Backspace, Key::Home, Key::Delete, Key::Right, Key::Left, Key::End] {
        r.key(key);
    }
    r.text(" there, ünïcödé");
    r.key(Key::Enter);
    r.say("/w bob psst");
    r.say("/shout hello all");
    r.say("/who");
    let who = |name: &str, watchers, watchable| Playing { name: name.into(), watchers, watchable };
    r.msg(ServerMsg::Who(vec![who("ann", 0, true), who("bob", 2, false)]));
    r.msg(chat(2, "bob", ChatTo::Depth, "one"));
    r.say("/mute bob");
    r.msg(chat(2, "bob", ChatTo::Everyone, "two"));
    r.msg(chat(3, "cy", ChatTo::Depth, "three"));
    r.say("/unmute bob");
    r.say("/unmute bob");
    r.msg(chat(2, "bob", ChatTo::Player("ann".into()), "four"));
    r.msg(chat(1, "ann", ChatTo::Player("bob".into()), "five"));
    r.say("/kick bob");
    r.say("/nowatch");
    r.say("/watch");
    r.msg(ServerMsg::Watchers(vec!["dee".into(), "eve".into()]));
    // White space as Rust's `trim` takes it (U+0085 is, U+FEFF is not).
    r.say("\u{85} hi\u{feff}");
    r.say("/w\u{85}bob\u{a0}psst\u{2028}");
    r.say("/dance");
    r.say("");
    r.key(Key::Enter);
    r.text("never mind");
    r.key(Key::Escape);
    for i in 0..12 {
        r.msg(ServerMsg::Note(format!(
            "line {i} of the game, long enough to be cut in a narrow window, and longer still"
        )));
    }
    r.key(Key::PageUp);
    r.key(Key::PageUp);
    r.key(Key::Enter);
    r.key(Key::PageDown);
    r.key(Key::Escape);
    r.key(Key::PageDown);
    r.msg(ServerMsg::Others("Bob hits the orc.".into()));
}

fn items(r: &mut Recorder) {
    r.arrive_equipped();
    r.ch('i');
    r.ch('q');
    r.ch('q');
    r.ch('z');
    r.shifted(Key::Char('a'));
    let quaff = r.ch('a');
    r.answer(&quaff);
    r.ch('r');
    r.ch('b');
    r.key(Key::Escape);
    r.ch('r');
    r.ch('e');
    r.ch('w');
    r.ch('c');
    r.ch('w');
    r.ch('a');
    r.shifted(Key::Char('w'));
    r.ch('d');
    r.ch('T');
    r.ch('c');
    r.ch('d');
    r.key(Key::Escape);
    r.ch('g');
    r.ch(',');
    r.ch('t');
    r.ch('b');
    for key in [Key::Tab, Key::Char(' '), Key::Char('-'), Key::Char('+'), Key::Char('l')] {
        r.key(key);
    }
    r.shifted(Key::Char('='));
    r.key(Key::Enter);
    r.ch('f');
    r.key(Key::Numpad(9));
    r.ch('t');
    r.ch('f');
    r.key(Key::Escape);
    r.ch('t');
    r.ch('a');
    r.ch('t');
    r.ch('c');
    r.msg(ServerMsg::Pack(vec![]));
    r.ch('f');
    r.ch('q');
    r.ch('i');
    r.key(Key::Escape);
    discoveries(r);
}

/// The discoveries page (`\`) with a potion and a wand known and the
/// other potions, the scrolls and a wand known only by their looks; any
/// key (here `j`, which does not step) puts it away.
fn discoveries(r: &mut Recorder) {
    let kind = |name: &str, glyph, class, known| ItemInfo {
        name: name.into(),
        glyph,
        colour: [200, 180, 90],
        class,
        known,
    };
    r.msg(ServerMsg::ItemKinds(vec![
        kind("potion of healing", '!', ItemClass::Potion, true),
        kind("murky potion", '!', ItemClass::Potion, false),
        kind("dagger", ')', ItemClass::Weapon, true),
        kind("fizzy potion", '!', ItemClass::Potion, false),
        kind("scroll labelled ZUN KAH", '?', ItemClass::Scroll, false),
        kind("scroll labelled XOR BEL", '?', ItemClass::Scroll, false),
        kind("wand of slowing", '-', ItemClass::Wand, true),
        kind("oak wand", '-', ItemClass::Wand, false),
    ]));
    r.ch('\\');
    r.ch('j');
}

/// Zapping among friends: a wand the player knows for a wand of healing
/// starts on the nearest other player and Tab goes to the other players
/// only (bob and cy as far, bob first by id); a wand not known goes to
/// the monsters, then the players; a throw, and a wand known to strike,
/// to the monsters only; with nobody else in sight, the healing wand
/// starts on the player.
fn zapping(r: &mut Recorder) {
    r.arrive_equipped();
    let ServerMsg::ItemKinds(mut known) = item_kinds() else { unreachable!() };
    let wand = |name: &str| ItemInfo {
        name: name.into(),
        glyph: '-',
        colour: [90, 200, 120],
        class: ItemClass::Wand,
        known: name != "oak wand",
    };
    known.extend([wand(crate::aim::HEALING_WAND), wand("oak wand"), wand("wand of striking")]);
    r.msg(ServerMsg::ItemKinds(known));
    let carried = |kind, count| gloam_protocol::Carried { kind, count, equipped: false };
    let pack = vec![carried(0, 1), carried(1, 6), carried(5, 4), carried(6, 3), carried(7, 5)];
    r.msg(ServerMsg::Pack(pack));
    let player = |id, name: &str, x, y| PlayerChange::Appeared {
        id: PlayerId(id),
        name: name.into(),
        at: Pos::new(x, y),
    };
    r.msg(ServerMsg::Players(vec![player(3, "cy", 3, 1), player(2, "bob", 6, 3)]));
    r.ch('z');
    r.ch('c');
    r.key(Key::Tab);
    r.key(Key::Tab);
    r.ch('-');
    let healed = r.key(Key::Enter);
    r.answer(&healed);
    r.ch('z');
    r.ch('d');
    for _ in 0..3 {
        r.key(Key::Tab);
    }
    let slowed = r.ch('.');
    r.answer(&slowed);
    r.ch('t');
    r.ch('b');
    r.key(Key::Tab);
    r.key(Key::Tab);
    r.key(Key::Escape);
    // A wand known to strike: Tab goes to the monsters only.
    r.ch('z');
    r.ch('e');
    for _ in 0..3 {
        r.key(Key::Tab);
    }
    r.key(Key::Escape);
    let gone = |id| PlayerChange::Vanished { id: PlayerId(id) };
    r.msg(ServerMsg::Players(vec![gone(2), gone(3)]));
    r.ch('z');
    r.ch('c');
    r.key(Key::Tab);
    r.key(Key::Escape);
}

fn looking(r: &mut Recorder) {
    r.arrive_equipped();
    r.ch('x');
    for key in [Key::Char('l'), Key::Right, Key::Char('o'), Key::Char('g'), Key::Enter, Key::Tab] {
        r.key(key);
    }
    r.key(Key::Tab);
    r.ch('-');
    r.key(Key::Numpad(1));
    let (w, h) = (r.layout.cell_px * 3 / 2, r.layout.cell_px / 2);
    r.step(Input::Click(w, h));
    r.msg(ServerMsg::Monsters(vec![
        MonsterChange::Hurt { id: MonsterId(7), wound: Wound::AlmostDead },
        MonsterChange::Slept { id: MonsterId(9), asleep: false },
    ]));
    r.key(Key::Escape);
    r.ch('x');
    r.ch('x');
    r.ch('x');
    r.msg(enter_level(2));
    r.ch('x');
    r.msg(ServerMsg::Sight(sight(None, Pos::new(12, 6))));
    r.ch('x');
    r.key(Key::Up);
    r.key(Key::Escape);
}

fn clicking(r: &mut Recorder) {
    r.arrive(Pos::new(4, 3));
    let cell = r.layout.cell_px;
    let camera = crate::view::camera(&r.session.scene(), &r.layout);
    let pixel = |x: i32, y: i32| {
        let col = (x - camera.x).max(0) as u32;
        let row = (y - camera.y).max(0) as u32;
        (col * cell + cell / 2, row * cell + cell / 2)
    };
    for (x, y) in [(7, 3), (28, 7), (4, 3), (6, 2)] {
        let (px, py) = pixel(x, y);
        r.step(Input::Click(px, py));
    }
    r.step(Input::Click(r.layout.width - 2, 3));
    r.ch('i');
    let (px, py) = pixel(7, 3);
    r.step(Input::Click(px, py));
}

fn log_page(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    for i in 0..40 {
        let line =
            format!("a line of the log, number {i}, which a narrow page wraps onto a second row");
        r.msg(if i % 3 == 0 { ServerMsg::Combat(line) } else { ServerMsg::Note(line) });
    }
    r.key(Key::Ctrl('p'));
    for key in [
        Key::Up,
        Key::Char('k'),
        Key::PageUp,
        Key::Char('j'),
        Key::Down,
        Key::Home,
        Key::PageDown,
        Key::End,
        Key::Char('q'),
        Key::Ctrl('='),
        Key::Ctrl('-'),
        Key::Ctrl('+'),
        Key::Ctrl('k'),
    ] {
        r.key(key);
    }
    r.key(Key::Escape);
    r.key(Key::Ctrl('p'));
    r.key(Key::Enter);
    r.key(Key::Ctrl('p'));
    r.key(Key::Ctrl('p'));
    r.key(Key::Enter);
    r.key(Key::Ctrl('p'));
    r.key(Key::Escape);
}

fn help_page(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.ch('?');
    r.key(Key::Escape);
    r.shifted(Key::Char('/'));
    r.ch('l');
    r.ch('?');
    r.key(Key::Up);
    r.key(Key::Up);
}

fn quitting(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.key(Key::Escape);
    r.ch('n');
    r.key(Key::Escape);
    r.key(Key::Up);
    r.key(Key::Escape);
    r.key(Key::Escape);
    r.key(Key::Escape);
    r.ch('y');
}

fn dying(r: &mut Recorder) {
    r.arrive_equipped();
    r.shifted(Key::Char('g'));
    r.msg(ServerMsg::Combat("The orc hits you.".into()));
    // Its date past the year 275760, where a browser's Date ends.
    r.msg(ServerMsg::Died(DeathRecord { when: u64::MAX, ..record("ann", false) }));
    r.msg(ServerMsg::Graveyard(vec![record("ann", false), record("bob", true)]));
    r.msg(ServerMsg::Note("You die...".into()));
    // A full graveyard: on a short page it scrolls under the keys to go on.
    let many: Vec<DeathRecord> = (0..30).map(|i| record(&format!("hero{i}"), i % 4 == 0)).collect();
    r.msg(ServerMsg::Graveyard(many));
    r.step(Input::Closed("your character died".into(), Ending::Code(1000)));
    r.key(Key::Up);
    r.key(Key::PageDown);
    r.key(Key::PageDown);
    r.key(Key::PageUp);
    r.ch('i');
    // The graveyard over the end page: a letter asks, and Enter puts the
    // page away (the ask with it).
    r.shifted(Key::Char('g'));
    r.key(Key::PageDown);
    r.ch('i');
    r.key(Key::Ctrl('p'));
    r.key(Key::Ctrl('p'));
    r.key(Key::Enter);
    r.key(Key::Escape);
}

/// Died on depth 3 with a grave (morgue number 2), the connection closed:
/// the end page, which offers `r`.
fn dead_with_a_grave(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.msg(ServerMsg::Combat("The orc hits you.".into()));
    r.msg(ServerMsg::Died(record("ann", false)));
    r.step(Input::Closed("your character died".into(), Ending::Code(1000)));
}

/// A recording of ann's last rounds 408 to 412 on depth 3, as its
/// connection brings it: the head, the kinds, the level and a sight with
/// an orc, notes and vitals a round, and the end.
fn last_rounds() -> Vec<ServerMsg> {
    let head = ServerMsg::Recording {
        player: "ann".into(),
        you: PlayerId(1),
        depth: 3,
        from: 408,
        to: 412,
    };
    let recorded = |round, msg| ServerMsg::Recorded { round, msg: Box::new(msg) };
    let orc = vec![monster(4, 1, Pos::new(5, 3), false)];
    let moved = MonsterChange::Moved { id: MonsterId(4), at: Pos::new(4, 3) };
    vec![
        head,
        recorded(408, kinds()),
        recorded(408, item_kinds()),
        recorded(408, enter_level(3)),
        recorded(408, ServerMsg::Sight(SightDiff { monsters: orc, ..sight(None, Pos::new(2, 2)) })),
        recorded(408, ServerMsg::Vitals { hp: 12, max: 20 }),
        recorded(409, ServerMsg::Sight(sight(Some(Pos::new(2, 2)), Pos::new(3, 3)))),
        recorded(409, ServerMsg::Note("You see an orc.".into())),
        recorded(410, ServerMsg::Monsters(vec![moved])),
        recorded(410, ServerMsg::Combat("The orc hits you.".into())),
        recorded(410, ServerMsg::Vitals { hp: 5, max: 20 }),
        recorded(412, ServerMsg::Combat("The orc hits you.".into())),
        recorded(412, ServerMsg::Vitals { hp: 0, max: 20 }),
        recorded(412, ServerMsg::Note("You die...".into())),
        ServerMsg::RecordingEnd { cut: false },
    ]
}

/// `r` asks for the last rounds; they come on their own connection.
fn ask_and_receive(r: &mut Recorder) {
    let asked = r.ch('r');
    assert!(matches!(asked, KeyOutcome::Ask(_)), "r asks: {asked:?}");
    for msg in last_rounds() {
        r.step(Input::Recorded(msg));
    }
    r.step(Input::RecordingClosed("the server closed the connection".into(), Ending::Code(1000)));
}

/// The player: a recording plays a group a round (rounds without a
/// message not waited for), paused, faster, slower, one round, Shift+`.`
/// (`>`), and Esc back to the end page; `r` then plays it again without
/// asking.
fn playing_back(r: &mut Recorder) {
    dead_with_a_grave(r);
    ask_and_receive(r);
    r.step(Input::Wait(200));
    r.step(Input::Wait(40));
    r.ch(' ');
    r.step(Input::Wait(1_000));
    r.ch(' ');
    // Faster brings the next group nearer, from now: not yet due here.
    r.ch('+');
    r.step(Input::Wait(80));
    // Slower does not put it off: due now.
    r.ch('-');
    r.ch('.');
    r.shifted(Key::Char('.'));
    r.ch('-');
    r.ch('x');
    // Ctrl+ zooms as in the game; the log is not the recording's.
    r.key(Key::Ctrl('='));
    r.key(Key::Ctrl('p'));
    r.ch('.');
    r.ch('.');
    // At the end, Space plays it again from the start.
    r.ch(' ');
    r.step(Input::Wait(100));
    r.key(Key::Escape);
    r.ch('r');
    r.key(Key::Escape);
}

/// The graveyard as a death or `G` brings it: eve escaped (life 2), bob
/// (life 2) and old, whose life has no number (no letter).
fn graves() -> Vec<DeathRecord> {
    let old = DeathRecord { morgue: 0, ..record("old", false) };
    vec![record("bob", false), old, record("eve", true)]
}

/// In play, `G`, then a fall watched by its letter: the game's keys do not
/// reach the game while it plays, the game's messages keep coming, Esc
/// goes back to the graveyard, and another key to the map; the fall kept
/// plays again without asking; another, refused, says why on the page's
/// last line; an ask given up when the page is put away.
fn graveyard_falls(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.shifted(Key::Char('g'));
    r.msg(ServerMsg::Graveyard(graves()));
    let asked = r.ch('b');
    assert!(matches!(asked, KeyOutcome::Ask(_)), "b asks: {asked:?}");
    r.ch('a');
    for msg in last_rounds() {
        r.step(Input::Recorded(msg));
    }
    r.step(Input::RecordingClosed("the server closed the connection".into(), Ending::Code(1000)));
    r.step(Input::Wait(250));
    r.ch('h');
    r.key(Key::Enter);
    r.msg(ServerMsg::Note("A bat flutters by.".into()));
    r.key(Key::Escape);
    r.key(Key::Escape);
    r.shifted(Key::Char('g'));
    r.msg(ServerMsg::Graveyard(graves()));
    r.ch('b');
    r.key(Key::Escape);
    r.ch('a');
    let reason = "eve's life 2 ended before recordings were kept".to_owned();
    r.step(Input::Recorded(ServerMsg::Refused(Refusal::NoRecording { reason })));
    r.step(Input::RecordingClosed("the server closed the connection".into(), Ending::Code(1000)));
    r.ch('a');
    r.key(Key::Up);
    r.ch('z');
}

/// After a death, `G` shows the graveyard over the end page; a fall
/// watched there goes back to it, and it to the end page.
fn graveyard_after_death(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.msg(ServerMsg::Died(record("ann", false)));
    r.msg(ServerMsg::Graveyard(graves()));
    r.step(Input::Closed("your character died".into(), Ending::Code(1000)));
    r.shifted(Key::Char('g'));
    r.ch('b');
    for msg in last_rounds() {
        r.step(Input::Recorded(msg));
    }
    r.step(Input::Wait(250));
    r.key(Key::Escape);
    r.key(Key::Escape);
    r.key(Key::Char('G'));
    r.key(Key::Enter);
}

/// The server refuses the ask: its reason on the end page, and `r` asks
/// again; a connection that fails, and a recording with no level, say why
/// there too.
fn playing_back_refused(r: &mut Recorder) {
    dead_with_a_grave(r);
    r.ch('r');
    r.ch('r');
    let reason = "ann's life 2 ended before recordings were kept".to_owned();
    r.step(Input::Recorded(ServerMsg::Refused(Refusal::NoRecording { reason })));
    r.step(Input::RecordingClosed("the server closed the connection".into(), Ending::Code(1000)));
    r.ch('r');
    r.step(Input::RecordingClosed("cannot connect to ws://here".into(), Ending::Dropped));
    // A recording that enters no level has no map to play on.
    r.ch('r');
    let head = ServerMsg::Recording {
        player: "ann".into(),
        you: PlayerId(1),
        depth: 3,
        from: 411,
        to: 412,
    };
    r.step(Input::Recorded(head));
    let note = ServerMsg::Note("You die...".into());
    r.step(Input::Recorded(ServerMsg::Recorded { round: 412, msg: Box::new(note) }));
    r.step(Input::Recorded(ServerMsg::RecordingEnd { cut: false }));
    r.key(Key::Escape);
}

/// The window resized while a recording plays, and back.
fn playing_back_resized(r: &mut Recorder) {
    dead_with_a_grave(r);
    ask_and_receive(r);
    r.step(Input::Wait(250));
    r.step(Input::Resize(LAYOUTS[2]));
    r.step(Input::Wait(250));
    r.step(Input::Resize(LAYOUTS[0]));
    r.key(Key::Escape);
}

fn escaping(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.msg(ServerMsg::Escaped(record("ann", true)));
    r.step(Input::Closed("you escaped".into(), Ending::Code(1000)));
    r.key(Key::Up);
    r.key(Key::Enter);
    r.key(Key::Escape);
}

fn graveyard(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.msg(ServerMsg::Graveyard(vec![record("old", false)]));
    r.shifted(Key::Char('g'));
    r.key(Key::Up);
    // A date past the year 275760, where a browser's Date ends.
    let far = DeathRecord { when: u64::MAX, ..record("far", false) };
    r.msg(ServerMsg::Graveyard(vec![far]));
    let many: Vec<DeathRecord> = (0..30).map(|i| record(&format!("hero{i}"), i % 4 == 0)).collect();
    r.msg(ServerMsg::Graveyard(many));
    r.key(Key::Up);
    r.walk(Key::Up);
    r.ch('G');
    r.msg(ServerMsg::Graveyard(vec![]));
    r.key(Key::Escape);
    r.key(Key::Escape);
    r.key(Key::Escape);
}

/// The pages that do not fit a short window: the log scrolls by the page
/// it has, the graveyard, the help, the pack and the discoveries scroll
/// under their keys, and a window made taller, then short again, shows
/// what it can.
fn short_pages(r: &mut Recorder) {
    r.arrive_equipped();
    for i in 0..40 {
        let line = format!("line {i} of the log, long enough to wrap on a narrow page of the log");
        r.msg(if i % 3 == 0 { ServerMsg::Combat(line) } else { ServerMsg::Note(line) });
    }
    r.key(Key::Ctrl('p'));
    for key in [Key::PageUp, Key::PageUp, Key::Up, Key::Home, Key::PageDown, Key::End] {
        r.key(key);
    }
    r.key(Key::Home);
    r.step(Input::Resize(LAYOUTS[0]));
    r.key(Key::PageDown);
    r.step(Input::Resize(SHORT));
    r.key(Key::Escape);
    r.ch('?');
    for key in [Key::PageDown, Key::PageDown, Key::PageDown, Key::PageDown, Key::PageUp] {
        r.key(key);
    }
    r.step(Input::Resize(LAYOUTS[0]));
    r.key(Key::PageDown);
    r.step(Input::Resize(SHORT));
    r.key(Key::PageDown);
    r.key(Key::Up);
    r.shifted(Key::Char('g'));
    let many: Vec<DeathRecord> = (0..30).map(|i| record(&format!("hero{i}"), i % 4 == 0)).collect();
    r.msg(ServerMsg::Graveyard(many));
    for key in [Key::PageDown, Key::PageDown, Key::PageDown, Key::PageDown, Key::PageUp] {
        r.key(key);
    }
    r.key(Key::Escape);
    let carried = |kind| gloam_protocol::Carried { kind, count: 1, equipped: false };
    r.msg(ServerMsg::Pack((0..26).map(|i| carried(i % 5)).collect()));
    r.ch('i');
    r.key(Key::PageDown);
    r.key(Key::PageDown);
    r.key(Key::Escape);
    r.ch('q');
    r.key(Key::Escape);
    let potion = |i: u16| ItemInfo {
        name: format!("potion {i}"),
        glyph: '!',
        colour: [200, 180, 90],
        class: ItemClass::Potion,
        known: i < 8,
    };
    r.msg(ServerMsg::ItemKinds((0..30).map(potion).collect()));
    r.ch('\\');
    for key in [Key::PageDown, Key::PageDown, Key::PageUp, Key::Escape] {
        r.key(key);
    }
}

fn watching(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.msg(ServerMsg::Watching { player: "bob".into(), you: PlayerId(7) });
    r.key(Key::Up);
    r.ch('q');
    r.say("go left");
    r.say("/kick eve");
    r.msg(item_kinds());
    r.ch('\\');
    r.key(Key::Escape);
    r.msg(ServerMsg::Died(record("bob", false)));
    r.key(Key::Enter);
    r.key(Key::Escape);
}

/// A watcher, dan, joins ann's audience: it reads "You are watching ann."
/// once and of the others who watch, never of itself; the server's words
/// to it about its watching are its own, its player's are told of her.
fn watcher_joining(r: &mut Recorder) {
    r.msg(welcome(None));
    r.msg(kinds());
    r.msg(item_kinds());
    r.msg(ServerMsg::Watching { player: "ann".into(), you: PlayerId(7) });
    r.msg(ServerMsg::Watchers(vec!["cy".into(), "dan".into()]));
    r.msg(enter_level(1));
    r.msg(ServerMsg::Sight(sight(None, Pos::new(2, 2))));
    r.at = Some(Pos::new(2, 2));
    r.msg(ServerMsg::Note("You see a dagger here.".into()));
    r.msg(ServerMsg::Watchers(vec!["cy".into(), "dan".into(), "eve".into()]));
    r.key(Key::Up);
    r.msg(ServerMsg::Note("You are watching ann: you cannot act.".into()));
    r.msg(ServerMsg::Sight(sight(Some(Pos::new(2, 2)), Pos::new(3, 2))));
    r.msg(ServerMsg::Combat("You miss the rat.".into()));
    r.msg(ServerMsg::Sight(sight(Some(Pos::new(3, 2)), Pos::new(3, 2))));
    r.msg(ServerMsg::Watchers(vec!["dan".into()]));
    r.say("hello ann");
    r.msg(chat(7, "dan", ChatTo::Depth, "hello ann"));
    r.msg(ServerMsg::Note("You stop watching ann.".into()));
    r.step(Input::Closed("ann sent you away".into(), Ending::Code(1000)));
    r.key(Key::Escape);
}

/// A watcher at its player's death: the page speaks of her, its keys are
/// the watcher's (G is not offered, nor taken), and the graveyard the
/// server shows it as the watching ends is listed.
fn watcher_at_the_death(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    r.msg(ServerMsg::Watching { player: "ann".into(), you: PlayerId(7) });
    r.msg(ServerMsg::Watchers(vec!["dan".into()]));
    r.msg(ServerMsg::Combat("The orc hits you.".into()));
    r.msg(ServerMsg::Died(record("ann", false)));
    r.msg(ServerMsg::Note("You die...".into()));
    r.shifted(Key::Char('g'));
    let many: Vec<DeathRecord> = (0..30).map(|i| record(&format!("hero{i}"), i % 4 == 0)).collect();
    r.msg(ServerMsg::Graveyard(many));
    r.msg(ServerMsg::Note("You stop watching ann.".into()));
    r.step(Input::Closed("ann left the game".into(), Ending::Code(1000)));
    r.shifted(Key::Char('g'));
    r.key(Key::PageDown);
    r.key(Key::Enter);
    r.key(Key::Escape);
}

/// The server went away: the countdown, tries that fail and wait longer,
/// Enter trying now, and the way back, the world shown as it is after
/// (the rat and bob from before gone, the log kept).
fn lost(r: &mut Recorder) {
    r.arrive_equipped();
    r.msg(ServerMsg::Players(vec![PlayerChange::Appeared {
        id: PlayerId(2),
        name: "bob".into(),
        at: Pos::new(3, 3),
    }]));
    r.say("before");
    r.step(Input::Closed("the server went away".into(), Ending::Dropped));
    r.key(Key::Up);
    r.step(Input::Wait(1000));
    r.step(Input::Closed("cannot connect to ws://here".into(), Ending::Dropped));
    r.step(Input::Wait(900));
    r.step(Input::Wait(1200));
    r.step(Input::Closed("cannot connect to ws://here".into(), Ending::Dropped));
    r.key(Key::Enter);
    r.msg(welcome(None));
    r.msg(enter_level(1));
    r.msg(kinds());
    r.msg(item_kinds());
    r.msg(ServerMsg::Sight(sight(None, Pos::new(4, 3))));
    r.key(Key::Up);
    r.key(Key::Escape);
}

/// The server restarts (close code 1012): tried again at once; the try
/// is refused for a while (the watched player is not back), then a wrong
/// key is refused, which is not tried again.
fn restarted(r: &mut Recorder) {
    r.arrive(Pos::new(2, 2));
    let restarting = "the server closed the connection: The server is restarting";
    r.step(Input::Closed(restarting.into(), Ending::Code(1012)));
    let cannot = Refusal::CannotWatch { reason: "ann is not playing".into() };
    r.msg(ServerMsg::Refused(cannot));
    r.step(Input::Closed("the server closed the connection".into(), Ending::Code(1008)));
    r.step(Input::Wait(1000));
    r.msg(ServerMsg::Refused(Refusal::WrongToken));
    r.step(Input::Closed("the server closed the connection".into(), Ending::Code(1008)));
    r.step(Input::Wait(10_000));
    r.key(Key::Enter);
    r.key(Key::Escape);
}

/// A named world with a message of the day; then the server restarts.
fn restarting(r: &mut Recorder) {
    r.msg(named_welcome("Gloamhold <the old> & new"));
    r.msg(kinds());
    r.msg(item_kinds());
    r.msg(ServerMsg::Note("Welcome to Gloamhold.".into()));
    r.msg(ServerMsg::Note("Be kind: the server restarts at 22:00 UTC.".into()));
    r.msg(enter_level(1));
    r.msg(ServerMsg::Sight(sight(None, Pos::new(2, 2))));
    r.at = Some(Pos::new(2, 2));
    r.msg(ServerMsg::Restarting);
    r.step(Input::Closed(
        "the server closed the connection: the server is restarting".into(),
        Ending::Code(1012),
    ));
    r.key(Key::Up);
    r.key(Key::Escape);
}

/// As many play as the host allows.
fn full(r: &mut Recorder) {
    r.key(Key::Enter);
    r.msg(ServerMsg::Refused(Refusal::Full { players: 8 }));
    r.step(Input::Closed(
        "the server closed the connection: The server is full (8 players); try again later.".into(),
        Ending::Code(1008),
    ));
    r.key(Key::Up);
    r.key(Key::Escape);
}

/// A world its host drains: a newcomer is told where to go instead, and
/// the client does not try again.
fn draining(r: &mut Recorder) {
    r.key(Key::Enter);
    let elsewhere = Some("ws://gloam-2.example.org:7777".into());
    r.msg(ServerMsg::Refused(Refusal::Draining { elsewhere }));
    r.step(Input::Closed("closed by the server".into(), Ending::Code(1008)));
    r.key(Key::Up);
    r.key(Key::Escape);
}

/// A watcher in a named world, told its day's message, then of a restart.
fn watcher_restarting(r: &mut Recorder) {
    r.msg(named_welcome("Gloamhold"));
    r.msg(kinds());
    r.msg(item_kinds());
    r.msg(ServerMsg::Note("You will be watched: be kind.".into()));
    r.msg(ServerMsg::Watching { player: "ann".into(), you: PlayerId(7) });
    r.msg(ServerMsg::Watchers(vec!["dan".into()]));
    r.msg(enter_level(1));
    r.msg(ServerMsg::Sight(sight(None, Pos::new(2, 2))));
    r.at = Some(Pos::new(2, 2));
    r.msg(ServerMsg::Restarting);
    r.step(Input::Closed(
        "the server closed the connection: the server is restarting".into(),
        Ending::Code(1012),
    ));
    r.key(Key::Escape);
}

fn refused(r: &mut Recorder) {
    r.key(Key::Enter);
    r.msg(ServerMsg::Refused(Refusal::WrongToken));
    r.step(Input::Closed("closed by the server".into(), Ending::Code(1008)));
    r.key(Key::Up);
    r.key(Key::Escape);
}

/// A new character's first screen: the list, keys that name no
/// background, a letter's Create, a link lost before the welcome (tried
/// again, the same choice first), and the welcome.
fn first_screen(r: &mut Recorder) {
    r.msg(ServerMsg::Backgrounds(crate::testing::backgrounds()));
    r.ch('z');
    r.shifted(Key::Char('a'));
    r.ch('b');
    r.ch('a');
    r.step(Input::Closed("reset".into(), Ending::Dropped));
    r.step(Input::Wait(1_000));
    r.msg(welcome(Some([7; 16])));
}

/// The first screen read for longer than the server waits for a hello:
/// its close leaves the screen up, and the letter connects again.
fn first_screen_read_long(r: &mut Recorder) {
    r.msg(ServerMsg::Backgrounds(crate::testing::backgrounds()));
    r.step(Input::Closed("no hello in time: try again".into(), Ending::Code(1013)));
    r.step(Input::Wait(1_000));
    r.ch('a');
}

/// Every key the window is given, plain and with Shift (and the Ctrl
/// keys), on the map; after each, Esc (or a line's Enter) back to the map
/// when the key left it, so each key is seen from the map.
fn every_key(r: &mut Recorder) {
    r.arrive_equipped();
    let ctrl = (' '..='~').map(Key::Ctrl);
    for key in plain_keys().into_iter().chain(ctrl) {
        for shift in [false, true] {
            let outcome = r.step(Input::Key(key, shift, false));
            r.answer(&outcome);
            back_to_the_map(r);
        }
    }
}

/// Esc until the map shows with nothing open (bounded: each Esc closes
/// one thing).
fn back_to_the_map(r: &mut Recorder) {
    for _ in 0..4 {
        let scene = r.session.scene();
        let open = scene.page != crate::scene::Page::Map
            || scene.asking_to_quit
            || scene.aim.is_some()
            || scene.look.is_some()
            || r.session.typing();
        if !open {
            return;
        }
        r.key(Key::Escape);
    }
}

/// Messages no server sends, each after a fair arrival; the mirror refuses
/// each, and the link is lost.
fn hostile() -> Vec<ServerMsg> {
    let disc_past = u8::MAX;
    vec![
        enter_level_of(u16::MAX, u16::MAX),
        enter_level_of(0, 4),
        ServerMsg::Sight(SightDiff { at: Pos::new(500, 2), ..SightDiff::default() }),
        ServerMsg::Sight(SightDiff {
            at: Pos::new(2, 2),
            revealed: vec![(disc_past, Terrain::Floor)],
            ..SightDiff::default()
        }),
        ServerMsg::Monsters(vec![monster(3, 40, Pos::new(3, 3), false)]),
        ServerMsg::Monsters(vec![MonsterChange::Moved { id: MonsterId(99), at: Pos::new(3, 3) }]),
        ServerMsg::Vitals { hp: 30, max: 20 },
        // Wrong twice: the window names the cell before who is in sight.
        ServerMsg::Players(vec![PlayerChange::Moved { id: PlayerId(99), at: Pos::new(900, 900) }]),
        ServerMsg::Died(record("ann", true)),
        ServerMsg::Escaped(record("ann", false)),
        ServerMsg::Pack(vec![gloam_protocol::Carried { kind: 50, count: 1, equipped: false }]),
        ServerMsg::Roster((0..2000).map(|i| format!("p{i}")).collect()),
        chat(2, "bob", ChatTo::Depth, "a bell\u{7}"),
        chat(2, "", ChatTo::Depth, "nameless"),
        ServerMsg::Note("x".repeat(5000)),
        ServerMsg::Kinds(vec![KindInfo { name: "ctl".into(), glyph: '\u{1b}', colour: [1, 2, 3] }]),
        ServerMsg::Party(vec![Member {
            id: PlayerId(5),
            name: "zed".into(),
            hp: 1,
            max: 2,
            level: 1,
        }]),
        ServerMsg::Mapped { remembered: vec![0xff; 80], terrain: vec![] },
        ServerMsg::Floor(vec![FloorChange {
            at: Pos::new(2, 2),
            top: Some(Lying { kind: 9, count: 1, more: false }),
        }]),
        ServerMsg::Welcome {
            you: PlayerId(1),
            width: 10,
            height: 10,
            sight_radius: 200,
            actions_per_second: 20,
            token: None,
            world: String::new(),
        },
    ]
}

fn enter_level_of(width: u16, height: u16) -> ServerMsg {
    ServerMsg::EnterLevel { depth: 1, width, height, remembered: vec![], terrain: vec![] }
}

/// A seeded runner for the random sessions.
fn seeded(seed: u8) -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

fn pick<S: Strategy>(runner: &mut TestRunner, strategy: S) -> S::Value {
    strategy.new_tree(runner).expect("strategies always generate").current()
}

/// A key the window could be given: mostly the game's, now and then any.
fn any_key() -> impl Strategy<Value = Key> {
    let all = plain_keys();
    let game: Vec<Key> = "hjklyubn.<>,gGioRrxqwWTtdf?5 -+".chars().map(Key::Char).collect();
    let named = vec![Key::Enter, Key::Escape, Key::Tab, Key::PageUp, Key::PageDown, Key::Up];
    let ctrl = vec![Key::Ctrl('p'), Key::Ctrl('='), Key::Ctrl('-')];
    prop_oneof![
        6 => proptest::sample::select(game),
        2 => proptest::sample::select(named),
        1 => proptest::sample::select(ctrl),
        2 => proptest::sample::select(all),
    ]
}

/// Random keys (and typed text, clicks and fair messages) over a level
/// with a pack, monsters and company.
fn random_keys(r: &mut Recorder, runner: &mut TestRunner, steps: usize) {
    r.arrive_equipped();
    for _ in 0..steps {
        match pick(runner, 0..20u8) {
            0 => r.text(&pick(
                runner,
                "(/w bob |/who|/mute |/shout |)[a-z /\u{85}\u{a0}\u{feff}\u{2028}\t]{0,12}|.{0,90}",
            )),
            1 => {
                let (x, y) = (pick(runner, 0..r.layout.width), pick(runner, 0..r.layout.height));
                r.step(Input::Click(x, y));
            }
            2 => r.msg(pick(runner, fair_msg())),
            n => {
                let key = pick(runner, any_key());
                let (shift, repeat) = (pick(runner, any::<bool>()), n == 3);
                let outcome = r.step(Input::Key(key, shift, repeat));
                r.answer(&outcome);
            }
        }
    }
}

/// Messages a fair server might send mid-game.
fn fair_msg() -> impl Strategy<Value = ServerMsg> {
    prop_oneof![
        ".{0,60}".prop_map(ServerMsg::Note),
        "[a-z ]{0,60}".prop_map(ServerMsg::Combat),
        "[a-z ]{0,30}".prop_map(|t| chat(2, "bob", ChatTo::Depth, &t)),
        Just(ServerMsg::Stopped),
        (1..20u16).prop_map(|hp| ServerMsg::Vitals { hp, max: 20 }),
        Just(ServerMsg::Graveyard(vec![record("old", false)])),
        Just(ServerMsg::Monsters(vec![MonsterChange::Vanished { id: MonsterId(7) }])),
        (1..9u16, 1..6u16).prop_map(|(x, y)| ServerMsg::Players(vec![PlayerChange::Appeared {
            id: PlayerId(2),
            name: "bob".into(),
            at: Pos::new(x, y),
        }])),
        (1..20u16, 0..3usize).prop_map(|(hp, n)| {
            let member = |id, name: &str| Member {
                id: PlayerId(id),
                name: name.into(),
                hp,
                max: 20,
                level: 3,
            };
            ServerMsg::Party([member(1, "ann"), member(2, "bob"), member(3, "cy")][..n].to_vec())
        }),
        proptest::sample::subsequence(vec!["bob", "cy", "dee"], 0..3)
            .prop_map(|names| ServerMsg::Waiting(names.into_iter().map(String::from).collect())),
        proptest::collection::vec((0..5u16, 1..9u16, any::<bool>()), 0..7).prop_map(|pack| {
            let carried =
                |(kind, count, equipped)| gloam_protocol::Carried { kind, count, equipped };
            ServerMsg::Pack(pack.into_iter().map(carried).collect())
        }),
        (1..9u16, 1..6u16, proptest::option::of((0..5u16, 1..4u16, any::<bool>()))).prop_map(
            |(x, y, top)| {
                let top = top.map(|(kind, count, more)| Lying { kind, count, more });
                ServerMsg::Floor(vec![FloorChange { at: Pos::new(x, y), top }])
            }
        ),
        (1..30u8, 0..500u32).prop_map(|(level, xp)| ServerMsg::Experience {
            level,
            xp,
            next: xp + 100
        }),
        proptest::sample::subsequence(vec!["dee", "eve"], 0..2)
            .prop_map(|names| ServerMsg::Watchers(names.into_iter().map(String::from).collect())),
    ]
}

/// Random keys and the protocol's random messages, after a fair arrival
/// (or, with `welcomed` false, before any welcome): most such messages
/// are refused, and what follows the refusal is heard no more, so the
/// sessions are short and many.
fn random_messages(r: &mut Recorder, runner: &mut TestRunner, welcomed: bool, steps: usize) {
    if welcomed {
        r.arrive(Pos::new(4, 3));
    }
    for _ in 0..steps {
        if pick(runner, 0..3u8) == 0 {
            r.msg(pick(runner, gloam_protocol::arbitrary::server_msg()));
        } else {
            let key = pick(runner, any_key());
            let outcome = r.step(Input::Key(key, pick(runner, any::<bool>()), false));
            r.answer(&outcome);
        }
    }
}

/// The rows of `after` that differ from `before`'s (or that it lacks), by
/// index: what a step writes of a changed screen.
fn changed_rows<'s>(before: &[String], after: &'s [String]) -> Vec<(usize, &'s str)> {
    let changed = |(i, row): &(usize, &String)| before.get(*i) != Some(*row);
    after.iter().enumerate().filter(changed).map(|(i, row)| (i, row.as_str())).collect()
}

/// The scripted sessions, each played at two window sizes.
fn scripts() -> [(&'static str, Script); 27] {
    [
        ("arrival", arrival),
        ("walking", walking),
        ("talking", talking),
        ("items", items),
        ("looking", looking),
        ("clicking", clicking),
        ("log", log_page),
        ("help", help_page),
        ("quitting", quitting),
        ("dying", dying),
        ("escaping", escaping),
        ("graveyard", graveyard),
        ("watching", watching),
        ("lost", lost),
        ("restarted", restarted),
        ("refused", refused),
        ("restarting", restarting),
        ("full", full),
        ("draining", draining),
        ("every key", every_key),
        ("holding", holding),
        ("zapping", zapping),
        ("playing back", playing_back),
        ("playing back refused", playing_back_refused),
        ("playing back resized", playing_back_resized),
        ("graveyard falls", graveyard_falls),
        ("graveyard after death", graveyard_after_death),
    ]
}

/// Every session, in order.
fn sessions() -> Vec<Recorder> {
    let scripts = scripts();
    let mut all = Vec::new();
    for (i, (name, script)) in scripts.into_iter().enumerate() {
        // Each at the wide window and one other, in turn.
        for size in [LAYOUTS[0], LAYOUTS[3 - i % 3]] {
            let mut r = Recorder::new(&format!("{name} at {}x{}", size.0, size.1), size);
            script(&mut r);
            all.push(r);
        }
    }
    // At a short window, where the pages do not fit.
    let short: [(&str, Script); 5] = [
        ("short pages", short_pages),
        ("log", log_page),
        ("help", help_page),
        ("graveyard", graveyard),
        ("dying", dying),
    ];
    for (name, script) in short {
        let mut r = Recorder::new(&format!("{name} at a short {}x{}", SHORT.0, SHORT.1), SHORT);
        script(&mut r);
        all.push(r);
    }
    let first: [(&str, Script); 2] =
        [("first screen", first_screen), ("first screen read long", first_screen_read_long)];
    for (name, script) in first {
        let mut r = Recorder::new(&format!("{name} at {}x{}", SHORT.0, SHORT.1), SHORT);
        script(&mut r);
        all.push(r);
    }
    // A watcher, dan.
    let watchers: [(&str, Script); 3] = [
        ("a watcher joining", watcher_joining),
        ("a watcher at the death", watcher_at_the_death),
        ("a watcher told of a restart", watcher_restarting),
    ];
    for (name, script) in watchers {
        for size in [LAYOUTS[0], SHORT] {
            let mut r =
                Recorder::joining_as(&format!("{name} at {}x{}", size.0, size.1), size, "dan");
            script(&mut r);
            all.push(r);
        }
    }
    for (i, msg) in hostile().into_iter().enumerate() {
        let mut r = Recorder::new(&format!("hostile {i} ({})", variant(&msg)), LAYOUTS[i % 4]);
        r.arrive_equipped();
        r.msg(msg);
        r.msg(ServerMsg::Note("heard no more".into()));
        r.key(Key::Up);
        r.key(Key::Escape);
        all.push(r);
    }
    let mut runner = seeded(37);
    for i in 0..16 {
        let size = LAYOUTS[i % 4];
        let mut r = Recorder::new(&format!("random keys {i}"), size);
        random_keys(&mut r, &mut runner, 60);
        all.push(r);
    }
    for i in 0..48 {
        let size = LAYOUTS[i % 4];
        let mut r = Recorder::new(&format!("random messages {i}"), size);
        random_messages(&mut r, &mut runner, i % 6 != 5, 8);
        all.push(r);
    }
    all
}

/// The whole file.
pub(super) fn render_screens(how: &str) -> String {
    let sessions: Vec<String> = sessions().iter().map(Recorder::json).collect();
    format!(
        "{{\n\"about\": \"Generated by client/src/web_export/screens.rs; do not edit: {how}\",\n\"token_note\": {},\n\"sessions\": [\n{}\n]\n}}\n",
        json!(TOKEN_NOTE),
        sessions.join(",\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectors see what they are meant to: every kind of step, each
    /// outcome, refusals, and the pages.
    #[test]
    fn the_sessions_cover_the_screens_and_refusals() {
        let text = render_screens("");
        for part in [
            "\"Send\"",
            "\"Redraw\"",
            "\"Quit\"",
            "\"Again\"",
            "\"Zoom\"",
            "\"refused\":\"",
            "Really quit? (y/n)",
            "The clock",
            "Messages   PgUp",
            "Quaff which?",
            "Look: ",
            "Throw ",
            "You died on depth 3",
            "bob died on depth 3",
            "\"resize\":[",
            "PgUp PgDn scroll, any other key returns to the map (lines",
            "any other key: back    PgUp PgDn scroll (lines",
            "Esc: quit    PgUp PgDn scroll (lines",
            "at a short 640x360",
            "Connection lost. Trying again in 1 s...",
            "Connection lost. Trying again now...",
            "\"connect\":true",
            "\"ending\":{\"Code\":1012}",
            "Disconnected: refused: that name belongs",
            "The server is restarting.",
            "the server is restarting: come back in a moment",
            "The server is full (8 players); try again later.",
            "refused: this world is closing and takes no newcomers: join ws://gloam-2.example.org:7777 instead",
            "\"title\":\"Gloamhold <the old> & new - Gloam - ann\"",
            "\"title\":\"Gloamhold - Gloam - dan watching ann\"",
            "Who will you be? Choose a background:",
            "\"Create\":{",
            "\"Ask\":{\"Recording\":",
            "\"recording_closed\":",
            "Recording: ann on depth 3, round 410 (408 to 412), x1, playing",
            "Space: pause    +/-: faster, slower    .: one round    Esc: back",
            "no recording: ann's life 2 ended before recordings were kept",
            "the recording holds no level to show",
            "  b) bob ",
            "a-b: watch a fall    any other key: back",
            "Recording: asking the server...    a-b: watch a fall",
            "\"Grave\":{\"life\":2,\"name\":\"bob\",\"rounds\":100}",
            "Space: play again    +/-: faster, slower    Esc: back",
            "no recording: eve's life 2 ended before recordings were kept    a-b",
        ] {
            assert!(text.contains(part), "no {part} in screens.json");
        }
        assert!(text.len() < 2_000_000, "screens.json is {} bytes", text.len());
    }
}
