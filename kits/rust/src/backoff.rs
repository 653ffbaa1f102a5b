//! How long to wait between reconnection attempts: capped exponential backoff with
//! full jitter, so that a thousand bots cut off by one restart do not all knock at once.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The first retry's longest wait.
pub const BASE: Duration = Duration::from_millis(250);
/// No wait is longer.
pub const CAP: Duration = Duration::from_secs(5);

/// The wait before reconnection attempt `attempt + 1` (0: the first retry), for a
/// `random` number in `[0, 1)`: `random × min(CAP, BASE × 2^attempt)`.
pub fn backoff_delay(attempt: u32, random: f64) -> Duration {
    let ceiling = BASE.saturating_mul(1 << attempt.min(20)).min(CAP);
    ceiling.mul_f64(random.clamp(0.0, 1.0))
}

/// A random number in `[0, 1)`, without a `rand` dependency: std's randomly keyed
/// hasher over the clock (plenty for spreading reconnections).
pub fn jitter() -> f64 {
    let mut hasher = RandomState::new().build_hasher();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ceiling_doubles_up_to_the_cap() {
        let ceilings: Vec<u128> = (0..8).map(|n| backoff_delay(n, 1.0).as_millis()).collect();
        assert_eq!(ceilings, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
        assert_eq!(backoff_delay(u32::MAX, 1.0), CAP);
        assert_eq!(backoff_delay(3, 0.0), Duration::ZERO);
        assert_eq!(backoff_delay(1, 0.5), Duration::from_millis(250));
    }

    #[test]
    fn the_jitter_stays_in_range_and_varies() {
        let draws: Vec<f64> = (0..100).map(|_| jitter()).collect();
        assert!(draws.iter().all(|x| (0.0..1.0).contains(x)), "{draws:?}");
        assert!(draws.windows(2).any(|w| w[0] != w[1]), "{draws:?}");
    }
}
