//! Who owes a decision, and by when. Every seat the ruleset lists as acting owes one
//! decision at a time with its own deadline: the one seat of a sequential turn, each
//! seat of a sealed round, each seat of a concurrent turn. A decision ends when the
//! seat's action is accepted (the next one, if the seat still acts, gets a fresh
//! deadline), when the seat stops being listed, or when its deadline passes.
//!
//! A decision's deadline is the match's time per decision plus what is left of the
//! seat's time bank; time used past the per-decision part comes out of the bank. Where
//! the ruleset numbers its turns ([`arbiter_engine::Game::turn_number`]), a seat's
//! decisions within one turn share the deadline set at the turn's start: spending
//! command points one by one does not buy more time.
//!
//! A seat that misses `abandon_after` deadlines in a row has abandoned the match and is
//! ejected; answering once resets the count.

use std::time::Duration;

use arbiter_engine::{Seat, Turn};
use tokio::time::Instant;

use super::{MatchTask, Player, TurnSpan};
use crate::messages::ToSeat;

#[derive(Debug, Clone, Copy)]
pub(super) struct Decision {
    /// Distinguishes this decision from the seat's earlier ones (a bot's late answer).
    pub(super) id: u64,
    /// Log entries when it opened: the `step` of its first prompt. A prompt sent again
    /// later (on reconnecting) may name a later step of the same decision, where other
    /// seats' sealed answers came in meanwhile.
    pub(super) step: usize,
    pub(super) started: Instant,
    pub(super) deadline: Instant,
}

impl MatchTask {
    /// Bring the owed decisions in line with the state: new ones get a deadline and a
    /// prompt (or a bot starts thinking); seats no longer listed owe nothing.
    pub(super) fn refresh_decisions(&mut self) {
        let turn = self.state.to_act();
        self.refresh_decisions_for(&turn);
    }

    /// [`Self::refresh_decisions`] with the state's turn, `turn`, already known.
    pub(super) fn refresh_decisions_for(&mut self, turn: &Turn) {
        let now = Instant::now();
        for seat in 0..self.seats.len() {
            if !turn.includes(seat) {
                self.close_decision(seat);
                continue;
            }
            self.seats[seat].answered_sealed = false;
            if self.seats[seat].owed.is_some() {
                continue;
            }
            let id = self.next_decision;
            self.next_decision += 1;
            let (started, deadline) = self.turn_clock(seat, now);
            self.seats[seat].owed = Some(Decision {
                id,
                step: self.record.log.len(),
                started,
                deadline,
            });
            match self.seats[seat].player {
                Player::Remote(_) if self.seats[seat].stand_in.is_none() => self.send_prompt(seat),
                _ => self.start_bot(seat),
            }
        }
        self.publish_status_for(turn);
    }

    /// A match going on from its log after its server went away: every seat's next
    /// decision gets `grace` on top of its time, so nobody loses time to the gap while
    /// their client comes back. (Banks start full again: the log keeps no clock.)
    pub(crate) fn grant_resume_grace(&mut self, grace: Duration) {
        let back_by = Instant::now() + grace;
        for slot in &mut self.seats {
            slot.resume_grace = grace;
            // Nobody could attach while the server was away: the stand-in's grace
            // counts from the end of this one.
            if slot.silent_since.is_some() {
                slot.silent_since = Some(back_by);
            }
        }
    }

    /// When the seat's new decision started and must end: now plus the time per
    /// decision and the bank, or, within a turn already under way, the turn's own.
    fn turn_clock(&mut self, seat: Seat, now: Instant) -> (Instant, Instant) {
        let grace = std::mem::take(&mut self.seats[seat].resume_grace);
        let fresh = now + self.clock.per_decision + self.seats[seat].bank + grace;
        let Some(turn) = self.state.turn_number() else {
            return (now, fresh);
        };
        let slot = &mut self.seats[seat];
        match slot.span {
            Some(span) if span.turn == turn => (span.started, span.deadline),
            _ => {
                slot.span = Some(TurnSpan {
                    turn,
                    started: now,
                    deadline: fresh,
                    charged: Duration::ZERO,
                });
                (now, fresh)
            }
        }
    }

    /// Tell a remote seat what it owes and how long it has left.
    pub(super) fn send_prompt(&mut self, seat: Seat) {
        let Some(decision) = self.seats[seat].owed else {
            return;
        };
        let left = decision.deadline.saturating_duration_since(Instant::now());
        let bank = self.seats[seat].bank.min(left);
        let wants_legal = match &self.seats[seat].player {
            Player::Remote(Some(connection)) => connection.wants_legal(),
            _ => false,
        };
        let prompt = ToSeat::Prompt {
            step: self.record.log.len(),
            deadline_ms: millis(left),
            time_bank_ms: millis(bank),
            turn: self.state.to_act(),
            legal: wants_legal.then(|| self.state.legal(seat)),
        };
        self.send_to_seat(seat, prompt);
    }

    /// The seat's decision is over (answered, or no longer owed): what it used past the
    /// per-decision time comes out of its bank.
    pub(super) fn close_decision(&mut self, seat: Seat) {
        let Some(decision) = self.seats[seat].owed.take() else {
            return;
        };
        let used = Instant::now().saturating_duration_since(decision.started);
        let overtime = used.saturating_sub(self.clock.per_decision);
        let slot = &mut self.seats[seat];
        // Within a turn, `started` is the turn's start: charge only what is new.
        let charge = match &mut slot.span {
            Some(span) if span.started == decision.started => {
                let new = overtime.saturating_sub(span.charged);
                span.charged = span.charged.max(overtime);
                new
            }
            _ => overtime,
        };
        slot.bank = slot.bank.saturating_sub(charge);
    }

    /// Move every open decision (and the turn it belongs to) `by` later: time in which
    /// the seat could not yet have been told it owes it.
    pub(super) fn postpone_deadlines(&mut self, by: Duration) {
        if by.is_zero() {
            return;
        }
        for slot in &mut self.seats {
            if let Some(decision) = &mut slot.owed {
                decision.started += by;
                decision.deadline += by;
            }
            if let Some(span) = &mut slot.span {
                span.started += by;
                span.deadline += by;
            }
        }
    }

    /// The earliest deadline of any owed decision, or moment a seat goes silent.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let decisions = self
            .seats
            .iter()
            .filter_map(|slot| slot.owed.map(|decision| decision.deadline))
            .min();
        match (decisions, self.next_silence()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Apply the timeout policy to every decision whose deadline has passed, one seat
    /// at a time in seat order (each may change who owes what).
    pub(super) fn expire_due(&mut self) {
        self.stand_in_for_silent();
        loop {
            if self.state.to_act().is_over() {
                return;
            }
            let now = Instant::now();
            let due = self
                .seats
                .iter()
                .position(|slot| slot.owed.is_some_and(|decision| decision.deadline <= now));
            let Some(seat) = due else {
                return;
            };
            tracing::debug!(match_id = self.match_id, seat, "deadline passed");
            // A player with no connection when the deadline passes has gone silent
            // (the deadline ends the grace early): the house bot plays on for them,
            // where the ruleset would otherwise eject or pass for the seat.
            if self.can_stand_in(seat) && self.seats[seat].is_disconnected() {
                self.take_over(seat);
                continue;
            }
            self.seats[seat].missed_in_a_row += 1;
            let missed = self.seats[seat].missed_in_a_row;
            match self.clock.abandon_after {
                // A player who stopped answering: the house bot plays on for them.
                Some(limit) if missed >= limit && self.can_stand_in(seat) => self.take_over(seat),
                Some(limit) if missed >= limit => {
                    self.close_decision(seat);
                    let reason = match limit {
                        1 => "abandoned the match: missed its deadline".to_string(),
                        n => format!("abandoned the match: missed {n} deadlines in a row"),
                    };
                    self.eject(seat, reason);
                }
                _ => self.time_out(seat, None),
            }
        }
    }
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
