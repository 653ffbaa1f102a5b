//! Asking a bot with a time limit: the bot lives on a thread of its own, questions go
//! to it over a channel, and the kit waits for the answer with `recv_timeout`.
//!
//! A thread cannot be stopped from outside. A bot still thinking when the time is up
//! keeps thinking; its late answer is thrown away, and the next question waits behind
//! it (and may run out of time too). Watch `prompt.budget` in a long search.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::bot::{Bot, Prompt};

/// One question for the bot, numbered so that a late answer is recognised.
struct Question {
    id: u64,
    view: Value,
    legal: Vec<Value>,
    prompt: Prompt,
}

/// A bot on its own thread.
pub struct BotThread {
    questions: Sender<Question>,
    /// (question id, the answer; `None` when `decide` panicked)
    answers: Receiver<(u64, Option<Value>)>,
    asked: u64,
}

impl BotThread {
    /// Move `bot` to a new thread, where it waits for questions.
    pub fn new(mut bot: impl Bot) -> BotThread {
        let (questions, inbox) = channel::<Question>();
        let (outbox, answers) = channel();
        thread::Builder::new()
            .name("bot".into())
            .spawn(move || {
                for q in inbox {
                    // A panic is the bot's bug: the hook prints it, the kit answers anyway.
                    let answer = catch_unwind(AssertUnwindSafe(|| {
                        bot.decide(&q.view, &q.legal, &q.prompt)
                    }));
                    if outbox.send((q.id, answer.ok())).is_err() {
                        break;
                    }
                }
            })
            .expect("a thread for the bot");
        BotThread {
            questions,
            answers,
            asked: 0,
        }
    }

    /// The bot's answer, or why there is none: it panicked, answered `null`, or took
    /// longer than `limit`.
    pub fn decide(
        &mut self,
        view: &Value,
        legal: &[Value],
        prompt: &Prompt,
        limit: Duration,
    ) -> Result<Value, String> {
        self.asked += 1;
        let question = Question {
            id: self.asked,
            view: view.clone(),
            legal: legal.to_vec(),
            prompt: prompt.clone(),
        };
        if self.questions.send(question).is_err() {
            return Err("the bot's thread is gone".into());
        }
        let end = Instant::now() + limit;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.answers.recv_timeout(left) {
                Ok((id, _)) if id != self.asked => continue, // a late answer to an old question
                Ok((_, Some(Value::Null))) => return Err("decide returned null".into()),
                Ok((_, Some(action))) => return Ok(action),
                Ok((_, None)) => return Err("decide panicked".into()),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "decide took longer than {:.1} s",
                        limit.as_secs_f64()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the bot's thread is gone".into())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Sleepy(Duration);

    impl Bot for Sleepy {
        fn decide(&mut self, _: &Value, legal: &[Value], _: &Prompt) -> Value {
            thread::sleep(self.0);
            legal[0].clone()
        }
    }

    fn prompt() -> Prompt {
        Prompt {
            match_id: 1,
            step: 0,
            deadline_ms: 1000,
            time_bank_ms: 0,
            turn: Value::Null,
            ruleset: "nim".into(),
            seat: 0,
            players: vec![],
            config: Value::Null,
            rejected: None,
            tries: 0,
            legal_step: 0,
            time_left: Duration::from_secs(1),
            budget: Duration::from_secs(1),
        }
    }

    #[test]
    fn a_quick_bot_answers_and_a_slow_one_times_out() {
        let legal = [json!("a"), json!("b")];
        let mut quick = BotThread::new(Sleepy(Duration::ZERO));
        let answer = quick.decide(&Value::Null, &legal, &prompt(), Duration::from_secs(5));
        assert_eq!(answer, Ok(json!("a")));

        let mut slow = BotThread::new(Sleepy(Duration::from_millis(300)));
        let limit = Duration::from_millis(50);
        assert!(slow.decide(&Value::Null, &legal, &prompt(), limit).is_err());
        // The late answer to the first question is not taken for the second's.
        let answer = slow.decide(&Value::Null, &legal[1..], &prompt(), Duration::from_secs(5));
        assert_eq!(answer, Ok(json!("b")));
    }

    struct Broken;

    impl Bot for Broken {
        fn decide(&mut self, _: &Value, _: &[Value], _: &Prompt) -> Value {
            panic!("a bug in the bot (this panic is expected by the test)")
        }
    }

    #[test]
    fn a_panicking_bot_gets_no_answer_and_lives_on() {
        let mut bot = BotThread::new(Broken);
        let limit = Duration::from_secs(5);
        for _ in 0..2 {
            let answer = bot.decide(&Value::Null, &[json!(1)], &prompt(), limit);
            assert_eq!(answer, Err("decide panicked".to_string()));
        }
    }
}
