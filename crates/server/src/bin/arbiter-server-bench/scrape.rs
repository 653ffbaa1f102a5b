//! The server's own account of its latencies, read from `/metrics` (Prometheus text) as
//! an operator's scraper would: histograms such as `arbiter_decision_seconds` (its share
//! of each decision) and `arbiter_tournament_pairing_seconds` (an arena's waves).
//! Buckets bound each figure from above, so the report says "≤".

use std::net::SocketAddr;

use anyhow::Context;

/// The text of `/metrics` on the server's HTTP port.
pub async fn metrics(http: SocketAddr) -> anyhow::Result<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(http).await?;
    stream
        .write_all(b"GET /metrics HTTP/1.0\r\nHost: bench\r\n\r\n")
        .await?;
    let mut text = String::new();
    stream.read_to_string(&mut text).await?;
    Ok(text)
}

/// One histogram as scraped: cumulative counts by upper bound, and the sum.
#[derive(Debug)]
pub struct Histogram {
    /// (upper bound, observations at or below it), in the order written (ascending).
    buckets: Vec<(f64, f64)>,
    pub sum: f64,
}

impl Histogram {
    /// The histogram `name` in the scraped `text`.
    pub fn read(text: &str, name: &str) -> anyhow::Result<Histogram> {
        let mut buckets: Vec<(f64, f64)> = Vec::new();
        let mut sum = 0.0;
        for line in text.lines() {
            let Some(rest) = line.strip_prefix(name) else {
                continue;
            };
            if let Some(value) = rest.strip_prefix("_sum ") {
                sum = first_number(value)?;
                continue;
            }
            let Some(rest) = rest.strip_prefix("_bucket{le=\"") else {
                continue;
            };
            let Some((bound, count)) = rest.split_once("\"} ") else {
                continue;
            };
            let bound = if bound == "+Inf" {
                f64::INFINITY
            } else {
                bound.parse()?
            };
            buckets.push((bound, first_number(count)?));
        }
        if buckets.is_empty() {
            anyhow::bail!("no histogram {name} on /metrics");
        }
        Ok(Histogram { buckets, sum })
    }

    /// Observations in all.
    pub fn count(&self) -> f64 {
        self.buckets.last().map_or(0.0, |&(_, count)| count)
    }

    /// The upper bound of the bucket holding quantile `q` (0 to 1).
    pub fn quantile(&self, q: f64) -> f64 {
        let total = self.count();
        self.buckets
            .iter()
            .find(|&&(_, count)| count >= q * total && count > 0.0)
            .map_or(f64::INFINITY, |&(bound, _)| bound)
    }

    /// The upper bound of the highest bucket that holds an observation: the largest
    /// observation is at most this.
    pub fn highest(&self) -> f64 {
        self.quantile(1.0)
    }

    pub fn mean(&self) -> f64 {
        self.sum / self.count().max(1.0)
    }
}

fn first_number(text: &str) -> anyhow::Result<f64> {
    let number = text.split_whitespace().next().unwrap_or("0");
    number
        .parse()
        .with_context(|| format!("{number:?} is not a number"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text prometheus-client writes for a histogram, with other metrics around it.
    const TEXT: &str = "\
# HELP arbiter_tournament_pairing_seconds Time to pair.
# TYPE arbiter_tournament_pairing_seconds histogram
arbiter_tournament_pairing_seconds_sum 0.00035
arbiter_tournament_pairing_seconds_count 4
arbiter_tournament_pairing_seconds_bucket{le=\"1e-6\"} 0
arbiter_tournament_pairing_seconds_bucket{le=\"0.000064\"} 3
arbiter_tournament_pairing_seconds_bucket{le=\"0.000128\"} 3
arbiter_tournament_pairing_seconds_bucket{le=\"0.000256\"} 4
arbiter_tournament_pairing_seconds_bucket{le=\"+Inf\"} 4
arbiter_matches_running 0
";

    #[test]
    fn reads_counts_sum_and_bounds() -> anyhow::Result<()> {
        let histogram = Histogram::read(TEXT, "arbiter_tournament_pairing_seconds")?;
        assert_eq!(histogram.count(), 4.0);
        assert!((histogram.mean() - 0.0000875).abs() < 1e-12);
        assert_eq!(histogram.quantile(0.5), 0.000064);
        assert_eq!(histogram.highest(), 0.000256);
        assert!(Histogram::read(TEXT, "arbiter_decision_seconds").is_err());
        Ok(())
    }

    /// With no observations every bucket is empty: no bound is claimed.
    #[test]
    fn an_empty_histogram_bounds_nothing() -> anyhow::Result<()> {
        let text = "h_sum 0\nh_count 0\nh_bucket{le=\"1\"} 0\nh_bucket{le=\"+Inf\"} 0\n";
        let histogram = Histogram::read(text, "h")?;
        assert_eq!(histogram.count(), 0.0);
        assert_eq!(histogram.highest(), f64::INFINITY);
        Ok(())
    }
}
