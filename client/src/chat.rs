//! Talking, on the client's side: the line being typed (a cursor, and the
//! edits a text field has), what a typed line asks for (`/shout`, `/w
//! NAME`, `/mute NAME`, `/unmute NAME`, `/who`, the watchers' `/nowatch`,
//! `/allowwatch` and `/kick NAME`, or plain speech to the depth), the
//! names this player has muted (kept here, never told to the server), and
//! how far the message log is scrolled back.

use std::collections::BTreeSet;

use gloam_protocol::{AudienceCmd, ChatTo, MAX_CHAT_CHARS};

/// What the player is typing, with the cursor as a count of characters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    text: String,
    cursor: usize,
}

impl Line {
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// Where the cursor stands, in characters from the start.
    pub(crate) fn cursor(&self) -> usize {
        self.cursor
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.text.char_indices().nth(chars).map_or(self.text.len(), |(i, _)| i)
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// Types `typed` at the cursor: control characters are left out (a
    /// pasted line break is a space), and the line stops at the longest a
    /// server passes on.
    pub fn insert(&mut self, typed: &str) {
        for c in typed.chars() {
            let c = if c == '\n' || c == '\t' { ' ' } else { c };
            if c.is_control() || self.len() >= MAX_CHAT_CHARS {
                continue;
            }
            let at = self.byte_at(self.cursor);
            self.text.insert(at, c);
            self.cursor += 1;
        }
    }

    pub(crate) fn backspace(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
            let at = self.byte_at(self.cursor);
            self.text.remove(at);
        }
    }

    pub(crate) fn delete(&mut self) {
        if self.cursor < self.len() {
            let at = self.byte_at(self.cursor);
            self.text.remove(at);
        }
    }

    pub fn left(&mut self) {
        self.cursor = self.cursor.saturating_sub(1);
    }

    pub(crate) fn right(&mut self) {
        self.cursor = (self.cursor + 1).min(self.len());
    }

    pub(crate) fn home(&mut self) {
        self.cursor = 0;
    }

    pub(crate) fn end(&mut self) {
        self.cursor = self.len();
    }
}

/// What a typed line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    Say(ChatTo, String),
    Mute(String),
    Unmute(String),
    /// Refuse watchers, let them back, or send one away.
    Audience(AudienceCmd),
    /// Who is playing (whom one could watch).
    Who,
    /// A line that asks for nothing (blank, or a command without its text).
    Nothing,
    /// Not a command this client knows: the help to show.
    Unknown(String),
}

/// The help shown for a command the client does not know.
const HELP: &str = "Say a line to your depth, or: /shout TEXT, /w NAME TEXT, /mute NAME, \
     /unmute NAME, /who, /nowatch, /allowwatch, /kick NAME.";

/// Reads a typed line.
pub(crate) fn parse(line: &str) -> Command {
    let line = line.trim();
    let Some(command) = line.strip_prefix('/') else {
        return if line.is_empty() {
            Command::Nothing
        } else {
            Command::Say(ChatTo::Depth, line.into())
        };
    };
    let (word, rest) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
    let rest = rest.trim();
    let (name, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (name, after) = (name.to_owned(), after.trim().to_owned());
    match word {
        _ if rest.is_empty() && ["shout", "w", "mute", "unmute", "kick"].contains(&word) => {
            Command::Nothing
        }
        "shout" => Command::Say(ChatTo::Everyone, rest.into()),
        "w" if after.is_empty() => Command::Nothing,
        "w" => Command::Say(ChatTo::Player(name), after),
        "mute" => Command::Mute(name),
        "unmute" => Command::Unmute(name),
        "nowatch" => Command::Audience(AudienceCmd::Refuse),
        "allowwatch" => Command::Audience(AudienceCmd::Allow),
        "kick" => Command::Audience(AudienceCmd::Kick(name)),
        "who" => Command::Who,
        _ => Command::Unknown(format!("No command /{word}. {HELP}")),
    }
}

/// The player's side of talking.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chat {
    /// The line being typed, while one is open.
    pub line: Option<Line>,
    /// How many lines the message rows are scrolled back from the newest.
    pub scroll: usize,
    /// Names whose lines are not shown.
    pub muted: BTreeSet<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_edits_at_the_cursor_in_characters_not_bytes() {
        let mut line = Line::default();
        line.insert("héllo");
        line.left();
        line.left();
        line.backspace();
        assert_eq!((line.text(), line.cursor()), ("hélo", 2));
        line.home();
        line.delete();
        line.insert("日");
        assert_eq!((line.text(), line.cursor()), ("日élo", 1));
        line.end();
        line.insert("\u{7}!\nok");
        assert_eq!(line.text(), "日élo! ok", "no control characters; a line break is a space");
        line.right();
        assert_eq!(line.cursor(), 8);
    }

    #[test]
    fn a_line_stops_at_the_longest_a_server_passes_on() {
        let mut line = Line::default();
        line.insert(&"é".repeat(MAX_CHAT_CHARS + 20));
        assert_eq!(line.text().chars().count(), MAX_CHAT_CHARS);
    }

    #[test]
    fn commands_are_read_and_plain_lines_are_said_to_the_depth() {
        assert_eq!(
            parse(" found the stairs "),
            Command::Say(ChatTo::Depth, "found the stairs".into())
        );
        assert_eq!(parse("/shout anyone?"), Command::Say(ChatTo::Everyone, "anyone?".into()));
        assert_eq!(
            parse("/w bob  meet at the stairs"),
            Command::Say(ChatTo::Player("bob".into()), "meet at the stairs".into())
        );
        assert_eq!(parse("/mute bob"), Command::Mute("bob".into()));
        assert_eq!(parse("/unmute bob"), Command::Unmute("bob".into()));
        assert_eq!(parse("/nowatch"), Command::Audience(AudienceCmd::Refuse));
        assert_eq!(parse("/allowwatch"), Command::Audience(AudienceCmd::Allow));
        assert_eq!(parse("/kick  bob "), Command::Audience(AudienceCmd::Kick("bob".into())));
        assert_eq!(parse("/kick"), Command::Nothing);
        assert_eq!(parse("/who"), Command::Who);
        assert_eq!(parse("   "), Command::Nothing);
        assert_eq!(parse("/shout"), Command::Nothing);
        assert_eq!(parse("/w bob"), Command::Nothing);
        assert!(
            matches!(parse("/dance"), Command::Unknown(help) if help.starts_with("No command /dance"))
        );
    }
}
