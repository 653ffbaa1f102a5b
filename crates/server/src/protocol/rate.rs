//! A token bucket per connection: a steady rate with room for bursts. On tokio's clock,
//! so tests on paused time see it refill.

use std::time::Duration;

use tokio::time::Instant;

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

    /// Whether the bucket has refilled to its burst by `now` (nothing taken lately).
    pub fn is_full_at(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last);
        self.tokens + elapsed.as_secs_f64() * self.rate >= self.capacity
    }

    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    /// Wait until a token is there and take it. The caller stops reading meanwhile, so
    /// a client faster than the rate is slowed down by TCP's own flow control instead of
    /// having messages refused (a refused game action would be lost).
    pub async fn take_when_ready(&mut self) {
        while !self.take() {
            tokio::time::sleep(self.wait_time()).await;
        }
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

    #[tokio::test(start_paused = true)]
    async fn waiting_for_tokens_paces_a_flood_instead_of_refusing_it() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(50.0, 10);
        for _ in 0..60 {
            bucket.take_when_ready().await;
        }
        // 10 from the burst at once, then 50 more at 50 a second.
        let took = start.elapsed();
        assert!(
            took >= Duration::from_millis(990) && took <= Duration::from_millis(1010),
            "{took:?}"
        );
    }
}
