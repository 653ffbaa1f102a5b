//! Every line the port writes that is not a state, worded exactly as the reference server
//! (`main.py` of the fork, background §5) wrote it, including its typos ("waiting for you
//! command"). Lines the reference never needed (a flood, an overlong line, a store fault)
//! are marked as ours.

/// Sent on accept.
pub const WELCOME: &str = "welcome to rocket-paper-spacegoo. see https://github.com/qr4/rocket-paper-spacegoo for more information on how to play";
/// Unknown user with account creation off, or a wrong password. The connection closes.
pub const INVALID_LOGIN: &str = "invalid login";
/// Too many failed logins for the name or from the address (ours; the reference had no
/// throttle). The connection closes, as after `invalid login`.
pub const LOGIN_THROTTLED: &str = "too many failed logins. try again later";
/// A second `login` on the same connection. The connection closes.
pub const ALREADY_LOGGED_IN: &str = "already logged in";
/// The account is logged in on another connection. The connection closes.
pub const YOU_ARE_ALREADY_LOGGED_IN: &str = "you are already logged in";
/// `send`/`nop` before `login`.
pub const LOGIN_FIRST: &str = "login first";
/// `send`/`nop` in the lobby.
pub const NOT_IN_A_GAME: &str = "not in a game. please wait";
/// A `send` argument that is not an integer (does not use the round's command).
pub const NUMBERS_EXPECTED: &str = "numbers expected";
/// A command once the game is over.
pub const GAME_IS_OVER: &str = "game is over. please disconnect";
/// A command was taken as this round's.
pub const COMMAND_RECEIVED: &str = "command received. waiting for other player...";
/// Both commands are in; the tick runs.
pub const CALCULATING_ROUND: &str = "calculating round";
/// After every state but the first and the last (sic).
pub const WAITING_FOR_COMMAND: &str = "waiting for you command";
/// The last line before the server closes a connection.
pub const CLOSING: &str = "closing connection. see you next time";
/// An opening `"` without its closing one. Treated as a lost connection.
pub const UNFINISHED_QUOTE: &str = "Unfinished quote";
/// A byte outside the token alphabet. Treated as a lost connection.
pub use arbiter_spacegoo::protocol::INVALID_DATA_MESSAGE as INVALID_DATA;

/// After a successful login (the rating in this ruleset, two decimals).
pub fn login_ok(score: f64) -> String {
    format!("your current score: {score:.2}. waiting for game start...")
}

/// The first line of a game (`other` is the opponent's account name).
pub fn game_starts(game_id: i64, other: &str) -> String {
    format!("game {game_id} starts. other player is {other}")
}

/// The line before the final state; `rating_change` is this player's.
pub fn game_ended(reason: &str, rating_change: f64) -> String {
    format!("game ended: {reason}, {rating_change:.2} ELO for you. final state follows")
}

/// After the final state: where the game can be watched again. `url` is the port's
/// configured template with `{id}` replaced.
pub fn game_available(url: &str) -> String {
    format!("This game is now available at {url}")
}

/// Ours: a line longer than the port accepts. Treated as a lost connection.
pub fn line_too_long(max: usize) -> String {
    format!("line too long: at most {max} bytes per line")
}

/// Ours: more lines than the port accepts per second. Treated as a lost connection.
pub fn too_many_lines(per_second: u32) -> String {
    format!("too many lines: at most {per_second} per second")
}

/// Ours: the store could not check the login (a server fault, not the player's).
pub const LOGIN_UNAVAILABLE: &str = "login is unavailable right now. please try again later";

/// Ours: pairing succeeded but the match could not be recorded or started.
pub const GAME_NOT_STARTED: &str = "the game could not start. please try again later";

/// Ours: the port serves as many connections as it may.
pub const TOO_MANY_CONNECTIONS: &str = "too many connections. please try again later";

/// Ours: the match stopped without an outcome (a server fault, never a player's).
pub fn game_aborted(reason: &str) -> String {
    format!("game aborted: {reason}")
}

/// Ours: the server is shutting down.
pub const SHUTTING_DOWN: &str = "the server is shutting down";

/// Python's `TypeError` text for calling `Connection.handle_cmd_<command>(*args)` with
/// `given` arguments, for the commands the rules crate leaves to the port (`login`,
/// `quit`); `None` when the count is right.
pub fn arity_error(command: &str, given: usize) -> Option<String> {
    let names: &[&str] = match command {
        "login" => &["username", "password"],
        "quit" => &[],
        _ => return None,
    };
    let function = format!("Connection.handle_cmd_{command}()");
    if given == names.len() {
        return None;
    }
    let text = if given > names.len() {
        let takes = names.len() + 1;
        let plural = if takes == 1 { "" } else { "s" };
        format!(
            "{function} takes {takes} positional argument{plural} but {} were given",
            given + 1
        )
    } else {
        let missing: Vec<String> = names[given..].iter().map(|n| format!("'{n}'")).collect();
        let list = match missing.as_slice() {
            [one] => one.clone(),
            [first, second] => format!("{first} and {second}"),
            _ => missing.join(", "),
        };
        let plural = if missing.len() == 1 { "" } else { "s" };
        format!(
            "{function} missing {} required positional argument{plural}: {list}",
            missing.len()
        )
    };
    Some(format!("invalid arguments: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatted_lines_match_the_reference() {
        assert_eq!(
            login_ok(1000.0),
            "your current score: 1000.00. waiting for game start..."
        );
        assert_eq!(
            game_starts(12, "bob"),
            "game 12 starts. other player is bob"
        );
        assert_eq!(
            game_ended("player 1 won", 5.0),
            "game ended: player 1 won, 5.00 ELO for you. final state follows"
        );
        assert_eq!(
            game_ended("player 2 disqualified: no command sent", -4.99712),
            "game ended: player 2 disqualified: no command sent, -5.00 ELO for you. final state follows"
        );
        assert_eq!(
            INVALID_DATA,
            "Invalid data received. Valid bytes: [a-z 0-9A-Z_\\-]"
        );
    }

    #[test]
    fn arity_errors_read_like_python() {
        assert_eq!(arity_error("login", 2), None);
        assert_eq!(arity_error("quit", 0), None);
        assert_eq!(
            arity_error("login", 1).as_deref(),
            Some("invalid arguments: Connection.handle_cmd_login() missing 1 required positional argument: 'password'")
        );
        assert_eq!(
            arity_error("login", 0).as_deref(),
            Some("invalid arguments: Connection.handle_cmd_login() missing 2 required positional arguments: 'username' and 'password'")
        );
        assert_eq!(
            arity_error("login", 3).as_deref(),
            Some("invalid arguments: Connection.handle_cmd_login() takes 3 positional arguments but 4 were given")
        );
        assert_eq!(
            arity_error("quit", 1).as_deref(),
            Some("invalid arguments: Connection.handle_cmd_quit() takes 1 positional argument but 2 were given")
        );
    }
}
