//! What an operator may set on the port. `Default` is the reference's behaviour where it
//! had one (account creation on first login, 3 s per round as in the seed, 500 rounds,
//! pairing every second, the end-of-game linger of 1 s) plus the bounds it lacked.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq)]
pub struct SpacegooPortOptions {
    /// `login` with an unknown name creates the account (the reference's
    /// `ALLOW_ACCOUNT_CREATION=true`); when false the login is refused.
    pub auto_create_accounts: bool,
    /// Time for each round's command (the seed's 3 s; the reference code used 6 s).
    pub deadline: Duration,
    /// Rounds before a draw.
    pub max_rounds: u32,
    /// Longest accepted line in bytes, newline excluded.
    pub max_line: usize,
    /// Steady lines per second accepted from one connection (game commands during a
    /// game are not counted: the game paces them)…
    pub lines_per_second: u32,
    /// …and how many may come at once.
    pub line_burst: u32,
    /// How often waiting players are paired.
    pub pairing_interval: Duration,
    /// How long the final lines stay readable before `closing connection` (the
    /// reference waited 1 s).
    pub close_delay: Duration,
    /// A connection that has not logged in after this long is closed.
    pub login_timeout: Duration,
    /// Connections served at once; further ones are closed at once.
    pub max_connections: usize,
    /// Every match uses this seed (reproducible events, transcript tests); `None` draws
    /// a fresh seed per match. The seed is stored with the match either way.
    pub seed: Option<u64>,
    /// Where a finished game can be seen, `{id}` standing for the match id; printed as
    /// `This game is now available at <url>`.
    pub game_url: String,
    /// How long a game waits for a failing store before it is aborted.
    pub store_patience: Duration,
    /// Each connection's kernel send buffer, in bytes (`None`: the kernel's own, which
    /// autotunes to megabytes). With a client that never reads, this and the port's
    /// per-write time limit are what the port holds for it.
    pub send_buffer: Option<usize>,
}

impl Default for SpacegooPortOptions {
    fn default() -> Self {
        SpacegooPortOptions {
            auto_create_accounts: true,
            deadline: Duration::from_secs(3),
            max_rounds: arbiter_spacegoo::config::DEFAULT_MAX_ROUNDS,
            max_line: 4096,
            lines_per_second: 20,
            line_burst: 40,
            pairing_interval: Duration::from_secs(1),
            close_delay: Duration::from_secs(1),
            login_timeout: Duration::from_secs(120),
            max_connections: 1024,
            seed: None,
            game_url: "http://127.0.0.1:8080/#/replay/{id}".to_string(),
            store_patience: arbiter_runner::DEFAULT_STORE_PATIENCE,
            send_buffer: None,
        }
    }
}

impl SpacegooPortOptions {
    /// The game's URL for `match_id`.
    pub fn game_url(&self, match_id: i64) -> String {
        self.game_url.replace("{id}", &match_id.to_string())
    }
}
