//! Answers and their consequences: apply and record an accepted action, refuse a wrong
//! one as the ruleset's policy says, and eject with the reason recorded.

use arbiter_engine::{Illegal, LogEntry, Seat, TimeoutPolicy, Turn};
use serde_json::Value;

use super::audience::SeenBy;
use super::MatchTask;
use crate::messages::ToSeat;
use arbiter_engine::IllegalAnswer;

impl MatchTask {
    /// An answer that came over a seat's connection; `step`, when the client names
    /// it, is the step of the prompt it answers.
    pub(super) fn remote_answer(&mut self, seat: Seat, action: Value, step: Option<usize>) {
        let Some(slot) = self.seats.get(seat) else {
            return;
        };
        if let Some(reason) = &slot.ejected {
            let refusal = Illegal::new("ejected", format!("seat {seat} was ejected: {reason}"));
            self.reject(seat, refusal);
            return;
        }
        if let Some(step) = step {
            if let Err(refusal) = self.answers_open_decision(seat, step) {
                self.reject(seat, refusal);
                return;
            }
        }
        let answered_sealed = slot.answered_sealed;
        // The player answers again: the seat is theirs, and so is this answer.
        self.take_back(seat);
        let turn = self.state.to_act();
        if !turn.includes(seat) {
            let second_sealed = matches!(turn, Turn::Sealed(_)) && answered_sealed;
            match self.policy.second_sealed_answer {
                Some(reason) if second_sealed => {
                    let refusal = Illegal::new(
                        "more_than_one_answer",
                        "the seat's answer for this round is already in",
                    );
                    self.reject(seat, refusal);
                    self.eject(seat, reason.to_string());
                }
                _ => self.reject(seat, Illegal::not_your_turn(seat)),
            }
            return;
        }
        if self.policy.timeout_action_reserved {
            if let TimeoutPolicy::Act(reserved) = self.state.on_timeout(seat) {
                if reserved == action {
                    let refusal = Illegal::new(
                        "reserved_action",
                        "only the referee sends this action, when a deadline passes",
                    );
                    self.reject(seat, refusal);
                    return;
                }
            }
        }
        match self.apply(seat, &action) {
            // The seat is here: it has not abandoned, whatever it missed before.
            Ok(()) => self.seats[seat].missed_in_a_row = 0,
            Err(illegal) => match self.policy.illegal_answer {
                IllegalAnswer::Retry => self.reject(seat, illegal),
                IllegalAnswer::Eject { prefix } => {
                    let reason = format!("{prefix}: {illegal}");
                    self.reject(seat, illegal);
                    self.eject(seat, reason);
                }
            },
        }
    }

    /// Whether an answer naming `step` answers the decision `seat` owes now: it must
    /// name a step of that decision (from its first prompt to now). Anything earlier
    /// answered a decision that is closed (a late or repeated answer); applied, it would
    /// land on a decision its sender never saw.
    fn answers_open_decision(&self, seat: Seat, step: usize) -> Result<(), Illegal> {
        let now = self.record.log.len();
        if step > now {
            return Err(Illegal::new(
                "bad_step",
                format!("step {step} is not reached yet: the match is at step {now}"),
            ));
        }
        let slot = &self.seats[seat];
        // While a house bot stands in, the seat's open decision is the bot's, and the
        // player who answers its prompt takes the seat back with this answer.
        match slot.owed {
            Some(decision) if step >= decision.step => Ok(()),
            Some(decision) => Err(Illegal::new(
                "stale_answer",
                format!(
                    "this answers step {step}, a decision that is closed: seat {seat} now owes the decision of step {}",
                    decision.step
                ),
            )),
            // Not its turn: refused below as the ruleset says (`not_your_turn`).
            None if step == now => Ok(()),
            None => Err(Illegal::new(
                "stale_answer",
                format!(
                    "this answers step {step}, a decision that is closed: seat {seat} owes nothing now (step {now})"
                ),
            )),
        }
    }

    /// An answer from a bot seat about the decision it owes now. A bot cannot take a
    /// refusal back to think again, so a refused answer costs what the ruleset's policy
    /// says or, where seats may retry, what a missed deadline costs.
    pub(super) fn bot_answer(&mut self, seat: Seat, action: Value) {
        match self.apply(seat, &action) {
            Ok(()) => self.seats[seat].missed_in_a_row = 0,
            Err(illegal) => {
                tracing::warn!(match_id = self.match_id, seat, %illegal, "a bot's answer was refused");
                match self.policy.illegal_answer {
                    IllegalAnswer::Eject { prefix } => {
                        self.eject(seat, format!("{prefix}: {illegal}"))
                    }
                    IllegalAnswer::Retry => {
                        self.time_out(seat, Some(format!("its answer was refused: {illegal}")))
                    }
                }
            }
        }
    }

    /// The seat missed its decision (`failure` says how, when it was not just late):
    /// the ruleset's timeout policy ejects it or acts for it.
    pub(super) fn time_out(&mut self, seat: Seat, failure: Option<String>) {
        self.close_decision(seat);
        match self.state.on_timeout(seat) {
            TimeoutPolicy::Eject(reason) => {
                let reason = match failure {
                    Some(failure) => format!("{reason} ({failure})"),
                    None => reason,
                };
                self.eject(seat, reason);
            }
            TimeoutPolicy::Act(action) => {
                if let Err(illegal) = self.apply(seat, &action) {
                    let reason = format!(
                        "missed the deadline, and the ruleset refused its own default action: {illegal}"
                    );
                    self.eject(seat, reason);
                }
            }
        }
    }

    /// Apply `seat`'s action; on success record it with the state's digest, tell every
    /// audience its share, and move the decisions on. A refused action changes nothing.
    pub(super) fn apply(&mut self, seat: Seat, action: &Value) -> Result<(), Illegal> {
        let before = self.state.to_act();
        let batch = self.state.apply(seat, action)?;
        if matches!(before, Turn::Sealed(_)) {
            self.seats[seat].answered_sealed = true;
        }
        self.close_decision(seat);
        let entry = LogEntry::Act {
            seat,
            action: action.clone(),
            digest: String::new(),
        };
        let after = self.state.to_act();
        self.log(entry, &batch, &after);
        let seen = if before.sealed_answer_left_open(seat, &after) {
            SeenBy::Seat(seat)
        } else {
            SeenBy::Everyone
        };
        self.broadcast(&batch, seen);
        self.refresh_decisions_for(&after);
        Ok(())
    }

    /// Remove `seat` with `reason`, recorded in the log and told to everyone. A seat the
    /// referee already removed is left alone.
    pub(super) fn eject(&mut self, seat: Seat, reason: String) {
        if self.seats[seat].ejected.is_some() {
            return;
        }
        let batch = self.state.eject(seat, &reason);
        self.seats[seat].ejected = Some(reason.clone());
        self.seats[seat].owed = None;
        let entry = LogEntry::Eject {
            seat,
            reason: reason.clone(),
            digest: String::new(),
        };
        let after = self.state.to_act();
        self.log(entry, &batch, &after);
        tracing::info!(match_id = self.match_id, seat, %reason, "seat ejected");
        self.send_all(&ToSeat::Ejected { seat, reason });
        self.broadcast(&batch, SeenBy::Everyone);
        self.refresh_decisions_for(&after);
    }

    fn reject(&mut self, seat: Seat, illegal: Illegal) {
        self.send_to_seat(
            seat,
            ToSeat::Rejected {
                code: illegal.code,
                message: illegal.message,
            },
        );
    }
}
