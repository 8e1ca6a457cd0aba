//! The server's guard on chat: what a line may hold, and how often a
//! player may speak. A line is trimmed, stripped of control characters and
//! of the bidirectional overrides that make text display other than it
//! reads, and cut to [`MAX_CHAT_CHARS`]; an empty one is dropped, though
//! it counts against the pace as any line does. A player may say a line a
//! second with a burst of five; one over that is dropped with a warning,
//! and another while warned is a flood that ends the connection, as an
//! action flood does.

use gloam_protocol::MAX_CHAT_CHARS;
use tokio::time::Instant;

use super::pacer::RateLimit;

/// Lines a player may say in a second, sustained.
pub(super) const LINES_PER_SECOND: u32 = 1;
/// Lines a player may say at once before the rate applies.
pub(super) const LINES_AT_ONCE: u32 = 5;

/// What the player is told when a line is over the rate.
pub(super) const TOO_FAST: &str =
    "You are talking too fast: a line a second at most. Any more now and you are disconnected.";

/// True for a character that changes how the text around it is laid out
/// rather than showing as itself: the embeddings, overrides and isolates
/// of Unicode's bidirectional algorithm, and the Arabic letter mark.
fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
}

/// The line as others will see it, or `None` when nothing is left of it.
pub(super) fn clean(line: &str) -> Option<String> {
    let kept: String = line.chars().filter(|&c| !c.is_control() && !reorders(c)).collect();
    let text: String = kept.trim().chars().take(MAX_CHAT_CHARS).collect();
    let text = text.trim_end().to_owned();
    (!text.is_empty()).then_some(text)
}

/// What to do with a line the player sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    Pass,
    /// Over the rate: dropped, and the player warned.
    TooFast,
    /// Over the rate again while warned: the connection ends.
    Flood,
}

/// One player's pace of speech.
#[derive(Debug)]
pub(super) struct ChatGuard {
    rate: RateLimit,
    warned: bool,
}

impl ChatGuard {
    pub(super) fn new(now: Instant) -> Self {
        Self { rate: RateLimit::new(LINES_PER_SECOND, LINES_AT_ONCE, now), warned: false }
    }

    pub(super) fn admit(&mut self, now: Instant) -> Verdict {
        if self.rate.try_take(now) {
            self.warned = false;
            Verdict::Pass
        } else if self.warned {
            Verdict::Flood
        } else {
            self.warned = true;
            Verdict::TooFast
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_line_is_trimmed_stripped_and_cut() {
        assert_eq!(clean("  hello there \n"), Some("hello there".into()));
        assert_eq!(clean("a\u{7}b\tc\u{1b}[31md"), Some("abc[31md".into()));
        assert_eq!(clean("\u{202E}olleh\u{202C} \u{2067}x\u{2069}"), Some("olleh x".into()));
        assert_eq!(clean("   \u{202E}\n\t "), None, "nothing left");
        let long = format!("  {}  ", "é".repeat(250));
        assert_eq!(clean(&long).unwrap().chars().count(), MAX_CHAT_CHARS);
        assert_eq!(clean("né 日本 🙂"), Some("né 日本 🙂".into()), "any script is kept");
    }

    #[test]
    fn five_at_once_then_a_line_a_second_then_a_warning_then_a_flood() {
        let t0 = Instant::now();
        let mut guard = ChatGuard::new(t0);
        for _ in 0..5 {
            assert_eq!(guard.admit(t0), Verdict::Pass);
        }
        assert_eq!(guard.admit(t0), Verdict::TooFast);
        let later = t0 + Duration::from_millis(1_050);
        assert_eq!(
            guard.admit(later),
            Verdict::Pass,
            "a second later, one more; the warning is over"
        );
        assert_eq!(guard.admit(later), Verdict::TooFast);
        assert_eq!(guard.admit(later), Verdict::Flood);
    }
}
