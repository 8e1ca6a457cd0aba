//! One player's session, apart from any window: what a key press sends,
//! what a message from the network changes (the state mirror, the link
//! shown in the HUD, the character's kept token), when a held key may
//! repeat, and, after a lost link, when to connect again (`retry.rs`
//! decides; [`Session::tick`] counts down and says when). The mirror changes only by what the server says; the window's
//! own state lives here: the line being typed, the scroll of the messages,
//! the names muted, the page shown, and an item prompt or throw being
//! aimed (`items.rs`); for a new character, the first screen's choice of
//! background and the first message of each connection
//! ([`Session::opening`], `first_screen.rs`); the player, which asks for
//! a life's last rounds and plays them over the page they were asked from
//! (the character's own from the end page, anyone's from the graveyard's
//! letters: `player.rs`). The window turns its events into calls here and
//! draws the [`Scene`] it gives.

use std::time::{Duration, Instant};

use gloam_protocol::{Action, ClientMsg, MonsterChange, Pos, ServerMsg, Token};

use crate::aim::Aim;
use crate::chat::{self, Chat, Command, Line};
use crate::first_screen::Choice;
use crate::hud::{GAME_LINES, game_lines};
use crate::input::{Intent, Key, intent, should_send};
use crate::look::Look;
use crate::net::NetEvent;
use crate::palette::Palette;
use crate::prompt::ItemUse;
use crate::scene::{Link, Page, Scene};
use crate::state::ClientState;
use crate::tokens::TokenSlot;

/// Why the link was lost when the server said it is restarting before its
/// close (the HUD's reason; the log has [`crate::state::RESTARTING`]).
pub const RESTARTING_LINK: &str = "the server is restarting: come back in a moment";

/// What a key press asks of the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOutcome {
    /// Send this to the server (then call [`Session::sent`]).
    Send(ClientMsg),
    /// The character died: connect again for a new one.
    Again,
    /// Only the screen changed.
    Redraw,
    /// Make the glyphs larger (`1`) or smaller (`-1`).
    Zoom(i8),
    Quit,
    /// Nothing: an unbound key, no connection, or a repeat too soon.
    Ignore,
    /// Open a connection of its own saying this first (a recording asked
    /// for), and hand what it says to [`Session::on_recording`].
    Ask(ClientMsg),
}

/// Where the graveyard page stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Graveyard {
    #[default]
    Away,
    /// Asked for: it shows once it comes.
    Awaited,
    Shown,
}

mod items;
mod player;
pub mod retry;

use retry::{Ending, Jitter, Next};

/// What the passing of time asks of the window (see [`Session::tick`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// Nothing is planned: wait for the next event.
    Idle,
    /// Call again within this long (the countdown shown changes then, or
    /// the next try is due).
    Within(Duration),
    /// Connect again now (with [`Session::token`]); the session shows the
    /// try under way.
    Connect,
    /// The recording played moved on: redraw, and call again within this
    /// long (none: nothing is due until a key).
    Moved(Option<Duration>),
}

/// When the next try to connect again is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NextTry {
    /// This long after the next tick (the first after the link was lost).
    After(Duration),
    At(Instant),
}

/// What the keys drive besides the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Map,
    /// An item prompt is open ("Quaff which?").
    Choosing(ItemUse),
    /// A throw is being aimed.
    Aiming(Aim),
    /// The look cursor names what is on a cell.
    Looking(Look),
    /// Esc was pressed in play: `y` quits, any other key goes back.
    AskingToQuit,
}

/// One connection's session: the mirror, the link, and the window's own
/// state beside them.
#[derive(Debug)]
pub struct Session {
    state: ClientState,
    link: Link,
    /// The line being typed, the scroll and the names muted.
    chat: Chat,
    graveyard: Graveyard,
    /// Whether the pack's page is shown.
    pack_shown: bool,
    /// Whether the help page is shown.
    help_shown: bool,
    /// Whether the discoveries page is shown.
    discoveries_shown: bool,
    /// An item prompt or an aim the keys drive, if any.
    mode: Mode,
    /// Where the character's token is kept.
    token: TokenSlot,
    /// The address it connects to, for the morgue file's.
    server: String,
    /// Actions sent and not yet answered: key repeats wait for the answer,
    /// so holding a key never queues up moves the player cannot stop.
    in_flight: u32,
    last_sent: Option<Instant>,
    /// A monster came into view since the last fresh press of an action
    /// key: that key's repeats are ignored until it is pressed again.
    monster_came: bool,
    /// The colours the scene is drawn in.
    palette: &'static Palette,
    /// The full-screen log, when open: how many rows it is scrolled back.
    log: Option<usize>,
    /// A standing order sent (explore, travel, rest) may be under way, until
    /// the server says it stopped: Esc stops it rather than quitting.
    ordering: bool,
    /// The place of a page above the HUD, in letters a row and rows, as
    /// the window last told it ([`resize`](Self::resize)).
    page_area: (u16, u16),
    /// How many lines the graveyard, pack, help or end page is scrolled down,
    /// when it does not fit.
    page_scroll: usize,
    /// Tries to connect again since the link was last good (a welcome),
    /// and of those how many waited their turn (the rest came at once).
    tries: u32,
    waits: u32,
    /// The next try, while the link is being tried again and no try is
    /// under way.
    next_try: Option<NextTry>,
    /// The draws of the waits' jitter.
    jitter: Jitter,
    /// The background chosen on the first screen: the screen is put away
    /// while the welcome comes, and a connection made again before it
    /// (without a token kept) asks for this one again.
    chosen: Option<String>,
    /// The first screen's connection ended while the player read it (the
    /// server waits for a choice only as long as for a hello): the list
    /// stays, and the choice opens a new connection.
    first_closed: bool,
    /// The character died (or escaped) and this session plays its next
    /// life: until welcomed, its connections open with the first screen
    /// and the choice goes with the token kept.
    new_life: bool,
    /// The last rounds asked for, on the end page (the character's own)
    /// or the graveyard page (any grave's), and the grave (`player.rs`).
    asked: player::Asked,
    asked_for: Option<player::Grave>,
    /// The player page, over the page it was asked from (the end page or
    /// the graveyard) while a recording plays.
    player: Option<player::Player>,
}

/// The seed of the jitter's draws unless the window gives another
/// ([`Session::with_jitter_seed`]): the behaviour vectors and the page's
/// replay of them play with it.
pub const JITTER_SEED: u32 = 38;

impl Session {
    /// A session connecting to `url`.
    pub fn new(url: String, token: TokenSlot) -> Self {
        let link = Link::Connecting(url.clone());
        Self {
            server: url,
            state: ClientState::named(&token.name),
            link,
            chat: Chat::default(),
            graveyard: Graveyard::Away,
            pack_shown: false,
            help_shown: false,
            discoveries_shown: false,
            mode: Mode::Map,
            token,
            in_flight: 0,
            last_sent: None,
            monster_came: false,
            palette: &crate::palette::DEFAULT,
            log: None,
            ordering: false,
            page_area: crate::layout::DEFAULT_PAGE,
            page_scroll: 0,
            tries: 0,
            waits: 0,
            next_try: None,
            jitter: Jitter::seeded(JITTER_SEED),
            chosen: None,
            first_closed: false,
            new_life: false,
            asked: player::Asked::Not,
            asked_for: None,
            player: None,
        }
    }

    /// The session of the name's next life, after its character died or
    /// escaped: it chooses a background again.
    pub fn for_a_new_life(mut self) -> Self {
        self.new_life = true;
        self
    }

    /// The session drawing its jitter from `seed` (the window gives one
    /// of its own, so that clients cut off together come back apart).
    pub fn with_jitter_seed(mut self, seed: u32) -> Self {
        self.jitter = Jitter::seeded(seed);
        self
    }

    /// The character's kept token, for the hello of a connection.
    pub fn token(&self) -> Option<Token> {
        self.token.load()
    }

    /// The place of a page above the HUD (the map's and the side panel's)
    /// is now `cols` letters by `rows` rows: the window tells on every
    /// resize, and the log and the pages that do not fit scroll by it.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.page_area = (cols, rows);
        if let Some(scroll) = self.log {
            self.log = Some(scroll.min(self.log_most()));
        }
        self.page_scroll = self.page_scroll.min(self.page_most());
    }

    /// The letters a row and the lines a page has.
    fn page_size(&self) -> (usize, usize) {
        crate::pages::page_size(self.page_area)
    }

    /// How far back the log page scrolls.
    fn log_most(&self) -> usize {
        crate::reading::log_scroll_most(&self.state, self.page_size())
    }

    /// How far down the page shown scrolls (0 when it fits).
    fn page_most(&self) -> usize {
        crate::pages::scroll_most(&self.game_scene(), self.page_size())
    }

    /// The session drawn in `palette`'s colours.
    pub fn with_palette(mut self, palette: &'static Palette) -> Self {
        self.palette = palette;
        self
    }

    /// What the area above the HUD shows now.
    pub fn page(&self) -> Page {
        if self.log.is_some() {
            Page::Log
        } else if self.choosing_a_background() {
            Page::Backgrounds
        } else if self.state.ending().is_some() && self.graveyard == Graveyard::Shown {
            // Shown over the end page with `G`.
            Page::Graveyard
        } else if self.state.ending().is_some() {
            Page::End
        } else if let Mode::Choosing(item_use) = self.mode {
            Page::Choose(item_use)
        } else if matches!(self.mode, Mode::Aiming(_) | Mode::Looking(_)) {
            Page::Map
        } else if self.graveyard == Graveyard::Shown {
            Page::Graveyard
        } else if self.pack_shown {
            Page::Pack
        } else if self.help_shown {
            Page::Help
        } else if self.discoveries_shown {
            Page::Discoveries
        } else {
            Page::Map
        }
    }

    /// The first message of a connection (see [`crate::first_screen`]):
    /// with no token kept (or a new life not yet welcomed), the background
    /// already chosen is asked for again; `background` is the command
    /// line's.
    pub fn opening(&self, watch: Option<String>, background: Option<String>) -> ClientMsg {
        let background = self.chosen.clone().or(background);
        let (name, token) = (self.token.name.clone(), self.token());
        crate::first_screen::opening(name, token, watch, background, self.new_life)
    }

    /// Whether the first screen shows: the server listed the backgrounds,
    /// and none was chosen or welcomed yet.
    fn choosing_a_background(&self) -> bool {
        !self.state.backgrounds.is_empty()
            && self.chosen.is_none()
            && self.state.me.is_none()
            && !matches!(self.link, Link::Lost(_))
    }

    /// A key on the first screen: a letter creates that background (on
    /// this connection, or on a new one when it ended), Esc leaves.
    fn on_first_key(&mut self, key: Key) -> KeyOutcome {
        let name = self.state.name.as_deref().unwrap_or_default();
        let token = self.token();
        match crate::first_screen::choose(name, token, &self.state.backgrounds, key) {
            Choice::Create(msg) => {
                let ClientMsg::Create { background, .. } = &msg else { return KeyOutcome::Ignore };
                self.chosen = Some(background.clone());
                if self.first_closed {
                    // The next tick connects, with this choice first.
                    self.next_try = Some(NextTry::After(Duration::ZERO));
                    return KeyOutcome::Redraw;
                }
                KeyOutcome::Send(msg)
            }
            Choice::Leave => KeyOutcome::Quit,
            Choice::Nothing => KeyOutcome::Ignore,
        }
    }

    /// The window's title (the page's too): the world's name, when its
    /// host gave one, then who plays, or who watches whom.
    pub fn title(&self) -> String {
        let me = self.state.name.as_deref().unwrap_or_default();
        let who = match &self.state.watching {
            Some((player, _)) => format!("{me} watching {player}"),
            None => me.to_owned(),
        };
        match self.state.world.as_str() {
            "" => format!("Gloam - {who}"),
            world => format!("{world} - Gloam - {who}"),
        }
    }

    /// What the window draws now: the player page while a recording
    /// plays, else the page of the game.
    pub fn scene(&self) -> Scene<'_> {
        self.player_scene().unwrap_or_else(|| self.game_scene())
    }

    /// The page of the game (under the player page, while it shows).
    fn game_scene(&self) -> Scene<'_> {
        let mut scene = Scene::new(&self.state, &self.chat, &self.link, self.page());
        scene.palette = self.palette;
        match self.mode {
            Mode::Aiming(aim) => scene.aim = Some(aim),
            Mode::Looking(look) => scene.look = Some(look.cursor),
            _ => {}
        }
        scene.asking_to_quit = self.mode == Mode::AskingToQuit;
        scene.log_scroll = self.log.unwrap_or(0);
        scene.page_scroll = self.page_scroll;
        scene.server = &self.server;
        scene.recording_line = self.recording_line(scene.page);
        if self.graveyard == Graveyard::Awaited {
            // The one last heard is not shown while a fresh one comes.
            scene.graveyard = None;
        }
        scene
    }

    /// Gives back where the character's token is kept, to connect again.
    pub fn into_token_slot(self) -> TokenSlot {
        self.token
    }

    /// A key pressed (`repeat` when held down) at `now`.
    pub fn on_key(&mut self, key: Key, shift: bool, repeat: bool, now: Instant) -> KeyOutcome {
        if self.playing_back() {
            return self.on_player_key(key, shift, now);
        }
        if let Key::Ctrl(c) = key {
            return self.on_ctrl_key(c);
        }
        if let Some(scroll) = self.log {
            return self.on_log_key(scroll, key);
        }
        if self.chat.line.is_some() {
            return self.edit(key);
        }
        if self.page() == Page::Backgrounds {
            // A shifted letter is a capital, which names no background
            // (as the page reads it).
            return if shift { KeyOutcome::Ignore } else { self.on_first_key(key) };
        }
        let intent = intent(key, shift);
        if self.page() == Page::End {
            return self.on_end_key(key, shift);
        }
        match self.mode {
            Mode::Choosing(item_use) => return self.on_prompt_key(item_use, key, shift, now),
            Mode::Aiming(aim) => return self.on_aim_key(aim, key, shift, now),
            Mode::Looking(look) => return self.on_look_key(look, key, shift),
            Mode::AskingToQuit => {
                self.mode = Mode::Map;
                return match key {
                    Key::Char('y') => KeyOutcome::Quit,
                    _ => KeyOutcome::Redraw,
                };
            }
            Mode::Map => {}
        }
        let paged =
            matches!(self.page(), Page::Graveyard | Page::Pack | Page::Help | Page::Discoveries);
        if let (Page::Graveyard, Key::Char(c @ 'a'..='z'), false) = (self.page(), key, shift)
            && let Some(outcome) = self.watch_a_fall(c)
        {
            return outcome;
        }
        match intent {
            Some(Intent::ScrollBack | Intent::ScrollForward) if paged && self.page_most() > 0 => {
                return self.scroll_page(intent == Some(Intent::ScrollBack));
            }
            Some(Intent::ScrollBack) => return self.scroll(true),
            Some(Intent::ScrollForward) => return self.scroll(false),
            Some(Intent::Enter) if self.page() == Page::Map && self.link == Link::Playing => {
                self.chat.line = Some(Line::default());
                return KeyOutcome::Redraw;
            }
            // Waiting to try again: Enter tries now.
            Some(Intent::Enter) if self.next_try.is_some() => {
                self.next_try = Some(NextTry::After(Duration::ZERO));
                return KeyOutcome::Redraw;
            }
            _ => {}
        }
        if paged {
            // Any key puts the page away, Esc too (it does not quit from here).
            self.put_the_page_away();
            return KeyOutcome::Redraw;
        }
        self.on_map_intent(intent, repeat, now)
    }

    /// A key on the end page: it scrolls, quits, starts again, or (`r`)
    /// plays the character's last rounds.
    fn on_end_key(&mut self, key: Key, shift: bool) -> KeyOutcome {
        let intent = intent(key, shift);
        match intent {
            Some(Intent::ScrollBack | Intent::ScrollForward) if self.page_most() > 0 => {
                self.scroll_page(intent == Some(Intent::ScrollBack))
            }
            Some(Intent::Quit) => KeyOutcome::Quit,
            _ if key == Key::Char('r') && !shift => self.watch_last_rounds(),
            // The graveyard known at the end, over the end page.
            Some(Intent::Graveyard) if self.state.watching.is_none() => {
                self.graveyard = Graveyard::Shown;
                self.page_scroll = 0;
                KeyOutcome::Redraw
            }
            // A watcher's player died: there is no character to start again.
            Some(Intent::Enter) if self.state.watching.is_none() => KeyOutcome::Again,
            _ => KeyOutcome::Ignore,
        }
    }

    /// Puts away the page shown (the graveyard, the pack, the help, the
    /// discoveries), its scroll with it: the map (or the end page) shows
    /// again. A fall asked for from the graveyard is given up.
    fn put_the_page_away(&mut self) {
        if self.graveyard == Graveyard::Shown {
            self.give_up_asking();
        }
        self.graveyard = Graveyard::Away;
        self.pack_shown = false;
        self.help_shown = false;
        self.discoveries_shown = false;
        self.page_scroll = 0;
    }

    /// Ctrl and a key: whatever is open, Ctrl keys are the window's.
    fn on_ctrl_key(&mut self, c: char) -> KeyOutcome {
        match crate::input::ctrl_intent(c) {
            Some(Intent::Zoom(by)) => KeyOutcome::Zoom(by),
            Some(Intent::Log) => {
                self.log = if self.log.is_some() { None } else { Some(0) };
                KeyOutcome::Redraw
            }
            _ => KeyOutcome::Ignore,
        }
    }

    /// A key on the map.
    fn on_map_intent(&mut self, intent: Option<Intent>, repeat: bool, now: Instant) -> KeyOutcome {
        match intent {
            // Esc first stops a standing order under way, spending nothing.
            Some(Intent::Quit) if self.ordering && self.link == Link::Playing => {
                self.ordering = false;
                self.note("You stop.".into());
                KeyOutcome::Send(ClientMsg::Stop)
            }
            // A character in play is not left on one key: Esc asks first.
            Some(Intent::Quit) if self.link == Link::Playing && self.state.watched().is_none() => {
                self.mode = Mode::AskingToQuit;
                KeyOutcome::Redraw
            }
            Some(Intent::Quit) => KeyOutcome::Quit,
            _ if self.link != Link::Playing => KeyOutcome::Ignore,
            Some(Intent::Pack) => {
                self.pack_shown = true;
                KeyOutcome::Redraw
            }
            Some(Intent::Help) => {
                self.help_shown = true;
                KeyOutcome::Redraw
            }
            Some(Intent::Discoveries) => {
                self.discoveries_shown = true;
                KeyOutcome::Redraw
            }
            Some(Intent::Look) if self.state.at.is_some() => {
                self.mode = Mode::Looking(Look::start(&self.state));
                KeyOutcome::Redraw
            }
            Some(Intent::Graveyard) => {
                self.graveyard = Graveyard::Awaited;
                KeyOutcome::Send(ClientMsg::Graveyard)
            }
            Some(Intent::Act(action)) => self.act(action, repeat, now),
            Some(Intent::Use(item_use)) => self.open_prompt(item_use),
            Some(Intent::Fire) => self.fire(),
            _ => KeyOutcome::Ignore,
        }
    }

    /// An action to send, if this client plays (a watcher is reminded it
    /// cannot act) and a held key's repeat is due.
    fn act(&mut self, action: Action, repeat: bool, now: Instant) -> KeyOutcome {
        if self.link != Link::Playing {
            return KeyOutcome::Ignore;
        }
        if self.refuse_a_watcher() {
            return KeyOutcome::Redraw;
        }
        if !repeat {
            self.monster_came = false;
        }
        let since = self.last_sent.map_or(Duration::MAX, |t| now.saturating_duration_since(t));
        let pace = self.state.actions_per_second;
        if should_send(repeat, self.monster_came, self.in_flight, since, pace) {
            KeyOutcome::Send(ClientMsg::Act(action))
        } else {
            KeyOutcome::Ignore
        }
    }

    /// A key while looking: the cursor moves, or the look ends.
    fn on_look_key(&mut self, mut look: Look, key: Key, shift: bool) -> KeyOutcome {
        let Some(key) = crate::input::look_key(key, shift) else { return KeyOutcome::Ignore };
        self.mode = if look.key(&self.state, key) { Mode::Looking(look) } else { Mode::Map };
        KeyOutcome::Redraw
    }

    /// A left click on the map's cell `cell` (none: outside the map, or
    /// off it): a look moves there; on the map, a remembered cell is
    /// travelled to, and an unknown one is said to be unknown.
    pub fn on_click(&mut self, cell: Option<Pos>, now: Instant) -> KeyOutcome {
        let Some(cell) = cell else { return KeyOutcome::Ignore };
        if let Mode::Looking(look) = &mut self.mode {
            look.cursor = cell;
            return KeyOutcome::Redraw;
        }
        let on_the_map = self.mode == Mode::Map && self.page() == Page::Map && !self.typing();
        if !on_the_map || self.link != Link::Playing || self.state.at == Some(cell) {
            return KeyOutcome::Ignore;
        }
        if self.state.terrain(cell).is_none() {
            self.note("You do not know that place.".into());
            return KeyOutcome::Redraw;
        }
        self.act(Action::Travel(cell), false, now)
    }

    /// For a watcher: says in the log that it cannot act, and gives true.
    fn refuse_a_watcher(&mut self) -> bool {
        let Some((whom, _)) = &self.state.watching else { return false };
        let note = format!("You are watching {whom}: you cannot act (Esc leaves).");
        self.note(note);
        true
    }

    /// Text typed (or pasted) while a line to talk is open.
    pub fn on_text(&mut self, text: &str) -> KeyOutcome {
        match &mut self.chat.line {
            Some(line) => {
                line.insert(text);
                KeyOutcome::Redraw
            }
            None => KeyOutcome::Ignore,
        }
    }

    /// True while a line to talk is open (typed text goes to it).
    pub fn typing(&self) -> bool {
        self.chat.line.is_some()
    }

    /// A key while a line to talk is open: it edits the line, never moves
    /// the player. Enter says it, Esc puts it away.
    fn edit(&mut self, key: Key) -> KeyOutcome {
        let Some(line) = &mut self.chat.line else { return KeyOutcome::Ignore };
        match key {
            Key::Enter => {
                let typed = self.chat.line.take().unwrap_or_default();
                return self.command(chat::parse(typed.text()));
            }
            Key::Escape => self.chat.line = None,
            Key::Backspace => line.backspace(),
            Key::Delete => line.delete(),
            Key::Left => line.left(),
            Key::Right => line.right(),
            Key::Home => line.home(),
            Key::End => line.end(),
            Key::PageUp => return self.scroll(true),
            Key::PageDown => return self.scroll(false),
            _ => return KeyOutcome::Ignore,
        }
        KeyOutcome::Redraw
    }

    /// Does what a typed line asks: says it, mutes or unmutes a name, asks
    /// who plays, or rules the player's watchers.
    fn command(&mut self, command: Command) -> KeyOutcome {
        let note = match command {
            Command::Say(to, text) if self.link == Link::Playing => {
                return KeyOutcome::Send(ClientMsg::Chat { to, text });
            }
            Command::Say(..) => "Not connected: nobody hears you.".to_owned(),
            Command::Audience(_) if self.state.watching.is_some() => {
                "Only a player has watchers to refuse or send away.".to_owned()
            }
            Command::Audience(_) | Command::Who if self.link != Link::Playing => {
                "Not connected.".to_owned()
            }
            Command::Audience(cmd) => return KeyOutcome::Send(ClientMsg::Audience(cmd)),
            Command::Who => return KeyOutcome::Send(ClientMsg::Who),
            Command::Mute(name) => {
                self.chat.muted.insert(name.clone());
                format!("You no longer hear {name}.")
            }
            Command::Unmute(name) => match self.chat.muted.remove(&name) {
                true => format!("You hear {name} again."),
                false => format!("{name} was not muted."),
            },
            Command::Unknown(help) => help,
            Command::Nothing => return KeyOutcome::Redraw,
        };
        self.note(note);
        KeyOutcome::Redraw
    }

    /// Moves the game's message rows a page back (towards older lines) or
    /// forward.
    fn scroll(&mut self, back: bool) -> KeyOutcome {
        let most = game_lines(&self.state).saturating_sub(GAME_LINES);
        let scroll = &mut self.chat.scroll;
        *scroll =
            if back { (*scroll + GAME_LINES).min(most) } else { scroll.saturating_sub(GAME_LINES) };
        KeyOutcome::Redraw
    }

    /// PgUp (`back`) or PgDn on a page that does not fit: a page of it up
    /// or down.
    fn scroll_page(&mut self, back: bool) -> KeyOutcome {
        let step = crate::pages::scroll_step(self.page_size().1);
        self.page_scroll = match back {
            true => self.page_scroll.saturating_sub(step),
            false => (self.page_scroll + step).min(self.page_most()),
        };
        KeyOutcome::Redraw
    }

    /// A key while the full-screen log is open: it scrolls (a page of the
    /// page's real size, or a row), and Esc closes it.
    fn on_log_key(&mut self, scroll: usize, key: Key) -> KeyOutcome {
        let most = self.log_most();
        let page = crate::reading::log_room(self.page_size().1);
        self.log = match key {
            Key::Escape | Key::Enter => None,
            Key::PageUp => Some((scroll + page).min(most)),
            Key::Up | Key::Char('k') => Some((scroll + 1).min(most)),
            Key::PageDown => Some(scroll.saturating_sub(page)),
            Key::Down | Key::Char('j') => Some(scroll.saturating_sub(1)),
            Key::Home => Some(most),
            Key::End => Some(0),
            _ => return KeyOutcome::Ignore,
        };
        KeyOutcome::Redraw
    }

    /// The message [`on_key`](Self::on_key) asked for went out at `now`.
    pub fn sent(&mut self, msg: &ClientMsg, now: Instant) {
        if let ClientMsg::Act(action) = msg {
            // What was said before this action is old news now.
            self.state.age_log();
            self.in_flight += 1;
            self.last_sent = Some(now);
            // The orders the server always says the end of (the stairs'
            // keys travel too, but are told stopped only if they went on).
            self.ordering = matches!(action, Action::Explore | Action::Travel(_) | Action::Rest);
        }
    }

    /// What the connection said.
    pub fn on_net(&mut self, event: NetEvent) {
        match event {
            NetEvent::Msg(msg) => self.on_message(&msg),
            NetEvent::Closed { reason, ending } => self.closed(reason, ending),
        }
    }

    /// The connection ended: shown, and tried again by itself when what
    /// ended it may pass (`retry.rs` decides which, and when).
    fn closed(&mut self, reason: String, ending: Ending) {
        if matches!(self.link, Link::Lost(_)) {
            return;
        }
        if self.choosing_a_background() {
            // The server waits for the choice only as long as for a hello:
            // the screen stays, and the choice connects again.
            self.first_closed = true;
            self.link = Link::Connecting(self.server.clone());
            return;
        }
        let why = match &self.state.refused {
            Some(refusal) => format!("refused: {refusal}"),
            None if self.state.restarting => RESTARTING_LINK.to_owned(),
            None => reason,
        };
        // A game that ended (a death, an escape) shows its end page; a
        // try again would start a new character behind it.
        let next = match self.state.ending() {
            Some(_) => Next::Stop,
            None => retry::next(self.state.refused.as_ref(), ending, self.tries),
        };
        if self.link == Link::Playing && next != Next::Stop {
            self.note(format!("Connection lost: {why}."));
        }
        let wait = match next {
            Next::Stop => {
                self.link = Link::Lost(why);
                return;
            }
            Next::AtOnce => Duration::ZERO,
            Next::Backoff => {
                self.waits += 1;
                retry::wait(self.waits - 1, self.jitter.draw())
            }
        };
        self.next_try = Some(NextTry::After(wait));
        self.link = Link::Retrying { why, left: Some(whole_seconds(wait)) };
    }

    /// Time passed (it is `now`): a try to connect again that is due is
    /// started, and the countdown shown kept up to date. The window calls
    /// it after every event and when the time it gave is up.
    /// While a recording plays (`player.rs`), its playback ticks too: the
    /// live game's link is kept up under the player page.
    pub fn tick(&mut self, now: Instant) -> Tick {
        let tried = self.try_tick(now);
        match (self.player_tick(now), tried) {
            (None | Some(Tick::Idle), tried) => tried,
            (Some(Tick::Moved(next)), Tick::Within(wait)) => {
                Tick::Moved(Some(next.map_or(wait, |next| next.min(wait))))
            }
            (Some(Tick::Within(next)), Tick::Within(wait)) => Tick::Within(next.min(wait)),
            (Some(_), Tick::Connect) => Tick::Connect,
            (Some(played), _) => played,
        }
    }

    /// The tick of the link's tries to connect again (see [`Self::tick`]).
    fn try_tick(&mut self, now: Instant) -> Tick {
        let due = match self.next_try {
            None => return Tick::Idle,
            Some(NextTry::After(wait)) => now + wait,
            Some(NextTry::At(due)) => due,
        };
        let Link::Retrying { left, .. } = &mut self.link else {
            self.next_try = None;
            if self.first_closed && matches!(self.link, Link::Connecting(_)) {
                // A choice made on the first screen after its connection ended.
                self.first_closed = false;
                return Tick::Connect;
            }
            return Tick::Idle;
        };
        if now >= due {
            self.next_try = None;
            *left = None;
            self.tries += 1;
            // What refused the last try is not the answer to this one.
            self.state.refused = None;
            return Tick::Connect;
        }
        self.next_try = Some(NextTry::At(due));
        let wait = due - now;
        let seconds = whole_seconds(wait);
        *left = Some(seconds);
        // When the countdown shows one second less, or the try is due.
        let shown_until = Duration::from_secs(seconds.saturating_sub(1));
        Tick::Within(wait.saturating_sub(shown_until))
    }

    /// Stops trying to connect again: the link is lost for good (the page
    /// does so on Esc, as it cannot close itself).
    pub fn give_up(&mut self) {
        if let Link::Retrying { why, .. } = &self.link {
            self.link = Link::Lost(why.clone());
            self.next_try = None;
        }
    }

    fn on_message(&mut self, msg: &ServerMsg) {
        if matches!(self.link, Link::Lost(_)) {
            // A server that broke the protocol is not listened to again.
            return;
        }
        if let Err(e) = self.mirror(msg) {
            tracing::warn!(error = %e, "the server sent a message that does not fit");
            self.link = Link::Lost(format!("the server is broken or hostile: {e}"));
            return;
        }
        if a_monster_appears(msg) {
            self.monster_came = true;
        }
        match msg {
            ServerMsg::Welcome { token, .. } => {
                self.link = Link::Playing;
                // Made: a connection made again resumes this life.
                self.new_life = false;
                (self.tries, self.waits) = (0, 0);
                self.next_try = None;
                // A fresh world: nothing typed, scrolled back, aimed or
                // awaited from before; no action in flight, no order
                // under way (after a lost link, the server forgot them).
                self.chat.line = None;
                self.chat.scroll = 0;
                self.mode = Mode::Map;
                self.in_flight = 0;
                self.ordering = false;
                self.monster_came = false;
                if self.graveyard == Graveyard::Awaited {
                    self.graveyard = Graveyard::Away;
                }
                // After the welcome is applied, which starts a fresh log.
                if let Some(fresh) = token {
                    let note = self.token.keep(fresh);
                    self.note(note);
                }
            }
            ServerMsg::Sight(_) => self.in_flight = self.in_flight.saturating_sub(1),
            ServerMsg::Stopped => self.ordering = false,
            // The cursor was on the level left.
            ServerMsg::EnterLevel { .. }
                if matches!(self.mode, Mode::Aiming(_) | Mode::Looking(_)) =>
            {
                self.mode = Mode::Map;
            }
            ServerMsg::Graveyard(_) if self.graveyard == Graveyard::Awaited => {
                self.graveyard = Graveyard::Shown;
                self.page_scroll = 0;
            }
            // The end page opens at its top.
            ServerMsg::Died(_) | ServerMsg::Escaped(_) => self.page_scroll = 0,
            _ => {}
        }
    }

    /// Applies `msg` to the mirror, but for a line of chat from a name this
    /// player muted: that is checked as any other, and not kept.
    fn mirror(&mut self, msg: &ServerMsg) -> Result<(), crate::StateError> {
        match msg {
            ServerMsg::Chat { from, name, to, text }
                if self.chat.muted.contains(name) && !self.state.is_me(*from) =>
            {
                self.state.check_chat(name, to, text)
            }
            _ => self.state.apply(msg),
        }
    }

    /// A line of the client's own for the message log.
    pub fn note(&mut self, text: String) {
        self.state.own_note(&text);
    }
}

/// The seconds a countdown shows for `wait`: whole seconds, rounded up.
fn whole_seconds(wait: Duration) -> u64 {
    wait.as_millis().div_ceil(1000) as u64
}

/// Whether `msg` brings a monster into view (one newly in sight, or seen
/// again after it was out of sight).
fn a_monster_appears(msg: &ServerMsg) -> bool {
    let changes = match msg {
        ServerMsg::Sight(diff) | ServerMsg::Displaced(diff) => &diff.monsters,
        ServerMsg::Monsters(changes) => changes,
        _ => return false,
    };
    changes.iter().any(|c| matches!(c, MonsterChange::Appeared { .. }))
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{Action, ChatTo, Dir, PlayerId, Refusal, SightDiff};

    use super::Pos;

    use super::*;
    use crate::tokens::TokenStore;

    /// The connection dropped without a close frame, saying `why`.
    fn dropped(why: &str) -> NetEvent {
        NetEvent::Closed { reason: why.into(), ending: Ending::Dropped }
    }

    /// The server closed the connection with `code`, saying `why`.
    fn closed_with(code: u16, why: &str) -> NetEvent {
        NetEvent::Closed { reason: why.into(), ending: Ending::Code(code) }
    }

    fn session(tokens: Option<TokenStore>) -> Session {
        let slot = TokenSlot { store: tokens, server: "ws://here".into(), name: "ann".into() };
        Session::new("ws://here".into(), slot)
    }

    /// Welcomed, and on a level the server has described.
    pub(super) fn playing() -> Session {
        let mut s = session(None);
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        s.on_net(NetEvent::Msg(crate::testing::enter_level(1, 20, 10)));
        s
    }

    const STEP: ClientMsg = ClientMsg::Act(Action::Move(Dir::N));

    #[test]
    fn keys_send_nothing_until_welcomed_and_escape_always_quits() {
        let mut s = session(None);
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        assert_eq!(s.link, Link::Playing);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Send(STEP));
        s.on_net(dropped("connection reset"));
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit, "nothing to lose");
    }

    #[test]
    fn ctrl_plus_and_minus_zoom_whatever_is_open() {
        let mut s = playing();
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Ctrl('='), false, false, now), KeyOutcome::Zoom(1));
        s.on_key(Key::Enter, false, false, now);
        assert_eq!(s.on_key(Key::Ctrl('-'), false, false, now), KeyOutcome::Zoom(-1));
        assert!(s.typing(), "the line stays open");
        assert_eq!(s.on_key(Key::Ctrl('k'), false, false, now), KeyOutcome::Ignore);
    }

    /// `playing`, standing at (5, 5) and seeing the floor east of it.
    fn standing() -> Session {
        let mut s = playing();
        let disc = gloam_protocol::Disc::new(gloam_protocol::SIGHT_RADIUS);
        let floor = |dx| (disc.index(dx, 0).unwrap(), gloam_protocol::Terrain::Floor);
        let revealed = vec![floor(0), floor(1), floor(2)];
        let sight = SightDiff { at: Pos::new(5, 5), revealed, ..SightDiff::default() };
        s.on_net(NetEvent::Msg(ServerMsg::Sight(sight)));
        s
    }

    #[test]
    fn esc_stops_an_order_under_way_and_quits_only_once_it_stopped() {
        let mut s = standing();
        let now = Instant::now();
        let explore = ClientMsg::Act(Action::Explore);
        assert_eq!(s.on_key(Key::Char('o'), false, false, now), KeyOutcome::Send(explore.clone()));
        s.sent(&explore, now);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Send(ClientMsg::Stop));
        assert_eq!(s.state.log.back().unwrap().text, "You stop.");
        s.on_net(NetEvent::Msg(ServerMsg::Stopped));
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw, "asks to quit");
        // An order the server ended itself: Esc asks to quit at once.
        s.on_key(Key::Char('n'), false, false, now);
        s.sent(&explore, now);
        s.on_net(NetEvent::Msg(ServerMsg::Stopped));
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.on_key(Key::Char('y'), false, false, now), KeyOutcome::Quit);
        // A step on the map is no order, nor a stairs key (whose end the
        // server may not tell): Esc asks to quit.
        for action in [Action::Move(gloam_protocol::Dir::E), Action::Descend] {
            s.on_key(Key::Char('n'), false, false, now);
            s.sent(&ClientMsg::Act(action), now);
            assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
            assert_eq!(s.on_key(Key::Char('y'), false, false, now), KeyOutcome::Quit, "{action:?}");
        }
    }

    #[test]
    fn o_explores_and_shift_r_rests_in_one_press() {
        let mut s = playing();
        let now = Instant::now();
        let explore = ClientMsg::Act(Action::Explore);
        assert_eq!(s.on_key(Key::Char('o'), false, false, now), KeyOutcome::Send(explore));
        let rest = ClientMsg::Act(Action::Rest);
        assert_eq!(s.on_key(Key::Char('r'), true, false, now), KeyOutcome::Send(rest));
    }

    #[test]
    fn a_click_on_a_remembered_cell_travels_there_and_an_unknown_one_says_so() {
        let mut s = standing();
        let now = Instant::now();
        let travel = ClientMsg::Act(Action::Travel(Pos::new(7, 5)));
        assert_eq!(s.on_click(Some(Pos::new(7, 5)), now), KeyOutcome::Send(travel));
        assert_eq!(s.on_click(Some(Pos::new(9, 9)), now), KeyOutcome::Redraw);
        assert_eq!(s.state.log.back().unwrap().text, "You do not know that place.");
        assert_eq!(s.on_click(None, now), KeyOutcome::Ignore, "outside the map");
        assert_eq!(s.on_click(Some(Pos::new(5, 5)), now), KeyOutcome::Ignore, "where it stands");
        s.on_key(Key::Char('i'), false, false, now);
        assert_eq!(s.on_click(Some(Pos::new(7, 5)), now), KeyOutcome::Ignore, "the pack shows");
        s.on_key(Key::Escape, false, false, now);
        s.on_key(Key::Escape, false, false, now);
        assert_eq!(s.on_click(Some(Pos::new(7, 5)), now), KeyOutcome::Ignore, "asking to quit");
    }

    /// Looking sends nothing: its keys move the cursor (a click too), and
    /// Esc or `x` end it without asking to quit.
    #[test]
    fn x_looks_without_acting_and_esc_or_x_leave() {
        let mut s = standing();
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Char('x'), false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.scene().look, Some(Pos::new(5, 5)), "on the player: no monster in sight");
        for key in [Key::Char('l'), Key::Right, Key::Char('o'), Key::Char('g'), Key::Enter] {
            let outcome = s.on_key(key, false, false, now);
            assert!(!matches!(outcome, KeyOutcome::Send(_)), "{key:?} sent {outcome:?}");
        }
        assert_eq!(s.scene().look, Some(Pos::new(7, 5)));
        let row = crate::hud::hud(&s.scene())[1].text.clone();
        assert!(row.starts_with("Look: the floor   direction keys"), "{row}");
        assert_eq!(s.on_click(Some(Pos::new(6, 5)), now), KeyOutcome::Redraw);
        assert_eq!(s.scene().look, Some(Pos::new(6, 5)), "a click moves the cursor");
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
        assert_eq!((s.scene().look, s.scene().asking_to_quit), (None, false));
        s.on_key(Key::Char('x'), false, false, now);
        s.on_key(Key::Char('x'), false, false, now);
        assert_eq!(s.scene().look, None, "x again leaves");
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Send(STEP));
    }

    #[test]
    fn question_mark_shows_the_help_and_any_key_puts_it_away() {
        let mut s = playing();
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Char('?'), false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Help);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw, "not a quit");
        assert_eq!((s.page(), s.scene().asking_to_quit), (Page::Map, false));
    }

    /// `\` shows the discoveries; any key puts them away (sending
    /// nothing: `j` does not step), and Esc does not ask to quit.
    #[test]
    fn backslash_shows_the_discoveries_and_any_key_puts_them_away() {
        let mut s = playing();
        let now = Instant::now();
        for away in [Key::Char('j'), Key::Escape] {
            assert_eq!(s.on_key(Key::Char('\\'), false, false, now), KeyOutcome::Redraw);
            assert_eq!(s.page(), Page::Discoveries);
            assert_eq!(s.on_key(away, false, false, now), KeyOutcome::Redraw, "{away:?}");
            assert_eq!((s.page(), s.scene().asking_to_quit), (Page::Map, false));
        }
    }

    #[test]
    fn ctrl_p_opens_the_whole_log_which_scrolls_and_esc_closes() {
        let mut s = playing();
        for i in 0..40 {
            s.on_net(NetEvent::Msg(ServerMsg::Note(format!("line {i}"))));
        }
        // A page of 13 lines: the title, a blank, 10 of the log's, and one
        // saying how many are below.
        s.resize(160, 14);
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Ctrl('p'), false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Log);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Redraw, "not a step");
        assert_eq!(s.scene().log_scroll, 1);
        s.on_key(Key::PageUp, false, false, now);
        assert_eq!(s.scene().log_scroll, 11);
        s.on_key(Key::Char('j'), false, false, now);
        s.on_key(Key::PageDown, false, false, now);
        assert_eq!(s.scene().log_scroll, 0);
        assert_eq!(s.on_key(Key::Char('q'), false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw, "not a quit");
        assert_eq!(s.page(), Page::Map);
        s.on_key(Key::Ctrl('p'), false, false, now);
        s.on_key(Key::Ctrl('p'), false, false, now);
        assert_eq!(s.page(), Page::Map, "Ctrl+P again closes it too");
    }

    /// The log page scrolls by the page the window has: PgUp and PgDn a
    /// page of it, Home to the oldest line, End to the newest, and a
    /// window made taller shows as much as it holds.
    #[test]
    fn the_log_page_scrolls_by_the_real_page_and_its_end_shows_the_newest() {
        let mut s = playing();
        for i in 0..40 {
            s.on_net(NetEvent::Msg(ServerMsg::Note(format!("line {i}"))));
        }
        let shown = |s: &Session| {
            let scene = s.scene();
            let lines = crate::pages::page_lines(&scene, crate::pages::page_size(s.page_area));
            lines.into_iter().map(|(t, _)| t).collect::<Vec<_>>()
        };
        let now = Instant::now();
        s.resize(120, 12);
        s.on_key(Key::Ctrl('p'), false, false, now);
        assert_eq!(shown(&s)[2..], (32..40).map(|i| format!("  line {i}")).collect::<Vec<_>>());
        s.on_key(Key::PageUp, false, false, now);
        assert_eq!(s.scene().log_scroll, 8, "a page of the log's 8 rows");
        assert_eq!(shown(&s)[2], "  line 24");
        s.on_key(Key::Home, false, false, now);
        assert_eq!((s.scene().log_scroll, shown(&s)[2].as_str()), (32, "  line 0"));
        s.on_key(Key::PageDown, false, false, now);
        assert_eq!(s.scene().log_scroll, 24);
        s.resize(120, 40);
        assert_eq!(s.scene().log_scroll, 4, "as far back as the taller page goes");
        s.on_key(Key::End, false, false, now);
        let lines = shown(&s);
        assert_eq!(lines.last().unwrap(), "  line 39", "the newest last: {lines:#?}");
    }

    /// The help on a short window scrolls with PgUp and PgDn (which on a
    /// page that fits scroll the HUD's messages, as on the map); any other
    /// key puts it away, and it opens again at its top.
    #[test]
    fn a_page_that_does_not_fit_scrolls_with_page_up_and_down() {
        let mut s = playing();
        for i in 0..30 {
            s.on_net(NetEvent::Msg(ServerMsg::Note(format!("line {i}"))));
        }
        let now = Instant::now();
        s.on_key(Key::Char('?'), false, false, now);
        s.on_key(Key::PageUp, false, false, now);
        assert_eq!((s.page(), s.scene().page_scroll, s.chat.scroll), (Page::Help, 0, GAME_LINES));
        s.on_key(Key::PageDown, false, false, now);
        s.resize(120, 12);
        let step = 11 - 2;
        s.on_key(Key::PageDown, false, false, now);
        assert_eq!((s.page(), s.scene().page_scroll), (Page::Help, step));
        for _ in 0..10 {
            s.on_key(Key::PageDown, false, false, now);
        }
        let most = crate::reading::HELP.len() - step;
        assert_eq!(s.scene().page_scroll, most, "no further than its last line");
        s.on_key(Key::PageUp, false, false, now);
        assert_eq!(s.scene().page_scroll, most - step);
        s.resize(120, 40);
        assert_eq!(s.scene().page_scroll, 0, "it fits now");
        s.resize(120, 12);
        s.on_key(Key::PageDown, false, false, now);
        assert_eq!(s.on_key(Key::Char('x'), false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Map);
        s.on_key(Key::Char('?'), false, false, now);
        assert_eq!((s.page(), s.scene().page_scroll), (Page::Help, 0));
    }

    #[test]
    fn escape_in_play_asks_before_quitting() {
        let mut s = playing();
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
        assert!(s.scene().asking_to_quit);
        assert_eq!(crate::hud::hud(&s.scene())[1].text, "Really quit? (y/n)");
        assert_eq!(s.on_key(Key::Char('n'), false, false, now), KeyOutcome::Redraw);
        assert!(!s.scene().asking_to_quit, "n goes back");
        s.on_key(Key::Escape, false, false, now);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Redraw, "not a step");
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Send(STEP));
        s.on_key(Key::Escape, false, false, now);
        assert_eq!(s.on_key(Key::Char('y'), false, false, now), KeyOutcome::Quit);
        let mut watcher = playing();
        watcher
            .on_net(NetEvent::Msg(ServerMsg::Watching { player: "ann".into(), you: PlayerId(7) }));
        assert_eq!(
            watcher.on_key(Key::Escape, false, false, now),
            KeyOutcome::Quit,
            "a watcher leaves"
        );
    }

    /// An action sent makes the game's lines said so far old (the HUD dims
    /// them); a line of chat sent is no action.
    #[test]
    fn sending_an_action_makes_what_was_said_before_it_old() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(ServerMsg::Note("You see a dagger here.".into())));
        let dagger = |s: &Session| {
            let hud = crate::hud::hud(&s.scene());
            hud.into_iter().find(|r| r.text == "You see a dagger here.").expect("shown").tone
        };
        let now = Instant::now();
        let said = ClientMsg::Chat { to: ChatTo::Depth, text: "a dagger".into() };
        s.sent(&said, now);
        assert_eq!(dagger(&s), crate::hud::Tone::Bright, "talking is no action");
        s.sent(&STEP, now);
        assert_eq!(dagger(&s), crate::hud::Tone::Dim);
    }

    #[test]
    fn a_held_key_repeats_only_once_answered_and_at_the_servers_pace() {
        let mut s = playing();
        let t0 = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, t0), KeyOutcome::Send(STEP));
        s.sent(&STEP, t0);
        let later = t0 + Duration::from_secs(1);
        assert_eq!(s.on_key(Key::Up, false, true, later), KeyOutcome::Ignore, "unanswered");
        assert_eq!(s.on_key(Key::Up, false, false, later), KeyOutcome::Send(STEP), "a fresh press");
        s.on_net(NetEvent::Msg(ServerMsg::Sight(SightDiff::default())));
        let soon = t0 + Duration::from_millis(10);
        assert_eq!(s.on_key(Key::Up, false, true, soon), KeyOutcome::Ignore, "faster than 20/s");
        assert_eq!(s.on_key(Key::Up, false, true, later), KeyOutcome::Send(STEP));
    }

    #[test]
    fn a_held_key_stops_repeating_when_a_monster_comes_into_view_until_pressed_again() {
        let mut s = playing();
        let kobold = gloam_protocol::KindInfo { name: "kobold".into(), glyph: 'k', colour: [9; 3] };
        s.on_net(NetEvent::Msg(ServerMsg::Kinds(vec![kobold])));
        let t0 = Instant::now();
        let step = Duration::from_millis(100);
        let answer = |s: &mut Session, monsters| {
            let sight = SightDiff { at: Pos::new(5, 5), monsters, ..SightDiff::default() };
            s.on_net(NetEvent::Msg(ServerMsg::Sight(sight)));
        };
        assert_eq!(s.on_key(Key::Up, false, false, t0), KeyOutcome::Send(STEP));
        s.sent(&STEP, t0);
        answer(&mut s, vec![]);
        assert_eq!(s.on_key(Key::Up, false, true, t0 + step), KeyOutcome::Send(STEP), "held");
        s.sent(&STEP, t0 + step);
        let kobold = MonsterChange::Appeared {
            id: gloam_protocol::MonsterId(4),
            kind: 0,
            at: Pos::new(7, 5),
            wound: gloam_protocol::Wound::Unhurt,
            asleep: true,
        };
        answer(&mut s, vec![kobold]);
        let later = t0 + 3 * step;
        assert_eq!(s.on_key(Key::Up, false, true, later), KeyOutcome::Ignore, "a kobold came");
        // Gone again, it still stopped the key that was held when it came.
        let gone = MonsterChange::Vanished { id: gloam_protocol::MonsterId(4) };
        s.on_net(NetEvent::Msg(ServerMsg::Monsters(vec![gone])));
        assert_eq!(s.on_key(Key::Up, false, true, later), KeyOutcome::Ignore, "still stopped");
        assert_eq!(s.on_key(Key::Up, false, false, later), KeyOutcome::Send(STEP), "pressed again");
        s.sent(&STEP, later);
        answer(&mut s, vec![]);
        let then = later + step;
        assert_eq!(s.on_key(Key::Up, false, true, then), KeyOutcome::Send(STEP), "held again");
    }

    fn record() -> gloam_protocol::DeathRecord {
        gloam_protocol::DeathRecord {
            name: "ann".into(),
            depth: 4,
            rounds: 300,
            kills: 9,
            killed_by: "an orc".into(),
            when: 0,
            level: 1,
            escaped: false,
            morgue: 0,
        }
    }

    #[test]
    fn shift_g_asks_for_the_graveyard_which_shows_when_it_comes_and_any_key_puts_away() {
        let mut s = playing();
        let now = Instant::now();
        assert_eq!(
            s.on_key(Key::Char('g'), true, false, now),
            KeyOutcome::Send(ClientMsg::Graveyard)
        );
        s.sent(&ClientMsg::Graveyard, now);
        assert_eq!(s.page(), Page::Map, "not yet come");
        s.on_net(NetEvent::Msg(ServerMsg::Graveyard(vec![record()])));
        assert_eq!(s.page(), Page::Graveyard);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Map);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Send(STEP), "walking again");
    }

    #[test]
    fn i_shows_the_pack_and_any_key_puts_it_away() {
        let mut s = playing();
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Char('i'), false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Pack);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Redraw, "not a step");
        assert_eq!(s.page(), Page::Map);
        s.on_key(Key::Char('i'), false, false, now);
        assert_eq!(
            s.on_key(Key::Escape, false, false, now),
            KeyOutcome::Redraw,
            "Esc puts it away"
        );
        assert_eq!(s.page(), Page::Map);
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Send(STEP), "walking again");
    }

    /// A graveyard unasked for (as the one a death brings) opens no page,
    /// and while a fresh one is awaited the last one is not shown.
    #[test]
    fn only_the_graveyard_asked_for_opens_its_page_and_never_a_stale_one() {
        let mut s = playing();
        let now = Instant::now();
        s.on_net(NetEvent::Msg(ServerMsg::Graveyard(vec![record()])));
        assert_eq!(s.page(), Page::Map, "not asked for");
        assert_eq!(s.scene().graveyard.map(<[_]>::len), Some(1));
        s.on_key(Key::Char('g'), true, false, now);
        assert_eq!((s.page(), s.scene().graveyard), (Page::Map, None), "awaited");
        s.on_net(NetEvent::Msg(ServerMsg::Died(record())));
        assert_eq!((s.page(), s.scene().graveyard), (Page::End, None), "still awaited");
        s.on_net(NetEvent::Msg(ServerMsg::Graveyard(vec![record(), record()])));
        assert_eq!(s.scene().graveyard.map(<[_]>::len), Some(2));
    }

    #[test]
    fn after_a_death_enter_starts_again_and_nothing_else_is_sent() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(ServerMsg::Died(record())));
        s.on_net(closed_with(1000, "your character died"));
        assert_eq!(s.page(), Page::End);
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Char('g'), false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Enter, false, false, now), KeyOutcome::Again);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
    }

    /// On a short window the end page scrolls its graveyard with PgUp and
    /// PgDn; Enter still starts again, and other keys do nothing.
    #[test]
    fn a_short_end_page_scrolls_and_enter_still_starts_again() {
        let mut s = playing();
        s.resize(120, 12);
        s.on_net(NetEvent::Msg(ServerMsg::Died(record())));
        s.on_net(NetEvent::Msg(ServerMsg::Graveyard(vec![record(); 30])));
        s.on_net(closed_with(1000, "your character died"));
        let now = Instant::now();
        assert_eq!(s.on_key(Key::PageDown, false, false, now), KeyOutcome::Redraw);
        assert_eq!((s.page(), s.scene().page_scroll), (Page::End, 11 - 2));
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Enter, false, false, now), KeyOutcome::Again);
    }

    /// The end page names the morgue file the server offered, on the host
    /// the session connected to; a record without one names none.
    #[test]
    fn the_end_page_names_the_morgue_file_on_the_servers_host() {
        let end_text = |record, escaped: bool| {
            let mut s = playing();
            let msg = if escaped { ServerMsg::Escaped(record) } else { ServerMsg::Died(record) };
            s.on_net(NetEvent::Msg(msg));
            assert_eq!(s.page(), Page::End);
            let scene = s.scene();
            crate::pages::page_lines(&scene, (120, 40)).into_iter().map(|(t, _)| t).collect()
        };
        let died: Vec<String> =
            end_text(gloam_protocol::DeathRecord { morgue: 3, ..record() }, false);
        assert!(
            died.contains(&"  Morgue file:           http://here/morgue/ann/3.txt".into()),
            "{died:#?}"
        );
        let won = gloam_protocol::DeathRecord { morgue: 1, escaped: true, ..record() };
        let escaped: Vec<String> = end_text(won, true);
        assert!(
            escaped.iter().any(|l| l.ends_with("http://here/morgue/ann/1.txt")),
            "{escaped:#?}"
        );
        let none: Vec<String> = end_text(record(), false);
        assert!(!none.iter().any(|l| l.contains("Morgue")), "{none:#?}");
    }

    #[test]
    fn after_an_escape_the_end_page_shows_and_enter_starts_again() {
        let mut s = playing();
        let won = gloam_protocol::DeathRecord {
            escaped: true,
            killed_by: "the Gloamstone".into(),
            ..record()
        };
        s.on_net(NetEvent::Msg(ServerMsg::Escaped(won)));
        s.on_net(closed_with(1000, "you escaped"));
        assert_eq!(s.page(), Page::End);
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Enter, false, false, now), KeyOutcome::Again);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
    }

    /// A watcher's keys never act (it is told so), its player's death is
    /// no new character of its own, and only a player rules its watchers.
    #[test]
    fn a_watcher_talks_but_never_acts() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(ServerMsg::Watching { player: "ann".into(), you: PlayerId(7) }));
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Redraw);
        let last = s.state.log.back().unwrap();
        assert_eq!(last.text, "You are watching ann: you cannot act (Esc leaves).");
        let said = ClientMsg::Chat { to: ChatTo::Depth, text: "go left".into() };
        assert_eq!(typed(&mut s, "go left"), KeyOutcome::Send(said));
        assert_eq!(typed(&mut s, "/kick bob"), KeyOutcome::Redraw);
        let last = s.state.log.back().unwrap();
        assert_eq!(last.text, "Only a player has watchers to refuse or send away.");
        s.on_net(NetEvent::Msg(ServerMsg::Died(record())));
        assert_eq!(s.page(), Page::End);
        assert_eq!(s.on_key(Key::Enter, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
    }

    #[test]
    fn a_player_rules_its_watchers_from_the_line() {
        let mut s = playing();
        let kick = ClientMsg::Audience(gloam_protocol::AudienceCmd::Kick("bob".into()));
        assert_eq!(typed(&mut s, "/kick bob"), KeyOutcome::Send(kick));
        let refuse = ClientMsg::Audience(gloam_protocol::AudienceCmd::Refuse);
        assert_eq!(typed(&mut s, "/nowatch"), KeyOutcome::Send(refuse));
        assert_eq!(typed(&mut s, "/who"), KeyOutcome::Send(ClientMsg::Who));
    }

    #[test]
    fn a_new_key_is_kept_and_the_log_says_where() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(Some(TokenStore::at(dir.path())));
        let mut welcome = crate::testing::welcome(PlayerId(1), 20, 10);
        if let ServerMsg::Welcome { token, .. } = &mut welcome {
            *token = Some([7; 16]);
        }
        s.on_net(NetEvent::Msg(welcome));
        assert_eq!(s.token.load(), Some([7; 16]));
        let last = s.state.log.back().expect("a line about the key");
        assert!(last.starts_with("Your character's key is kept in"), "{last}");
    }

    #[test]
    fn a_restart_said_before_the_close_is_the_reason_the_link_was_lost() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(ServerMsg::Restarting));
        let reason = "the server closed the connection: anything".to_owned();
        s.on_net(NetEvent::Closed { reason, ending: Ending::Code(1012) });
        assert!(
            matches!(&s.link, Link::Retrying { why, .. } if why == RESTARTING_LINK),
            "{:?}",
            s.link
        );
        let mut plain = playing();
        plain.on_net(NetEvent::Closed {
            reason: "connection reset".into(),
            ending: Ending::Dropped,
        });
        assert!(matches!(&plain.link, Link::Retrying { why, .. } if why == "connection reset"));
    }

    #[test]
    fn the_title_names_the_world_and_who_plays_or_watches() {
        let mut s = playing();
        let name = s.state.name.clone().unwrap_or_default();
        assert_eq!(s.title(), format!("Gloam - {name}"));
        s.state.world = "Gloamhold".into();
        assert_eq!(s.title(), format!("Gloamhold - Gloam - {name}"));
        s.state.watching = Some(("bob".into(), gloam_protocol::PlayerId(9)));
        assert_eq!(s.title(), format!("Gloamhold - Gloam - {name} watching bob"));
    }

    #[test]
    fn a_refusal_is_the_reason_the_link_was_lost() {
        let mut s = session(None);
        s.on_net(NetEvent::Msg(ServerMsg::Refused(Refusal::WrongToken)));
        s.on_net(closed_with(1008, "closed by the server"));
        match &s.link {
            Link::Lost(why) => assert!(why.starts_with("refused: that name belongs"), "{why}"),
            other => panic!("{other:?}"),
        }
        let mut lost = playing();
        lost.on_net(closed_with(1000, "the server closed the connection"));
        assert_eq!(lost.link, Link::Lost("the server closed the connection".into()));
    }

    #[test]
    fn a_message_that_does_not_fit_shows_in_the_hud_and_ends_the_listening() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(crate::testing::enter_level(1, u16::MAX, u16::MAX)));
        match &s.link {
            Link::Lost(why) => assert!(why.contains("larger than the protocol allows"), "{why}"),
            other => panic!("{other:?}"),
        }
        let before = s.state.clone();
        s.on_net(NetEvent::Msg(ServerMsg::Note("and more".into())));
        s.on_net(closed_with(1000, "closed"));
        assert_eq!(s.state, before, "nothing more is taken from it");
        assert!(matches!(&s.link, Link::Lost(why) if why.contains("hostile")));
        assert_eq!(s.on_key(Key::Up, false, false, Instant::now()), KeyOutcome::Ignore);
    }

    fn chat(from: u32, name: &str, to: ChatTo, text: &str) -> NetEvent {
        NetEvent::Msg(ServerMsg::Chat {
            from: PlayerId(from),
            name: name.into(),
            to,
            text: text.into(),
        })
    }

    fn typed(s: &mut Session, text: &str) -> KeyOutcome {
        let now = Instant::now();
        assert_eq!(
            s.on_key(Key::Enter, false, false, now),
            KeyOutcome::Redraw,
            "Enter opens a line"
        );
        s.on_text(text);
        s.on_key(Key::Enter, false, false, now)
    }

    #[test]
    fn enter_opens_a_line_whose_keys_never_move_the_player_and_enter_says_it() {
        let mut s = playing();
        let now = Instant::now();
        s.on_key(Key::Enter, false, false, now);
        assert!(s.typing());
        for key in [Key::Char('k'), Key::Up, Key::Numpad(8), Key::Char('.')] {
            let outcome = s.on_key(key, false, false, now);
            assert!(!matches!(outcome, KeyOutcome::Send(_)), "{key:?} sent {outcome:?}");
        }
        s.on_text("kk hi");
        s.on_key(Key::Backspace, false, false, now);
        s.on_key(Key::Home, false, false, now);
        s.on_key(Key::Delete, false, false, now);
        assert_eq!(s.chat.line.as_ref().unwrap().text(), "k h");
        let said = s.on_key(Key::Enter, false, false, now);
        assert_eq!(
            said,
            KeyOutcome::Send(ClientMsg::Chat { to: ChatTo::Depth, text: "k h".into() })
        );
        assert!(!s.typing(), "saying closes the line");
        assert_eq!(
            s.on_key(Key::Up, false, false, now),
            KeyOutcome::Send(STEP),
            "and keys move again"
        );
    }

    #[test]
    fn escape_puts_the_line_away_without_quitting_or_saying() {
        let mut s = playing();
        let now = Instant::now();
        s.on_key(Key::Enter, false, false, now);
        s.on_text("never mind");
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw);
        assert!(!s.typing());
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Redraw, "asks");
        assert!(s.scene().asking_to_quit);
    }

    #[test]
    fn shout_whisper_and_mute_are_read_from_the_line() {
        let mut s = playing();
        assert_eq!(
            typed(&mut s, "/shout hello all"),
            KeyOutcome::Send(ClientMsg::Chat { to: ChatTo::Everyone, text: "hello all".into() })
        );
        assert_eq!(
            typed(&mut s, "/w bob psst"),
            KeyOutcome::Send(ClientMsg::Chat {
                to: ChatTo::Player("bob".into()),
                text: "psst".into()
            })
        );
        s.on_net(chat(2, "bob", ChatTo::Depth, "one"));
        assert_eq!(typed(&mut s, "/mute bob"), KeyOutcome::Redraw);
        s.on_net(chat(2, "bob", ChatTo::Everyone, "two"));
        s.on_net(chat(3, "cy", ChatTo::Depth, "three"));
        assert_eq!(typed(&mut s, "/unmute bob"), KeyOutcome::Redraw);
        s.on_net(chat(2, "bob", ChatTo::Player("ann".into()), "four"));
        s.on_net(chat(1, "ann", ChatTo::Player("bob".into()), "five"));
        let log: Vec<&str> = s.state.log.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            log[log.len() - 6..],
            [
                "bob: one",
                "You no longer hear bob.",
                "cy: three",
                "You hear bob again.",
                "bob whispers: four",
                "You whisper to bob: five",
            ]
        );
        assert_eq!(s.state.log.iter().rev().nth(3).unwrap().speaker, Some((PlayerId(3), 0, 2)));
        assert!(matches!(typed(&mut s, "/dance"), KeyOutcome::Redraw));
        assert!(s.state.log.back().unwrap().text.starts_with("No command /dance"));
    }

    /// A muted name's lines are not kept, but still checked: a broken one
    /// is a broken server whoever said it.
    #[test]
    fn a_muted_speakers_lines_are_checked_but_not_kept() {
        let mut s = playing();
        typed(&mut s, "/mute bob");
        let lines = s.state.log.len();
        s.on_net(chat(2, "bob", ChatTo::Depth, "hello"));
        assert_eq!((s.state.log.len(), &s.link), (lines, &Link::Playing));
        s.on_net(chat(2, "bob", ChatTo::Depth, "a bell\u{7}"));
        assert!(matches!(&s.link, Link::Lost(why) if why.contains("hostile")), "{:?}", s.link);
    }

    /// A welcome starts a fresh log (nothing scrolled back) and keeps the
    /// names muted.
    #[test]
    fn a_welcome_resets_the_scroll_and_keeps_the_mutes() {
        let mut s = session(None);
        for i in 0..30 {
            s.note(format!("line {i}"));
        }
        s.on_key(Key::PageUp, false, false, Instant::now());
        assert_eq!(s.chat.scroll, GAME_LINES);
        s.chat.muted.insert("bob".into());
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        assert_eq!(s.chat.scroll, 0);
        s.on_net(chat(2, "bob", ChatTo::Depth, "hello"));
        assert!(s.state.log.iter().all(|l| !l.text.contains("hello")), "{:?}", s.state.log);
    }

    #[test]
    fn page_up_and_down_scroll_the_messages_within_the_log() {
        let mut s = playing();
        for i in 0..30 {
            s.on_net(NetEvent::Msg(ServerMsg::Note(format!("line {i}"))));
        }
        let now = Instant::now();
        let n = GAME_LINES;
        let rows = |s: &Session| {
            let hud = crate::hud::hud(&s.scene());
            hud[2..2 + n].iter().map(|r| r.text.clone()).collect::<Vec<_>>()
        };
        let lines = |from: usize| (from..from + n).map(|i| format!("line {i}")).collect::<Vec<_>>();
        assert_eq!(rows(&s), lines(30 - n));
        s.on_key(Key::PageUp, false, false, now);
        assert_eq!(rows(&s), lines(30 - 2 * n));
        for _ in 0..10 {
            s.on_key(Key::PageUp, false, false, now);
        }
        let oldest = s.state.log.len() - n;
        assert_eq!(s.chat.scroll, oldest, "no further back than the oldest line");
        for _ in 0..10 {
            s.on_key(Key::PageDown, false, false, now);
        }
        assert_eq!(rows(&s), lines(30 - n));
    }

    /// Lost: the countdown starts at the first tick, a try is made when it
    /// runs out, and a try that fails waits longer; a welcome ends it.
    #[test]
    fn a_lost_link_counts_down_and_tries_again_waiting_longer_each_time() {
        let mut s = playing();
        let t0 = Instant::now();
        s.on_net(dropped("the server went away"));
        let why = "the server went away".to_owned();
        assert_eq!(s.link, Link::Retrying { why: why.clone(), left: Some(1) });
        assert_eq!(s.state.log.back().unwrap().text, "Connection lost: the server went away.");
        let Tick::Within(first) = s.tick(t0) else { panic!("{:?}", s.link) };
        assert!(first <= Duration::from_secs(1), "{first:?}");
        let mut waited = Duration::ZERO;
        for _ in 0..6 {
            match s.tick(t0 + waited) {
                Tick::Within(more) => waited += more,
                Tick::Connect => break,
                Tick::Idle | Tick::Moved(_) => panic!("a try is planned"),
            }
        }
        assert!(waited >= Duration::from_millis(500) && waited <= Duration::from_secs(1));
        assert_eq!(s.link, Link::Retrying { why, left: None }, "trying now");
        assert_eq!(s.tick(t0 + waited), Tick::Idle, "one try at a time");
        s.on_net(dropped("cannot connect to ws://here"));
        let t1 = t0 + waited;
        let Tick::Within(_) = s.tick(t1) else { panic!() };
        let Link::Retrying { left: Some(left), .. } = s.link else { panic!("{:?}", s.link) };
        assert!((1..=2).contains(&left), "the second wait is 1 to 2 s: {left}");
        assert_eq!(s.tick(t1 + Duration::from_secs(2)), Tick::Connect);
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        assert_eq!((s.link.clone(), s.tries, s.waits), (Link::Playing, 0, 0));
        assert_eq!(s.tick(t1 + Duration::from_secs(3)), Tick::Idle);
    }

    /// The countdown shown goes down a second at a time, and the tick says
    /// when it next changes.
    #[test]
    fn the_countdown_shows_whole_seconds_left() {
        let mut s = playing();
        s.tries = 4;
        s.waits = 4;
        s.on_net(dropped("connection reset"));
        let t0 = Instant::now();
        let mut shown = Vec::new();
        let mut at = t0;
        loop {
            match s.tick(at) {
                Tick::Within(wait) => {
                    let Link::Retrying { left: Some(left), .. } = s.link else { panic!() };
                    shown.push(left);
                    assert!(wait <= Duration::from_secs(1));
                    at += wait;
                }
                Tick::Connect => break,
                Tick::Idle | Tick::Moved(_) => panic!(),
            }
        }
        let first = shown[0];
        assert!((5..=10).contains(&first), "{shown:?}");
        assert_eq!(shown, (1..=first).rev().collect::<Vec<_>>());
    }

    #[test]
    fn a_refusal_that_will_not_change_is_shown_and_not_tried_again() {
        let mut s = playing();
        s.on_net(dropped("connection reset"));
        let t0 = Instant::now();
        s.tick(t0);
        assert_eq!(s.tick(t0 + Duration::from_secs(1)), Tick::Connect);
        s.on_net(NetEvent::Msg(ServerMsg::Refused(Refusal::WrongToken)));
        s.on_net(closed_with(1008, "that name belongs to another player"));
        assert!(matches!(&s.link, Link::Lost(why) if why.starts_with("refused: that name")));
        assert_eq!(s.tick(t0 + Duration::from_secs(60)), Tick::Idle, "never tried again");
        assert_eq!(s.on_key(Key::Enter, false, false, t0), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Escape, false, false, t0), KeyOutcome::Quit);
    }

    /// The player watched is not back yet after the same restart: the
    /// watcher tries again, and the last refusal is not the next one's.
    #[test]
    fn a_refusal_that_may_pass_is_tried_again() {
        let mut s = playing();
        s.on_net(dropped("connection reset"));
        let t0 = Instant::now();
        s.tick(t0);
        s.tick(t0 + Duration::from_secs(1));
        let reason = "ann is not playing".to_owned();
        s.on_net(NetEvent::Msg(ServerMsg::Refused(Refusal::CannotWatch { reason })));
        s.on_net(closed_with(1008, "cannot watch"));
        let Link::Retrying { why, .. } = &s.link else { panic!("{:?}", s.link) };
        assert_eq!(why, "refused: cannot watch: ann is not playing");
        assert!(matches!(s.tick(t0 + Duration::from_secs(1)), Tick::Within(_)), "1 to 2 s");
        assert_eq!(s.tick(t0 + Duration::from_secs(3)), Tick::Connect);
        assert_eq!(s.state.refused, None, "forgotten for the new try");
        s.on_net(dropped("connection reset"));
        assert!(matches!(s.link, Link::Retrying { .. }), "a drop, not the old refusal");
    }

    /// A restart (1012) is tried again at once, but only the first time: a
    /// server that keeps closing so is then waited for.
    #[test]
    fn a_restart_is_tried_again_at_once() {
        let mut s = playing();
        let now = Instant::now();
        s.on_net(closed_with(1012, "the server closed the connection: The server is restarting"));
        assert!(matches!(s.link, Link::Retrying { left: Some(0), .. }), "{:?}", s.link);
        assert_eq!(s.tick(now), Tick::Connect);
        s.on_net(closed_with(1012, "the server closed the connection"));
        assert!(matches!(s.tick(now), Tick::Within(_)), "the second waits");
    }

    /// Esc quits at once while the link is lost; Enter tries now.
    #[test]
    fn while_waiting_enter_tries_now_and_esc_quits() {
        let mut s = playing();
        s.on_net(dropped("connection reset"));
        let now = Instant::now();
        assert!(matches!(s.tick(now), Tick::Within(_)));
        assert_eq!(s.on_key(Key::Up, false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Enter, false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.tick(now), Tick::Connect);
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
        let hud = crate::hud::hud(&s.scene());
        assert!(hud[0].text.starts_with("Connection lost. Trying again now..."), "{}", hud[0].text);
    }

    /// The page stops trying on Esc: the link is then lost for good.
    #[test]
    fn giving_up_loses_the_link_for_good() {
        let mut s = playing();
        s.on_net(dropped("connection reset"));
        s.give_up();
        assert_eq!(s.link, Link::Lost("connection reset".into()));
        assert_eq!(s.tick(Instant::now()), Tick::Idle);
    }

    /// A death's end page stays: the link dropping after it is no reason
    /// to come back (that would start a new character).
    #[test]
    fn after_a_death_a_dropped_link_is_not_tried_again() {
        let mut s = playing();
        s.on_net(NetEvent::Msg(ServerMsg::Died(record())));
        s.on_net(dropped("connection reset"));
        assert_eq!(s.link, Link::Lost("connection reset".into()));
        assert_eq!(s.page(), Page::End);
    }

    /// Back after a lost link: nothing from before is drawn (monsters,
    /// players, piles, the pack, the party); the log, the name and the
    /// names muted are kept, all the log old news.
    #[test]
    fn a_welcome_after_a_lost_link_shows_the_world_as_it_is_after() {
        let mut s = standing();
        let monster = MonsterChange::Appeared {
            id: gloam_protocol::MonsterId(3),
            kind: 0,
            at: Pos::new(6, 5),
            wound: gloam_protocol::Wound::Unhurt,
            asleep: false,
        };
        s.on_net(NetEvent::Msg(ServerMsg::Kinds(vec![gloam_protocol::KindInfo {
            name: "rat".into(),
            glyph: 'r',
            colour: [1, 2, 3],
        }])));
        s.on_net(NetEvent::Msg(ServerMsg::Monsters(vec![monster])));
        s.on_net(NetEvent::Msg(ServerMsg::Players(vec![gloam_protocol::PlayerChange::Appeared {
            id: PlayerId(2),
            name: "bob".into(),
            at: Pos::new(7, 5),
        }])));
        s.on_net(NetEvent::Msg(ServerMsg::Note("before".into())));
        s.chat.muted.insert("cy".into());
        let now = Instant::now();
        s.on_key(Key::Char('x'), false, false, now);
        assert!(!s.state.monsters.is_empty() && !s.state.others.is_empty());
        s.on_net(dropped("connection reset"));
        s.tick(now);
        s.tick(now + Duration::from_secs(1));
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        s.on_net(NetEvent::Msg(crate::testing::enter_level(1, 20, 10)));
        let st = &s.state;
        assert!(st.monsters.is_empty() && st.others.is_empty() && st.floor.is_empty());
        assert!(st.kinds.is_empty() && st.pack.is_empty() && st.at.is_none());
        assert_eq!(st.name.as_deref(), Some("ann"));
        let log: Vec<&str> = st.log.iter().map(|l| l.text.as_str()).collect();
        assert!(log.contains(&"before") && log.contains(&"Connection lost: connection reset."));
        assert!(st.log.iter().all(|l| !st.is_news(l)), "all of it old news");
        assert!(s.chat.muted.contains("cy"));
        assert_eq!((s.page(), s.scene().look), (Page::Map, None), "the look ended");
    }

    fn listed() -> NetEvent {
        NetEvent::Msg(ServerMsg::Backgrounds(crate::testing::backgrounds()))
    }

    fn create_msg(background: &str) -> ClientMsg {
        ClientMsg::Create {
            version: gloam_protocol::PROTOCOL_VERSION,
            name: "ann".into(),
            token: None,
            background: background.into(),
        }
    }

    fn create(background: &str) -> KeyOutcome {
        KeyOutcome::Send(create_msg(background))
    }

    #[test]
    fn the_first_screen_shows_the_list_and_a_letter_creates_that_background() {
        let mut s = session(None);
        let now = Instant::now();
        assert_eq!(s.page(), Page::Map, "nothing to choose before the list");
        s.on_net(listed());
        assert_eq!(s.page(), Page::Backgrounds);
        assert_eq!(s.on_key(Key::Char('z'), false, false, now), KeyOutcome::Ignore);
        assert_eq!(s.on_key(Key::Char('b'), false, false, now), create("scout"));
        assert_eq!(s.page(), Page::Map, "put away while the welcome comes");
        assert_eq!(s.on_key(Key::Char('a'), false, false, now), KeyOutcome::Ignore, "once");
        s.on_net(NetEvent::Msg(crate::testing::welcome(PlayerId(1), 20, 10)));
        assert_eq!((s.link.clone(), s.page()), (Link::Playing, Page::Map));
        s.on_net(listed());
        assert_eq!(s.page(), Page::Map, "a list after the welcome opens no screen");
    }

    #[test]
    fn esc_on_the_first_screen_quits_and_ctrl_keys_still_zoom() {
        let mut s = session(None);
        s.on_net(listed());
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Ctrl('+'), false, false, now), KeyOutcome::Zoom(1));
        assert_eq!(s.on_key(Key::Escape, false, false, now), KeyOutcome::Quit);
    }

    #[test]
    fn a_first_screen_whose_connection_ended_stays_and_the_choice_connects_again() {
        let mut s = session(None);
        assert_eq!(s.opening(None, None), ClientMsg::Backgrounds);
        s.on_net(listed());
        let now = Instant::now();
        // The server waited for a hello as long as it waits.
        s.on_net(closed_with(1013, "no hello in time: try again"));
        assert_eq!(s.page(), Page::Backgrounds, "the list stays to be read");
        assert_eq!(s.tick(now), Tick::Idle, "nothing is tried by itself");
        assert_eq!(s.on_key(Key::Char('b'), false, false, now), KeyOutcome::Redraw);
        assert_eq!(s.page(), Page::Map, "chosen");
        assert_eq!(s.tick(now), Tick::Connect, "the choice connects");
        assert_eq!(s.opening(None, None), create_msg("scout"), "with the choice first");
        assert_eq!(s.tick(now), Tick::Idle, "once");
        // Lost before the welcome: tried again as any lost link, the same
        // choice first; the server refuses a name made twice.
        s.on_net(dropped("reset"));
        assert!(matches!(s.tick(now), Tick::Within(_)));
        assert_eq!(s.tick(now + Duration::from_secs(11)), Tick::Connect);
        assert_eq!(s.opening(None, None), create_msg("scout"));
        assert_eq!(
            s.opening(Some("bob".into()), None),
            crate::net::hello("ann".into(), None, Some("bob".into()))
        );
    }

    #[test]
    fn a_kept_token_says_hello_whatever_the_command_line_says() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(Some(TokenStore::at(dir.path())));
        assert_eq!(s.opening(None, Some("scout".into())), create_msg("scout"));
        let mut welcome = crate::testing::welcome(PlayerId(1), 20, 10);
        if let ServerMsg::Welcome { token, .. } = &mut welcome {
            *token = Some([3; 16]);
        }
        s.on_net(NetEvent::Msg(welcome));
        let hello = ClientMsg::Hello {
            version: gloam_protocol::PROTOCOL_VERSION,
            name: "ann".into(),
            token: Some([3; 16]),
        };
        assert_eq!(s.opening(None, Some("scout".into())), hello);
    }

    #[test]
    fn a_new_life_after_a_death_chooses_again_and_creates_with_the_token() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(Some(TokenStore::at(dir.path())));
        let mut welcome = crate::testing::welcome(PlayerId(1), 20, 10);
        if let ServerMsg::Welcome { token, .. } = &mut welcome {
            *token = Some([3; 16]);
        }
        s.on_net(NetEvent::Msg(welcome.clone()));
        // The character died: Enter on the end page starts the next life.
        let mut s = Session::new("ws://here".into(), s.into_token_slot()).for_a_new_life();
        assert_eq!(s.opening(None, None), ClientMsg::Backgrounds, "the first screen again");
        s.on_net(listed());
        assert_eq!(s.page(), Page::Backgrounds);
        let mut again = create_msg("scout");
        if let ClientMsg::Create { token, .. } = &mut again {
            *token = Some([3; 16]);
        }
        let now = Instant::now();
        assert_eq!(s.on_key(Key::Char('b'), false, false, now), KeyOutcome::Send(again.clone()));
        assert_eq!(s.opening(None, None), again, "a link lost before the welcome asks again");
        if let ServerMsg::Welcome { token, .. } = &mut welcome {
            *token = None;
        }
        s.on_net(NetEvent::Msg(welcome));
        let hello = ClientMsg::Hello {
            version: gloam_protocol::PROTOCOL_VERSION,
            name: "ann".into(),
            token: Some([3; 16]),
        };
        assert_eq!(s.opening(None, None), hello, "the new life, once made, is resumed");
    }

    #[test]
    fn a_background_the_server_lacks_is_shown_with_its_reason_and_not_tried_again() {
        let mut s = session(None);
        s.on_net(listed());
        let _ = s.on_key(Key::Char('a'), false, false, Instant::now());
        let refusal = Refusal::NoSuchBackground { name: "fighter".into() };
        s.on_net(NetEvent::Msg(ServerMsg::Refused(refusal)));
        s.on_net(closed_with(1000, "refused"));
        let why = "refused: no background is called fighter here".to_owned();
        assert_eq!((s.link.clone(), s.page()), (Link::Lost(why), Page::Map));
        assert_eq!(s.tick(Instant::now()), Tick::Idle);
    }
}
