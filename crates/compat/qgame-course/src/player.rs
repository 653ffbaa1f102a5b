//! The course's player interface: four calls, each of which may fail.

use arbiter_qgame::{Action, JPub, Tile};

/// Why a call did not produce an answer. Any failure ejects the player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerFailure {
    #[error("raised an exception: {0}")]
    Exception(String),
    #[error("did not answer within {0:?}")]
    Timeout(std::time::Duration),
    #[error("is gone: {0}")]
    Gone(String),
    #[error("answered with something that is not a valid reply: {0}")]
    BadReply(String),
}

/// One seat as the course referee sees it: a local object or a remote proxy.
pub trait CoursePlayer: Send {
    fn name(&self) -> String;
    fn setup(&mut self, state: &JPub, hand: &[Tile]) -> Result<(), PlayerFailure>;
    fn take_turn(&mut self, state: &JPub) -> Result<Action, PlayerFailure>;
    fn new_tiles(&mut self, tiles: &[Tile]) -> Result<(), PlayerFailure>;
    fn win(&mut self, won: bool) -> Result<(), PlayerFailure>;
}
