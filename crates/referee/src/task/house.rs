//! Bots in seats. A bot decides on the blocking pool with a snapshot of the state, so
//! its search never holds up the runtime; its answer comes back as a message and counts
//! only if the seat still owes that same decision. A bot that panics is replaced by a
//! fresh one and the decision counts as missed.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

use arbiter_engine::Seat;
use arbiter_rulesets::{HouseBot, Ruleset};
use serde_json::Value;

use super::{MatchTask, Player};
use crate::setup::Program;

/// How to build (and rebuild) a seat's bot.
pub(crate) enum BotMaker {
    House {
        ruleset: Ruleset,
        bot: String,
        seed: u64,
    },
    Program(Program),
}

impl BotMaker {
    pub(crate) fn build(&self) -> Option<Box<dyn HouseBot>> {
        match self {
            BotMaker::House { ruleset, bot, seed } => ruleset.house_bot(bot, *seed),
            BotMaker::Program(program) => Some(program.build()),
        }
    }
}

pub(super) struct HouseSeat {
    maker: BotMaker,
    /// The bot, when it is not thinking on the blocking pool.
    idle: Option<Box<dyn HouseBot>>,
}

impl HouseSeat {
    pub(super) fn new(maker: BotMaker, bot: Box<dyn HouseBot>) -> Self {
        HouseSeat {
            maker,
            idle: Some(bot),
        }
    }

    /// The bot's name as the ruleset (or the program) calls it.
    pub(super) fn bot_name(&self) -> &str {
        match &self.maker {
            BotMaker::House { bot, .. } => bot,
            BotMaker::Program(program) => program.name(),
        }
    }
}

/// A bot's answer (or failure) for one decision, with the bot handed back.
pub(crate) struct BotReply {
    seat: Seat,
    decision: u64,
    bot: Option<Box<dyn HouseBot>>,
    answer: Result<Value, String>,
    /// Seats the bot asks to eject once its answer is applied
    /// (`HouseBot::ejections_after_answer`).
    then_eject: Vec<(Seat, String)>,
}

impl MatchTask {
    /// The bot playing `seat`: its own, or the stand-in for its silent player.
    pub(super) fn bot_of(&mut self, seat: Seat) -> Option<&mut HouseSeat> {
        let slot = self.seats.get_mut(seat)?;
        match &mut slot.player {
            Player::Bot(house) => Some(house),
            Player::Remote(_) => slot.stand_in.as_mut(),
        }
    }

    /// Let the seat's bot think about the decision the seat owes. A bot still busy with
    /// an earlier decision starts on this one when it comes back.
    pub(super) fn start_bot(&mut self, seat: Seat) {
        let Some(decision) = self.seats[seat].owed.map(|d| d.id) else {
            return;
        };
        let Some(house) = self.bot_of(seat) else {
            return;
        };
        let Some(mut bot) = house.idle.take() else {
            return;
        };
        let state = self.state.clone_box();
        let replies = self.bot_sender.clone();
        // The reply goes straight from the blocking thread to the match task. A panic is
        // caught there, so the bot's failure is reported like any other answer.
        tokio::task::spawn_blocking(move || {
            let decided = panic::catch_unwind(AssertUnwindSafe(|| {
                let answer = bot.decide(state.as_ref(), seat);
                (answer, bot.ejections_after_answer())
            }));
            let reply = match decided {
                Ok((answer, then_eject)) => BotReply {
                    seat,
                    decision,
                    bot: Some(bot),
                    answer,
                    then_eject,
                },
                // The bot may be half-way through changing itself: it is not reused.
                Err(payload) => BotReply {
                    seat,
                    decision,
                    bot: None,
                    answer: Err(format!(
                        "the bot panicked: {}",
                        describe_panic(payload.as_ref())
                    )),
                    then_eject: Vec::new(),
                },
            };
            // The match may be over; then nobody needs the answer.
            let _ = replies.send(Box::new(reply));
        });
    }

    pub(super) fn on_bot_reply(&mut self, reply: BotReply) {
        let BotReply {
            seat,
            decision,
            bot,
            answer,
            then_eject,
        } = reply;
        let Some(house) = self.bot_of(seat) else {
            // A stand-in whose player took the seat back: its answer does not count.
            return;
        };
        house.idle = bot.or_else(|| house.maker.build());
        if self.seats[seat].owed.map(|d| d.id) != Some(decision) {
            // A late answer to a decision already settled; think about the current one.
            self.start_bot(seat);
            return;
        }
        match answer {
            Ok(action) => {
                self.bot_answer(seat, action);
                for (ejected, reason) in then_eject {
                    if ejected < self.seats.len() {
                        self.eject(ejected, reason);
                    }
                }
            }
            Err(failure) => {
                tracing::warn!(match_id = self.match_id, seat, %failure, "bot failed");
                self.time_out(seat, Some(failure));
            }
        }
    }
}

/// The message of a panic payload, when it has one.
pub(crate) fn describe_panic(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_string()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "a panic without a message".to_string()
    }
}
