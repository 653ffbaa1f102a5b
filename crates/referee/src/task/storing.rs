//! Messages waiting for the store. Write first, announce after: what follows from a log
//! entry leaves only once the entry is stored. The task does not wait for the store
//! itself, though: it keeps taking answers while earlier entries are being written, so
//! the entries of a sealed round (both seats answer at once) share one commit instead
//! of waiting for one each.
//!
//! The messages are kept in segments, one per record event: those queued after an
//! event was recorded follow from it (and from every earlier one) and leave when it is
//! stored, in order. While anything waits, deadlines stand still (nobody could act on
//! what was not yet sent) and are postponed by the wait when the last segment leaves,
//! as a slow or recovering database never costs a seat its clock; and any command but
//! an answer waits until everything is told (a new connection must not receive what
//! was meant for the one it replaces).

use std::collections::VecDeque;

use tokio::time::Instant;

use super::audience::Outgoing;
use super::MatchTask;
use crate::sink::{Stored, Unstored};

/// Segments waiting for the store at most: past this, the task waits for the oldest
/// before taking more answers, which bounds what a flood of answers can hold back.
pub(super) const MOST_WAITING: usize = 8;

/// The record events not yet known to be stored, each with the messages that follow
/// from it. Messages queued while nothing waits go out at the next delivery.
#[derive(Default)]
pub(super) struct Storing {
    /// Older events and their messages, oldest first.
    earlier: VecDeque<Segment>,
    /// The latest event; its messages are `MatchTask::outgoing`.
    latest: Option<(Stored, Answered)>,
    /// Since when something has been waiting.
    since: Option<Instant>,
    /// Record events handed to the sink so far: tells whether handling an answer
    /// recorded one.
    recorded: u64,
}

/// An event waiting for the store, the messages that follow from it, and when the
/// answer arrived whose handling ended with it.
type Segment = (Stored, Vec<Outgoing>, Answered);

/// When a remote answer arrived, for the segment that ends what follows from it: its
/// decision is handled (`Instruments::decision_handled`) when that segment leaves.
type Answered = Option<Instant>;

impl Storing {
    pub(super) fn waiting(&self) -> usize {
        self.earlier.len() + usize::from(self.latest.is_some())
    }

    /// Resolves when the oldest event waiting is stored (or given up); never while none
    /// waits. It can be dropped and polled again.
    pub(super) async fn oldest(&mut self) -> Result<(), Unstored> {
        match (self.earlier.front_mut(), self.latest.as_mut()) {
            (Some((stored, _, _)), _) | (None, Some((stored, _))) => stored.await,
            (None, None) => std::future::pending().await,
        }
    }

    /// Record events handed to the sink so far.
    pub(super) fn recorded(&self) -> u64 {
        self.recorded
    }

    /// The answer that arrived `at` ended with the latest event: its decision is
    /// handled when that event's messages leave. A sealed round's two answers wait in
    /// two segments and are timed one by one.
    pub(super) fn answered_with_latest(&mut self, at: Instant) {
        if let Some((_, answered)) = self.latest.as_mut() {
            *answered = Some(at);
        }
    }
}

impl MatchTask {
    /// A record event was handed to the sink: what is queued from now on follows from it.
    pub(super) fn wait_for(&mut self, stored: Stored) {
        let storing = &mut self.storing;
        if let Some((previous, answered)) = storing.latest.take() {
            let messages = std::mem::take(&mut self.outgoing);
            storing.earlier.push_back((previous, messages, answered));
        }
        storing.latest = Some((stored, None));
        storing.recorded += 1;
        storing.since.get_or_insert_with(Instant::now);
    }

    /// The oldest event waiting was stored (`Ok`): send its messages. When the sink
    /// gave up, nothing waiting is sent.
    pub(super) fn oldest_stored(&mut self, stored: Result<(), Unstored>) -> Result<(), Unstored> {
        if let Err(unstored) = stored {
            self.storing = Storing::default();
            self.outgoing.clear();
            return Err(unstored);
        }
        let (messages, answered) = match self.storing.earlier.pop_front() {
            Some((_, messages, answered)) => (messages, answered),
            None => {
                let answered = self
                    .storing
                    .latest
                    .take()
                    .and_then(|(_, answered)| answered);
                (std::mem::take(&mut self.outgoing), answered)
            }
        };
        self.send_messages(messages);
        if let (Some(at), Some(instruments)) = (answered, &self.instruments) {
            instruments.decision_handled(at.elapsed());
        }
        if self.storing.waiting() == 0 {
            if let Some(since) = self.storing.since.take() {
                self.postpone_deadlines(since.elapsed());
            }
        }
        Ok(())
    }

    /// Wait until every record event so far is stored, sending what follows from each,
    /// then what was queued since.
    pub(super) async fn deliver(&mut self) -> Result<(), Unstored> {
        while self.storing.waiting() > 0 {
            let stored = self.storing.oldest().await;
            self.oldest_stored(stored)?;
        }
        let messages = std::mem::take(&mut self.outgoing);
        self.send_messages(messages);
        Ok(())
    }
}
