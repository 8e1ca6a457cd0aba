//! The message log: the server's notes, the lines about fights and about
//! other players, and the lines of chat, each with its topic for its
//! colour; at most [`LOG_LINES`], the oldest dropped first. A line that
//! repeats the last of its stream (the game's, or chat) is counted on it
//! instead of kept again: "You miss the jackal. (x3)".
//!
//! A line is news until the player acts again, then old: the HUD dims
//! the game's old lines (as Brogue dims older messages), so that "You see
//! a dagger here." does not read as current once the player walked on.
//! Exactly: every line said so far becomes old when this client sends an
//! action ([`ClientState::age_log`], from the session's `sent`), and at
//! the latest when the answer to the player's next action ends (its
//! `Sight`): then every line said before the previous answer ended is
//! old ([`ClientState::answered`]). A watcher, which never sends an
//! action, learns of its player's so. A line said again is news again,
//! counted on its row.

use gloam_protocol::{ChatTo, MAX_CHAT_CHARS, PlayerId};

use super::limits::{LOG_LINES, MAX_NOTE_CHARS, check_name};
use super::reasons;
use super::{ClientState, StateError};

/// What a line of the message log is about, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// The server and the level.
    Note,
    /// A fight.
    Combat,
    /// What another player did.
    Others,
    /// A line of chat.
    Chat,
}

/// One line of the message log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub topic: Topic,
    pub text: String,
    /// In a line of chat, who spoke and where its name stands in `text`
    /// (first character and length), to draw it in that player's colour.
    pub speaker: Option<(PlayerId, usize, usize)>,
    /// How many times it was said in a row (at least 1).
    pub repeats: u32,
    /// When it was last said, counted in lines said since the session began:
    /// news while at least the state's `news_from`.
    pub said: u64,
}

impl LogLine {
    /// Whether it is a line of chat (shown apart from the game's lines).
    pub fn is_chat(&self) -> bool {
        self.topic == Topic::Chat
    }

    /// The line as shown: with how many times it was said, if more than once.
    pub fn shown(&self) -> String {
        match self.repeats {
            0 | 1 => self.text.clone(),
            n => format!("{} (x{n})", self.text),
        }
    }
}

impl std::ops::Deref for LogLine {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for LogLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialEq<str> for LogLine {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl ClientState {
    /// A line about `topic`, cut at [`MAX_NOTE_CHARS`].
    pub(super) fn note(&mut self, topic: Topic, text: &str) {
        let text = text.chars().take(MAX_NOTE_CHARS).collect();
        self.log_line(LogLine { topic, text, speaker: None, repeats: 1, said: 0 });
    }

    /// A line of the client's own for the log (never turned into the
    /// third person for a watcher: it speaks to whoever sits here).
    pub fn own_note(&mut self, text: &str) {
        self.note(Topic::Note, text);
    }

    /// A line the server wrote to the player: a watcher reads it of its
    /// player by name, not as "you", but for the server's words to the
    /// watcher itself (see [`super::person::to_the_watcher`]).
    pub(super) fn told(&mut self, topic: Topic, text: &str) {
        match &self.watching {
            Some((name, _)) if !super::person::to_the_watcher(text) => {
                let line = super::person::third_person(text, name);
                self.note(topic, &line);
            }
            _ => self.note(topic, text),
        }
    }

    /// Keeps `line` (said now), or counts it on the last of its stream
    /// when it repeats that one.
    fn log_line(&mut self, mut line: LogLine) {
        let said = self.said;
        self.said += 1;
        let same_stream = self.log.iter_mut().rev().find(|l| l.is_chat() == line.is_chat());
        if let Some(last) = same_stream
            && (last.topic, &last.text, last.speaker) == (line.topic, &line.text, line.speaker)
        {
            last.repeats += 1;
            last.said = said;
            return;
        }
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        line.said = said;
        self.log.push_back(line);
    }

    /// Forgets the log, and how many lines were said (for a comparison of
    /// two mirrors apart from their logs: a watcher's holds its own lines
    /// too).
    pub fn clear_log(&mut self) {
        self.log.clear();
        (self.said, self.news_from, self.last_answer) = (0, 0, 0);
    }

    /// Whether `line` is news: said since the player last acted.
    pub fn is_news(&self, line: &LogLine) -> bool {
        line.said >= self.news_from
    }

    /// The player acts: every line said so far is old.
    pub fn age_log(&mut self) {
        self.news_from = self.said;
    }

    /// An action of the player's was answered (the `Sight` that ends the
    /// answer came): what was said before the last answer ended was said
    /// before this action was taken, and is old; what came since is news
    /// until the next answer (or the next action this client sends).
    pub(super) fn answered(&mut self) {
        self.news_from = self.news_from.max(self.last_answer);
        self.last_answer = self.said;
    }

    /// Checks a line of chat as [`apply`](Self::apply) would, without
    /// keeping it: the session checks a muted speaker's lines so.
    pub(crate) fn check_chat(&self, name: &str, to: &ChatTo, text: &str) -> Result<(), StateError> {
        self.sight_disc()?;
        check_name(name)?;
        if let ChatTo::Player(other) = to {
            check_name(other)?;
        }
        if text.chars().count() > MAX_CHAT_CHARS || text.chars().any(char::is_control) {
            return Err(StateError::Inconsistent(reasons::LINE_OF_CHAT_NO_SERVER_SENDS));
        }
        Ok(())
    }

    /// A line of chat: "bob: ...", "bob shouts: ...", "bob whispers: ...",
    /// or "You whisper to bob: ..." for this player's own whisper.
    pub(super) fn hear(
        &mut self,
        from: PlayerId,
        name: &str,
        to: &ChatTo,
        text: &str,
    ) -> Result<(), StateError> {
        self.check_chat(name, to, text)?;
        // A watcher's own lines carry its own id, not its player's.
        let mine = self.is_me(from);
        let (text, speaker) = match to {
            ChatTo::Player(other) if mine => (format!("You whisper to {other}: {text}"), None),
            ChatTo::Player(_) => (format!("{name} whispers: {text}"), Some(from)),
            ChatTo::Everyone => (format!("{name} shouts: {text}"), Some(from)),
            ChatTo::Depth => (format!("{name}: {text}"), Some(from)),
        };
        let speaker = speaker.map(|id| (id, 0, name.chars().count()));
        self.log_line(LogLine { topic: Topic::Chat, text, speaker, repeats: 1, said: 0 });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gloam_protocol::{Refusal, ServerMsg};

    use super::*;

    #[test]
    fn notes_and_refusals_go_to_the_log() {
        let mut s = ClientState::new();
        s.apply(&ServerMsg::Refused(Refusal::NameTaken)).unwrap();
        assert_eq!(s.refused, Some(Refusal::NameTaken));
        s.apply(&ServerMsg::Note("hello".into())).unwrap();
        assert_eq!(s.log.back().map(|l| &l.text[..]), Some("hello"));
        for i in 0..(LOG_LINES + 5) {
            s.apply(&ServerMsg::Note(i.to_string())).unwrap();
        }
        assert_eq!(s.log.len(), LOG_LINES);
    }

    #[test]
    fn a_line_said_again_is_counted_not_repeated_even_with_chat_between() {
        let mut s = crate::testing::on_level(gloam_protocol::PlayerId(1), 20, 10, 1);
        for _ in 0..3 {
            s.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        }
        let chat = ServerMsg::Chat {
            from: PlayerId(2),
            name: "bob".into(),
            to: ChatTo::Depth,
            text: "careful".into(),
        };
        s.apply(&chat).unwrap();
        s.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        let shown: Vec<String> = s.log.iter().map(LogLine::shown).collect();
        assert_eq!(shown, ["You miss the jackal. (x4)", "bob: careful"]);
        s.apply(&ServerMsg::Note("You miss the jackal.".into())).unwrap();
        s.apply(&ServerMsg::Combat("You hit the jackal (2).".into())).unwrap();
        s.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        assert_eq!(s.log.len(), 5, "another topic, or a line between, is a new line");
        s.apply(&chat).unwrap();
        let chat = s.log.iter().rev().find(|l| l.is_chat()).unwrap();
        assert_eq!(chat.shown(), "bob: careful (x2)");
    }
}
