//! The frame drawn from a known state matches the checked-in golden image,
//! so a change in how the map looks shows up in review. SDL's software
//! renderer draws into a surface: no window, no display.
//!
//! To accept a deliberate change:
//! `GLOAM_BLESS=1 cargo test -p gloam-client --test integration render::`.

use std::path::PathBuf;

use gloam_client::chat::Chat;
use gloam_client::layout::Layout;
use gloam_client::render::{RgbaImage, render_offscreen};
use gloam_client::scene::{Link, Page, Scene};

use crate::common;

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/frame.png")
}

/// SDL must not be used from two tests at once.
static SDL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Pixels whose channels differ by more than this count as changed.
const LOUD: u8 = 48;
/// How many such pixels the frame may have before it counts as changed.
const MAX_LOUD_PIXELS: usize = 16;

/// Draws `state` on `page`, with `chat`'s line being typed, and compares it
/// with the golden image `name` (writing it when asked to bless, or when it
/// is missing outside CI).
fn matches_golden(state: &gloam_client::ClientState, chat: &Chat, page: Page, name: &str) {
    matches_golden_with(state, chat, page, |_| {}, name);
}

/// [`matches_golden`], with the scene changed by `set` (a throw aimed, a
/// look).
fn matches_golden_with(
    state: &gloam_client::ClientState,
    chat: &Chat,
    page: Page,
    set: impl FnOnce(&mut Scene<'_>),
    name: &str,
) {
    let ttf = sdl3::ttf::init().expect("SDL_ttf starts");
    let font =
        gloam_client::render::load_font(&ttf, &common::font_path(), 16.0).expect("the font loads");
    let mut scene = Scene::new(state, chat, &Link::Playing, page);
    set(&mut scene);
    let text_px = gloam_client::render::text_px_for(&font, 16).expect("the font sizes");
    let size = Layout::window_for(80, 40, 16, text_px);
    let frame = render_offscreen(&font, size, 16, &scene).expect("the frame draws");
    compare_with_golden(&frame, name);
}

/// Compares `frame` with the golden image `name` (writing it when asked to
/// bless, or when it is missing outside CI).
fn compare_with_golden(frame: &RgbaImage, name: &str) {
    let golden = golden_path().with_file_name(name);
    if std::env::var_os("GLOAM_BLESS").is_some()
        || (!golden.exists() && std::env::var_os("CI").is_none())
    {
        frame.save_png(&golden).expect("the golden image is written");
        eprintln!("wrote {}", golden.display());
        return;
    }
    let expected = RgbaImage::load_png(&golden).expect("the golden image is checked in");
    assert_eq!((expected.width, expected.height), (frame.width, frame.height));
    let mut loud = 0usize;
    let mut total = 0u64;
    for (a, b) in frame.pixels.chunks(4).zip(expected.pixels.chunks(4)) {
        let d = a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0);
        total += u64::from(d);
        if d > LOUD {
            loud += 1;
        }
    }
    let pixels = (frame.width * frame.height) as usize;
    let mean = total as f64 / pixels as f64;
    // SDL's software renderer is deterministic; the slack is for a
    // different FreeType build nudging a few antialiased edges.
    if loud > MAX_LOUD_PIXELS || mean > 0.05 {
        let actual = golden.with_extension("actual.png");
        let _ = frame.save_png(&actual);
        panic!(
            "the frame differs from {}: {loud} pixels changed, mean {mean:.3}; see {}",
            golden.display(),
            actual.display()
        );
    }
}

/// A fight: another player and a kobold in sight, hit points, fight lines.
#[test]
fn the_frame_matches_the_golden_image() {
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let state = common::known_state();
    assert!(!state.others.is_empty(), "the known state shows another player");
    assert!(state.log.len() >= 3, "and some messages");
    assert!(!state.monsters.is_empty(), "a monster");
    assert!(state.hp.is_some(), "and her hit points");
    matches_golden(&state, &Chat::default(), Page::Map, "frame.png");
}

/// A death: the record, the hall of the living and the graveyard in place
/// of the map.
#[test]
fn the_death_screen_matches_its_golden_image() {
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = common::known_state();
    let record =
        |name: &str, (depth, level), rounds, kills, by: &str| gloam_protocol::DeathRecord {
            name: name.into(),
            depth,
            rounds,
            kills,
            killed_by: by.into(),
            when: 1_796_000_000,
            level,
            escaped: false,
            morgue: 0,
        };
    let ann = record("ann", (1, 2), 118, 1, "a kobold");
    state.apply(&gloam_protocol::ServerMsg::Died(ann.clone())).unwrap();
    let eve = gloam_protocol::DeathRecord {
        escaped: true,
        ..record("eve", (10, 12), 9_120, 160, "the Gloamstone")
    };
    let graves = vec![
        eve,
        record("bob", (7, 6), 2_950, 41, "an ogre"),
        record("cat", (3, 4), 800, 9, "a wolf"),
        ann,
    ];
    state.apply(&gloam_protocol::ServerMsg::Graveyard(graves)).unwrap();
    matches_golden(&state, &Chat::default(), Page::End, "death.png");
}

/// Talking: lines of chat with each speaker's name in the colour its `@`
/// is drawn in, and a line being typed with its cursor.
#[test]
fn chat_lines_and_the_line_typed_match_their_golden_image() {
    use gloam_protocol::{ChatTo, PlayerId, ServerMsg};
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = common::known_state();
    let other = *state.others.keys().next().expect("another player in sight");
    let me = state.me.expect("welcomed");
    let lines = [
        (other, "bob", ChatTo::Depth, "found the stairs, over here"),
        (PlayerId(9), "cy", ChatTo::Everyone, "anyone near depth 4?"),
        (me, "ann", ChatTo::Depth, "on my way"),
    ];
    for (from, name, to, text) in lines {
        let chat = ServerMsg::Chat { from, name: name.into(), to, text: text.into() };
        state.apply(&chat).unwrap();
    }
    let mut line = gloam_client::chat::Line::default();
    line.insert("wait for me");
    line.left();
    let chat = Chat { line: Some(line), ..Chat::default() };
    matches_golden(&state, &chat, Page::Map, "chat.png");
}

/// The pack: each item by letter in its kind's colour, the weapon in hand
/// and the armour worn marked.
#[test]
fn the_pack_page_matches_its_golden_image() {
    use gloam_protocol::{Carried, ServerMsg};
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = common::known_state();
    let catalogue = gloam_server::items::Catalogue::default();
    state.apply(&ServerMsg::ItemKinds(catalogue.infos())).unwrap();
    let item = |name: &str, count, equipped| Carried {
        kind: catalogue.find(name).expect("a kind of the default catalogue"),
        count,
        equipped,
    };
    let pack = vec![
        item("potion of healing", 2, false),
        item("dart", 12, false),
        item("long sword", 1, true),
        item("dagger", 1, false),
        item("chain mail", 1, true),
        item("scroll of magic mapping", 1, false),
        item("the Gloamstone", 1, false),
    ];
    state.apply(&ServerMsg::Pack(pack)).unwrap();
    matches_golden(&state, &Chat::default(), Page::Pack, "pack.png");
}

/// A party of three beside the messages: each name in the colour its `@`
/// is drawn in (none of them near a monster's), with hit points and level.
#[test]
fn the_party_panel_matches_its_golden_image() {
    use gloam_client::palette::{DEFAULT, PlayerColours, too_close};
    use gloam_protocol::{Member, ServerMsg};
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = common::known_state();
    // ann, bob and cat, as the known state has them.
    let ids = [1, 2, 3].map(gloam_protocol::PlayerId);
    assert_eq!(state.me, Some(ids[0]));
    let party: Vec<Member> = ids
        .iter()
        .zip([("ann", 30, 3), ("bob", 14, 2), ("cat", 5, 4)])
        .map(|(&id, (name, hp, level))| Member { id, name: name.into(), hp, max: 30, level })
        .collect();
    state.apply(&ServerMsg::Party(party)).unwrap();
    state.apply(&ServerMsg::Experience { level: 3, xp: 140, next: 280 }).unwrap();
    let colours = PlayerColours::new(&state.kinds);
    for (i, a) in ids.iter().enumerate() {
        for kind in &state.kinds {
            let [r, g, b] = kind.colour;
            let drawn = DEFAULT.creature((r, g, b));
            assert!(!too_close(colours.of(*a), drawn), "{a:?} looks like a {}", kind.name);
        }
        for b in &ids[i + 1..] {
            assert_ne!(colours.of(*a), colours.of(*b), "{a:?} {b:?}");
        }
    }
    matches_golden(&state, &Chat::default(), Page::Map, "party.png");
}

/// Aiming a dart: the cursor on the kobold beside ann, the second row
/// saying at what.
#[test]
fn aiming_a_throw_matches_its_golden_image() {
    use gloam_protocol::{Carried, ServerMsg};
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = common::known_state();
    let catalogue = gloam_server::items::Catalogue::default();
    state.apply(&ServerMsg::ItemKinds(catalogue.infos())).unwrap();
    let dart = catalogue.find("dart").expect("darts");
    state
        .apply(&ServerMsg::Pack(vec![Carried { kind: dart, count: 12, equipped: false }]))
        .unwrap();
    let aim = gloam_client::aim::Aim::start(&state, 0);
    let kobold = state.monsters.values().next().expect("the kobold").at;
    assert_eq!(aim.cursor, kobold, "the nearest monster first");
    matches_golden_with(&state, &Chat::default(), Page::Map, |s| s.aim = Some(aim), "aim.png");
}

/// The monsters in sight listed beside the map, nearest first: each
/// letter in the colour it is drawn in on the map, its name and wound,
/// and whether it seems asleep (the jackal; the orc, wounded, asleep on a
/// row of its own).
#[test]
fn the_monster_list_matches_its_golden_image() {
    use gloam_protocol::{MonsterChange, MonsterId, ServerMsg, Wound};
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = common::known_state();
    let me = state.at.expect("ann stands somewhere");
    let kind = |name: &str| state.kinds.iter().position(|k| k.name == name).unwrap() as u16;
    let near = |dx: u16, (wound, asleep), name: &str, id| MonsterChange::Appeared {
        id: MonsterId(id),
        kind: kind(name),
        at: gloam_protocol::Pos::new(me.x + dx, me.y + 1),
        wound,
        asleep,
    };
    let more = vec![
        near(3, (Wound::Unhurt, true), "jackal", 900),
        near(4, (Wound::AlmostDead, false), "rat", 901),
        near(6, (Wound::Scratched, true), "orc", 902),
    ];
    state.apply(&ServerMsg::Monsters(more)).unwrap();
    matches_golden(&state, &Chat::default(), Page::Map, "monsters.png");
}

/// Looking: the cursor on the kobold beside ann, the second row naming
/// it, how hurt it looks and the ground it stands on.
#[test]
fn looking_at_a_monster_matches_its_golden_image() {
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let state = common::known_state();
    let look = gloam_client::look::Look::start(&state);
    let kobold = state.monsters.values().next().expect("the kobold").at;
    assert_eq!(look.cursor, kobold, "the nearest monster first");
    let said = gloam_client::look::describe(&state, look.cursor);
    assert!(said.starts_with("a kobold, "), "{said}");
    let at = Some(look.cursor);
    matches_golden_with(&state, &Chat::default(), Page::Map, |s| s.look = at, "look.png");
}

/// The help: the keys and the rules of the clock.
#[test]
fn the_help_page_matches_its_golden_image() {
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let state = common::known_state();
    matches_golden(&state, &Chat::default(), Page::Help, "help.png");
}

/// A new character's first screen: the host's backgrounds, each by its
/// letter with its hit points, skills, a line about it and its kit. The
/// link is still connecting, as the session's is until the welcome; the
/// HUD says so no more once the list came.
#[test]
fn the_first_screen_matches_its_golden_image() {
    use gloam_protocol::ServerMsg;
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let config = gloam_server::Config::default();
    let list = config.backgrounds.infos(&config.world_items());
    let mut state = gloam_client::ClientState::named("ann");
    state.apply(&ServerMsg::Backgrounds(list)).unwrap();
    let link: &'static Link = Box::leak(Box::new(Link::Connecting("ws://localhost:7777".into())));
    let connecting = |s: &mut Scene<'_>| s.link = link;
    matches_golden_with(&state, &Chat::default(), Page::Backgrounds, connecting, "first.png");
}

/// The whole log, read back with Ctrl+P: chat and the game's lines
/// together, each in its colour, a repeated line counted.
#[test]
fn the_full_screen_log_matches_its_golden_image() {
    use gloam_protocol::{ChatTo, PlayerId, ServerMsg};
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = common::known_state();
    for _ in 0..3 {
        state.apply(&ServerMsg::Combat("You miss the kobold.".into())).unwrap();
    }
    let chat = |text: &str| ServerMsg::Chat {
        from: PlayerId(2),
        name: "bob".into(),
        to: ChatTo::Depth,
        text: text.into(),
    };
    state.apply(&chat("kobolds come in twos, watch the corridor")).unwrap();
    state.apply(&ServerMsg::Combat("The kobold hits you (2).".into())).unwrap();
    state.apply(&ServerMsg::Others("cat picks up a dart.".into())).unwrap();
    matches_golden(&state, &Chat::default(), Page::Log, "log.png");
}

/// A small window (800 x 500, where the keys row used to be cut off) at a
/// zoom too large for it: the cell shrinks until the HUD fits, and every
/// letter of the HUD lies inside the window, at every size the window
/// allows, with the real font's letter widths.
#[test]
fn the_hud_is_never_cut_off_at_any_window_size_allowed() {
    use gloam_client::layout::MIN_WINDOW;
    use gloam_client::view::hud_glyphs;
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let ttf = sdl3::ttf::init().expect("SDL_ttf starts");
    let font =
        gloam_client::render::load_font(&ttf, &common::font_path(), 16.0).expect("the font loads");
    let state = common::known_state();
    let chat = Chat::default();
    let scene = Scene::new(&state, &chat, &Link::Playing, Page::Map);
    let letters = |cell| gloam_client::render::text_px_for(&font, cell).expect("the font sizes");
    for (width, height) in [MIN_WINDOW, (800, 500), (1024, 600), (1280, 720), (1920, 1080)] {
        for zoom in gloam_client::zoom::STEPS {
            let layout = Layout::fit(width, height, zoom, letters);
            let hud = hud_glyphs(&scene, 0, layout.hud_cols);
            let right = hud.iter().map(|g| u32::from(g.col) + 1).max().unwrap_or(0);
            let at = format!("{width}x{height} zoom {zoom}: {layout:?}");
            assert!(right * layout.text_px <= width, "{at}");
            let keys: String = hud.iter().filter(|g| g.row == 1).map(|g| g.ch).collect();
            assert!(keys.ends_with("?help") || keys.contains("Waiting"), "{at}: {keys}");
        }
    }
    let layout = Layout::fit(800, 500, 32, letters);
    let frame = render_offscreen(&font, (800, 500), layout.cell_px, &scene).expect("it draws");
    compare_with_golden(&frame, "small.png");
}

#[test]
fn a_missing_font_is_an_error_that_names_the_path() {
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let ttf = sdl3::ttf::init().expect("SDL_ttf starts");
    let Err(err) =
        gloam_client::render::load_font(&ttf, std::path::Path::new("/nowhere/font.ttf"), 16.0)
    else {
        panic!("a missing font loads");
    };
    assert!(err.to_string().contains("/nowhere/font.ttf"), "{err}");
}

/// The player page: a recording of the known state's rounds, paused, the
/// map and the HUD as the game draws them but for the playback's keys and
/// where it stands, on the messages' top row.
#[test]
fn the_player_page_matches_its_golden_image() {
    use gloam_client::replay::{Control, Recording, Replay};
    use gloam_protocol::{PlayerId, ServerMsg};
    let _sdl = SDL.lock().unwrap_or_else(|e| e.into_inner());
    let state = common::known_state();
    let mut recording = Recording::new("ann".into(), PlayerId(1), 1, 120, 220);
    for round in [131, 135, 140] {
        recording.push(round, ServerMsg::Stopped);
    }
    let mut replay = Replay::new(recording);
    let now = std::time::Instant::now();
    replay.press(Control::Step, now);
    replay.press(Control::Step, now);
    replay.press(Control::Faster, now);
    let ttf = sdl3::ttf::init().expect("SDL_ttf starts");
    let font =
        gloam_client::render::load_font(&ttf, &common::font_path(), 16.0).expect("the font loads");
    let chat = Chat::default();
    let mut scene = Scene::new(&state, &chat, &Link::Playing, Page::Map);
    scene.replay = Some(&replay);
    let text_px = gloam_client::render::text_px_for(&font, 16).expect("the font sizes");
    let size = Layout::window_for(80, 40, 16, text_px);
    let frame = render_offscreen(&font, size, 16, &scene).expect("the frame draws");
    compare_with_golden(&frame, "player.png");
}
