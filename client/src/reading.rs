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
    let room = rows.saturating_sub(3).max(1);
    let scroll = scroll.min(all.len().saturating_sub(room));
    let end = all.len() - scroll;
    let mut lines = vec![(LOG_TITLE.to_owned(), palette::TEXT), (String::new(), palette::TEXT)];
    lines.extend(all[end.saturating_sub(room)..end].iter().cloned());
    if scroll > 0 {
        lines.push((format!("  ({scroll} newer rows below: PgDn, End)"), palette.warn));
    }
    lines
}

/// How far back the log can be scrolled in `rows` rows of `cols` letters.
pub(crate) fn log_scroll_most(state: &ClientState, (cols, rows): (usize, usize)) -> usize {
    let all = log_rows(state, &palette::DEFAULT, cols.saturating_sub(4)).len();
    all.saturating_sub(rows.saturating_sub(3).max(1))
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
