//! The game's lines as a watcher reads them: the server writes to the
//! player ("You miss the jackal.", "The jackal bites you (2)."), and a
//! watcher sees through that player's eyes, so its log names the player
//! instead ("ann misses the jackal.", "The jackal bites ann (2).").

/// Whether `line` is the server's word to a watcher about its own watching
/// ("You are watching ann: you cannot act.", "You stop watching ann.",
/// from `server/src/net/session/watch.rs`), not its player's: a player
/// never watches, so a line in the second person about watching can only
/// be to the watcher, and is not retold of its player.
pub fn to_the_watcher(line: &str) -> bool {
    ["You are watching ", "You stop watching "].iter().any(|head| line.starts_with(head))
}

/// `line`, written to player `name`, told of it in the third person.
pub fn third_person(line: &str, name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut subject_next = false;
    for (i, word) in line.split(' ').enumerate() {
        let (core, tail) = split_tail(word);
        let told = match core {
            "You" if i == 0 => {
                subject_next = true;
                name.to_string()
            }
            "you" => name.to_string(),
            "Your" if i == 0 => format!("{name}'s"),
            "your" => "their".to_string(),
            "yourself" => "themself".to_string(),
            verb if subject_next => {
                subject_next = false;
                conjugated(verb)
            }
            other => other.to_string(),
        };
        words.push(format!("{told}{tail}"));
    }
    words.join(" ")
}

/// A word and what follows its letters ("you." is "you" and ".").
fn split_tail(word: &str) -> (&str, &str) {
    let end = word.find(|c: char| !c.is_alphanumeric() && c != '\'').unwrap_or(word.len());
    word.split_at(end)
}

/// The verb a subject in the third person takes: "miss" is "misses",
/// "are" is "is".
fn conjugated(verb: &str) -> String {
    match verb {
        "are" => "is".into(),
        "were" => "was".into(),
        "have" => "has".into(),
        "do" => "does".into(),
        "go" => "goes".into(),
        "cannot" | "can" | "will" | "must" | "may" => verb.into(),
        v if ["s", "sh", "ch", "x", "z"].iter().any(|end| v.ends_with(end)) => format!("{v}es"),
        v => format!("{v}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::third_person;

    #[test]
    fn the_player_is_named_and_its_verbs_agree() {
        let cases = [
            ("You miss the jackal.", "ann misses the jackal."),
            ("You hit the orc (5).", "ann hits the orc (5)."),
            ("The jackal bites you (2).", "The jackal bites ann (2)."),
            ("You are at full health.", "ann is at full health."),
            ("You feel your wounds close.", "ann feels their wounds close."),
            ("You cannot read that.", "ann cannot read that."),
            (
                "You were counted away: the round went on without you.",
                "ann was counted away: the round went on without ann.",
            ),
            ("You pick up a dagger (b).", "ann picks up a dagger (b)."),
            ("Your pack is full.", "ann's pack is full."),
            ("A jackal comes into view.", "A jackal comes into view."),
            ("Welcome to level 3!", "Welcome to level 3!"),
        ];
        for (line, told) in cases {
            assert_eq!(third_person(line, "ann"), told, "{line}");
        }
    }

    /// The server's words to a watcher about its own watching are its own,
    /// read as they were written; its player's lines are told of her.
    #[test]
    fn a_watcher_reads_the_servers_words_to_it_as_its_own() {
        use gloam_protocol::{PlayerId, ServerMsg};
        let mut s = crate::testing::welcomed(PlayerId(1), 20, 10);
        s.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        for line in [
            "You are watching ann: you cannot act.",
            "You pick up a dagger (b).",
            "You stop watching ann.",
        ] {
            s.apply(&ServerMsg::Note(line.into())).unwrap();
        }
        let log: Vec<&str> = s.log.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            log,
            [
                "You are watching ann.",
                "You are watching ann: you cannot act.",
                "ann picks up a dagger (b).",
                "You stop watching ann."
            ]
        );
    }

    /// A watcher, dan, reads of the others who watch its player as they
    /// come and go, never of itself: it was told "You are watching ann."
    /// once; its player reads of dan.
    #[test]
    fn a_watcher_reads_of_the_others_who_watch_never_of_itself() {
        use gloam_protocol::{PlayerId, ServerMsg};
        let watchers =
            |names: &[&str]| ServerMsg::Watchers(names.iter().map(|&n| n.into()).collect());
        let mut dan = crate::state::ClientState::named("dan");
        dan.apply(&crate::testing::welcome(PlayerId(1), 20, 10)).unwrap();
        dan.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        dan.apply(&watchers(&["cy", "dan"])).unwrap();
        dan.apply(&watchers(&["dan", "eve"])).unwrap();
        let log: Vec<&str> = dan.log.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            log,
            [
                "You are watching ann.",
                "cy is watching ann.",
                "eve is watching ann.",
                "cy stopped watching ann."
            ]
        );
        let mut ann = crate::state::ClientState::named("ann");
        ann.apply(&crate::testing::welcome(PlayerId(1), 20, 10)).unwrap();
        ann.apply(&watchers(&["dan"])).unwrap();
        assert_eq!(ann.log.back().unwrap().text, "dan is watching you.");
    }

    #[test]
    fn a_watcher_reads_the_servers_lines_of_its_player_by_name() {
        use gloam_protocol::{PlayerId, ServerMsg};
        let mut s = crate::testing::welcomed(PlayerId(1), 20, 10);
        s.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        s.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        assert_eq!(s.log.back().unwrap().text, "ann misses the jackal.");
        // Another's deed done to the player is the player's too.
        s.apply(&ServerMsg::Others("bob swaps places with you.".into())).unwrap();
        assert_eq!(s.log.back().unwrap().text, "bob swaps places with ann.");
        let mut player = crate::testing::welcomed(PlayerId(1), 20, 10);
        player.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        assert_eq!(player.log.back().unwrap().text, "You miss the jackal.", "the player's own");
    }
}
