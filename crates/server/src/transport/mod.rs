//! The ways clients reach the native protocol: JSON lines over TCP, and the same
//! messages as WebSocket text frames. Transports only move lines; the session decides.

pub mod accepted;
pub mod addresses;
pub mod outbox;
pub mod tcp;
pub mod ws;

pub use accepted::prepare_accepted;
pub use outbox::{ConnId, Line, Outbox, OutboxReceiver};
