//! Talking to seats and spectators. Everything sent is the audience's own projection
//! (its view, its share of the events). Messages are queued as the task decides them and
//! sent once the record they follow from is stored (see `storing`). Sends
//! never wait: a reader that is gone or has fallen a whole buffer behind loses its
//! connection, and the match goes on.

use std::sync::Arc;

use arbiter_engine::{EventBatch, MatchRecord, Seat};

use super::{MatchTask, Player};
use crate::command::{Command, ConnectionId};
use crate::mailbox::{Mailbox, Undelivered};
use crate::messages::{JsonText, ToSeat};
use crate::sink::Unstored;

/// A message decided but not yet delivered.
pub(super) enum Outgoing {
    /// To a seat's connection at delivery time (if it has one).
    Seat(Seat, ToSeat),
    /// To every spectator at delivery time.
    Spectators(ToSeat),
    /// To one new spectator (its welcome).
    Spectator(Arc<dyn Mailbox>, ToSeat),
}

/// Whose view a step can have changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SeenBy {
    Everyone,
    /// Only this seat's: its sealed answer left the round open, and `Turn::Sealed`
    /// promises the others see nothing of it (the test battery holds every ruleset to
    /// that). In spacegoo that is every round's first answer, and writing the other
    /// seat's view only to find it unchanged was about 1.7% of a busy server's time.
    Seat(Seat),
}

impl SeenBy {
    fn includes(self, seat: Seat) -> bool {
        match self {
            SeenBy::Everyone => true,
            SeenBy::Seat(only) => only == seat,
        }
    }
}

/// A remote seat's live connection.
pub(super) struct Connection {
    id: ConnectionId,
    mailbox: Arc<dyn Mailbox>,
    /// The view as last sent on this connection, to send only changes.
    last_view: Option<JsonText>,
}

impl Connection {
    /// Whether its prompts carry the seat's legal actions.
    pub(super) fn wants_legal(&self) -> bool {
        self.mailbox.wants_legal()
    }
}

impl MatchTask {
    /// A (re)connection: it replaces any earlier one and is brought up to date.
    /// A player attaching takes its seat back from a stand-in.
    pub(super) fn attach(&mut self, seat: Seat, id: ConnectionId, mailbox: Arc<dyn Mailbox>) {
        let Some(slot) = self.seats.get_mut(seat) else {
            return;
        };
        let Player::Remote(connection) = &mut slot.player else {
            return;
        };
        *connection = Some(Connection {
            id,
            mailbox,
            last_view: None,
        });
        slot.silent_since = None;
        let joined = self.joined(Some(seat));
        self.send_to_seat(seat, joined);
        self.send_view(seat);
        self.take_back(seat);
        self.send_prompt(seat);
        self.publish_status();
    }

    /// A disconnect. Only the connection named goes: a newer one stays.
    pub(super) fn detach(&mut self, seat: Seat, id: ConnectionId) {
        if let Some(Player::Remote(connection)) = self.seats.get_mut(seat).map(|s| &mut s.player) {
            if connection.as_ref().is_some_and(|c| c.id == id) {
                *connection = None;
                self.seats[seat].silent_since = Some(tokio::time::Instant::now());
                self.publish_status();
            }
        }
    }

    pub(super) fn add_spectator(&mut self, mailbox: Arc<dyn Mailbox>) {
        let view = JsonText::written(self.state.view_json(None));
        let step = self.record.log.len();
        let welcome = [
            self.joined(None),
            ToSeat::View {
                step,
                view: view.clone(),
            },
        ];
        for message in welcome {
            self.outgoing
                .push(Outgoing::Spectator(mailbox.clone(), message));
        }
        self.spectators.push(mailbox);
        self.spectator_view = Some(view);
        self.publish_status();
    }

    /// Send messages whose record is stored.
    pub(super) fn send_messages(&mut self, messages: Vec<Outgoing>) {
        for message in messages {
            match message {
                Outgoing::Seat(seat, message) => self.try_send_to_seat(seat, message),
                Outgoing::Spectators(message) => self.try_send_spectators(&message),
                Outgoing::Spectator(mailbox, message) => {
                    if mailbox.post(message).is_err() {
                        self.spectators
                            .retain(|spectator| !Arc::ptr_eq(spectator, &mailbox));
                        self.publish_status();
                    }
                }
            }
        }
    }

    /// The match cannot be recorded: tell every seat and spectator now (there is no
    /// store left to wait for) that it stops here, and why. Returns the reason.
    pub(super) fn abort_unstored(&mut self, unstored: Unstored) -> String {
        let reason = format!("the match could not be recorded: {unstored}");
        self.tell_aborted(&reason);
        reason
    }

    /// The match task panicked (a ruleset defect) and the match ends aborted: tell
    /// every seat and spectator still connected, as a store that gave up does.
    pub(crate) fn tell_aborted(&mut self, reason: &str) {
        let message = ToSeat::Aborted {
            reason: reason.to_string(),
        };
        for seat in 0..self.seats.len() {
            self.try_send_to_seat(seat, message.clone());
        }
        self.try_send_spectators(&message);
    }

    /// The match has ended (`ended`): seats whose attachment was still queued behind
    /// the end (a seat attached while the last entry was being stored) are told how it
    /// ended, as the attached seats were. The queue is closed first, so every later
    /// attachment is refused with `MatchOver` and its transport tells the seat instead.
    pub(crate) fn tell_late_attachments(&mut self, ended: &Result<MatchRecord, String>) {
        self.commands.close();
        let last = match ended {
            Ok(record) => ToSeat::finished(record),
            Err(reason) => Some(ToSeat::Aborted {
                reason: reason.clone(),
            }),
        };
        while let Ok(command) = self.commands.try_recv() {
            if let (Command::Attach { mailbox, .. }, Some(last)) = (*command, &last) {
                let _ = mailbox.post(last.clone());
            }
        }
    }

    fn joined(&self, seat: Option<Seat>) -> ToSeat {
        ToSeat::Joined {
            match_id: self.match_id,
            ruleset: self.record.ruleset.clone(),
            seat,
            seats: self.record.seats.clone(),
            config: self.record.config.clone(),
        }
    }

    /// Queue a message for a remote seat's connection.
    pub(super) fn send_to_seat(&mut self, seat: Seat, message: ToSeat) {
        self.outgoing.push(Outgoing::Seat(seat, message));
    }

    /// Send to a remote seat's connection now, if it has one.
    fn try_send_to_seat(&mut self, seat: Seat, message: ToSeat) {
        let match_id = self.match_id;
        let Some(seat_slot) = self.seats.get_mut(seat) else {
            return;
        };
        let Player::Remote(slot) = &mut seat_slot.player else {
            return;
        };
        let Some(connection) = slot else {
            return;
        };
        match connection.mailbox.post(message) {
            Ok(()) => return,
            Err(Undelivered::Behind) => {
                tracing::warn!(
                    match_id,
                    seat,
                    "seat fell behind its messages; disconnected"
                );
            }
            Err(Undelivered::Gone) => {}
        }
        *slot = None;
        seat_slot.silent_since = Some(tokio::time::Instant::now());
    }

    /// Send the seat its view if it changed since it last got one.
    pub(super) fn send_view(&mut self, seat: Seat) {
        self.send_view_sharing(seat, None);
    }

    /// [`Self::send_view`], reusing `shared` (a view this step already sent to another
    /// audience) when the seat's view is the same text. Returns the seat's view.
    fn send_view_sharing(&mut self, seat: Seat, shared: Option<&JsonText>) -> Option<JsonText> {
        let Some(Player::Remote(Some(_))) = self.seats.get(seat).map(|s| &s.player) else {
            return None;
        };
        let text = self.state.view_json(Some(seat));
        let Some(Player::Remote(Some(connection))) =
            self.seats.get_mut(seat).map(|s| &mut s.player)
        else {
            return None;
        };
        if let Some(last) = connection
            .last_view
            .as_ref()
            .filter(|last| last.same_text(&text))
        {
            return Some(last.clone());
        }
        let view = shared_or_new(shared, text);
        connection.last_view = Some(view.clone());
        let step = self.record.log.len();
        self.send_to_seat(
            seat,
            ToSeat::View {
                step,
                view: view.clone(),
            },
        );
        Some(view)
    }

    /// Send the spectators their view if it changed.
    fn send_spectator_view_sharing(&mut self, shared: Option<&JsonText>) {
        if self.spectators.is_empty() {
            self.spectator_view = None;
            return;
        }
        let text = self.state.view_json(None);
        if self
            .spectator_view
            .as_ref()
            .is_some_and(|last| last.same_text(&text))
        {
            return;
        }
        let view = shared_or_new(shared, text);
        self.spectator_view = Some(view.clone());
        let step = self.record.log.len();
        self.send_spectators(&ToSeat::View { step, view });
    }

    /// Every audience's view if it changed: each connected seat's, then the
    /// spectators'. Where rules show several audiences the same view (full
    /// information), they share one text.
    pub(super) fn send_views(&mut self) {
        let mut shared: Option<JsonText> = None;
        for seat in 0..self.seats.len() {
            if let Some(view) = self.send_view_sharing(seat, shared.as_ref()) {
                shared = Some(view);
            }
        }
        self.send_spectator_view_sharing(shared.as_ref());
    }

    fn send_spectators(&mut self, message: &ToSeat) {
        if !self.spectators.is_empty() {
            self.outgoing.push(Outgoing::Spectators(message.clone()));
        }
    }

    fn try_send_spectators(&mut self, message: &ToSeat) {
        let before = self.spectators.len();
        self.spectators
            .retain(|spectator| spectator.post(message.clone()).is_ok());
        if self.spectators.len() != before {
            self.publish_status();
        }
    }

    /// A step's events and the new views, each audience its own share: a seat gets
    /// its events, then its view. Only the audiences `seen` names can have a new view;
    /// the others' are not written again.
    pub(super) fn broadcast(&mut self, batch: &EventBatch, seen: SeenBy) {
        let mut shared: Option<JsonText> = None;
        for seat in 0..self.seats.len() {
            if let Some(events) = batch.for_audience(Some(seat)) {
                let events = JsonText::written(events.clone());
                self.send_to_seat(seat, ToSeat::Events { events });
            }
            if seen.includes(seat) {
                if let Some(view) = self.send_view_sharing(seat, shared.as_ref()) {
                    shared = Some(view);
                }
            }
        }
        if !self.spectators.is_empty() {
            if let Some(events) = batch.for_audience(None) {
                let events = JsonText::written(events.clone());
                self.send_spectators(&ToSeat::Events { events });
            }
        }
        if seen == SeenBy::Everyone {
            self.send_spectator_view_sharing(shared.as_ref());
        }
    }

    /// A message every audience may see as it is (ejections, the outcome).
    pub(super) fn send_all(&mut self, message: &ToSeat) {
        for seat in 0..self.seats.len() {
            self.send_to_seat(seat, message.clone());
        }
        self.send_spectators(message);
    }
}

/// `shared` (a view another audience got this step) if `text` is the same view, else a
/// new one: audiences of a full-information game share one copy.
fn shared_or_new(shared: Option<&JsonText>, text: String) -> JsonText {
    match shared.filter(|shared| shared.same_text(&text)) {
        Some(shared) => shared.clone(),
        None => JsonText::written(text),
    }
}
