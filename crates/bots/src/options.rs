//! How long a searching bot may think per decision.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Thinking time a searching bot gets when neither bound is given.
pub const DEFAULT_THINK_MS: u64 = 100;

/// Options for built-in bots, chosen by the caller (`--think-ms`, `--iterations`) and
/// passed through the ruleset list to whichever bot uses them. Bots that do not search
/// (`random`, `greedy`, the Q-Game strategies) ignore them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotOptions {
    /// Wall-clock time per decision, in milliseconds.
    pub think_ms: Option<u64>,
    /// Search iterations per decision. Alone, it makes a seeded bot deterministic.
    pub iterations: Option<u64>,
}

impl BotOptions {
    /// The search budget: whichever bounds are set (both: the first reached), or
    /// [`DEFAULT_THINK_MS`] when none is.
    pub fn budget(&self) -> Budget {
        match (self.think_ms, self.iterations) {
            (None, None) => Budget {
                time: Some(Duration::from_millis(DEFAULT_THINK_MS)),
                iterations: None,
            },
            (think_ms, iterations) => Budget {
                time: think_ms.map(Duration::from_millis),
                iterations,
            },
        }
    }
}

/// When a search stops: after `time` has passed or `iterations` are done, whichever
/// comes first. At least one iteration always runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub time: Option<Duration>,
    pub iterations: Option<u64>,
}

impl Budget {
    /// True when a search that started at `started` and ran `done` iterations must stop.
    pub fn spent(&self, started: Instant, done: u64) -> bool {
        if done == 0 {
            return false;
        }
        if self.iterations.is_some_and(|limit| done >= limit) {
            return true;
        }
        self.time.is_some_and(|limit| started.elapsed() >= limit)
    }

    /// True when only the iteration count bounds the search (its result is then a pure
    /// function of the seed and the position).
    pub fn is_deterministic(&self) -> bool {
        self.time.is_none() && self.iterations.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_from_options() {
        let default = BotOptions::default().budget();
        assert_eq!(default.time, Some(Duration::from_millis(DEFAULT_THINK_MS)));
        assert!(!default.is_deterministic());
        let counted = BotOptions {
            think_ms: None,
            iterations: Some(10),
        }
        .budget();
        assert!(counted.is_deterministic());
        let start = Instant::now();
        assert!(!counted.spent(start, 0));
        assert!(!counted.spent(start, 9));
        assert!(counted.spent(start, 10));
        let both = BotOptions {
            think_ms: Some(0),
            iterations: Some(1_000),
        }
        .budget();
        assert!(both.spent(start, 1), "the time bound is already reached");
    }
}
