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
    /// Tiles are handed over as the course's referee does: in a `new-tiles` call of
    /// their own, after the turn that dealt them. A player ejected before the next turn
    /// begins (its `new-tiles` call failed) never received them, and they are lost:
    /// neither back in the pile nor dealt again; the rest of its hand goes to the pile
    /// as usual. Set by the Q-Game port; off (and left out of records) elsewhere.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub course_calls: bool,
}

impl Default for Config {
    /// The decided ruleset: Q bonus 8, finish bonus 4.
    fn default() -> Self {
        Config {
            qbo: 8,
            fbo: 4,
            state0: None,
            course_calls: false,
        }
    }
}
