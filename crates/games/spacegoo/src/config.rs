//! Match options. `Config::default()` is the decided ruleset.

use arbiter_engine::ConfigError;
use serde::{Deserialize, Serialize};

/// Rounds in the reference game.
pub const DEFAULT_MAX_ROUNDS: u32 = 500;
/// The seed's deadline (the reference code used 6 s).
pub const DEFAULT_DEADLINE_MS: u64 = 3_000;

const MAX_ROUNDS_RANGE: std::ops::RangeInclusive<u32> = 1..=100_000;
const DEADLINE_RANGE: std::ops::RangeInclusive<u64> = 100..=600_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// After this many ticks the game is a draw.
    pub max_rounds: u32,
    /// Per-round command deadline for the referee, in milliseconds. The rules do not
    /// read it (they know no clocks); a missed deadline reaches them as an ejection.
    pub deadline_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_rounds: DEFAULT_MAX_ROUNDS,
            deadline_ms: DEFAULT_DEADLINE_MS,
        }
    }
}

impl Config {
    /// Refuse values no game should run with, naming the field and its range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !MAX_ROUNDS_RANGE.contains(&self.max_rounds) {
            return Err(ConfigError::new(format!(
                "max_rounds must be between {} and {}, got {}",
                MAX_ROUNDS_RANGE.start(),
                MAX_ROUNDS_RANGE.end(),
                self.max_rounds
            )));
        }
        if !DEADLINE_RANGE.contains(&self.deadline_ms) {
            return Err(ConfigError::new(format!(
                "deadline_ms must be between {} and {}, got {}",
                DEADLINE_RANGE.start(),
                DEADLINE_RANGE.end(),
                self.deadline_ms
            )));
        }
        Ok(())
    }
}
