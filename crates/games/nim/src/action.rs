//! What a seat may send, and why it may be refused.
//!
//! On the wire: `{"take": {"heap": 0, "count": 2}}` or
//! `{"double": [{"heap": 0, "count": 1}, {"heap": 2, "count": 3}]}`.

use serde::{Deserialize, Serialize};

use arbiter_engine::Illegal;

/// Stones taken from one heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Take {
    /// The heap, 0-based, in the configuration's order.
    pub heap: usize,
    /// How many stones, at least 1.
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Take(Take),
    /// Spend the `double` card: two takes from two different heaps.
    Double([Take; 2]),
}

/// The search bot (`mcts`) needs a placeholder action; it is never sent.
impl Default for Action {
    fn default() -> Self {
        Action::Take(Take { heap: 0, count: 1 })
    }
}

/// The ruleset's own refusals, typed so its tests can match on them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NimError {
    #[error("there is no heap {0}")]
    NoSuchHeap(usize),
    #[error("take at least one stone")]
    TakeNothing,
    #[error("heap {heap} has only {left} stones")]
    TooMany { heap: usize, left: u32 },
    #[error("you hold no unspent double card")]
    NoDouble,
    #[error("a double takes from two different heaps")]
    SameHeap,
}

impl From<NimError> for Illegal {
    /// A stable `code` for programs and the sentence for people.
    fn from(error: NimError) -> Illegal {
        let code = match error {
            NimError::NoSuchHeap(_) => "no_such_heap",
            NimError::TakeNothing => "take_nothing",
            NimError::TooMany { .. } => "too_many_stones",
            NimError::NoDouble => "no_double",
            NimError::SameHeap => "same_heap",
        };
        Illegal::new(code, error.to_string())
    }
}
