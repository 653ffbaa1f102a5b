//! Wall-clock time as stored: Unix milliseconds, an integer both backends hold natively.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch (0 if the clock is set before 1970).
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Serde helpers that write stored milliseconds as RFC 3339 UTC text
/// (`2026-11-23T09:37:47.123Z`), the form people and JSON tools read; the stored value
/// stays an integer.
pub mod rfc3339 {
    use std::time::{Duration, UNIX_EPOCH};

    use serde::Serializer;

    /// Unix milliseconds as RFC 3339 UTC text with milliseconds.
    pub fn format(ms: i64) -> String {
        let at = UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0));
        humantime::format_rfc3339_millis(at).to_string()
    }

    pub(crate) fn serialize<S: Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format(*ms))
    }

    pub(crate) mod option {
        use serde::Serializer;

        pub(crate) fn serialize<S: Serializer>(
            ms: &Option<i64>,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            match ms {
                Some(ms) => serializer.serialize_str(&super::format(*ms)),
                None => serializer.serialize_none(),
            }
        }
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn milliseconds_become_utc_text() {
            assert_eq!(super::format(0), "1970-01-01T00:00:00.000Z");
            assert_eq!(super::format(1_795_426_667_123), "2026-11-23T09:37:47.123Z");
        }
    }
}
