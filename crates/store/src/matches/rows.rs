//! Conversions from stored integers, which are signed 64-bit in both backends.

use crate::error::StoreError;

/// A non-negative stored integer as the unsigned type the API uses.
pub(crate) fn unsigned<T: TryFrom<i64>>(value: i64, what: &str) -> Result<T, StoreError> {
    T::try_from(value).map_err(|_| StoreError::Corrupt(format!("{what} {value} is out of range")))
}

/// An in-memory count or index as a stored integer.
pub(crate) fn signed<T: TryInto<i64> + Copy + std::fmt::Display>(
    value: T,
    what: &str,
) -> Result<i64, StoreError> {
    value
        .try_into()
        .map_err(|_| StoreError::InvalidMatch(format!("{what} {value} is too large")))
}
