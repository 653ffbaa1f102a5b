//! The native protocol: message types, line framing and the per-connection rate limit.

pub mod framing;
pub mod messages;
pub mod rate;
pub mod refusal;

pub use framing::{FrameError, LineReader};
pub use messages::{ClientMessage, ParseError, ServerMessage, PROTOCOL_VERSION};
pub use rate::TokenBucket;
pub use refusal::Refusal;
