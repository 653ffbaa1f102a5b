//! The native protocol: message types, line framing and the per-connection rate limit.

pub mod framing;
pub mod messages;
pub mod rate;
pub mod refusal;

pub use framing::{FrameError, LineReader};
pub use messages::{ClientMessage, ParseError, ServerMessage, PROTOCOL_VERSION};
pub use rate::TokenBucket;
pub use refusal::Refusal;

/// How long a client told `server_restarting` should wait before connecting again: a
/// restart takes about this long (the stop itself is quick).
pub const RETRY_AFTER_RESTART: std::time::Duration = std::time::Duration::from_secs(2);
