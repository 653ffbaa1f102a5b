//! The server's stand-in for a remote player: each call is sent over TCP and must be
//! answered with one well-formed, schema-valid JSON reply within the per-call limit.
//! Anything else (a late, broken, or missing reply, a closed connection) is a
//! [`PlayerFailure`], which the referee turns into an ejection.
//!
//! Coordinates cross the game's [`Edge`]: calls name them as the server's state0 did,
//! and a reply's are read back the same way (`-0` is 0).

use std::time::{Duration, Instant};

use arbiter_qgame::{Action, JPub, Tile};

use crate::edge::Edge;
use crate::exact::ExactJson;
use crate::player::{CoursePlayer, PlayerFailure};
use crate::remote::deadline::DeadlineStream;
use crate::remote::messages::{parse_choice, parse_void, Call};
use crate::remote::wire::{write_exact, JsonReader, WireError};

pub struct ProxyPlayer {
    name: String,
    connection: JsonReader<DeadlineStream>,
    limit: Duration,
    /// Report each failure on standard error (the configuration's `quiet` is false).
    verbose: bool,
    edge: Edge,
}

impl ProxyPlayer {
    /// A signed-up player, in a game whose coordinates are used as they are.
    /// `connection` may already hold bytes the client sent after its name; they are
    /// read as its first reply, as the reference would.
    pub fn new(
        name: String,
        connection: JsonReader<DeadlineStream>,
        limit: Duration,
        verbose: bool,
    ) -> ProxyPlayer {
        ProxyPlayer {
            name,
            connection,
            limit,
            verbose,
            edge: Edge::identity(),
        }
    }

    /// The same player in a game whose coordinates cross `edge` (the one its state0
    /// was read through).
    pub fn with_edge(mut self, edge: Edge) -> ProxyPlayer {
        self.edge = edge;
        self
    }

    /// Send the call and wait for the one reply, all within the limit.
    fn call(&mut self, call: Call) -> Result<ExactJson, PlayerFailure> {
        let deadline = Instant::now() + self.limit;
        self.connection.get_mut().set_deadline(Some(deadline));
        let result = write_exact(self.connection.get_mut(), &call.to_exact(&self.edge))
            .map_err(|e| PlayerFailure::Gone(format!("cannot send {}: {e}", call.method())))
            .and_then(|()| {
                self.connection.next_exact().map_err(|e| match e {
                    WireError::Timeout => PlayerFailure::Timeout(self.limit),
                    WireError::Closed(_) | WireError::Io(_) => PlayerFailure::Gone(e.to_string()),
                    WireError::TooLarge(_) | WireError::NotJson(_) => {
                        PlayerFailure::BadReply(e.to_string())
                    }
                })
            });
        if let Err(failure) = &result {
            self.report(call.method(), failure);
        }
        result
    }

    fn check<T>(&self, method: &str, checked: Result<T, String>) -> Result<T, PlayerFailure> {
        checked.map_err(|e| {
            let failure = PlayerFailure::BadReply(e);
            self.report(method, &failure);
            failure
        })
    }

    fn report(&self, method: &str, failure: &PlayerFailure) {
        if self.verbose {
            eprintln!("player {} failed on {method}: {failure}", self.name);
        }
    }
}

impl CoursePlayer for ProxyPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn setup(&mut self, state: &JPub, hand: &[Tile]) -> Result<(), PlayerFailure> {
        let reply = self.call(Call::Setup(state.clone(), hand.to_vec()))?;
        self.check("setup", parse_void(&reply))
    }

    fn take_turn(&mut self, state: &JPub) -> Result<Action, PlayerFailure> {
        let reply = self.call(Call::TakeTurn(state.clone()))?;
        self.check("take-turn", parse_choice(reply, &self.edge))
    }

    fn new_tiles(&mut self, tiles: &[Tile]) -> Result<(), PlayerFailure> {
        let reply = self.call(Call::NewTiles(tiles.to_vec()))?;
        self.check("new-tiles", parse_void(&reply))
    }

    fn win(&mut self, won: bool) -> Result<(), PlayerFailure> {
        let reply = self.call(Call::Win(won))?;
        self.check("win", parse_void(&reply))
    }
}

impl Drop for ProxyPlayer {
    /// The game is over for this player (or the server is shutting down): let the
    /// client see the end of the stream.
    fn drop(&mut self) {
        self.connection.get_ref().close();
    }
}
