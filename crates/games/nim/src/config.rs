//! What a host may choose for one match. `Default` is the decided game: a missing field
//! in a host's JSON takes its default (`#[serde(default)]`).

use serde::{Deserialize, Serialize};

use arbiter_engine::ConfigError;

/// The most heaps a game may have.
pub const MAX_HEAPS: usize = 8;
/// The most stones a heap may start with.
pub const MAX_STONES: u32 = 20;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The starting heaps, in stones.
    pub heaps: Vec<u32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            heaps: vec![3, 4, 5],
        }
    }
}

impl Config {
    /// A configuration no game can start with is refused here, once, with the reason.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.heaps.is_empty() || self.heaps.len() > MAX_HEAPS {
            return Err(ConfigError::new(format!(
                "heaps: from 1 to {MAX_HEAPS} heaps, got {}",
                self.heaps.len()
            )));
        }
        if let Some(bad) = self.heaps.iter().find(|&&h| h == 0 || h > MAX_STONES) {
            return Err(ConfigError::new(format!(
                "heaps: each from 1 to {MAX_STONES} stones, got {bad}"
            )));
        }
        Ok(())
    }
}
