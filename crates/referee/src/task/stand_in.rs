//! The house bot for leavers. A remote seat whose player went silent (no connection
//! for the grace while it owes a decision, or when its deadline passes; or
//! `abandon_after` deadlines missed in a row while connected) is played by a house bot, so the others' game goes on; the player takes the seat
//! back by attaching again or by answering. Each stretch is a record event and an entry
//! of the record's `stand_ins`; every audience is told as it begins and ends.

use arbiter_engine::{Seat, StandIn};
use arbiter_rulesets::Ruleset;
use tokio::time::Instant;

use super::house::{BotMaker, HouseSeat};
use super::{MatchTask, Player};
use crate::messages::ToSeat;
use crate::setup::StandInSetup;
use crate::sink::RecordEvent;

/// What the match needs to seat a stand-in: the setup's choice and the ruleset that
/// builds the bot.
pub(crate) struct StandInPlan {
    pub(crate) setup: StandInSetup,
    pub(crate) ruleset: Ruleset,
}

impl StandInPlan {
    fn build(&self, seat: Seat) -> Option<HouseSeat> {
        let maker = BotMaker::House {
            ruleset: self.ruleset.clone(),
            bot: self.setup.bot.clone(),
            // Each seat's stand-in draws its own numbers.
            seed: self.setup.seed.wrapping_add(seat as u64),
        };
        let bot = maker.build()?;
        Some(HouseSeat::new(maker, bot))
    }
}

impl MatchTask {
    /// When `seat` goes silent if nothing changes: the later of its disconnect and its
    /// decision's start, plus the grace. `None` for a seat that is connected, owes
    /// nothing, is ejected or already stood in for, or a match without stand-ins.
    fn silent_at(&self, seat: Seat) -> Option<Instant> {
        let plan = self.stand_in.as_ref()?;
        let slot = &self.seats[seat];
        if slot.ejected.is_some() || slot.stand_in.is_some() || !slot.is_disconnected() {
            return None;
        }
        let since = slot.silent_since?;
        let owed = slot.owed?;
        Some(since.max(owed.started) + plan.setup.grace)
    }

    /// The earliest moment a seat goes silent.
    pub(super) fn next_silence(&self) -> Option<Instant> {
        (0..self.seats.len())
            .filter_map(|seat| self.silent_at(seat))
            .min()
    }

    /// Seat a stand-in for every seat whose grace has run out.
    pub(super) fn stand_in_for_silent(&mut self) {
        let now = Instant::now();
        for seat in 0..self.seats.len() {
            if self.silent_at(seat).is_some_and(|at| at <= now) {
                self.take_over(seat);
            }
        }
    }

    /// Whether a stand-in can take `seat` (rather than ejecting it for abandoning).
    pub(super) fn can_stand_in(&self, seat: Seat) -> bool {
        self.stand_in.is_some()
            && self.seats[seat].ejected.is_none()
            && self.seats[seat].stand_in.is_none()
            && matches!(self.seats[seat].player, Player::Remote(_))
    }

    /// The house bot takes `seat`: recorded, told to everyone, and set thinking about
    /// the decision the seat owes (with at least a fresh decision's time for it).
    pub(super) fn take_over(&mut self, seat: Seat) {
        if !self.can_stand_in(seat) {
            return;
        }
        let Some(plan) = self.stand_in.as_ref() else {
            return;
        };
        let bot = plan.setup.bot.clone();
        let Some(house) = plan.build(seat) else {
            tracing::error!(match_id = self.match_id, %bot, "the stand-in bot cannot be built");
            return;
        };
        let step = self.record.log.len();
        let stored = self.sink.record(RecordEvent::StandIn {
            match_id: self.match_id,
            seat,
            step,
            bot: Some(bot.clone()),
        });
        self.wait_for(stored);
        self.record.stand_ins.push(StandIn {
            seat,
            bot: bot.clone(),
            from_step: step,
            until_step: None,
        });
        tracing::info!(match_id = self.match_id, seat, %bot, step, "a house bot stands in for a silent seat");
        let per_decision = self.clock.per_decision;
        let slot = &mut self.seats[seat];
        slot.stand_in = Some(house);
        slot.missed_in_a_row = 0;
        let fresh = Instant::now() + per_decision;
        if let Some(decision) = &mut slot.owed {
            decision.deadline = decision.deadline.max(fresh);
        }
        if let Some(span) = &mut slot.span {
            span.deadline = span.deadline.max(fresh);
        }
        self.send_all(&ToSeat::StandIn { seat, bot, step });
        self.start_bot(seat);
        self.publish_status();
    }

    /// `seat`'s player is back: the stand-in leaves (an answer it is still thinking
    /// about will not count), recorded and told to everyone.
    pub(super) fn take_back(&mut self, seat: Seat) {
        let Some(slot) = self.seats.get_mut(seat) else {
            return;
        };
        if slot.stand_in.take().is_none() {
            return;
        }
        slot.missed_in_a_row = 0;
        let step = self.record.log.len();
        let stored = self.sink.record(RecordEvent::StandIn {
            match_id: self.match_id,
            seat,
            step,
            bot: None,
        });
        self.wait_for(stored);
        if let Some(open) = self
            .record
            .stand_ins
            .iter_mut()
            .rev()
            .find(|stand_in| stand_in.seat == seat && stand_in.until_step.is_none())
        {
            open.until_step = Some(step);
        }
        tracing::info!(
            match_id = self.match_id,
            seat,
            step,
            "a player took the seat back"
        );
        self.send_all(&ToSeat::SeatTakenBack { seat, step });
        self.publish_status();
    }

    /// A match continued from its record: seats a stand-in held when it stopped are
    /// held again (their players had not come back).
    pub(super) fn resume_stand_ins(&mut self) {
        for seat in self.record.left_seats() {
            if seat >= self.seats.len() || !self.can_stand_in(seat) {
                continue;
            }
            if let Some(house) = self.stand_in.as_ref().and_then(|plan| plan.build(seat)) {
                self.seats[seat].stand_in = Some(house);
            }
        }
    }
}
