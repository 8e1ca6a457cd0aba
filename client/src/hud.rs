//! The rows under the map, as data: where the player is, its hit points
//! and who else is on this depth; the keys (or whom the round waits for,
//! or a prompt); and the last messages: the game's lines said since the
//! player last acted bright (fights and others' doings in their own
//! colours), older ones dim (see `state/log.rs` for when a line grows
//! old), and the lines of chat newest brightest. Each row is made to fit the window's width (see
//! [`crate::fit`]): nothing is cut off at the edge.

use gloam_protocol::{PlayerId, Pos};

use crate::aim::Aim;

use crate::chat::Line;
use crate::fit::{fit, wrap};
use crate::input::KEYS_HELP;
use crate::prompt::letter;
use crate::scene::{Link, Scene};
use crate::state::{ClientState, Experience, LogLine, Topic};

pub use crate::layout::HUD_ROWS;
/// What a lost link's row says to do (the page says its own: see
/// `web_export/keys.rs`, `WORDS`).
pub(crate) const LOST_KEYS: &str = "(Esc quits)";

/// What a link being tried again says it takes (the page stops trying on
/// Esc, as it cannot close itself).
pub(crate) const RETRY_KEYS: &str = "(Enter tries now, Esc quits)";

/// How many rows of messages it shows.
pub(crate) const MESSAGE_ROWS: usize =
    (crate::layout::GAME_ROWS + crate::layout::CHAT_ROWS) as usize;
/// How many rows of the game's lines (which PgUp and PgDn scroll).
pub(crate) const GAME_LINES: usize = crate::layout::GAME_ROWS as usize;
/// How many rows of chat, under them.
const CHAT_LINES: usize = crate::layout::CHAT_ROWS as usize;
/// What the chat rows say before anyone spoke.
const NO_CHAT_YET: &str = "Chat shows here: Enter talks. Ctrl+P reads back every message.";
/// The letters a row of the HUD holds in the default window, for
/// [`hud`].
pub const DEFAULT_COLS: u16 = 160;

/// How bright a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Bright,
    Middle,
    Dim,
    /// Something is wrong (the connection is gone, hit points are low).
    Alert,
    /// Healthy.
    Good,
    /// Hurt.
    Warn,
    /// A line about a fight.
    Combat,
    /// A line about what another player did.
    Others,
    /// A player's name, in the colour its `@` is drawn in.
    Player(PlayerId),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HudLine {
    pub text: String,
    pub tone: Tone,
    /// Stretches of the line in a tone of their own: (first character,
    /// length, tone), as the hit point bar or a speaker's name.
    pub accents: Vec<(usize, usize, Tone)>,
}

impl HudLine {
    fn new(text: impl Into<String>, tone: Tone) -> Self {
        Self { text: text.into(), tone, accents: Vec::new() }
    }
}

/// The width of the hit point bar, in characters.
const HP_BAR: usize = 10;

/// The hit points as `HP 24/30 [########--]`, and the bar's tone: good
/// above half, a warning above a quarter, an alert below.
fn hp_bar(hp: u16, max: u16) -> (String, Tone) {
    let max = max.max(1);
    let filled = (usize::from(hp) * HP_BAR).div_ceil(usize::from(max)).min(HP_BAR);
    let tone = hp_tone(hp, max);
    let bar = format!("{}{}", "#".repeat(filled), "-".repeat(HP_BAR - filled));
    (format!("HP {hp}/{max} [{bar}]"), tone)
}

/// How hit points look: good above half, a warning above a quarter, an
/// alert below.
fn hp_tone(hp: u16, max: u16) -> Tone {
    match u32::from(hp) * 4 {
        q if q > 2 * u32::from(max) => Tone::Good,
        q if q > u32::from(max) => Tone::Warn,
        _ => Tone::Alert,
    }
}

/// What Esc in play asks.
pub(crate) const QUIT_QUESTION: &str = "Really quit? (y/n)";

/// The keys line after a death or an escape.
/// The first row on the first screen: the server answered with its list
/// of backgrounds, so the line that said it was being reached is gone.
const FIRST_STATUS: &str = "A new character";

const END_KEYS: &str = "a new character: Enter   graveyard: G   quit: Esc";

/// [`END_KEYS`] of a life whose last rounds can be watched again (it has a
/// morgue number: see the end page).
const END_KEYS_REPLAY: &str = "a new character: Enter   last rounds: r   graveyard: G   quit: Esc";

/// The keys line of a watcher whose player's game ended: nothing is left
/// to watch, talk to or ask for (the page says its own: see
/// `web_export/keys.rs`, `WORDS`).
pub(crate) const WATCHER_END_KEYS: &str = "leave: Esc";

/// The keys line of a watcher, who never acts.
const WATCHER_KEYS: &str =
    "watching: you cannot act   Enter talk  PgUp PgDn messages  G graveyard  Esc leave";

/// The line being typed: "Say: ..." with the cursor in the warning
/// colour (a `_` past the end); a line longer than the row shows the
/// stretch before the cursor.
fn typing_row(line: &Line, cols: usize) -> HudLine {
    let head = "Say: ";
    let shown = cols.saturating_sub(head.len() + 1).max(1);
    let skip = line.cursor().saturating_sub(shown);
    let mut text: String = line.text().chars().skip(skip).collect();
    if line.cursor() == line.text().chars().count() {
        text.push('_');
    }
    let text: String = text.chars().take(shown + 1).collect();
    let mut row = HudLine::new(format!("{head}{text}"), Tone::Bright);
    row.accents.push((head.len() + line.cursor() - skip, 1, Tone::Warn));
    row
}

/// The HUD's rows, top to bottom, in a row of [`DEFAULT_COLS`] letters.
pub fn hud(scene: &Scene<'_>) -> Vec<HudLine> {
    let cols = usize::from(DEFAULT_COLS);
    hud_at(scene, cols, message_cols(scene.state, cols))
}

/// The HUD's rows, top to bottom, in rows of `cols` letters, the messages
/// in `message_cols` of them (the rest is the party panel's).
pub fn hud_at(scene: &Scene<'_>, cols: usize, message_cols: usize) -> Vec<HudLine> {
    if let Some(replay) = scene.replay {
        return replay_rows(scene.state, replay, cols, message_cols);
    }
    let state = scene.state;
    let scroll = scene.chat.scroll.min(game_lines(state).saturating_sub(GAME_LINES));
    let typing = scene.chat.line.as_ref();
    let second = match (scene.aim, scene.look) {
        _ if scene.asking_to_quit => HudLine::new(QUIT_QUESTION, Tone::Warn),
        _ if typing.is_some() => second_row(state, typing, scroll, cols),
        (Some(aim), _) => aim_row(state, aim, cols),
        (None, Some(at)) => look_row(state, at, cols),
        (None, None) => second_row(state, typing, scroll, cols),
    };
    let mut rows = vec![status_row(state, scene.link, cols), second];
    let game = state.log.iter().filter(|l| !l.is_chat());
    let tone = |line: &LogLine, _| game_tone(state, line);
    rows.extend(pad(message_rows(game, scroll, message_cols, GAME_LINES, tone), GAME_LINES));
    let chat = state.log.iter().filter(|l| l.is_chat());
    let chat = message_rows(chat, 0, message_cols, CHAT_LINES, |_, age| chat_tone(age));
    if chat.is_empty() {
        rows.push(HudLine::new(fit(NO_CHAT_YET, message_cols, ": "), Tone::Dim));
    }
    rows.extend(chat);
    pad(rows, usize::from(HUD_ROWS))
}

/// The keys row of the player page, where a recording plays.
pub(crate) const REPLAY_KEYS: &str =
    "Space: pause    +/-: faster, slower    .: one round    Esc: back";

/// [`REPLAY_KEYS`] once the recording has ended.
pub(crate) const REPLAY_KEYS_ENDED: &str = "Space: play again    +/-: faster, slower    Esc: back";

/// The HUD of the player page: the game's first row (of the recording's
/// mirror), the playback's keys, then where the playback stands on the
/// messages' top row and the recording's lines under it. Nothing is said
/// on the chat rows: a recording holds no chat.
fn replay_rows(
    state: &ClientState,
    replay: &crate::replay::Replay,
    cols: usize,
    message_cols: usize,
) -> Vec<HudLine> {
    let keys = if replay.ended() { REPLAY_KEYS_ENDED } else { REPLAY_KEYS };
    let keys = HudLine::new(fit(keys, cols, "    "), Tone::Dim);
    let status = HudLine::new(fit(&replay.status(), message_cols, ", "), Tone::Warn);
    let mut rows = vec![status_row(state, &Link::Playing, cols), keys, status];
    let game = state.log.iter().filter(|l| !l.is_chat());
    let tone = |line: &LogLine, _| game_tone(state, line);
    rows.extend(pad(message_rows(game, 0, message_cols, GAME_LINES - 1, tone), GAME_LINES - 1));
    pad(rows, usize::from(HUD_ROWS))
}

/// The first row: the connection (on the first screen, once the server
/// answered, that a new character is being made), or the depth, hit
/// points, experience and who else is here.
fn status_row(state: &ClientState, link: &Link, cols: usize) -> HudLine {
    if let Some(end) = state.ending() {
        // The server closes the connection after a death: that is the end
        // of a game, not a fault of the network. Said to the player as the
        // end page says it ("You died on depth 3..."), of it to a watcher.
        let how = if end.escaped { "escaped" } else { "died" };
        let who = if state.watched().is_some() { end.name.as_str() } else { "You" };
        return HudLine::new(format!("{who} {how}. The game is over."), Tone::Middle);
    }
    match link {
        Link::Connecting(_) if first_screen(state) => HudLine::new(FIRST_STATUS, Tone::Middle),
        Link::Connecting(addr) => HudLine::new(format!("Connecting to {addr}..."), Tone::Middle),
        Link::Lost(why) => {
            HudLine::new(fit(&format!("Disconnected: {why}  {LOST_KEYS}"), cols, "  "), Tone::Alert)
        }
        Link::Retrying { why, left } => {
            let when = match left {
                Some(s) => format!("Trying again in {s} s..."),
                None => "Trying again now...".into(),
            };
            let row = format!("Connection lost. {when}  {why}  {RETRY_KEYS}");
            HudLine::new(fit(&row, cols, "  "), Tone::Alert)
        }
        Link::Playing if state.depth == 0 => HudLine::new("Joining...", Tone::Middle),
        Link::Playing => playing_row(state, cols),
    }
}

/// The first row in play: `Depth 3   HP 24/30 [########--]   Lv 3
/// 140/280xp   also here: bob`; a roster too long for the row is counted
/// instead (`also here: 12 others`), and at worst the experience left out.
fn playing_row(state: &ClientState, cols: usize) -> HudLine {
    let mut row = playing_row_with(state, &others_here(state), true);
    if row.text.chars().count() > cols {
        let counted = format!("also here: {} others", state.roster.len());
        row = playing_row_with(state, &counted, true);
    }
    if row.text.chars().count() > cols {
        row = playing_row_with(state, &format!("{} here", state.roster.len() + 1), false);
    }
    row.text = row.text.chars().take(cols).collect();
    row
}

/// Who else is on the depth, or that nobody is.
fn others_here(state: &ClientState) -> String {
    if state.roster.is_empty() {
        match state.watched() {
            Some(player) => format!("{player} is alone here"),
            None => "you are alone here".to_string(),
        }
    } else {
        format!("also here: {}", state.roster.join(", "))
    }
}

/// The first row in play, saying `others` of who else is here (and the
/// experience, if `experience`).
fn playing_row_with(state: &ClientState, others: &str, experience: bool) -> HudLine {
    let head = match &state.watching {
        Some((player, _)) => format!("Watching {player}   Depth {}   ", state.depth),
        None => format!("Depth {}   ", state.depth),
    };
    let watched = match state.watchers.len() {
        0 => String::new(),
        n => format!("   {n} watching"),
    };
    let experience =
        state.experience.filter(|_| experience).map(experience_text).unwrap_or_default();
    match state.hp {
        Some((hp, max)) => {
            let (vitals, tone) = hp_bar(hp, max);
            let bar_at = head.chars().count() + vitals.find('[').unwrap_or(0) + 1;
            let text = format!("{head}{vitals}   {experience}{others}{watched}");
            let mut line = HudLine::new(text, Tone::Bright);
            line.accents.push((bar_at, HP_BAR, tone));
            line
        }
        None => HudLine::new(format!("{head}{experience}{others}{watched}"), Tone::Bright),
    }
}

/// The experience as `Lv 3  140/280xp   ` (`Lv 12  5000xp   ` at the
/// highest level).
fn experience_text(e: Experience) -> String {
    match e.next {
        0 => format!("Lv {}  {}xp   ", e.level, e.xp),
        next => format!("Lv {}  {}/{next}xp   ", e.level, e.xp),
    }
}

/// The second row: the line being typed, else whom the round waits for,
/// else how far the messages are scrolled back, else the keys (the first
/// screen's before a new character's welcome).
fn second_row(state: &ClientState, typing: Option<&Line>, scroll: usize, cols: usize) -> HudLine {
    let (text, tone) = if let Some(line) = typing {
        return typing_row(line, cols);
    } else if state.ending().is_some() {
        let replayable = state.ending().is_some_and(|d| d.morgue > 0);
        let keys = match (state.watched(), replayable) {
            (Some(_), _) => WATCHER_END_KEYS,
            (None, true) => END_KEYS_REPLAY,
            (None, false) => END_KEYS,
        };
        (keys.to_owned(), Tone::Dim)
    } else if !state.waiting.is_empty() {
        (waiting_text(&state.waiting, cols), Tone::Warn)
    } else if scroll > 0 {
        let lines = if scroll == 1 { "line" } else { "lines" };
        (format!("{scroll} newer {lines} below (PgDn)"), Tone::Warn)
    } else if state.watching.is_some() {
        (WATCHER_KEYS.to_owned(), Tone::Dim)
    } else if first_screen(state) {
        // The first screen: the map's keys do nothing yet.
        (crate::first_screen::FIRST_KEYS.to_owned(), Tone::Dim)
    } else {
        (KEYS_HELP.to_owned(), Tone::Dim)
    };
    HudLine::new(fit(&text, cols, "  "), tone)
}

/// Whether a new character is being made: the server listed the
/// backgrounds and has not welcomed the player yet.
fn first_screen(state: &ClientState) -> bool {
    state.me.is_none() && !state.backgrounds.is_empty()
}

/// "Waiting for bob, cy...", or as many names as fit and how many more.
fn waiting_text(names: &[String], cols: usize) -> String {
    let all = format!("Waiting for {}...", names.join(", "));
    if all.chars().count() <= cols {
        return all;
    }
    // The most names that fit with how many more: the text grows with each
    // name, so the names are counted once, forward (a roster may hold
    // thousands, and this is drawn every frame).
    let head = "Waiting for ".len();
    let mut listed = 0;
    let mut fits = None;
    for (n, name) in names.iter().enumerate() {
        let more = format!(" and {} more...", names.len() - n);
        if head + listed + more.len() > cols {
            break;
        }
        fits = Some(n);
        listed += name.chars().count() + if n > 0 { 2 } else { 0 };
    }
    match fits {
        Some(n) => {
            format!("Waiting for {} and {} more...", names[..n].join(", "), names.len() - n)
        }
        None => format!("Waiting for {} players...", names.len()),
    }
}

/// The second row while a throw or a zap is aimed: what at, and the keys.
fn aim_row(state: &ClientState, aim: Aim, cols: usize) -> HudLine {
    let missile = match state.pack.get(usize::from(aim.slot)).map(|c| state.item_kind(c.kind)) {
        Some(Some(kind)) => format!("{}) {}", letter(aim.slot), kind.name),
        _ => format!("{})", letter(aim.slot)),
    };
    let target = match what_is_at(state, aim.cursor) {
        Some(what) => what,
        None => "here".into(),
    };
    let away =
        state.at.map_or(0, |me| me.x.abs_diff(aim.cursor.x).max(me.y.abs_diff(aim.cursor.y)));
    // Nothing is thrown or zapped at oneself: the row says where to go.
    let aimed = if Some(aim.cursor) == state.at {
        ": move the cursor onto a target".to_owned()
    } else {
        format!(" at {target} ({away} away)")
    };
    let text = if aim.zaps {
        format!(
            "Zap {missile}{aimed}   Tab Space + - next target   direction keys move   Enter . z zap   Esc cancel"
        )
    } else {
        format!(
            "Throw {missile}{aimed}   Tab Space + - next target   direction keys move   Enter t f throw   Esc cancel"
        )
    };
    HudLine::new(fit(&text, cols, "   "), Tone::Warn)
}

/// The keys while looking, after what the cursor is on.
const LOOK_KEYS: &str = "direction keys move   Tab next monster   Esc or x leaves";

/// The second row while looking: what is under the cursor (bright), then
/// the keys that fit after it (dim).
fn look_row(state: &ClientState, at: Pos, cols: usize) -> HudLine {
    let what = format!("Look: {}", crate::look::describe(state, at));
    let said = what.chars().count();
    let room = cols.saturating_sub(said + 3);
    let keys = fit(LOOK_KEYS, room, "   ");
    if said >= cols || keys.chars().count() < "Esc or x leaves".len() {
        return HudLine::new(what.chars().take(cols).collect::<String>(), Tone::Bright);
    }
    let mut row = HudLine::new(format!("{what}   {keys}"), Tone::Bright);
    row.accents.push((said + 3, keys.chars().count(), Tone::Dim));
    row
}

/// Who stands at `pos`, as the aiming row names it: a monster in sight,
/// another player, or the player itself.
fn what_is_at(state: &ClientState, pos: Pos) -> Option<String> {
    if state.at == Some(pos) {
        return Some("yourself".into());
    }
    if let Some(m) = state.monsters.values().find(|m| m.at == pos) {
        return Some(crate::look::the(state.kind_of(m).map_or("monster", |k| k.name.as_str())));
    }
    state.others.values().find(|o| o.at == pos).map(|o| o.name.clone())
}

/// How many of the game's lines (not chat) the log holds.
pub(crate) fn game_lines(state: &ClientState) -> usize {
    state.log.iter().filter(|l| !l.is_chat()).count()
}

/// `rows`, with blank rows after them up to `count`.
fn pad(mut rows: Vec<HudLine>, count: usize) -> Vec<HudLine> {
    rows.resize(count.max(rows.len()), HudLine::new("", Tone::Dim));
    rows
}

/// The last `count` rows of `lines` (oldest first), `scroll` lines back
/// from the newest, each wrapped to `cols` letters in the tone `tone`
/// gives it (and its age, 0 the newest): the newest lowest, a speaker's
/// name in its colour.
fn message_rows<'a>(
    lines: impl DoubleEndedIterator<Item = &'a LogLine>,
    scroll: usize,
    cols: usize,
    count: usize,
    tone: impl Fn(&LogLine, usize) -> Tone,
) -> Vec<HudLine> {
    let mut rows: Vec<HudLine> = Vec::with_capacity(count);
    for (age, line) in lines.rev().skip(scroll).enumerate() {
        if rows.len() >= count {
            break;
        }
        let wrapped = line_rows(line, tone(line, age), cols);
        rows.splice(0..0, wrapped);
    }
    let extra = rows.len().saturating_sub(count);
    rows.drain(..extra);
    rows
}

/// A game's line: dim once the player acted since it was said, else
/// bright, a fight's or another player's in its own colour.
fn game_tone(state: &ClientState, line: &LogLine) -> Tone {
    match line.topic {
        _ if !state.is_news(line) => Tone::Dim,
        Topic::Combat => Tone::Combat,
        Topic::Others => Tone::Others,
        Topic::Note | Topic::Chat => Tone::Bright,
    }
}

/// A line of chat `age` lines back: the newest brightest.
fn chat_tone(age: usize) -> Tone {
    match age {
        0 => Tone::Bright,
        1 => Tone::Middle,
        _ => Tone::Dim,
    }
}

/// One line of the log as rows of at most `cols` letters, in `tone`.
fn line_rows(line: &LogLine, tone: Tone, cols: usize) -> Vec<HudLine> {
    wrap(&line.shown(), cols)
        .into_iter()
        .map(|(start, text)| {
            let mut row = HudLine::new(text, tone);
            if let Some((id, from, len)) = line.speaker.filter(|_| start == 0) {
                row.accents.push((from, len, Tone::Player(id)));
            }
            row
        })
        .collect()
}

/// The most entries the party panel shows (two columns beside the
/// messages); a larger party's last entry says how many more.
pub(crate) const PANEL_ENTRIES: usize = 2 * MESSAGE_ROWS;

/// The party panel, shown beside the messages once the player shares its
/// round with someone: an entry a member, itself first, as `bob  12/30 Lv
/// 3`, the name in its player's colour and the hit points in the tone of
/// the hit point bar.
pub fn party_panel(state: &ClientState) -> Vec<HudLine> {
    let party = &state.party;
    if party.len() < 2 {
        return Vec::new();
    }
    let widest = party.iter().map(|m| m.name.chars().count()).max().unwrap_or(0);
    let shown = if party.len() > PANEL_ENTRIES { PANEL_ENTRIES - 1 } else { party.len() };
    let mut entries: Vec<HudLine> = party[..shown]
        .iter()
        .map(|m| {
            let (name, hp) = (m.name.chars().count(), format!("{}/{}", m.hp, m.max));
            let hp_field = format!("{hp:>7}");
            let text = format!("{}{} {hp_field} Lv {}", m.name, " ".repeat(widest - name), m.level);
            let mut entry = HudLine::new(text, Tone::Middle);
            entry.accents.push((0, name, Tone::Player(m.id)));
            let hp_at = widest + 1 + hp_field.len() - hp.len();
            entry.accents.push((hp_at, hp.len(), hp_tone(m.hp, m.max)));
            entry
        })
        .collect();
    if shown < party.len() {
        entries.push(HudLine::new(format!("+{} more", party.len() - shown), Tone::Dim));
    }
    entries
}

/// How far the messages stop short of the party panel.
pub(crate) const PANEL_GAP: u16 = 4;

/// The letters a row of messages holds in a HUD row of `cols` letters:
/// all of them, or those left of the party panel.
pub(crate) fn message_cols(state: &ClientState, cols: usize) -> usize {
    let panel = party_panel(state);
    if panel.is_empty() {
        return cols;
    }
    let (left, _) = panel_place(&panel, cols.min(usize::from(u16::MAX)) as u16);
    usize::from(left - PANEL_GAP)
}

/// Where the party panel's first column starts in a row of `width`
/// letters, and how wide each of its columns is.
pub(crate) fn panel_place(panel: &[HudLine], width: u16) -> (u16, u16) {
    let widest = panel.iter().map(|e| e.text.chars().count()).max().unwrap_or(0);
    let column = widest as u16 + 3;
    let columns = panel.len().div_ceil(MESSAGE_ROWS) as u16;
    (width.saturating_sub(columns * column).max(PANEL_GAP), column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gloam_protocol::{PlayerId, ServerMsg};

    /// The HUD of `state` on the map, nothing typed or scrolled back.
    fn hud_of(state: &ClientState, link: &Link) -> Vec<HudLine> {
        hud(&Scene::new(state, &crate::chat::Chat::default(), link, crate::scene::Page::Map))
    }

    fn playing(depth: u16, roster: &[&str], notes: &[&str]) -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 10, 5, depth);
        s.apply(&ServerMsg::Roster(roster.iter().map(|s| s.to_string()).collect())).unwrap();
        for n in notes {
            s.apply(&ServerMsg::Note((*n).into())).unwrap();
        }
        s
    }

    #[test]
    fn the_waiting_row_lists_the_names_that_fit_and_counts_the_rest() {
        let names: Vec<String> = ["bobby", "cyrus", "deedee"].map(String::from).into();
        assert_eq!(waiting_text(&names, 80), "Waiting for bobby, cyrus, deedee...");
        assert_eq!(waiting_text(&names, 34), "Waiting for bobby and 2 more...");
        assert_eq!(waiting_text(&names, 30), "Waiting for  and 3 more...");
        assert_eq!(waiting_text(&names, 25), "Waiting for 3 players...");
        let longer: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
        assert_eq!(waiting_text(&longer, 40), "Waiting for p0, p1, p2, p3 and 8 more...");
        // Thousands of names (a hostile roster) in one pass.
        let many: Vec<String> = (0..4096).map(|i| format!("p{i}")).collect();
        let row = waiting_text(&many, 80);
        assert!(row.chars().count() <= 80 && row.ends_with(" more..."), "{row}");
    }

    #[test]
    fn scrolled_back_the_second_row_counts_the_newer_lines_below() {
        let state = playing(1, &[], &[]);
        assert_eq!(second_row(&state, None, 1, 80).text, "1 newer line below (PgDn)");
        assert_eq!(second_row(&state, None, 2, 80).text, "2 newer lines below (PgDn)");
    }

    #[test]
    fn the_first_row_names_the_depth_and_the_others_here() {
        let rows = hud_of(&playing(3, &["bob", "cat"], &[]), &Link::Playing);
        assert_eq!(rows[0], HudLine::new("Depth 3   also here: bob, cat", Tone::Bright));
        let alone = hud_of(&playing(1, &[], &[]), &Link::Playing);
        assert_eq!(alone[0].text, "Depth 1   you are alone here");
        assert_eq!(alone[1].text, KEYS_HELP);
    }

    #[test]
    fn the_last_messages_show_at_the_bottom_newest_lowest() {
        let notes: Vec<String> = (0..20).map(|i| format!("note {i}")).collect();
        let notes: Vec<&str> = notes.iter().map(String::as_str).collect();
        let rows = hud_of(&playing(1, &[], &notes), &Link::Playing);
        assert_eq!(rows.len(), usize::from(HUD_ROWS));
        let last = 2 + GAME_LINES - 1;
        assert_eq!(rows[last], HudLine::new("note 19", Tone::Bright));
        assert_eq!(rows[last - 1], HudLine::new("note 18", Tone::Bright), "news, all of it");
        assert_eq!(rows[2].text, format!("note {}", 20 - GAME_LINES), "more than three lines");
    }

    /// The answer to an action: a sight where the player stands.
    fn answered(s: &mut ClientState) {
        let sight = gloam_protocol::SightDiff { at: Pos::new(2, 2), ..Default::default() };
        s.apply(&ServerMsg::Sight(sight)).unwrap();
    }

    /// The game's rows as (text, tone), oldest first, blank ones left out.
    fn game_rows(s: &ClientState) -> Vec<(String, Tone)> {
        let rows = hud_of(s, &Link::Playing);
        rows[2..2 + GAME_LINES]
            .iter()
            .filter(|r| !r.text.is_empty())
            .map(|r| (r.text.clone(), r.tone))
            .collect()
    }

    /// "You see a dagger here." reads as news until the player acts again,
    /// then dims, a fight's lines too; a line said again is news again,
    /// still counted on its row.
    #[test]
    fn the_games_lines_said_before_the_players_last_action_are_dimmed() {
        let mut s = playing(1, &[], &[]);
        s.apply(&ServerMsg::Note("You see a dagger here.".into())).unwrap();
        answered(&mut s);
        assert_eq!(game_rows(&s), [("You see a dagger here.".into(), Tone::Bright)]);
        s.age_log();
        assert_eq!(game_rows(&s), [("You see a dagger here.".into(), Tone::Dim)], "it walked on");
        answered(&mut s);
        s.apply(&ServerMsg::Combat("The jackal bites you (2).".into())).unwrap();
        for _ in 0..2 {
            s.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        }
        answered(&mut s);
        assert_eq!(
            game_rows(&s)[1..],
            [
                ("The jackal bites you (2).".into(), Tone::Combat),
                ("You miss the jackal. (x2)".into(), Tone::Combat)
            ]
        );
        s.age_log();
        s.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        assert_eq!(
            game_rows(&s),
            [
                ("You see a dagger here.".into(), Tone::Dim),
                ("The jackal bites you (2).".into(), Tone::Dim),
                ("You miss the jackal. (x3)".into(), Tone::Combat)
            ]
        );
    }

    /// A watcher sends no action: its player's lines grow old when the
    /// answer to the player's next action comes.
    #[test]
    fn a_watcher_reads_its_players_lines_as_old_once_its_next_action_is_answered() {
        let mut s = playing(1, &[], &[]);
        s.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        s.apply(&ServerMsg::Note("You see a dagger here.".into())).unwrap();
        answered(&mut s);
        let dagger = "ann sees a dagger here.".to_string();
        assert_eq!(game_rows(&s)[1], (dagger.clone(), Tone::Bright));
        s.apply(&ServerMsg::Others("bob goes down the stairs.".into())).unwrap();
        answered(&mut s);
        assert_eq!(
            game_rows(&s)[1..],
            [(dagger, Tone::Dim), ("bob goes down the stairs.".into(), Tone::Others)],
            "said after the answer that told of the dagger"
        );
    }

    #[test]
    fn fewer_messages_leave_blank_rows() {
        let rows = hud_of(&playing(1, &[], &["only"]), &Link::Playing);
        assert_eq!(rows.len(), usize::from(HUD_ROWS));
        assert_eq!(rows[2], HudLine::new("only", Tone::Bright));
        assert_eq!(rows[3].text, "");
    }

    #[test]
    fn hit_points_show_with_a_bar_that_turns_colour_when_low() {
        let mut s = playing(2, &["bob"], &[]);
        s.apply(&ServerMsg::Vitals { hp: 30, max: 30 }).unwrap();
        let row = &hud_of(&s, &Link::Playing)[0];
        assert_eq!(row.text, "Depth 2   HP 30/30 [##########]   also here: bob");
        let (at, len, tone) = row.accents[0];
        assert_eq!((&row.text[at..at + len], tone), ("##########", Tone::Good));
        s.apply(&ServerMsg::Vitals { hp: 12, max: 30 }).unwrap();
        let row = &hud_of(&s, &Link::Playing)[0];
        assert!(row.text.contains("HP 12/30 [####------]"), "{}", row.text);
        assert_eq!(row.accents[0].2, Tone::Warn);
        s.apply(&ServerMsg::Vitals { hp: 3, max: 30 }).unwrap();
        assert_eq!(hud_of(&s, &Link::Playing)[0].accents[0].2, Tone::Alert);
    }

    #[test]
    fn before_a_new_characters_welcome_the_hud_rows_are_the_first_screens() {
        let mut s = ClientState::named("ann");
        let link = Link::Connecting("ws://here".into());
        assert_eq!(hud_of(&s, &link)[1].text, KEYS_HELP);
        assert_eq!(hud_of(&s, &link)[0].text, "Connecting to ws://here...");
        s.apply(&ServerMsg::Backgrounds(crate::testing::backgrounds())).unwrap();
        assert_eq!(hud_of(&s, &link)[1].text, crate::first_screen::FIRST_KEYS);
        let first = &hud_of(&s, &link)[0];
        assert_eq!(first.text, FIRST_STATUS, "the server answered: no connecting line");
        s.apply(&crate::testing::welcome(gloam_protocol::PlayerId(1), 20, 10)).unwrap();
        assert_eq!(hud_of(&s, &Link::Playing)[1].text, KEYS_HELP, "the map's keys once welcomed");
    }

    #[test]
    fn whom_the_round_waits_for_replaces_the_keys_and_fights_have_their_colour() {
        let mut s = playing(1, &["bob", "cy"], &["You hit the orc (3)."]);
        s.apply(&ServerMsg::Waiting(vec!["bob".into(), "cy".into()])).unwrap();
        s.apply(&ServerMsg::Combat("The orc hits you (4).".into())).unwrap();
        let rows = hud_of(&s, &Link::Playing);
        assert_eq!(rows[1], HudLine::new("Waiting for bob, cy...", Tone::Warn));
        assert_eq!(rows[3], HudLine::new("The orc hits you (4).", Tone::Combat));
        assert_eq!(rows[2].tone, Tone::Bright, "a note said since the player acted");
        s.apply(&ServerMsg::Waiting(vec![])).unwrap();
        assert_eq!(hud_of(&s, &Link::Playing)[1].text, KEYS_HELP);
        s.apply(&ServerMsg::Others("cy goes down the stairs.".into())).unwrap();
        assert_eq!(
            hud_of(&s, &Link::Playing)[4],
            HudLine::new("cy goes down the stairs.", Tone::Others)
        );
    }

    #[test]
    fn a_player_sees_how_many_watch_and_a_watcher_whom_it_watches() {
        let mut s = playing(2, &[], &[]);
        s.apply(&ServerMsg::Watchers(vec!["bob".into(), "cy".into()])).unwrap();
        let rows = hud_of(&s, &Link::Playing);
        assert_eq!(rows[0].text, "Depth 2   you are alone here   2 watching");
        assert_eq!(rows[2].text, "bob is watching you.");
        assert_eq!(rows[3].text, "cy is watching you.");
        s.apply(&ServerMsg::Watchers(vec!["cy".into()])).unwrap();
        assert_eq!(hud_of(&s, &Link::Playing)[4].text, "bob stopped watching you.");

        let mut alone = playing(3, &[], &[]);
        alone.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        let first = &hud_of(&alone, &Link::Playing)[0].text;
        assert_eq!(first, "Watching ann   Depth 3   ann is alone here", "never \"you\"");

        let mut w = playing(3, &["ann"], &[]);
        w.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        let rows = hud_of(&w, &Link::Playing);
        assert_eq!(rows[0].text, "Watching ann   Depth 3   also here: ann");
        assert_eq!(rows[1].text, WATCHER_KEYS);
        assert_eq!(rows[2].text, "You are watching ann.");
        assert!(
            WATCHER_KEYS.chars().count() <= KEYS_HELP.chars().count(),
            "fits where the keys do"
        );
    }

    #[test]
    fn who_is_playing_is_listed_in_lines_a_row_holds() {
        let mut s = playing(1, &[], &[]);
        let one = |name: &str, watchers, watchable| gloam_protocol::Playing {
            name: name.into(),
            watchers,
            watchable,
        };
        let mut all = vec![one("ann", 2, true), one("bob", 0, false), one("cy", 0, true)];
        all.extend((0..8).map(|i| one(&format!("player{i:02}"), 0, true)));
        s.apply(&ServerMsg::Who(all)).unwrap();
        let lines: Vec<&str> = s.log.iter().map(|l| l.text.as_str()).collect();
        assert!(
            lines[0].starts_with("Playing now (11), watch with --watch NAME: ann (2 watching)")
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 78), "{lines:?}");
        let names: String = lines.concat();
        assert!(names.contains("bob (not to be watched)") && names.contains("player07"));
        assert!(lines.len() >= 2, "wrapped: {lines:?}");
    }

    #[test]
    fn the_first_row_gives_the_level_and_experience() {
        let mut s = playing(3, &[], &[]);
        s.apply(&ServerMsg::Vitals { hp: 24, max: 30 }).unwrap();
        s.apply(&ServerMsg::Experience { level: 3, xp: 140, next: 280 }).unwrap();
        let row = &hud_of(&s, &Link::Playing)[0];
        assert_eq!(
            row.text,
            "Depth 3   HP 24/30 [########--]   Lv 3  140/280xp   you are alone here"
        );
        assert_eq!(row.accents, [(20, HP_BAR, Tone::Good)], "the bar is where it was");
        s.apply(&ServerMsg::Experience { level: 12, xp: 9000, next: 0 }).unwrap();
        assert!(hud_of(&s, &Link::Playing)[0].text.contains("   Lv 12  9000xp   you are"));
    }

    #[test]
    fn while_aiming_the_second_row_says_at_what_and_the_keys() {
        use gloam_protocol::{KindInfo, MonsterChange, MonsterId, SightDiff, Wound};
        let mut s = crate::prompt::tests::packed();
        s.apply(&ServerMsg::Sight(SightDiff { at: Pos::new(5, 5), ..SightDiff::default() }))
            .unwrap();
        s.apply(&ServerMsg::Kinds(vec![KindInfo {
            name: "kobold".into(),
            glyph: 'k',
            colour: [1, 1, 1],
        }]))
        .unwrap();
        let at = Pos::new(7, 3);
        let kobold = MonsterChange::Appeared {
            id: MonsterId(1),
            kind: 0,
            at,
            wound: Wound::Unhurt,
            asleep: false,
        };
        s.apply(&ServerMsg::Monsters(vec![kobold])).unwrap();
        let (chat, link) = (crate::chat::Chat::default(), Link::Playing);
        let mut scene = Scene::new(&s, &chat, &link, crate::scene::Page::Map);
        scene.aim = Some(Aim::start(&s, 1));
        let row = &hud(&scene)[1];
        assert!(row.text.starts_with("Throw b) dart at the kobold (2 away)   Tab"), "{}", row.text);
        assert!(row.text.ends_with("Esc cancel") && row.text.chars().count() <= 160);
        // On the player: it says where to put the cursor, not "at yourself".
        let mut aim = Aim::start(&s, 1);
        aim.cursor = s.at.unwrap();
        scene.aim = Some(aim);
        let row = &hud(&scene)[1];
        let wanted = "Throw b) dart: move the cursor onto a target   Tab";
        assert!(row.text.starts_with(wanted), "{}", row.text);
    }

    #[test]
    fn while_looking_the_second_row_names_what_is_under_the_cursor() {
        let s = playing(1, &[], &[]);
        let (chat, link) = (crate::chat::Chat::default(), Link::Playing);
        let mut scene = Scene::new(&s, &chat, &link, crate::scene::Page::Map);
        scene.look = Some(Pos::new(3, 3));
        let row = &hud(&scene)[1];
        assert_eq!(row.text, format!("Look: You do not know this place.   {LOOK_KEYS}"));
        assert_eq!(row.accents, [(36, LOOK_KEYS.len(), Tone::Dim)]);
        let narrow = hud_at(&scene, 50, 50);
        assert_eq!(narrow[1].text, "Look: You do not know this place.", "what, before the keys");
        assert!(hud_at(&scene, 20, 20)[1].text.chars().count() <= 20);
    }

    #[test]
    fn the_party_panel_names_each_member_in_its_colour_with_its_hit_points() {
        use gloam_protocol::Member;
        let mut s = playing(1, &[], &[]);
        let member = |id, name: &str, hp, level| Member {
            id: PlayerId(id),
            name: name.into(),
            hp,
            max: 30,
            level,
        };
        s.apply(&ServerMsg::Party(vec![member(1, "ann", 30, 2)])).unwrap();
        assert!(party_panel(&s).is_empty(), "alone: no panel");
        let party =
            vec![member(1, "ann", 30, 2), member(5, "bobby", 12, 10), member(3, "cy", 3, 1)];
        s.apply(&ServerMsg::Party(party)).unwrap();
        let panel = party_panel(&s);
        let texts: Vec<&str> = panel.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["ann     30/30 Lv 2", "bobby   12/30 Lv 10", "cy       3/30 Lv 1"]);
        let spans = |e: &HudLine| -> Vec<(String, Tone)> {
            let chars: Vec<char> = e.text.chars().collect();
            e.accents.iter().map(|&(at, n, t)| (chars[at..at + n].iter().collect(), t)).collect()
        };
        assert_eq!(
            spans(&panel[1]),
            [("bobby".to_string(), Tone::Player(PlayerId(5))), ("12/30".into(), Tone::Warn)]
        );
        assert_eq!(spans(&panel[2])[1], ("3/30".into(), Tone::Alert));
        assert_eq!(spans(&panel[0])[1], ("30/30".into(), Tone::Good));
    }

    #[test]
    fn a_large_party_shows_its_first_members_and_how_many_more() {
        use gloam_protocol::Member;
        let mut s = playing(1, &[], &[]);
        let party: Vec<Member> = (1..=20)
            .map(|i| Member { id: PlayerId(i), name: format!("p{i}"), hp: 5, max: 9, level: 1 })
            .collect();
        s.apply(&ServerMsg::Party(party)).unwrap();
        let panel = party_panel(&s);
        assert_eq!(panel.len(), PANEL_ENTRIES);
        assert_eq!(panel[PANEL_ENTRIES - 1].text, format!("+{} more", 20 - PANEL_ENTRIES + 1));
        assert!(panel[0].text.starts_with("p1 "));
    }

    #[test]
    fn the_end_of_a_game_is_not_told_as_a_network_fault() {
        let mut s = playing(2, &[], &[]);
        let record = gloam_protocol::DeathRecord {
            name: "ann".into(),
            depth: 2,
            rounds: 10,
            kills: 0,
            killed_by: "a rat".into(),
            when: 0,
            level: 1,
            escaped: false,
            morgue: 0,
        };
        s.apply(&ServerMsg::Died(record.clone())).unwrap();
        let closed = Link::Lost("the server closed the connection: your character died".into());
        let rows = hud_of(&s, &closed);
        let mut watcher = playing(2, &[], &[]);
        watcher.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        watcher.apply(&ServerMsg::Died(record.clone())).unwrap();
        assert_eq!(
            hud_of(&watcher, &closed)[1].text,
            WATCHER_END_KEYS,
            "nothing offered that a watcher at the end cannot do (G, talk)"
        );
        assert_eq!(rows[0], HudLine::new("You died. The game is over.", Tone::Middle));
        assert_eq!(rows[1].text, END_KEYS, "no last rounds to watch of a life with no number");
        let mut numbered = playing(1, &[], &[]);
        let third_life = gloam_protocol::DeathRecord { morgue: 3, ..record.clone() };
        numbered.apply(&ServerMsg::Died(third_life)).unwrap();
        assert_eq!(hud_of(&numbered, &closed)[1].text, END_KEYS_REPLAY, "r: its last rounds");
        let watched = hud_of(&watcher, &closed);
        assert_eq!(watched[0].text, "ann died. The game is over.", "of its player, to a watcher");
    }

    /// A friend's warning stays in the chat rows while a fight fills the
    /// game's rows; before anyone speaks, the chat rows say how to talk.
    #[test]
    fn chat_has_rows_of_its_own_under_the_games_lines() {
        let mut s = playing(1, &["bob"], &["You arrive."]);
        let rows = hud_of(&s, &Link::Playing);
        assert_eq!(rows[usize::from(HUD_ROWS) - CHAT_LINES].text, NO_CHAT_YET);
        let warning = ServerMsg::Chat {
            from: PlayerId(2),
            name: "bob".into(),
            to: gloam_protocol::ChatTo::Depth,
            text: "troll coming, run".into(),
        };
        s.apply(&warning).unwrap();
        for i in 0..20 {
            s.apply(&ServerMsg::Combat(format!("The troll hits you ({i})."))).unwrap();
            s.apply(&ServerMsg::Combat("You miss the troll.".into())).unwrap();
        }
        let rows = hud_of(&s, &Link::Playing);
        let chat = &rows[2 + GAME_LINES];
        assert_eq!(chat.text, "bob: troll coming, run");
        assert_eq!(chat.accents, [(0, 3, Tone::Player(PlayerId(2)))]);
        assert_eq!(rows[2 + GAME_LINES - 1].text, "You miss the troll.");
        assert!(rows[2..2 + GAME_LINES].iter().all(|r| r.tone == Tone::Combat));
    }

    /// Every row fits a narrow window: a long roster is counted, a long
    /// message wraps, the keys keep what fits.
    #[test]
    fn every_row_fits_the_width_of_the_window() {
        let names: Vec<String> = (0..40).map(|i| format!("player{i:02}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let long = "The wraith of the deep halls strikes you with a chill that goes to the bone.";
        let mut s = playing(4, &names, &[long]);
        s.apply(&ServerMsg::Vitals { hp: 20, max: 30 }).unwrap();
        s.apply(&ServerMsg::Experience { level: 3, xp: 140, next: 280 }).unwrap();
        let (chat, link) = (crate::chat::Chat::default(), Link::Playing);
        let scene = Scene::new(&s, &chat, &link, crate::scene::Page::Map);
        for cols in [40, 60, 96, 120] {
            let rows = hud_at(&scene, cols, cols);
            for row in &rows {
                assert!(row.text.chars().count() <= cols, "{cols}: {}", row.text);
            }
            assert!(rows[0].text.starts_with("Depth 4   HP 20/30"), "{}", rows[0].text);
            assert!(rows[1].text.ends_with("? help"), "{cols}: {}", rows[1].text);
            let said: String =
                rows[2..].iter().map(|r| r.text.as_str()).collect::<Vec<_>>().join(" ");
            assert!(said.contains(long), "{cols}: wrapped whole: {said}");
        }
        assert!(hud_at(&scene, 96, 96)[0].text.contains("also here: 40 others"));
    }

    #[test]
    fn a_lost_connection_says_why() {
        let rows = hud_of(&playing(2, &[], &[]), &Link::Lost("server shutting down".into()));
        assert_eq!(rows[0].tone, Tone::Alert);
        assert!(rows[0].text.contains("server shutting down"));
    }
}
