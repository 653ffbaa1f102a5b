//! What handles and connections ask of a match task.

use arbiter_engine::Seat;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::messages::{LegalActions, ToSeat};

/// Identifies one attachment of a seat, so a stale connection's detach cannot cut off
/// the connection that replaced it.
pub(crate) type ConnectionId = u64;

#[derive(Debug)]
pub(crate) enum Command {
    Attach {
        seat: Seat,
        connection: ConnectionId,
        messages: mpsc::Sender<ToSeat>,
    },
    Detach {
        seat: Seat,
        connection: ConnectionId,
    },
    Act {
        seat: Seat,
        action: Value,
    },
    Eject {
        seat: Seat,
        reason: String,
    },
    Spectate {
        messages: mpsc::Sender<ToSeat>,
    },
    /// What the seat may answer now (nothing when it owes no decision).
    Legal {
        seat: Seat,
        reply: oneshot::Sender<LegalActions>,
    },
}
