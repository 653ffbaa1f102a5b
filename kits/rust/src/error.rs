//! The two ways a request fails: the server refused it, or the connection is gone.

use std::fmt;

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
}

impl Error {
    /// The server's error code (`name_taken`, `bad_session`, …), if it was the server's.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Server { code, .. } => Some(code),
            Error::ConnectionLost(_) => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Server { code, message, .. } => write!(f, "{code}: {message}"),
            Error::ConnectionLost(why) => write!(f, "connection lost: {why}"),
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
