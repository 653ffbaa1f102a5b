//! Confidence intervals for win rates.

/// The 95% Wilson score interval for `successes` out of `trials`, as (low, high).
/// Unlike the normal approximation it stays inside [0, 1] and is sensible at 0% and
/// 100%, which small round-robins between unequal bots produce all the time.
pub fn wilson_interval(successes: usize, trials: usize) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // 90 of 100: the textbook interval is [0.8256, 0.9448].
        let (low, high) = wilson_interval(90, 100);
        assert!((low - 0.8256).abs() < 1e-3, "{low}");
        assert!((high - 0.9448).abs() < 1e-3, "{high}");
        let (low, high) = wilson_interval(10, 10);
        assert!(
            (low - 0.7225).abs() < 1e-3 && (high - 1.0).abs() < 1e-9,
            "{low} {high}"
        );
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }
}
