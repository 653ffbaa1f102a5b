//! HTTP requests per client address, paced: each address has a token bucket (the
//! native protocol's, `Limits::http_rate` a second with room for `Limits::http_burst`),
//! and a request that finds it empty is answered `429` with `Retry-After` instead of
//! being served. A page load is a few dozen requests and the web client polls a few
//! times a minute, so people never meet it; a script hammering the API does.
//!
//! Buckets are forgotten once full again (an address idle for `burst / rate` seconds
//! is no different from a new one), so the map holds only recently busy addresses.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Duration;

use parking_lot::Mutex;
use tokio::time::Instant;

use crate::protocol::rate::TokenBucket;

/// Addresses kept before the full (idle) buckets are swept out.
const SWEEP_ABOVE: usize = 1024;

#[derive(Debug)]
pub struct RequestPace {
    rate: f64,
    burst: u32,
    buckets: Mutex<HashMap<IpAddr, TokenBucket>>,
}

impl RequestPace {
    /// `rate` requests a second per address on average, `burst` at once.
    pub fn new(rate: f64, burst: u32) -> Self {
        RequestPace {
            rate,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Take one request's token for `address`: `Err(wait)` when it has none, with how
    /// long until it has one.
    pub fn admit(&self, address: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock();
        if buckets.len() >= SWEEP_ABOVE && !buckets.contains_key(&address) {
            buckets.retain(|_, bucket| !bucket.is_full_at(now));
        }
        let bucket = buckets
            .entry(address)
            .or_insert_with(|| TokenBucket::new(self.rate, self.burst));
        if bucket.take_at(now) {
            Ok(())
        } else {
            Err(bucket.wait_time())
        }
    }

    /// Addresses with a bucket now (for tests and the sweep's own check).
    pub fn tracked(&self) -> usize {
        self.buckets.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn an_address_gets_its_burst_then_waits_and_others_are_untouched() {
        let pace = RequestPace::new(2.0, 3);
        let busy: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        for _ in 0..3 {
            assert!(pace.admit(busy).is_ok());
        }
        let wait = pace.admit(busy).expect_err("the burst is spent");
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(500),
            "{wait:?}"
        );
        assert!(pace.admit(other).is_ok(), "per address");
        tokio::time::advance(wait).await;
        assert!(
            pace.admit(busy).is_ok(),
            "one token back after the wait it named"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn idle_addresses_are_swept_out_once_their_buckets_refill() {
        let pace = RequestPace::new(10.0, 2);
        for i in 0..SWEEP_ABOVE as u32 {
            let _ = pace.admit(IpAddr::from(i.to_be_bytes()));
        }
        assert_eq!(pace.tracked(), SWEEP_ABOVE);
        // One token each was taken; 0.1 s refills them.
        tokio::time::advance(Duration::from_millis(100)).await;
        let _ = pace.admit([192, 168, 0, 1].into());
        assert_eq!(pace.tracked(), 1, "only the new address is left");
    }
}
