//! The pages to read that take the map's place: the whole message log
//! (Ctrl+P), scrolled back from the newest, chat and the game's lines
//! together, each in its colour; and the help (`?`), the keys and the
//! rules of the clock.

use crate::fit::wrap;
use crate::palette::{self, Palette, Rgb};
use crate::state::{ClientState, LogLine, Topic};

/// A line of a page and its colour.
pub(crate) type PageLine = (String, Rgb);

/// The log's title row.
const LOG_TITLE: &str = "  Messages   PgUp PgDn, Up Down (or k j) scroll   Home End   Esc closes";

/// The full-screen log in `rows` rows of `cols` letters, `scroll` rows back
/// from the newest: a title, then the lines wrapped, the newest at the
/// bottom.
pub(crate) fn log_lines(
    state: &ClientState,
    palette: &Palette,
    (cols, rows): (usize, usize),
    scroll: usize,
) -> Vec<PageLine> {
    let all = log_rows(state, palette, cols.saturating_sub(4));
    let room = log_room(rows);
    let scroll = scroll.min(all.len().saturating_sub(room));
    let end = all.len() - scroll;
    let mut lines = vec![(LOG_TITLE.to_owned(), palette::TEXT), (String::new(), palette::TEXT)];
    lines.extend(all[end.saturating_sub(room)..end].iter().cloned());
    if scroll > 0 {
        lines.push((format!("  ({scroll} newer rows below: PgDn, End)"), palette.warn));
    }
    lines
}

/// How many of the log's rows a page of `rows` lines shows (the others
/// are its title, a blank line and how many rows are below): what PgUp and
/// PgDn scroll by.
pub(crate) fn log_room(rows: usize) -> usize {
    rows.saturating_sub(3).max(1)
}

/// How far back the log can be scrolled in `rows` rows of `cols` letters.
pub(crate) fn log_scroll_most(state: &ClientState, (cols, rows): (usize, usize)) -> usize {
    let all = log_rows(state, &palette::DEFAULT, cols.saturating_sub(4)).len();
    all.saturating_sub(log_room(rows))
}

/// Every line of the log, wrapped to `cols` and indented, in its colour.
fn log_rows(state: &ClientState, palette: &Palette, cols: usize) -> Vec<PageLine> {
    let colour = |line: &LogLine| match line.topic {
        Topic::Combat => palette.combat,
        Topic::Others => palette.others,
        Topic::Chat => palette::TEXT,
        Topic::Note => palette::TEXT_MIDDLE,
    };
    state
        .log
        .iter()
        .flat_map(|line| {
            let c = colour(line);
            wrap(&line.shown(), cols.max(1)).into_iter().map(move |(_, t)| (format!("  {t}"), c))
        })
        .collect()
}

/// The help page: the keys, then the rules of the clock (docs/turns.md
/// in short); the page adds which keys leave it (`pages.rs`).
pub(crate) const HELP: &[&str] = &[
    "Keys",
    "  move or attack          arrows (4 ways), h j k l y u b n or the numpad (8 ways)",
    "  wait a round            5 or numpad 5",
    "  stairs down / up        > (or .) / <; away from stairs, walks to the nearest known",
    "  explore                 o: walks on until something happens (Esc stops it)",
    "  travel                  click a cell you remember: walks there",
    "  rest until healed       R",
    "  look                    x, then move the cursor (Tab: next monster); Esc or x leaves",
    "  pick up / drop          g or ,  /  d",
    "  your pack               i",
    "  discoveries             \\ (the potions, scrolls and wands you know)",
    "  quaff / read            q / r",
    "  wield, wear, take off   w / W / T",
    "  throw / fire            t (choose, then aim) / f (the first missile)",
    "  zap a wand              z (choose, then aim; Enter or . zaps)",
    "                          Tab: monsters, players; a known wand: healing players, harm monsters",
    "  talk                    Enter (/shout, /w NAME, /mute NAME, /who)",
    "  messages                PgUp PgDn scroll; Ctrl+P reads back all of them",
    "  graveyard               G (there, a grave's letter plays its last rounds)",
    "  zoom                    Ctrl + / Ctrl -",
    "  screenshot              F12 (and the text on screen, as .txt)",
    "  quit                    Esc (then y)",
    "",
    "The clock",
    "  Alone on a depth, the game waits for you: nothing moves until you act.",
    "  Players who share a danger (an awake monster that sees them) share rounds:",
    "    each acts once a round, then the monsters act; pressing faster buys nothing.",
    "  A round waits for the others at most the host's deadline (2 seconds unless",
    "    the host chose another); who has not acted by then is counted away and not",
    "    waited for, until they act again. The HUD says whom a round waits for.",
    "  Players who share no danger never wait for each other.",
    "  Talking costs no time and waits for nobody.",
];

/// The help page's lines.
pub(crate) fn help_lines() -> Vec<PageLine> {
    HELP.iter()
        .map(|line| {
            let colour = if line.starts_with(' ') { palette::TEXT } else { palette::TEXT_MIDDLE };
            (format!("  {line}"), colour)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{ChatTo, PlayerId, ServerMsg};

    use super::*;

    fn with_lines(n: usize) -> ClientState {
        let mut s = crate::testing::on_level(PlayerId(1), 20, 10, 1);
        for i in 0..n {
            s.apply(&ServerMsg::Combat(format!("blow {i}"))).unwrap();
            let chat = ServerMsg::Chat {
                from: PlayerId(2),
                name: "bob".into(),
                to: ChatTo::Depth,
                text: format!("hi {i}"),
            };
            s.apply(&chat).unwrap();
        }
        s
    }

    #[test]
    fn the_log_shows_chat_and_the_games_lines_together_newest_at_the_bottom() {
        let s = with_lines(30);
        let lines = log_lines(&s, &palette::DEFAULT, (80, 13), 0);
        let texts: Vec<&str> = lines.iter().map(|(t, _)| t.as_str()).collect();
        assert!(texts[0].contains("Messages") && texts[0].contains("Esc"));
        assert_eq!(
            texts[2..],
            [
                "  blow 25",
                "  bob: hi 25",
                "  blow 26",
                "  bob: hi 26",
                "  blow 27",
                "  bob: hi 27",
                "  blow 28",
                "  bob: hi 28",
                "  blow 29",
                "  bob: hi 29"
            ]
        );
        assert_eq!(lines[2].1, palette::DEFAULT.combat);
        assert_eq!(lines[3].1, palette::TEXT);
    }

    /// Every key the map reads is on the help page, and it fits a page of
    /// the smallest layout.
    #[test]
    fn the_help_names_every_key_and_the_clock() {
        let text: String = help_lines().into_iter().map(|(t, _)| t + "\n").collect();
        for key in [
            "h j k l y u b n",
            "> (or .)",
            "  o:",
            "click a cell",
            "  R\n",
            "  x, then",
            "g or ,",
            " i\n",
            " \\ (the potions",
            "q / r",
            "w / W / T",
            "t (choose",
            "f (the first",
            "Enter",
            "PgUp PgDn",
            "Ctrl+P",
            " G (there, a grave's letter plays its last rounds)\n",
            "Ctrl + / Ctrl -",
            "F12",
            "Esc (then y)",
        ] {
            assert!(text.contains(key), "{key}: {text}");
        }
        assert!(text.contains("deadline") && text.contains("counted away"));
        let lines = help_lines();
        assert!(lines.len() <= usize::from(crate::layout::MIN_MAP_ROWS) * 3, "{}", lines.len());
        assert!(
            lines
                .iter()
                .all(|(l, _)| l.chars().count() <= usize::from(crate::layout::MIN_TEXT_COLS))
        );
    }

    #[test]
    fn the_log_scrolls_back_to_the_first_line_and_no_further() {
        let s = with_lines(30);
        let most = log_scroll_most(&s, (80, 13));
        assert_eq!(most, 60 - 10);
        let oldest = log_lines(&s, &palette::DEFAULT, (80, 13), most + 100);
        assert_eq!(oldest[2].0, "  blow 0");
        assert!(oldest.last().unwrap().0.contains("50 newer rows below"));
    }
}
