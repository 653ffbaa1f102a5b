//! What every door shares about a client's connection, below every layer that talks to
//! clients: its id and outbox (the bounded queue of lines to it), the per-address counts
//! that cap connections across doors, and the socket options set on accept.

pub mod accepted;
pub mod addresses;
pub mod outbox;

pub use accepted::prepare_accepted;
pub use outbox::{ConnId, Line, Outbox, OutboxReceiver};
