//! What handles and connections ask of a match task.

use arbiter_engine::Seat;
use serde_json::Value;
use std::sync::Arc;

use tokio::sync::oneshot;

use crate::mailbox::Mailbox;
use crate::messages::LegalActions;

/// Identifies one attachment of a seat, so a stale connection's detach cannot cut off
/// the connection that replaced it.
pub(crate) type ConnectionId = u64;

pub(crate) enum Command {
    Attach {
        seat: Seat,
        connection: ConnectionId,
        mailbox: Arc<dyn Mailbox>,
    },
    Detach {
        seat: Seat,
        connection: ConnectionId,
    },
    Act {
        seat: Seat,
        action: Value,
        /// The `step` of the prompt this answers, when the client names it.
        step: Option<usize>,
    },
    Eject {
        seat: Seat,
        reason: String,
    },
    Spectate {
        mailbox: Arc<dyn Mailbox>,
    },
    /// Stop refereeing without ending the match: what is recorded so far is stored,
    /// nothing more is decided, and the match goes on later from its stored log
    /// ([`crate::Referee::resume`]), here or on another server. A server that stops.
    Suspend,
    /// What the seat may answer now (nothing when it owes no decision).
    Legal {
        seat: Seat,
        reply: oneshot::Sender<LegalActions>,
    },
}
