//! Match options: the bonuses, and optionally a given starting state.

use serde::{Deserialize, Serialize};

use crate::jstate::JState;

/// Largest bonus the course's JRefereeStateConfig allows.
pub const MAX_BONUS: u32 = 10;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Points for completing a Q (a run of six with all colours or all shapes).
    pub qbo: u32,
    /// Points for placing every tile in hand.
    pub fbo: u32,
    /// Start from this JState (map, pile, players in turn order) instead of a freshly
    /// shuffled set. Its player count fixes the number of seats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state0: Option<JState>,
}

impl Default for Config {
    /// The decided ruleset: Q bonus 8, finish bonus 4.
    fn default() -> Self {
        Config {
            qbo: 8,
            fbo: 4,
            state0: None,
        }
    }
}
