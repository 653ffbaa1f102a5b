//! The ways clients reach the native protocol: JSON lines over TCP, and the same
//! messages as WebSocket text frames. Transports only move lines; the session decides.

pub mod addresses;
pub mod outbox;
pub mod send_buffer;
pub mod tcp;
pub mod ws;

pub use outbox::{ConnId, Outbox, OutboxReceiver};
pub use send_buffer::cap_send_buffer;
