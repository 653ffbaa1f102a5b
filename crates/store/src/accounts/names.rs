//! Account name rules: 1–32 letters, digits, `_` or `-`, unique regardless of case.
//!
//! Players of a compatibility port whose protocol has no passwords (the Q-Game course
//! port) get accounts in the port's own namespace, `port:name`. Nobody can register such
//! a name (`:` is not in the native alphabet), so no one can claim a port player's
//! account, read its private replays or collect its rating.

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

/// The separator between a port's namespace and its player's name.
pub(crate) const PORT_SEPARATOR: char = ':';

/// A name that may be looked up: a native name, or `port:name` with both parts native.
pub(crate) fn validate_lookup(name: &str) -> Result<(), StoreError> {
    match name.split_once(PORT_SEPARATOR) {
        Some((port, player)) => {
            validate(port)?;
            validate(player)
        }
        None => validate(name),
    }
}

/// The account name of `player` of `port`.
pub(crate) fn port_account_name(port: &str, player: &str) -> Result<String, StoreError> {
    validate(port)?;
    validate(player)?;
    Ok(format!("{port}{PORT_SEPARATOR}{player}"))
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
    fn port_names_are_looked_up_but_never_native() {
        let name = port_account_name("qgame", "ann").unwrap();
        assert_eq!(name, "qgame:ann");
        assert!(validate_lookup(&name).is_ok());
        assert!(
            validate(&name).is_err(),
            "a native registration must refuse it"
        );
        for bad in ["qgame:", ":ann", "a:b:c", "qgame:a b"] {
            assert!(validate_lookup(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn keys_ignore_case() {
        assert_eq!(key("AliCe"), key("alice"));
    }
}
