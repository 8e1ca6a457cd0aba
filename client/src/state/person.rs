//! The game's lines as a watcher reads them: the server writes to the
//! player ("You miss the jackal.", "The jackal bites you (2)."), and a
//! watcher sees through that player's eyes, so its log names the player
//! instead ("ann misses the jackal.", "The jackal bites ann (2).").

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

    #[test]
    fn a_watcher_reads_the_servers_lines_of_its_player_by_name() {
        use gloam_protocol::{PlayerId, ServerMsg};
        let mut s = crate::testing::welcomed(PlayerId(1), 20, 10);
        s.apply(&ServerMsg::Watching { player: "ann".into(), you: PlayerId(9) }).unwrap();
        s.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        assert_eq!(s.log.back().unwrap().text, "ann misses the jackal.");
        let mut player = crate::testing::welcomed(PlayerId(1), 20, 10);
        player.apply(&ServerMsg::Combat("You miss the jackal.".into())).unwrap();
        assert_eq!(player.log.back().unwrap().text, "You miss the jackal.", "the player's own");
    }
}
