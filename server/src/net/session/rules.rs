//! Which client message is legal when: the rules of a session, apart from
//! the sockets so they can be tested directly.

use gloam_protocol::{
    Action, AudienceCmd, ChatTo, ClientMsg, MAX_NAME_CHARS, PROTOCOL_VERSION, RecordingAsk,
    Refusal, Token,
};

/// What a client came for, as its first message says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Joining {
    /// To play; `background` names the one a new character is made as
    /// (a [`ClientMsg::Create`]), none for a plain hello.
    Play {
        name: String,
        token: Option<Token>,
        background: Option<String>,
    },
    Watch {
        name: String,
        token: Option<Token>,
        player: String,
    },
    /// To be sent a recording, and nothing else.
    Recording(RecordingAsk),
}

/// What to do with a message from a client that has not said hello yet.
pub(crate) fn greet(msg: ClientMsg) -> Result<Joining, Greeting> {
    let version = match &msg {
        ClientMsg::Hello { version, .. }
        | ClientMsg::Watch { version, .. }
        | ClientMsg::Create { version, .. }
        | ClientMsg::Recording { version, .. } => *version,
        ClientMsg::Backgrounds => return Err(Greeting::Backgrounds),
        _ => return Err(Greeting::Violation("the first message must be a hello")),
    };
    if version != PROTOCOL_VERSION {
        return Err(Greeting::Refuse(Refusal::WrongVersion { server: PROTOCOL_VERSION }));
    }
    let named = |name: &str| {
        check_name(name)
            .map_err(|reason| Greeting::Refuse(Refusal::NameInvalid { reason: reason.into() }))
    };
    match msg {
        ClientMsg::Hello { name, token, .. } => {
            named(&name)?;
            Ok(Joining::Play { name, token, background: None })
        }
        ClientMsg::Create { name, token, background, .. } => {
            named(&name)?;
            Ok(Joining::Play { name, token, background: Some(background) })
        }
        ClientMsg::Watch { name, token, player, .. } => {
            named(&name)?;
            if check_name(&player).is_err() {
                let reason = "nobody by that name is playing".into();
                return Err(Greeting::Refuse(Refusal::CannotWatch { reason }));
            }
            Ok(Joining::Watch { name, token, player })
        }
        ClientMsg::Recording { ask, .. } => {
            let (RecordingAsk::Grave { name, .. }
            | RecordingAsk::Mine { name, .. }
            | RecordingAsk::Past { player: name, .. }) = &ask;
            if check_name(name).is_err() {
                let reason = "nobody was ever called that".into();
                return Err(Greeting::Refuse(Refusal::NoRecording { reason }));
            }
            Ok(Joining::Recording(ask))
        }
        _ => Err(Greeting::Violation("the first message must be a hello")),
    }
}

/// What a player in the game asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Request {
    Act(Action),
    Graveyard,
    Chat(ChatTo, String),
    Audience(AudienceCmd),
    Who,
    /// End the standing order under way.
    Stop,
}

/// Why a greeting failed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Greeting {
    /// A well-formed hello that the server turns down, with a typed reason.
    Refuse(Refusal),
    /// Not a hello at all: a protocol violation.
    Violation(&'static str),
    /// The client asks which backgrounds a new character may take, before
    /// its hello (once).
    Backgrounds,
}

/// What a message from a player already in the game asks for.
pub(crate) fn play(msg: ClientMsg) -> Result<Request, &'static str> {
    match msg {
        ClientMsg::Act(action) => Ok(Request::Act(action)),
        ClientMsg::Graveyard => Ok(Request::Graveyard),
        ClientMsg::Chat { to, text } => Ok(Request::Chat(to, text)),
        ClientMsg::Audience(cmd) => Ok(Request::Audience(cmd)),
        ClientMsg::Who => Ok(Request::Who),
        ClientMsg::Stop => Ok(Request::Stop),
        ClientMsg::Hello { .. } | ClientMsg::Watch { .. } | ClientMsg::Create { .. } => {
            Err("hello sent twice")
        }
        ClientMsg::Recording { .. } => Err("a recording is asked for instead of a hello"),
        ClientMsg::Backgrounds => Err("the backgrounds are asked for before the hello"),
    }
}

/// Names are 1 to 16 letters, digits, '-' or '_', so they read cleanly in
/// every HUD and log.
pub(crate) fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("a name cannot be empty");
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err("a name has at most 16 characters");
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') {
        return Err("a name holds only letters, digits, '-' and '_'");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello(version: u32, name: &str) -> ClientMsg {
        ClientMsg::Hello { version, name: name.into(), token: None }
    }

    #[test]
    fn a_good_hello_gives_the_name() {
        let play = Joining::Play { name: "ann".into(), token: None, background: None };
        assert_eq!(greet(hello(PROTOCOL_VERSION, "ann")), Ok(play));
    }

    #[test]
    fn a_create_names_its_background_and_is_checked_as_a_hello() {
        let create = |version, name: &str| ClientMsg::Create {
            version,
            name: name.into(),
            token: None,
            background: "scout".into(),
        };
        let joining =
            Joining::Play { name: "ann".into(), token: None, background: Some("scout".into()) };
        assert_eq!(greet(create(PROTOCOL_VERSION, "ann")), Ok(joining));
        // A dead character's name starts its new life with its token.
        let again = ClientMsg::Create {
            version: PROTOCOL_VERSION,
            name: "ann".into(),
            token: Some([7; 16]),
            background: "scout".into(),
        };
        let joining = Joining::Play {
            name: "ann".into(),
            token: Some([7; 16]),
            background: Some("scout".into()),
        };
        assert_eq!(greet(again), Ok(joining));
        assert!(matches!(
            greet(create(PROTOCOL_VERSION + 1, "ann")),
            Err(Greeting::Refuse(Refusal::WrongVersion { .. }))
        ));
        assert!(matches!(
            greet(create(PROTOCOL_VERSION, "a n")),
            Err(Greeting::Refuse(Refusal::NameInvalid { .. }))
        ));
        assert_eq!(greet(ClientMsg::Backgrounds), Err(Greeting::Backgrounds));
        assert!(play(create(PROTOCOL_VERSION, "ann")).is_err(), "a second hello");
        assert!(play(ClientMsg::Backgrounds).is_err(), "asked for once in the game");
    }

    fn watch(version: u32, name: &str, player: &str) -> ClientMsg {
        ClientMsg::Watch { version, name: name.into(), token: None, player: player.into() }
    }

    #[test]
    fn a_watch_is_a_hello_with_a_player_named() {
        let joining = Joining::Watch { name: "bob".into(), token: None, player: "ann".into() };
        assert_eq!(greet(watch(PROTOCOL_VERSION, "bob", "ann")), Ok(joining));
        assert!(matches!(
            greet(watch(PROTOCOL_VERSION + 1, "bob", "ann")),
            Err(Greeting::Refuse(Refusal::WrongVersion { .. }))
        ));
        assert!(matches!(
            greet(watch(PROTOCOL_VERSION, "b b", "ann")),
            Err(Greeting::Refuse(Refusal::NameInvalid { .. }))
        ));
        assert!(matches!(
            greet(watch(PROTOCOL_VERSION, "bob", "a\u{202e}nn")),
            Err(Greeting::Refuse(Refusal::CannotWatch { .. }))
        ));
        assert!(play(watch(PROTOCOL_VERSION, "bob", "ann")).is_err(), "a second hello");
    }

    #[test]
    fn a_wrong_version_is_refused_with_ours() {
        assert_eq!(
            greet(hello(PROTOCOL_VERSION + 1, "ann")),
            Err(Greeting::Refuse(Refusal::WrongVersion { server: PROTOCOL_VERSION }))
        );
    }

    #[test]
    fn bad_names_are_refused() {
        for name in ["", "a b", "seventeen_chars_x", "semi;colon", "new\nline"] {
            assert!(
                matches!(
                    greet(hello(PROTOCOL_VERSION, name)),
                    Err(Greeting::Refuse(Refusal::NameInvalid { .. }))
                ),
                "{name:?}"
            );
        }
        assert_eq!(check_name("Ünïcode-ok_1"), Ok(()));
    }

    #[test]
    fn an_action_before_hello_is_a_violation() {
        assert!(matches!(greet(ClientMsg::Act(Action::Wait)), Err(Greeting::Violation(_))));
    }

    #[test]
    fn a_second_hello_is_a_violation() {
        assert!(play(hello(PROTOCOL_VERSION, "ann")).is_err());
        assert_eq!(play(ClientMsg::Act(Action::Wait)), Ok(Request::Act(Action::Wait)));
        assert_eq!(play(ClientMsg::Graveyard), Ok(Request::Graveyard));
    }
}
