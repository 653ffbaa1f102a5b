//! Why an action was refused.
//!
//! Each ruleset keeps its own typed error enum (so its rules read well and its tests
//! can match on variants) and converts it into [`Illegal`], which carries a stable
//! machine-readable `code` and a sentence for people. An illegal action changes nothing.

use serde::{Deserialize, Serialize};

use crate::game::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Illegal {
    /// Stable identifier, e.g. `not_your_turn`, `tile_not_owned`.
    pub code: String,
    /// Explanation for the player.
    pub message: String,
}

impl Illegal {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Illegal {
            code: code.into(),
            message: message.into(),
        }
    }

    pub fn game_over() -> Self {
        Illegal::new("game_over", "the game is over")
    }

    pub fn not_your_turn(seat: Seat) -> Self {
        Illegal::new(
            "not_your_turn",
            format!("seat {seat} does not owe a decision now"),
        )
    }

    pub fn no_such_seat(seat: Seat) -> Self {
        Illegal::new(
            "no_such_seat",
            format!("there is no seat {seat} in this game"),
        )
    }

    /// The action could not be read as this ruleset's action type.
    pub fn malformed(detail: impl std::fmt::Display) -> Self {
        Illegal::new(
            "malformed_action",
            format!("cannot read the action: {detail}"),
        )
    }
}
