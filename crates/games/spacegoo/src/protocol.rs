//! The reference text protocol's command lines, turned into [`Action`]s.
//!
//! Tokenizer (background §5): the line is stripped of surrounding whitespace and split on
//! any run of whitespace (spaces, tabs, … as Python's `str.split()`). A double-quoted
//! token keeps its case and may hold anything but `"`; an unquoted token must consist of
//! `[a-zA-Z0-9_-]` and is lowercased. Any other byte (`.` in `3.5`, `;`, an unmatched
//! quote) is the reference's "invalid data", after which it dropped the connection.
//!
//! Two quoted tokens with only whitespace between them leave an empty token between
//! them: the reference's stray empty token (background §5), reproduced because it
//! decides what a line means. So `login "A" "B"` is `login` with three arguments,
//! answered `invalid arguments` as there; a quoted token beside an unquoted one
//! (`login "Ann" pw`) is unaffected. An empty line is reported as
//! [`CommandError::Empty`]; the rules say to ignore it (the reference treated it as a
//! disconnect).
//!
//! Outcomes, as the server must treat them:
//! - `Ok(action)` counts as the round's command — even a send the engine will ignore,
//!   and a send with negative numbers, which disqualifies its sender when applied;
//! - [`CommandError::InvalidData`] ends the connection (a disqualification in a game);
//! - every other error is answered with its message and does **not** use the round's
//!   command.

use crate::actions::{Action, SendOrder};

/// The reference's reply to bytes outside the token alphabet.
pub const INVALID_DATA_MESSAGE: &str = "Invalid data received. Valid bytes: [a-z 0-9A-Z_\\-]";

/// Why a line is not a game command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Nothing but whitespace.
    #[error("empty line")]
    Empty,
    /// A byte outside the alphabet: the reference answered this and disconnected.
    #[error("{}", INVALID_DATA_MESSAGE)]
    InvalidData,
    /// A protocol command that is not a game action (`login`, `quit`); the tokens are
    /// returned for the caller to dispatch.
    #[error("not a game command: {}", .0.first().map(String::as_str).unwrap_or(""))]
    NotAnAction(Vec<String>),
    /// The first token is no command at all.
    #[error("unknown command: {}", python_repr(.0))]
    UnknownCommand(String),
    /// Wrong argument count. The message imitates Python 3.10+'s `TypeError` text,
    /// which the reference forwarded verbatim.
    #[error("invalid arguments: {}", arity_message(.command, .given))]
    InvalidArguments { command: String, given: usize },
    /// A `send` argument is not an integer.
    #[error("numbers expected")]
    NumbersExpected,
}

/// Python's `str.isspace()` for the characters `str.strip()` removes.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Split a line into tokens as the reference server does.
pub fn tokenize(line: &str) -> Result<Vec<String>, CommandError> {
    let line = line.trim_matches(is_python_space);
    let mut tokens = Vec::new();
    let mut chars = line.chars().peekable();
    // The last token was quoted / whitespace has come since the last token: both
    // together before a quote make the reference's stray empty token.
    let mut after_quoted = false;
    let mut gap = false;
    while let Some(&c) = chars.peek() {
        match c {
            c if is_python_space(c) => {
                chars.next();
                gap = true;
            }
            '"' => {
                chars.next();
                if after_quoted && gap {
                    tokens.push(String::new());
                }
                let mut token = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(inner) => token.push(inner),
                        None => return Err(CommandError::InvalidData),
                    }
                }
                tokens.push(token);
                after_quoted = true;
                gap = false;
            }
            _ => {
                let mut token = String::new();
                while let Some(&c) = chars.peek() {
                    if is_python_space(c) {
                        break;
                    }
                    if !(c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                        return Err(CommandError::InvalidData);
                    }
                    token.push(c.to_ascii_lowercase());
                    chars.next();
                }
                tokens.push(token);
                after_quoted = false;
            }
        }
    }
    Ok(tokens)
}

/// Python's `int(token)`: surrounding whitespace, an optional sign, ASCII digits with
/// single underscores between them (non-ASCII digits, which only a quoted token could
/// carry, are refused). Out-of-range values saturate: they are either
/// clamped to the planet's ships or an invalid planet id either way, as in Python.
pub fn python_int(token: &str) -> Option<i64> {
    let token = token.trim_matches(is_python_space);
    let (negative, digits) = match token.as_bytes().first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    let bytes = digits.as_bytes();
    if bytes.is_empty() || !bytes[0].is_ascii_digit() || !bytes[bytes.len() - 1].is_ascii_digit() {
        return None;
    }
    let mut value: i64 = 0;
    let mut previous_underscore = false;
    for &b in bytes {
        match b {
            b'0'..=b'9' => {
                let digit = i64::from(b - b'0');
                value =
                    value
                        .saturating_mul(10)
                        .saturating_add(if negative { -digit } else { digit });
                previous_underscore = false;
            }
            b'_' if !previous_underscore => previous_underscore = true,
            _ => return None,
        }
    }
    Some(value)
}

/// Read one line of the text protocol as a game command.
pub fn parse_command(line: &str) -> Result<Action, CommandError> {
    let tokens = tokenize(line)?;
    let Some(command) = tokens.first() else {
        return Err(CommandError::Empty);
    };
    let args = &tokens[1..];
    match command.as_str() {
        "nop" if args.is_empty() => Ok(Action::Nop),
        "send" if args.len() == 5 => {
            let mut numbers = [0i64; 5];
            for (slot, token) in numbers.iter_mut().zip(args) {
                *slot = python_int(token).ok_or(CommandError::NumbersExpected)?;
            }
            Ok(Action::Send(SendOrder {
                origin: numbers[0],
                target: numbers[1],
                ships: [numbers[2], numbers[3], numbers[4]],
            }))
        }
        "nop" | "send" => Err(CommandError::InvalidArguments {
            command: command.clone(),
            given: args.len(),
        }),
        "login" | "quit" => Err(CommandError::NotAnAction(tokens)),
        _ => Err(CommandError::UnknownCommand(command.clone())),
    }
}

/// Python's `repr()` of a str, as in `"unknown command: %r"`.
fn python_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::from(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The reference handlers' parameter names (after `self`).
fn parameters(command: &str) -> &'static [&'static str] {
    match command {
        "send" => &["origin_id", "target_id", "a", "b", "c"],
        _ => &[],
    }
}

/// Python's `TypeError` for calling `Connection.handle_cmd_<command>(*args)`.
fn arity_message(command: &str, given: &usize) -> String {
    let names = parameters(command);
    let function = format!("Connection.handle_cmd_{command}()");
    if *given > names.len() {
        let takes = names.len() + 1;
        let plural = if takes == 1 { "" } else { "s" };
        return format!(
            "{function} takes {takes} positional argument{plural} but {} were given",
            given + 1
        );
    }
    let missing: Vec<String> = names[*given..].iter().map(|n| format!("'{n}'")).collect();
    let list = match missing.len() {
        0 => String::new(),
        1 => missing[0].clone(),
        2 => format!("{} and {}", missing[0], missing[1]),
        n => format!("{}, and {}", missing[..n - 1].join(", "), missing[n - 1]),
    };
    let plural = if missing.len() == 1 { "" } else { "s" };
    format!(
        "{function} missing {} required positional argument{plural}: {list}",
        missing.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_case_insensitively() {
        assert_eq!(parse_command("nop"), Ok(Action::Nop));
        assert_eq!(parse_command("  NOP \r\n"), Ok(Action::Nop));
        assert_eq!(
            parse_command("SEND 1 0  5 0 2"),
            Ok(Action::send(1, 0, [5, 0, 2]))
        );
        assert_eq!(
            parse_command("send \"1\" 0 5 0 2"),
            Ok(Action::send(1, 0, [5, 0, 2]))
        );
    }

    #[test]
    fn negative_numbers_parse_and_disqualify_when_applied() {
        let action = parse_command("send 0 1 100 -3 2");
        assert_eq!(
            action,
            Ok(Action::Send(SendOrder {
                origin: 0,
                target: 1,
                ships: [100, -3, 2]
            }))
        );
        assert!(action.ok().and_then(|a| a.disqualifies()).is_some());
    }

    #[test]
    fn python_int_rules() {
        assert_eq!(python_int("007"), Some(7));
        assert_eq!(python_int("-0"), Some(0));
        assert_eq!(python_int("1_000"), Some(1000));
        assert_eq!(python_int("1__0"), None);
        assert_eq!(python_int("_1"), None);
        assert_eq!(python_int("1_"), None);
        assert_eq!(python_int("-"), None);
        assert_eq!(python_int("--5"), None);
        assert_eq!(python_int("abc"), None);
        assert_eq!(python_int(""), None);
        assert_eq!(python_int("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(python_int("-99999999999999999999999"), Some(i64::MIN));
    }

    /// The reference split on any whitespace (Python's `str.split()`), so tabs and runs
    /// of blanks separate tokens like one space.
    #[test]
    fn tabs_and_runs_of_whitespace_separate_tokens() {
        assert_eq!(
            tokenize("send\t1  0\t\t3 0 0").unwrap(),
            vec!["send", "1", "0", "3", "0", "0"]
        );
        assert_eq!(tokenize("\tnop\r").unwrap(), vec!["nop"]);
        assert_eq!(
            parse_command("send\t1 0 3 0 0"),
            parse_command("send 1 0 3 0 0")
        );
        assert_eq!(
            tokenize("login\t\"Ann Lee\"\tpw").unwrap(),
            vec!["login", "Ann Lee", "pw"]
        );
    }

    /// Two quoted tokens with only whitespace between them leave an empty token between
    /// them in the reference's tokenizer, so `login "A" "B"` has three arguments and
    /// is answered `invalid arguments`; one quoted token beside unquoted ones does not.
    #[test]
    fn whitespace_between_two_quoted_tokens_is_an_empty_token() {
        assert_eq!(
            tokenize("login \"A\" \"B\"").unwrap(),
            vec!["login", "A", "", "B"]
        );
        assert_eq!(
            tokenize("\"x\" \t \"y\" \"z\"").unwrap(),
            vec!["x", "", "y", "", "z"]
        );
        assert_eq!(tokenize("login \"A\" b").unwrap(), vec!["login", "A", "b"]);
        assert_eq!(tokenize("login a \"B\"").unwrap(), vec!["login", "a", "B"]);
        assert_eq!(
            tokenize("login \"A\" x \"B\"").unwrap(),
            vec!["login", "A", "x", "B"]
        );
        assert_eq!(
            parse_command("send \"1\" \"0\" 5 0 2").map_err(|e| e.to_string()),
            Err("invalid arguments: Connection.handle_cmd_send() takes 6 positional arguments but 7 were given".to_string())
        );
    }

    #[test]
    fn errors_match_the_reference_replies() {
        assert_eq!(parse_command(""), Err(CommandError::Empty));
        assert_eq!(parse_command("   "), Err(CommandError::Empty));
        assert_eq!(
            parse_command("send 1 0 3.5 0 0"),
            Err(CommandError::InvalidData)
        );
        assert_eq!(parse_command("nop \"x"), Err(CommandError::InvalidData));
        assert_eq!(
            parse_command("send 1 0 a 0 0"),
            Err(CommandError::NumbersExpected)
        );
        assert_eq!(
            parse_command("Fly 1 2").map_err(|e| e.to_string()),
            Err("unknown command: 'fly'".to_string())
        );
        assert_eq!(
            parse_command("\"it's\"").map_err(|e| e.to_string()),
            Err("unknown command: \"it's\"".to_string())
        );
        assert_eq!(
            parse_command("send 1 0 3").map_err(|e| e.to_string()),
            Err("invalid arguments: Connection.handle_cmd_send() missing 2 required positional arguments: 'b' and 'c'".to_string())
        );
        assert_eq!(
            parse_command("send 1").map_err(|e| e.to_string()),
            Err("invalid arguments: Connection.handle_cmd_send() missing 4 required positional arguments: 'target_id', 'a', 'b', and 'c'".to_string())
        );
        assert_eq!(
            parse_command("send 1 2 3 4 5 6").map_err(|e| e.to_string()),
            Err("invalid arguments: Connection.handle_cmd_send() takes 6 positional arguments but 7 were given".to_string())
        );
        assert_eq!(
            parse_command("nop now").map_err(|e| e.to_string()),
            Err("invalid arguments: Connection.handle_cmd_nop() takes 1 positional argument but 2 were given".to_string())
        );
        assert_eq!(
            parse_command("LOGIN Carol \"Secret\""),
            Err(CommandError::NotAnAction(vec![
                "login".into(),
                "carol".into(),
                "Secret".into()
            ]))
        );
    }
}
