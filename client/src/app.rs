//! The window's event loop: key presses go to the [`Session`] (and what it
//! asks for to the server), server messages update it, window changes
//! rebuild the glyph atlas, and the frame is redrawn only when something
//! changed. The loop sleeps in `wait_event` between events, so an
//! idle window costs next to no CPU; the network task wakes it with a user
//! event when a message arrives. After a lost link the session counts
//! down to the next try: the loop then sleeps only until its next tick,
//! and opens a new connection when the session asks (the decisions are
//! the session's, `session/retry.rs`). On the end page, `r` has it open a
//! second connection that asks for a recording; while one plays, the
//! session's tick says when its next round is due, and the loop redraws
//! then.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow};
use gloam_protocol::ClientMsg;
use sdl3::event::{Event, WindowEvent};
use sdl3::keyboard::{Keycode, Mod};
use sdl3::mouse::MouseButton;
use sdl3::render::{Canvas, TextureCreator};
use sdl3::video::WindowContext;
use tokio::sync::oneshot;

use crate::input::Key;
use crate::layout::{Layout, MIN_WINDOW};
use crate::net;
use crate::render::{self, Atlas, text_px_for};
use crate::session::{KeyOutcome, Session, Tick};
use crate::tokens::{TokenSlot, TokenStore};

/// What the player asked for on the command line.
#[derive(Debug, Clone)]
pub struct Options {
    /// Join this server instead of hosting one.
    pub connect: Option<String>,
    /// Where a hosted server listens.
    pub host: SocketAddr,
    pub name: String,
    /// Watch this player instead of playing (with `connect`).
    pub watch: Option<String>,
    /// A new character's background, instead of the first screen's choice.
    pub background: Option<String>,
    /// The world to host (a stored one keeps its own seed and generator).
    pub world: gloam_server::cli::WorldChoice,
    /// The rules a hosted world plays by (its seed and generator are the
    /// stored world's).
    pub rules: gloam_server::Config,
    /// The folder a hosted world is kept in.
    pub data: PathBuf,
    pub font: Option<PathBuf>,
    /// The colours of the map and the HUD.
    pub palette: &'static crate::palette::Palette,
}

/// The user event the network task pushes to wake the loop.
struct Wake;

/// A server hosted in this process.
struct LocalServer {
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl LocalServer {
    /// Stops the server and waits while it saves every character.
    fn stop(self, runtime: &tokio::runtime::Runtime) {
        let _ = self.stop.send(());
        let task = self.task;
        let waited =
            runtime.block_on(async { tokio::time::timeout(Duration::from_secs(10), task).await });
        match waited {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => eprintln!("gloam: the hosted server stopped with an error: {e}"),
            Ok(Err(e)) => eprintln!("gloam: the hosted server failed: {e}"),
            Err(_) => eprintln!("gloam: the hosted server took too long to stop"),
        }
    }
}

/// Where a hosted world is kept when `--data` is not given: the user's data
/// directory (`~/.local/share/gloam/world` on Linux).
pub fn default_data() -> PathBuf {
    directories::ProjectDirs::from("", "", "gloam")
        .map(|dirs| dirs.data_dir().join("world"))
        .unwrap_or_else(|| PathBuf::from("gloam-data"))
}

/// Where the font is looked for when `--font` is not given.
pub fn default_font() -> PathBuf {
    let name = "DejaVuSansMono.ttf";
    let candidates = [
        std::env::current_exe().ok().and_then(|p| p.parent().map(|d| d.join("assets").join(name))),
        Some(PathBuf::from("assets").join(name)),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("assets").join(name)),
    ];
    candidates
        .iter()
        .flatten()
        .find(|p| p.is_file())
        .cloned()
        .unwrap_or_else(|| PathBuf::from("assets").join(name))
}

/// Hosts the world kept in `options.data` (made on first use), in this
/// process. Gives the address to join, the name its tokens are kept under
/// (the world's id: the same world whatever port it listens on and wherever
/// its folder is moved), and the server.
fn host(
    runtime: &tokio::runtime::Runtime,
    options: &Options,
) -> anyhow::Result<(String, String, LocalServer)> {
    let store = gloam_server::store::Store::open(&options.data)?;
    let world = store.settle_world(&options.world.wish(), gloam_server::fresh_seed)?;
    let world_id = store.world_id()?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(options.host))
        .with_context(|| format!("cannot host on {}", options.host))?;
    let mut addr = listener.local_addr()?;
    println!(
        "Hosting a Gloam world on ws://{addr} (seed {}); it is kept in {} ({} characters).",
        world.seed,
        store.file().unwrap_or(&options.data).display(),
        store.known().len()
    );
    println!("Friends join in a browser at {}", gloam_server::net::page_url(addr));
    // The world goes when this window closes: its friends are told the
    // server is going away, not restarting.
    let farewell = gloam_server::config::Farewell::GoingAway;
    let config = gloam_server::Config { farewell, ..options.rules.clone().playing(world) };
    let (stop, stopped) = oneshot::channel::<()>();
    let shutdown = async move {
        let _ = stopped.await;
    };
    let task = runtime.spawn(gloam_server::run_with_store(listener, shutdown, config, store));
    if addr.ip().is_unspecified() {
        println!(
            "Friends join with: gloam --connect ws://<this machine's address>:{} --name NAME",
            addr.port()
        );
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let token_key = format!("local-{world_id}");
    Ok((format!("ws://{addr}"), token_key, LocalServer { stop, task }))
}

/// The window's connections: the game's, and one asking for a recording
/// while the session wants it (opened with `ask`).
struct Links<'a> {
    game: net::Connection,
    recording: Option<net::Connection>,
    ask: &'a dyn Fn(ClientMsg) -> net::Connection,
}

impl Links<'_> {
    /// Hands what the connections said to the session; gives whether
    /// anything came. The recording's connection is let go once the
    /// session no longer waits on it (it closes itself).
    fn bring(&mut self, session: &mut Session) -> bool {
        let mut came = false;
        while let Ok(event) = self.game.events.try_recv() {
            session.on_net(event);
            came = true;
        }
        if let Some(recording) = &self.recording {
            while let Ok(event) = recording.events.try_recv() {
                session.on_recording(event);
                came = true;
            }
            if !session.asking() {
                self.recording = None;
            }
        }
        came
    }
}

/// What the loop does after a key press (or typed text) the session took.
fn carry_out(outcome: KeyOutcome, session: &mut Session, links: &mut Links<'_>) -> Flow {
    let connection = &links.game;
    match outcome {
        KeyOutcome::Quit => Flow::Quit,
        KeyOutcome::Ask(msg) => {
            links.recording = Some((links.ask)(msg));
            Flow::Redraw
        }
        KeyOutcome::Send(msg) => {
            if connection.send(msg.clone()) {
                session.sent(&msg, Instant::now());
            }
            // A line said closes the line being typed.
            if matches!(msg, ClientMsg::Chat { .. }) { Flow::Redraw } else { Flow::Same }
        }
        KeyOutcome::Again => Flow::Again,
        KeyOutcome::Redraw => Flow::Redraw,
        KeyOutcome::Zoom(by) => Flow::Zoom(by),
        KeyOutcome::Ignore => Flow::Same,
    }
}

/// A key pressed with Ctrl: only those the game reads (the zoom, the
/// log); never the key alone, so Ctrl+k does not move.
fn to_ctrl_key(code: Keycode) -> Option<Key> {
    match code {
        Keycode::Equals | Keycode::Plus | Keycode::KpPlus => Some(Key::Ctrl('+')),
        Keycode::Minus | Keycode::KpMinus => Some(Key::Ctrl('-')),
        other => {
            let ch = char::from_u32(other as u32).filter(char::is_ascii_alphabetic)?;
            Some(Key::Ctrl(ch.to_ascii_lowercase()))
        }
    }
}

fn to_key(code: Keycode) -> Option<Key> {
    Some(match code {
        Keycode::Up => Key::Up,
        Keycode::Down => Key::Down,
        Keycode::Left => Key::Left,
        Keycode::Right => Key::Right,
        Keycode::Escape => Key::Escape,
        Keycode::Return | Keycode::KpEnter => Key::Enter,
        Keycode::Tab | Keycode::KpTab => Key::Tab,
        Keycode::Space => Key::Char(' '),
        Keycode::KpPlus => Key::Char('+'),
        Keycode::KpMinus => Key::Char('-'),
        Keycode::Backspace => Key::Backspace,
        Keycode::Delete => Key::Delete,
        Keycode::Home => Key::Home,
        Keycode::End => Key::End,
        Keycode::PageUp => Key::PageUp,
        Keycode::PageDown => Key::PageDown,
        Keycode::Kp1 => Key::Numpad(1),
        Keycode::Kp2 => Key::Numpad(2),
        Keycode::Kp3 => Key::Numpad(3),
        Keycode::Kp4 => Key::Numpad(4),
        Keycode::Kp5 => Key::Numpad(5),
        Keycode::Kp6 => Key::Numpad(6),
        Keycode::Kp7 => Key::Numpad(7),
        Keycode::Kp8 => Key::Numpad(8),
        Keycode::Kp9 => Key::Numpad(9),
        other => {
            let ch = char::from_u32(other as u32)?;
            if !ch.is_ascii_graphic() {
                return None;
            }
            Key::Char(ch.to_ascii_lowercase())
        }
    })
}

/// Draws the current frame off-screen, as the window shows it, and writes
/// it as a PNG in the working directory, its text beside it (the same name
/// ending in `.txt`: for a bug report, a screen reader or a test).
fn save_screenshot(
    font: &sdl3::ttf::Font<'_>,
    (size, layout): ((u32, u32), Layout),
    session: &Session,
) -> anyhow::Result<PathBuf> {
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_millis();
    let path = PathBuf::from(format!("gloam-{stamp}.png"));
    let scene = session.scene();
    // Whole or not at all: written aside, then renamed.
    let (text, part) = (path.with_extension("txt"), path.with_extension("txt.part"));
    std::fs::write(&part, crate::view::screen_text(&scene, &layout))?;
    std::fs::rename(&part, &text)?;
    render::render_offscreen(font, size, layout.cell_px, &scene)?.save_png(&path)?;
    Ok(path)
}

/// What the loop does after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Redraw,
    Same,
    Quit,
    /// Start a new character (after a death).
    Again,
    /// Larger glyphs (`1`) or smaller (`-1`).
    Zoom(i8),
}

/// The window and what it draws with: the glyph atlas, rebuilt when the
/// zoom or the window's size calls for another cell size.
struct Screen<'a> {
    canvas: Canvas<sdl3::video::Window>,
    creator: &'a TextureCreator<WindowContext>,
    atlas: Atlas<'a>,
    font: &'a sdl3::ttf::Font<'a>,
    /// The cell size the player chose, and the file it is kept in.
    zoom: u32,
    zoom_file: Option<PathBuf>,
}

impl Screen<'_> {
    fn draw(&mut self, session: &Session) -> anyhow::Result<()> {
        render::draw_frame(&mut self.canvas, &mut self.atlas, &session.scene())?;
        self.canvas.present();
        Ok(())
    }

    fn on_window(&mut self, event: WindowEvent, session: &mut Session) -> anyhow::Result<Flow> {
        Ok(match event {
            WindowEvent::PixelSizeChanged(..) | WindowEvent::Resized(..) => {
                self.refit()?;
                self.fit(session);
                Flow::Redraw
            }
            WindowEvent::Exposed | WindowEvent::Shown | WindowEvent::Restored => Flow::Redraw,
            _ => Flow::Same,
        })
    }

    /// The cell size the zoom and the window's size allow: the atlas is
    /// rebuilt when it changes.
    fn refit(&mut self) -> anyhow::Result<()> {
        let (w, h) = self.canvas.output_size().map_err(|e| anyhow!("the window's size: {e}"))?;
        let font = self.font;
        let letters = |cell| text_px_for(font, cell).unwrap_or(cell / 2);
        let layout = Layout::fit(w, h, self.zoom, letters);
        if layout.cell_px != self.atlas.cell_px() {
            self.atlas = Atlas::build(self.creator, self.font, layout.cell_px)?;
        }
        Ok(())
    }

    /// The layout of the window as it is now.
    fn layout(&self) -> Layout {
        let (w, h) = self.canvas.output_size().unwrap_or((1280, 720));
        Layout::at(w, h, self.atlas.cell_px(), self.atlas.text_px())
    }

    /// Tells `session` the size of a page above the HUD now.
    fn fit(&self, session: &mut Session) {
        let layout = self.layout();
        session.resize(layout.page_cols, layout.map_rows);
    }

    /// Ctrl `+` or `-`: the next zoom, kept for the next run.
    fn zoom(&mut self, by: i8, session: &mut Session) -> anyhow::Result<Flow> {
        self.zoom = crate::zoom::step(self.zoom, by);
        if let Some(file) = &self.zoom_file
            && let Err(e) = crate::zoom::save(file, self.zoom)
        {
            session.note(format!("The zoom is not kept: {e}"));
        }
        self.refit()?;
        self.fit(session);
        if self.atlas.cell_px() < self.zoom {
            session.note(format!("Zoom {} px: the window is too small for more.", self.zoom));
        }
        Ok(Flow::Redraw)
    }

    /// The map's cell under the mouse at `(x, y)`, in the window's
    /// coordinates (which a high-density display scales to pixels).
    fn cell_under(&self, session: &Session, (x, y): (f32, f32)) -> Option<gloam_protocol::Pos> {
        let (w, h) = self.canvas.output_size().ok()?;
        let (ww, wh) = self.canvas.window().size();
        let scale = (w as f32 / ww.max(1) as f32, h as f32 / wh.max(1) as f32);
        let layout = Layout::at(w, h, self.atlas.cell_px(), self.atlas.text_px());
        crate::view::cell_under(&session.scene(), &layout, (x * scale.0, y * scale.1))
    }

    /// F12: the frame as a PNG, and a line in the log saying where.
    fn screenshot(&self, session: &mut Session) -> Flow {
        let layout = self.layout();
        let size = (layout.width, layout.height);
        let note = match save_screenshot(self.font, (size, layout), session) {
            Ok(path) => format!("Screenshot saved to {}.", path.display()),
            Err(e) => format!("No screenshot: {e}"),
        };
        session.note(note);
        Flow::Redraw
    }
}

/// One SDL event: keys go to the session (and what it asks for to the
/// server), window changes to the screen, a wake-up from the network task
/// brings its messages to the session.
fn on_event(
    event: Event,
    session: &mut Session,
    screen: &mut Screen<'_>,
    links: &mut Links<'_>,
) -> anyhow::Result<Flow> {
    Ok(match event {
        Event::Quit { .. } => Flow::Quit,
        Event::KeyDown { keycode: Some(Keycode::F12), repeat: false, .. } => {
            screen.screenshot(session)
        }
        Event::KeyDown { keycode: Some(Keycode::V), keymod, .. }
            if session.typing() && keymod.intersects(Mod::LCTRLMOD | Mod::RCTRLMOD) =>
        {
            let video = screen.canvas.window().subsystem().clone();
            match video.clipboard().clipboard_text() {
                Ok(text) => carry_out(session.on_text(&text), session, links),
                Err(_) => Flow::Same,
            }
        }
        Event::KeyDown { keycode: Some(code), keymod, repeat, .. } => {
            let shift = keymod.intersects(Mod::LSHIFTMOD | Mod::RSHIFTMOD);
            let ctrl = keymod.intersects(Mod::LCTRLMOD | Mod::RCTRLMOD);
            let key = if ctrl { to_ctrl_key(code) } else { to_key(code) };
            let Some(key) = key else { return Ok(Flow::Same) };
            match carry_out(session.on_key(key, shift, repeat, Instant::now()), session, links) {
                Flow::Zoom(by) => screen.zoom(by, session)?,
                flow => flow,
            }
        }
        Event::TextInput { text, .. } => carry_out(session.on_text(&text), session, links),
        Event::MouseButtonDown { mouse_btn: MouseButton::Left, x, y, .. } => {
            let cell = screen.cell_under(session, (x, y));
            carry_out(session.on_click(cell, Instant::now()), session, links)
        }
        Event::Window { win_event, .. } => screen.on_window(win_event, session)?,
        e if e.is_user_event() => {
            // Frees the boxed payload.
            let _ = e.as_user_event_type::<Wake>();
            let came = links.bring(session);
            retitle(screen, session);
            if came { Flow::Redraw } else { Flow::Same }
        }
        _ => Flow::Same,
    })
}

/// The event loop: sleeps in `wait_event` (or until the session's next
/// tick, while it counts down to trying again), handles everything that
/// came, and redraws only when something changed. Opens the connection
/// with `open`, again whenever the session asks (after a lost link), and
/// closes it at the end; a recording the session asks for is asked with
/// `ask`. Gives whether the player asked to play again (after a death)
/// rather than to quit.
fn play(
    pump: &mut sdl3::EventPump,
    session: &mut Session,
    screen: &mut Screen<'_>,
    open: impl Fn(&Session) -> net::Connection,
    ask: &dyn Fn(ClientMsg) -> net::Connection,
) -> anyhow::Result<bool> {
    let mut links = Links { game: open(session), recording: None, ask };
    let played = play_on(pump, session, screen, &open, &mut links);
    let Links { game, .. } = links;
    // Esc, the window closed, a death: a goodbye and a closing handshake
    // (only the handshake on the first screen: no character to leave yet).
    if session.page() == crate::scene::Page::Backgrounds {
        game.close();
    } else {
        game.quit();
    }
    played
}

/// [`play`]'s loop, over `connection` (replaced when the session asks).
fn play_on(
    pump: &mut sdl3::EventPump,
    session: &mut Session,
    screen: &mut Screen<'_>,
    open: &impl Fn(&Session) -> net::Connection,
    links: &mut Links<'_>,
) -> anyhow::Result<bool> {
    let mut dirty = true;
    loop {
        let wait = match session.tick(Instant::now()) {
            Tick::Idle => None,
            Tick::Within(wait) => Some(wait),
            Tick::Moved(wait) => {
                dirty = true;
                wait
            }
            Tick::Connect => {
                links.game = open(session);
                dirty = true;
                None
            }
        };
        if dirty {
            screen.draw(session)?;
            dirty = false;
        }
        let first = match wait {
            Some(wait) => pump.wait_event_timeout(wait),
            None => Some(pump.wait_event()),
        };
        // The time given is up: the countdown shown changed.
        dirty |= first.is_none();
        let mut batch: Vec<Event> = first.into_iter().collect();
        batch.extend(pump.poll_iter());
        let mut flow = Flow::Same;
        for event in batch {
            match on_event(event, session, screen, links)? {
                Flow::Redraw | Flow::Zoom(_) => dirty = true,
                Flow::Same => {}
                done @ (Flow::Quit | Flow::Again) => {
                    flow = done;
                    break;
                }
            }
        }
        match flow {
            Flow::Quit => return Ok(false),
            Flow::Again => return Ok(true),
            _ => {}
        }
    }
}

/// A seed for the jitter of this window's tries to connect again, its own
/// (std's hasher keys are random per process).
fn jitter_seed() -> u32 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(std::process::id()) as u32
}

/// Gives the window the session's title once it changed (the welcome
/// names the world).
fn retitle(screen: &mut Screen<'_>, session: &Session) {
    let title = session.title();
    let window = screen.canvas.window_mut();
    if window.title() != title && window.set_title(&title).is_err() {
        tracing::warn!(%title, "cannot set the window's title");
    }
}

/// The window's title before the welcome: who plays, or whom this window
/// watches (then the session's, see [`Session::title`]).
fn title(options: &Options) -> String {
    match &options.watch {
        Some(player) => format!("Gloam - {} watching {player}", options.name),
        None => format!("Gloam - {}", options.name),
    }
}

/// The game's window, sized for a whole map of the server's usual size at
/// `zoom`, taking typed text.
fn open_window(
    video: &sdl3::VideoSubsystem,
    options: &Options,
    font: &sdl3::ttf::Font<'_>,
    zoom: u32,
) -> anyhow::Result<sdl3::video::Window> {
    let (w, h) = Layout::window_for(80, 40, zoom, text_px_for(font, zoom)?);
    let mut window = video
        .window(&title(options), w, h)
        .position_centered()
        .resizable()
        .build()
        .map_err(|e| anyhow!("cannot open the window: {e}"))?;
    window
        .set_minimum_size(MIN_WINDOW.0, MIN_WINDOW.1)
        .map_err(|e| anyhow!("cannot size the window: {e}"))?;
    // Typed text arrives as text events (any layout, any script); they are
    // only read while a line to talk is open.
    video.text_input().start(&window);
    Ok(window)
}

/// The network's runtime and where to connect: the `--connect` address
/// (also the key its token is kept under), or a world hosted here, whose
/// server is given to stop at the end.
fn network(
    options: &Options,
) -> anyhow::Result<(tokio::runtime::Runtime, String, String, Option<LocalServer>)> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    let (url, token_key, server) = match &options.connect {
        Some(url) => (url.clone(), url.clone(), None),
        None => {
            let (url, key, server) = host(&runtime, options)?;
            (url, key, Some(server))
        }
    };
    Ok((runtime, url, token_key, server))
}

/// Opens the window and plays until the player quits.
pub fn run(options: Options) -> anyhow::Result<()> {
    // The display first: without one, fail before hosting anything.
    let sdl = sdl3::init().map_err(|e| anyhow!("cannot start SDL: {e}"))?;
    let video = sdl
        .video()
        .map_err(|e| anyhow!("no display available ({e}); set DISPLAY or WAYLAND_DISPLAY"))?;
    let ttf = sdl3::ttf::init().map_err(|e| anyhow!("cannot start SDL_ttf: {e}"))?;
    let font_path = options.font.clone().unwrap_or_else(default_font);
    let font = render::load_font(&ttf, &font_path, crate::zoom::DEFAULT as f32)?;
    let zoom_file = crate::zoom::default_file();
    let zoom = crate::zoom::load(zoom_file.as_deref());

    let (runtime, url, token_key, server) = network(&options)?;

    let window = open_window(&video, &options, &font, zoom)?;
    let canvas = window.into_canvas();
    let creator = canvas.texture_creator();
    let atlas = Atlas::build(&creator, &font, zoom)?;
    let mut screen = Screen { canvas, creator: &creator, atlas, font: &font, zoom, zoom_file };
    screen.refit()?;

    let events = sdl.event().map_err(|e| anyhow!("SDL events: {e}"))?;
    events.register_custom_event::<Wake>().map_err(|e| anyhow!("SDL events: {e}"))?;
    let mut slot =
        TokenSlot { store: TokenStore::default_location(), server: token_key, name: options.name };
    let mut pump = sdl.event_pump().map_err(|e| anyhow!("SDL events: {e}"))?;
    // Once more for every death the player starts again after.
    let mut again = false;
    let played = loop {
        let (watch, background) = (options.watch.clone(), options.background.clone());
        let open = |session: &Session| {
            let sender = events.event_sender();
            let wake = move || {
                let _ = sender.push_custom_event(Wake);
            };
            // A new name opens with the first screen (`first_screen.rs`).
            let first = session.opening(watch.clone(), background.clone());
            net::connect(runtime.handle(), url.clone(), first, wake)
        };
        let ask = |msg: ClientMsg| {
            let sender = events.event_sender();
            let wake = move || {
                let _ = sender.push_custom_event(Wake);
            };
            net::ask(runtime.handle(), url.clone(), msg, wake)
        };
        let mut session = Session::new(url.clone(), slot)
            .with_palette(options.palette)
            .with_jitter_seed(jitter_seed());
        if again {
            session = session.for_a_new_life();
        }
        screen.fit(&mut session);
        let played = play(&mut pump, &mut session, &mut screen, open, &ask);
        slot = session.into_token_slot();
        match played {
            Ok(true) => again = true,
            done => break done.map(|_| ()),
        }
    };
    if let Some(server) = server {
        server.stop(&runtime);
    }
    runtime.shutdown_timeout(Duration::from_secs(2));
    leave_video_to_the_exit(&sdl, &video);
    played
}

/// Keeps SDL's video from shutting down when `run` returns: the process is
/// ending, and the system closes the display's connections.
///
/// Shutting down would be unsafe on X11. A wake-up pushed from the network
/// thread while the loop waited is an X event SDL sends to the window on a
/// second connection, and the X server may handle it after the window is
/// destroyed. The server then answers with a BadWindow error on that
/// connection. Shutting down video syncs the connection to close it, reads
/// the error, and Xlib's default handler ends the process with status 1: a
/// quit that looks like a crash, seen once in six runs under load.
fn leave_video_to_the_exit(sdl: &sdl3::Sdl, video: &sdl3::VideoSubsystem) {
    std::mem::forget(sdl.clone());
    std::mem::forget(video.clone());
}
