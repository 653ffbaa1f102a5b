//! Account name rules: 1–32 letters, digits, `_` or `-`, unique regardless of case.

use crate::error::StoreError;

pub const MAX_NAME_LEN: usize = 32;

/// Check `name` against the rules.
pub(crate) fn validate(name: &str) -> Result<(), StoreError> {
    if name.is_empty() {
        return Err(StoreError::InvalidName("the name is empty"));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(StoreError::InvalidName(
            "the name is longer than 32 characters",
        ));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(StoreError::InvalidName(
            "use only letters, digits, '_' and '-'",
        ));
    }
    Ok(())
}

/// The form names are compared in: `Alice` and `alice` are the same account.
pub(crate) fn key(name: &str) -> String {
    name.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_allowed_alphabet() {
        for name in ["a", "Alice_2", "x-y", &"z".repeat(32)] {
            assert!(validate(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn refuses_empty_long_and_odd_names() {
        for name in ["", &"z".repeat(33), "a b", "é", "a/b", "a\n", "<script>"] {
            assert!(
                matches!(validate(name), Err(StoreError::InvalidName(_))),
                "{name:?}"
            );
        }
    }

    #[test]
    fn keys_ignore_case() {
        assert_eq!(key("AliCe"), key("alice"));
    }
}
