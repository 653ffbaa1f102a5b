//! The referee's messages to one seat, turned into the reference's lines for that player.
//!
//! The referee speaks in views, events and prompts; the reference spoke in fixed lines
//! and one JSON state per round. The mapping, message by message:
//! - `joined` → `game <id> starts. other player is <name>`;
//! - `view` of a new round → the state line (rendered by the rules crate's
//!   [`reference_state_json`] from the state rebuilt out of the seat's own view: the
//!   game is perfect information, so the view holds the whole board), preceded by
//!   nothing for round 0 and followed by `waiting for you command` after every later
//!   round; a view that only echoes the seat's own sealed command prints nothing;
//! - the seat's own `command_received` event → `command received. waiting for other
//!   player...`; `round_resolved` → `calculating round`;
//! - `game_over` event and final view → kept until `outcome`, when the port has the
//!   rating change: `game ended: <reason>, <±x.xx> ELO for you. final state follows`,
//!   the final state line.
//!
//! Prompts, refusals and ejection notices have no reference line (the end reason
//! carries the ejection).

use arbiter_engine::Seat;
use arbiter_referee::ToSeat;
use arbiter_spacegoo::{player_id, reference_state_json, Config, Event, View};

use crate::replies;

/// What to tell the player.
#[derive(Debug, Clone, PartialEq)]
pub enum Say {
    Line(String),
    /// The game is over: `reason` in the reference's words, the final state line, and
    /// the winning player id (`None` for a draw), which decides the sign rule of the
    /// rating change. The port adds the rating change and the closing lines.
    End {
        reason: String,
        final_state: String,
        winner: Option<u8>,
    },
    /// The match stopped without an outcome (it could not be recorded).
    Aborted {
        reason: String,
    },
}

/// A message the script could not make sense of (a defect between the referee and the
/// rules crate; the port logs it and ends the player's game view).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot render the referee's message for the spacegoo port: {0}")]
pub struct ScriptError(pub String);

/// One seat's translation state.
#[derive(Debug)]
pub struct SeatScript {
    seat: Seat,
    config: Config,
    names: [String; 2],
    /// `game … starts` was said (a re-attached connection gets `joined` again).
    started: bool,
    /// The round of the last state line written.
    printed_round: Option<u32>,
    /// The end reason, from the `game_over` event.
    end_reason: Option<String>,
    /// The final state line, from the view with `game_over`.
    final_state: Option<String>,
    /// The winning player id, from the view with `game_over`.
    winner: Option<u8>,
    ended: bool,
}

impl SeatScript {
    /// `names` are the two players' names in player order (player 1 first).
    pub fn new(seat: Seat, config: Config, names: [String; 2]) -> Self {
        SeatScript {
            seat,
            config,
            names,
            started: false,
            printed_round: None,
            end_reason: None,
            final_state: None,
            winner: None,
            ended: false,
        }
    }

    /// True once the end has been said.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// True once the referee announced the end (commands get `game is over`).
    pub fn game_over(&self) -> bool {
        self.ended || self.end_reason.is_some()
    }

    /// The lines one referee message turns into.
    pub fn on_message(&mut self, message: &ToSeat) -> Result<Vec<Say>, ScriptError> {
        let mut say = Vec::new();
        if self.ended {
            return Ok(say);
        }
        match message {
            ToSeat::Joined { .. } if self.started => {}
            ToSeat::Joined {
                match_id, seats, ..
            } => {
                self.started = true;
                let other = seats
                    .get(1 - self.seat.min(1))
                    .ok_or_else(|| ScriptError(format!("match {match_id} has no opponent")))?;
                say.push(Say::Line(replies::game_starts(*match_id, other)));
            }
            ToSeat::View { view, .. } => {
                let view: View = serde_json::from_str(view.text())
                    .map_err(|e| ScriptError(format!("a view that is not spacegoo's: {e}")))?;
                let line = self.state_line(&view)?;
                if view.game_over {
                    self.final_state = Some(line);
                    self.winner = view.winner;
                    if self.end_reason.is_none() {
                        self.end_reason = view.end_reason.clone();
                    }
                } else if self.printed_round != Some(view.round) {
                    let first = self.printed_round.is_none();
                    self.printed_round = Some(view.round);
                    say.push(Say::Line(line));
                    if !first {
                        say.push(Say::Line(replies::WAITING_FOR_COMMAND.to_string()));
                    }
                }
            }
            ToSeat::Events { events } => {
                let events: Vec<Event> = serde_json::from_str(events.text())
                    .map_err(|e| ScriptError(format!("events that are not spacegoo's: {e}")))?;
                for event in events {
                    match event {
                        Event::CommandReceived { seat, .. } if seat == self.seat => {
                            say.push(Say::Line(replies::COMMAND_RECEIVED.to_string()));
                        }
                        Event::RoundResolved { .. } => {
                            say.push(Say::Line(replies::CALCULATING_ROUND.to_string()));
                        }
                        Event::GameOver { reason, .. } => self.end_reason = Some(reason),
                        _ => {}
                    }
                }
            }
            ToSeat::Outcome { outcome, .. } => {
                let reason = self
                    .end_reason
                    .clone()
                    .unwrap_or_else(|| outcome.summary.clone());
                let final_state = self.final_state.clone().ok_or_else(|| {
                    ScriptError("the game ended without a final view".to_string())
                })?;
                self.ended = true;
                say.push(Say::End {
                    reason,
                    final_state,
                    winner: self.winner,
                });
            }
            ToSeat::Aborted { reason } => {
                self.ended = true;
                say.push(Say::Aborted {
                    reason: reason.clone(),
                });
            }
            // The reference's protocol has no words for a stand-in (its seats are
            // programs, never stood in for).
            ToSeat::Prompt { .. }
            | ToSeat::Rejected { .. }
            | ToSeat::Ejected { .. }
            | ToSeat::StandIn { .. }
            | ToSeat::SeatTakenBack { .. } => {}
        }
        Ok(say)
    }

    /// The reference's state line for this seat, from its view.
    fn state_line(&self, view: &View) -> Result<String, ScriptError> {
        let state = arbiter_spacegoo::rebuild::state_from_view(&self.config, view, self.seat)
            .map_err(ScriptError)?;
        let names = [self.names[0].as_str(), self.names[1].as_str()];
        Ok(reference_state_json(&state, player_id(self.seat), names))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::{DynState, Seat};
    use arbiter_referee::JsonText;
    use serde_json::Value;

    fn game() -> (Box<dyn DynState>, Config) {
        let config = Config {
            max_rounds: 2,
            ..Config::default()
        };
        let ruleset = arbiter_rulesets::find("spacegoo").expect("spacegoo ships");
        let value = serde_json::to_value(&config).expect("config");
        let state = ruleset.game.new_state(&value, 2, 7).expect("state");
        (state, config)
    }

    fn view(state: &dyn DynState, seat: Seat) -> ToSeat {
        ToSeat::View {
            step: 0,
            view: JsonText::written(state.view_json(Some(seat))),
        }
    }

    fn lines(say: Vec<Say>) -> Vec<String> {
        say.into_iter()
            .map(|s| match s {
                Say::Line(line) => line,
                Say::End { reason, .. } => format!("END {reason}"),
                Say::Aborted { reason } => format!("ABORTED {reason}"),
            })
            .collect()
    }

    #[test]
    fn a_two_round_game_reads_like_the_reference() {
        let (mut state, config) = game();
        let names = ["ann".to_string(), "bob".to_string()];
        let mut script = SeatScript::new(1, config, names);
        let joined = ToSeat::Joined {
            match_id: 9,
            ruleset: "spacegoo".into(),
            seat: Some(1),
            seats: vec!["ann".into(), "bob".into()],
            config: Value::Null,
        };
        assert_eq!(
            lines(script.on_message(&joined).expect("joined")),
            ["game 9 starts. other player is ann"]
        );
        let first = lines(script.on_message(&view(state.as_ref(), 1)).expect("view"));
        assert_eq!(first.len(), 1);
        assert!(first[0].starts_with("{\"planets\": [{\"id\": 0, "));
        assert!(first[0].contains("\"round\": 0, \"max_rounds\": 2, \"player_id\": 2, "));

        // Seat 1 answers first: its own event, then its view echoing the command.
        let batch = state.apply(1, &Value::from("nop")).expect("nop");
        let events = ToSeat::Events {
            events: JsonText::written(
                batch
                    .for_audience(Some(1))
                    .cloned()
                    .unwrap_or_else(|| "[]".into()),
            ),
        };
        assert_eq!(
            lines(script.on_message(&events).expect("events")),
            [replies::COMMAND_RECEIVED]
        );
        assert!(script
            .on_message(&view(state.as_ref(), 1))
            .expect("echo")
            .is_empty());

        // Seat 0 completes the round: seat 1 sees the tick and the next state.
        let batch = state.apply(0, &Value::from("nop")).expect("nop");
        let events = ToSeat::Events {
            events: JsonText::written(
                batch
                    .for_audience(Some(1))
                    .cloned()
                    .unwrap_or_else(|| "[]".into()),
            ),
        };
        assert_eq!(
            lines(script.on_message(&events).expect("events")),
            [replies::CALCULATING_ROUND]
        );
        let next = lines(script.on_message(&view(state.as_ref(), 1)).expect("view"));
        assert_eq!(next.len(), 2);
        assert!(next[0].contains("\"round\": 1, "));
        assert_eq!(next[1], replies::WAITING_FOR_COMMAND);

        // The last round ends the game in a draw: the end waits for the outcome.
        state.apply(0, &Value::from("nop")).expect("nop");
        let batch = state.apply(1, &Value::from("nop")).expect("nop");
        let events = ToSeat::Events {
            events: JsonText::written(
                batch
                    .for_audience(Some(1))
                    .cloned()
                    .unwrap_or_else(|| "[]".into()),
            ),
        };
        assert_eq!(
            lines(script.on_message(&events).expect("events")),
            [replies::COMMAND_RECEIVED, replies::CALCULATING_ROUND]
        );
        assert!(script
            .on_message(&view(state.as_ref(), 1))
            .expect("final view")
            .is_empty());
        let outcome = ToSeat::Outcome {
            outcome: state.outcome().expect("over"),
            headline: "nobody wins".into(),
        };
        let end = script.on_message(&outcome).expect("outcome");
        match end.as_slice() {
            [Say::End {
                reason,
                final_state,
                winner,
            }] => {
                assert_eq!(reason, "game is a draw");
                assert_eq!(*winner, None);
                assert!(final_state.contains("\"round\": 2, "));
                assert!(final_state.contains("\"game_over\": true, \"winner\": null"));
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(script.ended());
    }

    #[test]
    fn a_view_from_another_ruleset_is_an_error_not_a_panic() {
        let (_, config) = game();
        let mut script = SeatScript::new(0, config, ["a".into(), "b".into()]);
        let bad = ToSeat::View {
            step: 0,
            view: JsonText::from_value(&serde_json::json!({"board": []})),
        };
        assert!(script.on_message(&bad).is_err());
        let outcome_first = ToSeat::Outcome {
            outcome: arbiter_engine::Outcome {
                ranks: vec![1, 1],
                scores: vec![0, 0],
                ejected: vec![None, None],
                summary: "x".into(),
            },
            headline: "x".into(),
        };
        assert!(script.on_message(&outcome_first).is_err());
    }
}
