//! The outside's grip on a running match: attach seats, pass on their answers, watch,
//! and wait for the record. Cheap to clone; every method only sends to the match task.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arbiter_engine::{MatchRecord, Seat};
use serde_json::Value;
use tokio::sync::{mpsc, watch};

use crate::command::{Command, ConnectionId};
use crate::mailbox::Mailbox;
use crate::messages::{LegalActions, ToSeat};
use crate::status::{MatchStatus, PlayerKind};

/// Messages buffered for one connection. A reader that falls this far behind is cut
/// off (it may reconnect and resume from a fresh view) rather than slowing the match.
pub const CONNECTION_BUFFER: usize = 256;

/// Why a request about a seat was not passed on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    #[error("there is no seat {0} in this match")]
    NoSuchSeat(Seat),
    #[error("seat {0} is played by a bot")]
    NotRemote(Seat),
    #[error("the match is over")]
    MatchOver,
}

/// The match ended without an outcome (see [`crate::RecordEvent::Aborted`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the match was aborted: {0}")]
pub struct MatchAborted(pub String);

/// The final record, or why there is none.
pub(crate) type Finish = Option<Result<Arc<MatchRecord>, String>>;

#[derive(Clone)]
pub struct MatchHandle {
    match_id: i64,
    players: Arc<[PlayerKind]>,
    commands: mpsc::Sender<Box<Command>>,
    status: watch::Receiver<MatchStatus>,
    finish: watch::Receiver<Finish>,
    connections: Arc<AtomicU64>,
}

impl MatchHandle {
    pub(crate) fn new(
        match_id: i64,
        players: Arc<[PlayerKind]>,
        commands: mpsc::Sender<Box<Command>>,
        status: watch::Receiver<MatchStatus>,
        finish: watch::Receiver<Finish>,
    ) -> Self {
        MatchHandle {
            match_id,
            players,
            commands,
            status,
            finish,
            connections: Arc::new(AtomicU64::new(1)),
        }
    }

    pub fn match_id(&self) -> i64 {
        self.match_id
    }

    pub fn seat_count(&self) -> usize {
        self.players.len()
    }

    /// Connect a remote seat. Replaces the seat's previous connection, if any (a
    /// reconnect): the referee sends `joined`, the seat's current `view` and, when the
    /// seat owes a decision, the `prompt` with the time left.
    pub async fn attach(&self, seat: Seat) -> Result<SeatConnection, SeatError> {
        let (sender, messages) = mpsc::channel(CONNECTION_BUFFER);
        let attachment = self.attach_mailbox(seat, Arc::new(sender)).await?;
        Ok(SeatConnection {
            attachment,
            messages,
        })
    }

    /// [`MatchHandle::attach`] for a transport that takes messages in place: the
    /// referee posts the seat's messages to `mailbox` until the mailbox refuses one, the
    /// seat is attached elsewhere, or the match ends (then the referee drops it).
    pub async fn attach_mailbox(
        &self,
        seat: Seat,
        mailbox: Arc<dyn Mailbox>,
    ) -> Result<SeatAttachment, SeatError> {
        self.remote_seat(seat)?;
        let connection = self.connections.fetch_add(1, Ordering::Relaxed);
        self.send(Command::Attach {
            seat,
            connection,
            mailbox,
        })
        .await?;
        Ok(SeatAttachment {
            seat,
            connection,
            commands: Some(self.commands.clone()),
        })
    }

    /// A seat's answer, as JSON. The referee replies on the seat's connection only when
    /// it refuses the answer (`rejected`).
    pub async fn act(&self, seat: Seat, action: Value) -> Result<(), SeatError> {
        self.act_at(seat, action, None).await
    }

    /// [`Self::act`] naming the decision it answers: `step` is the `step` of the prompt
    /// answered. An answer to a decision already closed (a late or repeated answer) is
    /// refused as `stale_answer` and never applied to the seat's next decision. `None`
    /// (older clients) answers whatever the seat owes now.
    pub async fn act_at(
        &self,
        seat: Seat,
        action: Value,
        step: Option<usize>,
    ) -> Result<(), SeatError> {
        self.remote_seat(seat)?;
        self.send(Command::Act { seat, action, step }).await
    }

    /// Stop refereeing the match without ending it, once what it recorded is stored:
    /// its server is stopping, and the match goes on later from its stored log
    /// ([`crate::Referee::resume`]). Nobody is told; [`Self::ended`] then returns
    /// [`MatchAborted`] with the phase [`crate::Phase::Suspended`] in the status.
    pub async fn suspend(&self) -> Result<(), SeatError> {
        self.send(Command::Suspend).await
    }

    /// Whether the match stopped by [`Self::suspend`] (it is not over: it goes on from
    /// its log when a server resumes it).
    pub fn is_suspended(&self) -> bool {
        self.status.borrow().phase == crate::status::Phase::Suspended
    }

    /// The seat leaves the game: ejected with the reason "resigned".
    pub async fn resign(&self, seat: Seat) -> Result<(), SeatError> {
        self.eject(seat, "resigned").await
    }

    /// Remove a seat for a reason a transport's own rules give (for example a lost
    /// connection where the ruleset's port disqualifies for it). Recorded in the log.
    pub async fn eject(&self, seat: Seat, reason: impl Into<String>) -> Result<(), SeatError> {
        if seat >= self.players.len() {
            return Err(SeatError::NoSuchSeat(seat));
        }
        let reason = reason.into();
        self.send(Command::Eject { seat, reason }).await
    }

    /// Watch the match: the connection starts with `joined` and the spectators' view,
    /// then carries only spectator views and events, ejections and the outcome.
    pub async fn spectate(&self) -> Result<SpectatorConnection, SeatError> {
        let (sender, messages) = mpsc::channel(CONNECTION_BUFFER);
        self.spectate_mailbox(Arc::new(sender)).await?;
        Ok(SpectatorConnection { messages })
    }

    /// [`MatchHandle::spectate`] into a mailbox: watching stops when the mailbox
    /// refuses a message, or when the match ends.
    pub async fn spectate_mailbox(&self, mailbox: Arc<dyn Mailbox>) -> Result<(), SeatError> {
        self.send(Command::Spectate { mailbox }).await
    }

    /// The actions `seat` may answer now: for a page that lets a person click a move.
    /// Empty when the seat owes no decision. Where the ruleset's move space is
    /// combinatorial, `Game::legal` is a sample (each ruleset's rules page says which).
    pub async fn legal(&self, seat: Seat) -> Result<LegalActions, SeatError> {
        self.remote_seat(seat)?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.send(Command::Legal { seat, reply }).await?;
        answer.await.map_err(|_| SeatError::MatchOver)
    }

    /// The match now.
    pub fn status(&self) -> MatchStatus {
        self.status.borrow().clone()
    }

    /// A receiver that wakes on every status change.
    pub fn watch_status(&self) -> watch::Receiver<MatchStatus> {
        self.status.clone()
    }

    /// Wait for the end of the match and return its complete record.
    pub async fn wait(&self) -> Result<MatchRecord, MatchAborted> {
        self.ended().await.map(|record| (*record).clone())
    }

    /// [`Self::wait`], the record shared rather than copied: a finished match's record
    /// holds every entry (thousands in a long game), and most callers only read it.
    pub async fn ended(&self) -> Result<Arc<MatchRecord>, MatchAborted> {
        let mut finish = self.finish.clone();
        loop {
            if let Some(done) = finish.borrow_and_update().clone() {
                return done.map_err(MatchAborted);
            }
            if finish.changed().await.is_err() {
                return match finish.borrow().clone() {
                    Some(done) => done.map_err(MatchAborted),
                    None => Err(MatchAborted("the match task stopped".to_string())),
                };
            }
        }
    }

    fn remote_seat(&self, seat: Seat) -> Result<(), SeatError> {
        match self.players.get(seat) {
            None => Err(SeatError::NoSuchSeat(seat)),
            Some(PlayerKind::Bot) => Err(SeatError::NotRemote(seat)),
            Some(PlayerKind::Remote) => Ok(()),
        }
    }

    async fn send(&self, command: Command) -> Result<(), SeatError> {
        self.commands
            .send(Box::new(command))
            .await
            .map_err(|_| SeatError::MatchOver)
    }
}

impl std::fmt::Debug for MatchHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MatchHandle")
            .field("match_id", &self.match_id)
            .field("players", &self.players)
            .finish_non_exhaustive()
    }
}

/// One attachment of a remote seat: the messages the referee sends it. Dropping it (or
/// [`SeatConnection::detach`]) is a disconnect; the seat keeps its place and its
/// deadlines keep running. The stream ends after `outcome`, or when the seat is
/// attached again elsewhere, or when this reader fell [`CONNECTION_BUFFER`] behind.
#[derive(Debug)]
pub struct SeatConnection {
    attachment: SeatAttachment,
    messages: mpsc::Receiver<ToSeat>,
}

impl SeatConnection {
    pub fn seat(&self) -> Seat {
        self.attachment.seat
    }

    /// The next message, or `None` when the referee closed this connection.
    pub async fn recv(&mut self) -> Option<ToSeat> {
        self.messages.recv().await
    }

    /// A message if one is waiting now.
    pub fn try_recv(&mut self) -> Option<ToSeat> {
        self.messages.try_recv().ok()
    }

    /// Disconnect, waiting until the referee has been told.
    pub async fn detach(self) {
        self.attachment.detach().await
    }
}

/// A seat attached to a mailbox ([`MatchHandle::attach_mailbox`]). Dropping it (or
/// [`SeatAttachment::detach`]) is a disconnect of this attachment only: a newer one of
/// the same seat stays.
#[derive(Debug)]
pub struct SeatAttachment {
    seat: Seat,
    connection: ConnectionId,
    commands: Option<mpsc::Sender<Box<Command>>>,
}

impl SeatAttachment {
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Disconnect, waiting until the referee has been told.
    pub async fn detach(mut self) {
        if let Some(commands) = self.commands.take() {
            let _ = commands
                .send(Box::new(Command::Detach {
                    seat: self.seat,
                    connection: self.connection,
                }))
                .await;
        }
    }
}

impl Drop for SeatAttachment {
    fn drop(&mut self) {
        if let Some(commands) = self.commands.take() {
            // Best effort: if the queue is full the referee notices the refused post
            // the next time it writes to the mailbox.
            let _ = commands.try_send(Box::new(Command::Detach {
                seat: self.seat,
                connection: self.connection,
            }));
        }
    }
}

/// A spectator's messages. Dropping it stops watching.
#[derive(Debug)]
pub struct SpectatorConnection {
    messages: mpsc::Receiver<ToSeat>,
}

impl SpectatorConnection {
    pub async fn recv(&mut self) -> Option<ToSeat> {
        self.messages.recv().await
    }

    pub fn try_recv(&mut self) -> Option<ToSeat> {
        self.messages.try_recv().ok()
    }
}
