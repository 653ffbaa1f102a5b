//! Per-call time limits: each player lives on its own thread and the referee waits for
//! each answer at most the limit. A player that never answers (the course's "infinite
//! loop" players, a stuck remote) is abandoned on its thread; the game goes on.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use arbiter_qgame::{Action, JPub, Tile};

use crate::player::{CoursePlayer, PlayerFailure};

enum Call {
    Setup(JPub, Vec<Tile>),
    TakeTurn(JPub),
    NewTiles(Vec<Tile>),
    Win(bool),
}

enum Reply {
    Done,
    Action(Action),
}

/// A [`CoursePlayer`] wrapper that enforces a time limit on every call.
pub struct TimedPlayer {
    name: String,
    limit: Duration,
    calls: Sender<Call>,
    replies: Receiver<Result<Reply, PlayerFailure>>,
}

impl TimedPlayer {
    pub fn spawn(mut player: Box<dyn CoursePlayer>, limit: Duration) -> TimedPlayer {
        let name = player.name();
        let (calls, call_rx) = mpsc::channel::<Call>();
        let (reply_tx, replies) = mpsc::channel();
        let thread_name = format!("qgame-player-{name}");
        let spawned = thread::Builder::new().name(thread_name).spawn(move || {
            for call in call_rx {
                let reply = match call {
                    Call::Setup(state, hand) => player.setup(&state, &hand).map(|_| Reply::Done),
                    Call::TakeTurn(state) => player.take_turn(&state).map(Reply::Action),
                    Call::NewTiles(tiles) => player.new_tiles(&tiles).map(|_| Reply::Done),
                    Call::Win(won) => player.win(won).map(|_| Reply::Done),
                };
                if reply_tx.send(reply).is_err() {
                    break;
                }
            }
        });
        if spawned.is_err() {
            // Without a thread the player cannot be called; every call reports it gone.
            let (calls, _) = mpsc::channel();
            let (_, replies) = mpsc::channel();
            return TimedPlayer {
                name,
                limit,
                calls,
                replies,
            };
        }
        TimedPlayer {
            name,
            limit,
            calls,
            replies,
        }
    }

    fn call(&self, call: Call) -> Result<Reply, PlayerFailure> {
        self.calls
            .send(call)
            .map_err(|_| PlayerFailure::Gone("the player's thread has stopped".into()))?;
        match self.replies.recv_timeout(self.limit) {
            Ok(reply) => reply,
            Err(RecvTimeoutError::Timeout) => Err(PlayerFailure::Timeout(self.limit)),
            Err(RecvTimeoutError::Disconnected) => {
                Err(PlayerFailure::Gone("the player crashed".into()))
            }
        }
    }
}

impl CoursePlayer for TimedPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn setup(&mut self, state: &JPub, hand: &[Tile]) -> Result<(), PlayerFailure> {
        self.call(Call::Setup(state.clone(), hand.to_vec()))
            .map(|_| ())
    }
    fn take_turn(&mut self, state: &JPub) -> Result<Action, PlayerFailure> {
        match self.call(Call::TakeTurn(state.clone()))? {
            Reply::Action(action) => Ok(action),
            Reply::Done => Err(PlayerFailure::BadReply("take-turn answered void".into())),
        }
    }
    fn new_tiles(&mut self, tiles: &[Tile]) -> Result<(), PlayerFailure> {
        self.call(Call::NewTiles(tiles.to_vec())).map(|_| ())
    }
    fn win(&mut self, won: bool) -> Result<(), PlayerFailure> {
        self.call(Call::Win(won)).map(|_| ())
    }
}
