//! The ways a request fails: the server refused it, the connection is gone (or the
//! server is restarting), or a wait ran out.

use std::fmt;
use std::time::Duration;

/// What went wrong talking to the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The server answered with `{"type":"error","code":…,"message":…}`.
    Server {
        code: String,
        message: String,
        /// With `login_throttled`: when to try again.
        retry_after_ms: Option<u64>,
    },
    /// The connection closed or failed, or the server said nothing in time.
    ConnectionLost(String),
    /// The server said `server_restarting` and closed the connection: connect again
    /// after `retry_after_ms` (the kit does, by itself).
    ServerRestarting { retry_after_ms: u64 },
    /// Waited too long for something other players do (a match in the queue, a
    /// tournament's next game).
    TimedOut(String),
}

impl Error {
    /// The server's error code (`name_taken`, `bad_session`, …), if it was the server's.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Server { code, .. } => Some(code),
            _ => None,
        }
    }

    /// The connection is gone: reconnecting may help.
    pub fn is_connection_lost(&self) -> bool {
        matches!(
            self,
            Error::ConnectionLost(_) | Error::ServerRestarting { .. }
        )
    }

    /// How long the server asked to wait before connecting again, if it did.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Error::ServerRestarting { retry_after_ms } => {
                Some(Duration::from_millis(*retry_after_ms))
            }
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Server { code, message, .. } => write!(f, "{code}: {message}"),
            Error::ConnectionLost(why) => write!(f, "connection lost: {why}"),
            Error::ServerRestarting { retry_after_ms } => write!(
                f,
                "connection lost: the server is restarting (back in about {:.1} s)",
                *retry_after_ms as f64 / 1000.0
            ),
            Error::TimedOut(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::ConnectionLost(e.to_string())
    }
}

/// A kit operation's result.
pub type Result<T> = std::result::Result<T, Error>;
