//! A token bucket per connection: a steady rate with room for bursts.

use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct TokenBucket {
    rate: f64,
    capacity: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// `rate` tokens per second, at most `burst` saved up; starts full.
    pub fn new(rate: f64, burst: u32) -> Self {
        TokenBucket {
            rate,
            capacity: f64::from(burst.max(1)),
            tokens: f64::from(burst.max(1)),
            last: Instant::now(),
        }
    }

    /// Take one token at `now`; false when the bucket is empty.
    pub fn take_at(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last);
        self.last = now;
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.rate).min(self.capacity);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    /// How long until the next token.
    pub fn wait_time(&self) -> Duration {
        if self.tokens >= 1.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64((1.0 - self.tokens) / self.rate)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_a_burst_then_the_steady_rate() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(10.0, 5);
        bucket.last = start;
        let taken = (0..20).filter(|_| bucket.take_at(start)).count();
        assert_eq!(taken, 5);
        assert!(bucket.wait_time() > Duration::ZERO);
        // One second later ten more tokens, but never more than the burst.
        let later = start + Duration::from_secs(1);
        let taken = (0..20).filter(|_| bucket.take_at(later)).count();
        assert_eq!(taken, 5);
        let later = later + Duration::from_millis(300);
        let taken = (0..20).filter(|_| bucket.take_at(later)).count();
        assert_eq!(taken, 3);
    }
}
