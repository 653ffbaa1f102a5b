//! Talking to seats and spectators. Everything sent is the audience's own projection
//! (its view, its share of the events). Messages are queued as the task decides them and
//! delivered by [`MatchTask::deliver`] once the record they follow from is stored. Sends
//! never wait: a reader that is gone or has fallen a whole buffer behind loses its
//! connection, and the match goes on.

use arbiter_engine::{EventBatch, Seat};
use serde_json::Value;
use tokio::sync::mpsc::{self, error::TrySendError};

use super::{MatchTask, Player};
use crate::command::ConnectionId;
use crate::messages::ToSeat;

/// A message decided but not yet delivered.
pub(super) enum Outgoing {
    /// To a seat's connection at delivery time (if it has one).
    Seat(Seat, ToSeat),
    /// To every spectator at delivery time.
    Spectators(ToSeat),
    /// To one new spectator (its welcome).
    Spectator(mpsc::Sender<ToSeat>, ToSeat),
}

/// A remote seat's live connection.
pub(super) struct Connection {
    id: ConnectionId,
    sender: mpsc::Sender<ToSeat>,
    /// The view as last sent on this connection, to send only changes.
    last_view: Option<Value>,
}

impl MatchTask {
    /// A (re)connection: it replaces any earlier one and is brought up to date.
    pub(super) fn attach(&mut self, seat: Seat, id: ConnectionId, sender: mpsc::Sender<ToSeat>) {
        let Some(slot) = self.seats.get_mut(seat) else {
            return;
        };
        let Player::Remote(connection) = &mut slot.player else {
            return;
        };
        *connection = Some(Connection {
            id,
            sender,
            last_view: None,
        });
        let joined = self.joined(Some(seat));
        self.send_to_seat(seat, joined);
        self.send_view(seat);
        self.send_prompt(seat);
        self.publish_status();
    }

    /// A disconnect. Only the connection named goes: a newer one stays.
    pub(super) fn detach(&mut self, seat: Seat, id: ConnectionId) {
        if let Some(Player::Remote(connection)) = self.seats.get_mut(seat).map(|s| &mut s.player) {
            if connection.as_ref().is_some_and(|c| c.id == id) {
                *connection = None;
                self.publish_status();
            }
        }
    }

    pub(super) fn add_spectator(&mut self, sender: mpsc::Sender<ToSeat>) {
        let view = self.state.view(None);
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
                .push(Outgoing::Spectator(sender.clone(), message));
        }
        self.spectators.push(sender);
        self.spectator_view = Some(view);
        self.publish_status();
    }

    /// Wait until every record event so far is stored, then send what was queued.
    pub(super) async fn deliver(&mut self) {
        if let Some(stored) = self.unstored.take() {
            stored.await;
        }
        for message in std::mem::take(&mut self.outgoing) {
            match message {
                Outgoing::Seat(seat, message) => self.try_send_to_seat(seat, message),
                Outgoing::Spectators(message) => self.try_send_spectators(&message),
                Outgoing::Spectator(sender, message) => {
                    if sender.try_send(message).is_err() {
                        self.spectators
                            .retain(|spectator| !spectator.same_channel(&sender));
                        self.publish_status();
                    }
                }
            }
        }
        if let (Some(at), Some(instruments)) = (self.answered_at.take(), &self.instruments) {
            instruments.decision_handled(at.elapsed());
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
        let Some(Player::Remote(slot)) = self.seats.get_mut(seat).map(|s| &mut s.player) else {
            return;
        };
        let Some(connection) = slot else {
            return;
        };
        match connection.sender.try_send(message) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                tracing::warn!(
                    match_id,
                    seat,
                    "seat fell behind its messages; disconnected"
                );
                *slot = None;
            }
            Err(TrySendError::Closed(_)) => *slot = None,
        }
    }

    /// Send the seat its view if it changed since it last got one.
    pub(super) fn send_view(&mut self, seat: Seat) {
        let connected = matches!(
            self.seats.get(seat).map(|s| &s.player),
            Some(Player::Remote(Some(_)))
        );
        if !connected {
            return;
        }
        let view = self.state.view(Some(seat));
        if let Some(Player::Remote(Some(connection))) =
            self.seats.get_mut(seat).map(|s| &mut s.player)
        {
            if connection.last_view.as_ref() == Some(&view) {
                return;
            }
            connection.last_view = Some(view.clone());
        }
        let step = self.record.log.len();
        self.send_to_seat(seat, ToSeat::View { step, view });
    }

    /// Send the spectators their view if it changed.
    pub(super) fn send_spectator_view(&mut self) {
        if self.spectators.is_empty() {
            self.spectator_view = None;
            return;
        }
        let view = self.state.view(None);
        if self.spectator_view.as_ref() == Some(&view) {
            return;
        }
        self.spectator_view = Some(view.clone());
        let step = self.record.log.len();
        self.send_spectators(&ToSeat::View { step, view });
    }

    fn send_spectators(&mut self, message: &ToSeat) {
        if !self.spectators.is_empty() {
            self.outgoing.push(Outgoing::Spectators(message.clone()));
        }
    }

    fn try_send_spectators(&mut self, message: &ToSeat) {
        let before = self.spectators.len();
        self.spectators
            .retain(|spectator| spectator.try_send(message.clone()).is_ok());
        if self.spectators.len() != before {
            self.publish_status();
        }
    }

    /// A step's events and the new views, each audience its own share.
    pub(super) fn broadcast(&mut self, batch: &EventBatch) {
        for seat in 0..self.seats.len() {
            let events = batch.for_audience(Some(seat));
            if !events.is_empty() {
                let events = events.to_vec();
                self.send_to_seat(seat, ToSeat::Events { events });
            }
            self.send_view(seat);
        }
        if !self.spectators.is_empty() {
            let events = batch.for_audience(None);
            if !events.is_empty() {
                let events = events.to_vec();
                self.send_spectators(&ToSeat::Events { events });
            }
        }
        self.send_spectator_view();
    }

    /// A message every audience may see as it is (ejections, the outcome).
    pub(super) fn send_all(&mut self, message: &ToSeat) {
        for seat in 0..self.seats.len() {
            self.send_to_seat(seat, message.clone());
        }
        self.send_spectators(message);
    }
}
