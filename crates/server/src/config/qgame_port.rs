//! The Q-Game port's settings: part of the server's configuration (the bottom layer),
//! which the port (a door, near the top) reads.

use std::time::Duration;

/// The course's default port.
pub const DEFAULT_ADDRESS: &str = "127.0.0.1:45678";

/// The port's settings (the course's defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QgamePortOptions {
    /// How long a waiting period lasts from the first sign-up (the course: 20 s).
    pub signup_period: Duration,
    /// How long a new connection has to send its name (the course: 3 s).
    pub name_wait: Duration,
}

impl Default for QgamePortOptions {
    fn default() -> Self {
        QgamePortOptions {
            signup_period: Duration::from_secs(20),
            name_wait: Duration::from_secs(3),
        }
    }
}
