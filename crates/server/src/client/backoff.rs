//! When to try a lost server again: capped exponential backoff with full jitter, so
//! that a thousand bots that lost their server together do not all knock at once when
//! it comes back (the AWS architecture blog's "full jitter").

use std::time::Duration;

use rand::Rng;

/// The first wait's upper bound; each failed try doubles it, up to [`LONGEST`].
pub const FIRST: Duration = Duration::from_millis(250);
/// The longest wait between two tries.
pub const LONGEST: Duration = Duration::from_secs(5);

/// The waits between tries of one reconnection.
#[derive(Debug, Clone)]
pub struct Backoff {
    ceiling: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { ceiling: FIRST }
    }
}

impl Backoff {
    /// How long to wait before the next try: anywhere from nothing to the current
    /// ceiling, which then doubles (capped at [`LONGEST`]).
    pub fn next_wait(&mut self) -> Duration {
        let ceiling = self.ceiling;
        self.ceiling = (self.ceiling * 2).min(LONGEST);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(rand::rng().random_range(0..=millis))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_to_the_cap_and_stay_below_it() {
        let mut backoff = Backoff::default();
        let ceilings: Vec<Duration> = (0..8)
            .map(|_| {
                let ceiling = backoff.ceiling;
                assert!(backoff.next_wait() <= ceiling);
                ceiling
            })
            .collect();
        assert_eq!(ceilings[0], FIRST);
        assert_eq!(ceilings[1], FIRST * 2);
        assert_eq!(ceilings[2], FIRST * 4);
        assert!(ceilings.windows(2).all(|pair| pair[0] <= pair[1]));
        assert_eq!(ceilings[7], LONGEST);
    }

    #[test]
    fn the_waits_are_spread() {
        let mut waits: Vec<Duration> = (0..50)
            .map(|_| Backoff { ceiling: LONGEST }.next_wait())
            .collect();
        waits.sort();
        waits.dedup();
        assert!(waits.len() > 10, "jittered: {waits:?}");
    }
}
