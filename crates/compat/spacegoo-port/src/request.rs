//! One client line, classified. Tokenizing and game commands are the rules crate's
//! ([`arbiter_spacegoo::parse_command`]); this adds what the reference's connection
//! handler did around them: `login` and `quit` with their argument counts, the
//! "Unfinished quote" reply, and the checks whose order depends on the connection's
//! state (a `send` with bad numbers before login is answered "login first").

use arbiter_spacegoo::{parse_command, Action, CommandError};

use crate::replies;

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Only whitespace: ignored (the reference took it for a lost connection).
    Empty,
    Login {
        username: String,
        password: String,
    },
    Quit,
    /// `nop` or `send` with five integers: a game command (a send with a negative
    /// planet id comes as `nop`, see [`as_the_reference_applies`]).
    Command(Action),
    /// `send` with five arguments, not all integers. Answered "numbers expected" once
    /// the player is logged in and in a game (the reference checked those first).
    BadNumbers,
    /// Answer with this line and carry on (unknown command, wrong argument count).
    Reply(String),
    /// Answer with this line, then treat the connection as lost (a byte outside the
    /// alphabet, an unfinished quote).
    Fatal(String),
}

/// Classify one line (without its newline).
pub fn classify(line: &str) -> Request {
    match parse_command(line) {
        Ok(action) => Request::Command(as_the_reference_applies(action)),
        Err(CommandError::Empty) => Request::Empty,
        Err(CommandError::InvalidData) => {
            if unfinished_quote_only(line) {
                Request::Fatal(replies::UNFINISHED_QUOTE.to_string())
            } else {
                Request::Fatal(replies::INVALID_DATA.to_string())
            }
        }
        Err(CommandError::NotAnAction(tokens)) => session_command(tokens),
        Err(CommandError::NumbersExpected) => Request::BadNumbers,
        Err(error @ (CommandError::UnknownCommand(_) | CommandError::InvalidArguments { .. })) => {
            Request::Reply(error.to_string())
        }
    }
}

/// The command with the effect the reference gave it. Its server disqualified only a
/// negative ship count; a negative planet id went on to its engine, which ignored a send
/// whose ids are not on the map, after the send had already counted as the round's
/// command. So such a send is this round's `nop`: the round goes on, a second command
/// still disqualifies, and no fleet comes of it (not even from the planet Python's
/// negative index would name). The rules crate disqualifies a negative id, so it must
/// not reach it as a send.
fn as_the_reference_applies(action: Action) -> Action {
    match &action {
        Action::Send(order)
            if order.ships.iter().all(|&n| n >= 0) && (order.origin < 0 || order.target < 0) =>
        {
            Action::Nop
        }
        _ => action,
    }
}

/// `login` and `quit`, checked for their argument counts as Python would.
fn session_command(tokens: Vec<String>) -> Request {
    let mut tokens = tokens.into_iter();
    let command = tokens.next().unwrap_or_default();
    let args: Vec<String> = tokens.collect();
    if let Some(error) = replies::arity_error(&command, args.len()) {
        return Request::Reply(error);
    }
    match (command.as_str(), <[String; 2]>::try_from(args)) {
        ("login", Ok([username, password])) => Request::Login { username, password },
        ("quit", _) => Request::Quit,
        // `parse_command` hands over only `login` and `quit`.
        (other, _) => Request::Reply(format!("unknown command: '{other}'")),
    }
}

/// True when the only fault of `line` is a quote left open: closing it makes the line
/// tokenize. The reference scanned left to right, so a bad byte *before* the quote is
/// still reported as invalid data, and everything after an opening quote is inside it.
fn unfinished_quote_only(line: &str) -> bool {
    arbiter_spacegoo::tokenize(&format!("{line}\"")).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logins_and_quit() {
        assert_eq!(
            classify("LOGIN Carol \"S3cret x\""),
            Request::Login {
                username: "carol".into(),
                password: "S3cret x".into()
            }
        );
        assert_eq!(classify("quit"), Request::Quit);
        assert!(
            matches!(classify("login carol"), Request::Reply(r) if r.contains("missing 1 required positional argument: 'password'"))
        );
        assert!(
            matches!(classify("quit now"), Request::Reply(r) if r.contains("takes 1 positional argument but 2 were given"))
        );
    }

    /// The reference's tokenizer leaves an empty token between two quoted tokens, so
    /// quoting both the name and the password is a wrong argument count, while the
    /// logins real bots send (unquoted, or one side quoted) still log in.
    #[test]
    fn a_login_with_both_arguments_quoted_has_invalid_arguments() {
        assert_eq!(
            classify("login \"A\" \"B\""),
            Request::Reply(
                "invalid arguments: Connection.handle_cmd_login() takes 3 positional arguments but 4 were given"
                    .into()
            )
        );
        let login = |username: &str, password: &str| Request::Login {
            username: username.into(),
            password: password.into(),
        };
        assert_eq!(classify("login ann pw"), login("ann", "pw"));
        assert_eq!(classify("login \"Ann\" pw"), login("Ann", "pw"));
        assert_eq!(classify("login ann \"P w\""), login("ann", "P w"));
    }

    /// The reference disqualified only negative ship counts; a negative planet id went
    /// to its engine, which ignored the send (no fleet) after it had counted as the
    /// round's command. So it is taken as `nop`: the round goes on, a second command
    /// still disqualifies, and no fleet can come of it.
    #[test]
    fn a_negative_planet_id_is_the_round_s_command_with_no_effect() {
        assert_eq!(classify("send -1 2 5 0 0"), Request::Command(Action::Nop));
        assert_eq!(classify("send 1 -2 5 0 0"), Request::Command(Action::Nop));
        assert_eq!(classify("send -1 -1 0 0 0"), Request::Command(Action::Nop));
        // A negative ship count still disqualifies, whatever the ids.
        let negative_ships = classify("send -1 2 -5 0 0");
        assert!(
            matches!(&negative_ships, Request::Command(action) if action.disqualifies() == Some(arbiter_spacegoo::reasons::NEGATIVE_SHIPS)),
            "{negative_ships:?}"
        );
        // Out-of-range ids on the other side stay sends the rules ignore.
        assert_eq!(
            classify("send 99 2 5 0 0"),
            Request::Command(Action::send(99, 2, [5, 0, 0]))
        );
    }

    #[test]
    fn game_commands_and_their_errors() {
        assert_eq!(classify(" nop "), Request::Command(Action::Nop));
        assert_eq!(
            classify("send 1 2 3 4 5"),
            Request::Command(Action::send(1, 2, [3, 4, 5]))
        );
        assert_eq!(classify("send 1 2 x 4 5"), Request::BadNumbers);
        assert_eq!(
            classify("fly"),
            Request::Reply("unknown command: 'fly'".into())
        );
        assert!(
            matches!(classify("send 1"), Request::Reply(r) if r.starts_with("invalid arguments: "))
        );
        assert_eq!(classify(""), Request::Empty);
        assert_eq!(classify("   "), Request::Empty);
    }

    #[test]
    fn bad_bytes_and_open_quotes_are_fatal_with_the_right_reply() {
        assert_eq!(
            classify("send 1 2 3.5 0 0"),
            Request::Fatal(replies::INVALID_DATA.into())
        );
        assert_eq!(
            classify("login \"carol x"),
            Request::Fatal(replies::UNFINISHED_QUOTE.into())
        );
        assert_eq!(
            classify("login a.b \"carol"),
            Request::Fatal(replies::INVALID_DATA.into())
        );
        assert_eq!(
            classify("nop\u{0}"),
            Request::Fatal(replies::INVALID_DATA.into())
        );
    }
}
