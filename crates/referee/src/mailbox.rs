//! Where the referee puts a connection's messages. The match task posts each message
//! as it delivers it and never waits: a mailbox takes it at once or says why not, and
//! the referee then lets that connection go (a seat is disconnected and keeps its
//! place; a spectator stops watching).
//!
//! A transport that can take a message in place (encode it and queue the bytes on its
//! socket) gives the referee its own mailbox: no task sits between the referee and the
//! socket, so a move costs no thread hand-off per message. A channel of [`ToSeat`] is a
//! mailbox too; [`crate::MatchHandle::attach`] and [`crate::MatchHandle::spectate`]
//! hand out its receiving end.

use tokio::sync::mpsc::{self, error::TrySendError};

use crate::messages::ToSeat;

/// Why a mailbox did not take a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undelivered {
    /// The reader has gone (its connection closed, or it stopped watching).
    Gone,
    /// The reader has fallen too far behind; it is cut off rather than slowing the match.
    Behind,
}

/// A connection's inbox as the referee sees it.
pub trait Mailbox: Send + Sync {
    /// Take `message` now, without waiting.
    fn post(&self, message: ToSeat) -> Result<(), Undelivered>;

    /// Whether the reader wants a seat's legal actions inside each prompt
    /// (`ToSeat::Prompt::legal`), saving it a round trip to ask.
    fn wants_legal(&self) -> bool {
        false
    }
}

impl Mailbox for mpsc::Sender<ToSeat> {
    fn post(&self, message: ToSeat) -> Result<(), Undelivered> {
        self.try_send(message).map_err(|error| match error {
            TrySendError::Full(_) => Undelivered::Behind,
            TrySendError::Closed(_) => Undelivered::Gone,
        })
    }
}
