//! Which client message is legal when: the rules of a session, apart from
//! the sockets so they can be tested directly.

use gloam_protocol::{Action, ChatTo, ClientMsg, MAX_NAME_CHARS, PROTOCOL_VERSION, Refusal, Token};

/// What to do with a message from a client that has not said hello yet.
pub(crate) fn greet(msg: ClientMsg) -> Result<(String, Option<Token>), Greeting> {
    match msg {
        ClientMsg::Hello { version, .. } if version != PROTOCOL_VERSION => {
            Err(Greeting::Refuse(Refusal::WrongVersion { server: PROTOCOL_VERSION }))
        }
        ClientMsg::Hello { name, token, .. } => match check_name(&name) {
            Ok(()) => Ok((name, token)),
            Err(reason) => Err(Greeting::Refuse(Refusal::NameInvalid { reason: reason.into() })),
        },
        ClientMsg::Act(_) | ClientMsg::Graveyard | ClientMsg::Chat { .. } => {
            Err(Greeting::Violation("the first message must be a hello"))
        }
    }
}

/// What a player in the game asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Request {
    Act(Action),
    Graveyard,
    Chat(ChatTo, String),
}

/// Why a greeting failed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Greeting {
    /// A well-formed hello that the server turns down, with a typed reason.
    Refuse(Refusal),
    /// Not a hello at all: a protocol violation.
    Violation(&'static str),
}

/// What a message from a player already in the game asks for.
pub(crate) fn play(msg: ClientMsg) -> Result<Request, &'static str> {
    match msg {
        ClientMsg::Act(action) => Ok(Request::Act(action)),
        ClientMsg::Graveyard => Ok(Request::Graveyard),
        ClientMsg::Chat { to, text } => Ok(Request::Chat(to, text)),
        ClientMsg::Hello { .. } => Err("hello sent twice"),
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
        assert_eq!(greet(hello(PROTOCOL_VERSION, "ann")), Ok(("ann".into(), None)));
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
