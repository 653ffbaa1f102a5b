//! A connection's mailbox for the referee: each message the referee posts is encoded
//! as a protocol line and queued on the connection's outbox right away, on the
//! referee's task. Nothing sits between the referee and the socket writer, so a move
//! costs no extra task wake-up per message.

use std::fmt::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use arbiter_referee::{Mailbox, SeatAttachment, ToSeat, Undelivered};
use serde_json::{Map, Value};
use tokio::sync::oneshot;

use super::LiveMatch;
use crate::connection::Outbox;

/// Lines of one match for one connection (a seat's or a spectator's).
pub(super) struct LineMailbox {
    match_id: i64,
    outbox: Outbox,
    /// Cleared when the connection stops watching: the next post is refused and the
    /// referee lets the mailbox go.
    open: Arc<AtomicBool>,
    /// Fires when the referee has let the mailbox go (it is dropped).
    dropped: Option<oneshot::Sender<()>>,
}

impl LineMailbox {
    pub(super) fn new(match_id: i64, outbox: Outbox) -> (LineMailbox, oneshot::Receiver<()>) {
        let (dropped, released) = oneshot::channel();
        let mailbox = LineMailbox {
            match_id,
            outbox,
            open: Arc::new(AtomicBool::new(true)),
            dropped: Some(dropped),
        };
        (mailbox, released)
    }

    /// The switch that stops this mailbox taking messages.
    pub(super) fn switch(&self) -> Arc<AtomicBool> {
        self.open.clone()
    }
}

impl Mailbox for LineMailbox {
    fn post(&self, message: ToSeat) -> Result<(), Undelivered> {
        if !self.open.load(Ordering::Relaxed) || self.outbox.is_closed() {
            return Err(Undelivered::Gone);
        }
        if self.outbox.send_line(encode(self.match_id, &message)) {
            Ok(())
        } else if self.outbox.is_closed() {
            // The outbox closes itself when a line would pass its byte bound.
            Err(Undelivered::Behind)
        } else {
            Err(Undelivered::Gone)
        }
    }

    fn wants_legal(&self) -> bool {
        self.outbox.legal_in_prompt()
    }
}

impl Drop for LineMailbox {
    fn drop(&mut self) {
        if let Some(dropped) = self.dropped.take() {
            let _ = dropped.send(());
        }
    }
}

/// Wait until the seat's connection closes (then tell the referee the seat is
/// detached) or the referee lets this attachment's mailbox go (the match ended or the
/// seat was attached elsewhere). Idle in between: messages do not pass through here.
pub(super) async fn watch_seat(
    attachment: SeatAttachment,
    released: oneshot::Receiver<()>,
    live: Arc<LiveMatch>,
    outbox: Outbox,
) {
    tokio::select! {
        _ = outbox.closed() => {}
        _ = released => {}
    }
    let seat = attachment.seat();
    {
        let mut attached = live.attached.lock();
        if attached.get(seat).copied().flatten() == Some(outbox.conn()) {
            attached[seat] = None;
        }
    }
    attachment.detach().await;
}

/// A referee message as a protocol line: its own fields, with `match` after `type`.
///
/// Every view, prompt and event of every match passes through here, so the message is
/// written straight to text and `"match":id` spliced in after the tag, rather than
/// rebuilt as a `Value` tree first (which deep-copied each view once more).
pub fn encode(match_id: i64, message: &ToSeat) -> String {
    match message {
        // `joined` carries its own `match_id`, which the line names `match`; it is rare.
        ToSeat::Joined { .. } => return encode_as_value(match_id, message),
        // A view is the engine's text, which serde_json would embed only after reading
        // it through: written around it instead, as serde_json would.
        ToSeat::View { step, view } => {
            let mut line = String::with_capacity(view.text().len() + 64);
            let _ = write!(
                line,
                r#"{{"type":"view","match":{match_id},"step":{step},"view":{}}}"#,
                view.text()
            );
            return line;
        }
        // A prompt, one a move: its integers written in place, its turn by serde_json
        // (the general path below wrote the whole message through serde and then
        // moved it along twice to splice the match in).
        ToSeat::Prompt {
            step,
            deadline_ms,
            time_bank_ms,
            turn,
            legal: None,
        } => {
            let mut line = String::with_capacity(160);
            let mut digits = itoa::Buffer::new();
            line.push_str(r#"{"type":"prompt","match":"#);
            line.push_str(digits.format(match_id));
            line.push_str(r#","step":"#);
            line.push_str(digits.format(*step));
            line.push_str(r#","deadline_ms":"#);
            line.push_str(digits.format(*deadline_ms));
            line.push_str(r#","time_bank_ms":"#);
            line.push_str(digits.format(*time_bank_ms));
            line.push_str(r#","turn":"#);
            let mut body = line.into_bytes();
            if serde_json::to_writer(&mut body, turn).is_err() {
                return encode_as_value(match_id, message);
            }
            body.push(b'}');
            return String::from_utf8(body).unwrap_or_else(|_| encode_as_value(match_id, message));
        }
        // A step's events, likewise written once by the engine.
        ToSeat::Events { events } => {
            let mut line = String::with_capacity(events.text().len() + 48);
            let _ = write!(
                line,
                r#"{{"type":"events","match":{match_id},"events":{}}}"#,
                events.text()
            );
            return line;
        }
        _ => {}
    }
    // Written once, with room for the `"match"` spliced in below: one allocation.
    let mut body = Vec::with_capacity(256);
    if serde_json::to_writer(&mut body, message).is_err() {
        return encode_as_value(match_id, message);
    }
    let Ok(mut line) = String::from_utf8(body) else {
        return encode_as_value(match_id, message);
    };
    // Internally tagged: the text starts with the tag, whose snake_case name needs no
    // escapes, so its value ends at the next quote.
    const TAG: &str = r#"{"type":""#;
    let tag_end = line
        .strip_prefix(TAG)
        .and_then(|rest| rest.find('"'))
        .map(|end| TAG.len() + end + 1);
    match tag_end {
        Some(end) => {
            let mut digits = itoa::Buffer::new();
            line.insert_str(end, digits.format(match_id));
            line.insert_str(end, r#","match":"#);
            line
        }
        None => encode_as_value(match_id, message),
    }
}

/// [`encode`] through a `Value`: reorders any message's fields, drops `match_id`.
fn encode_as_value(match_id: i64, message: &ToSeat) -> String {
    let value = serde_json::to_value(message).unwrap_or(Value::Null);
    let mut out = Map::new();
    if let Value::Object(fields) = value {
        let mut fields = fields.into_iter();
        if let Some((key, kind)) = fields.next() {
            out.insert(key, kind);
        }
        out.insert("match".to_string(), Value::from(match_id));
        out.extend(fields.filter(|(key, _)| key != "match_id"));
    }
    Value::Object(out).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_engine::Turn;
    use arbiter_referee::JsonText;

    /// Views and events are written around the engine's text, byte for byte as the
    /// serialised message with `match` spliced in after the type.
    #[test]
    fn view_and_event_lines_are_the_serialised_messages_with_the_match_spliced_in() {
        let view = ToSeat::View {
            step: 3,
            view: JsonText::new(r#"{"round":2,"names":["a","b"]}"#.into()),
        };
        let events = ToSeat::Events {
            events: JsonText::new(r#"[{"type":"round_resolved","round":2}]"#.into()),
        };
        for (message, kind) in [(&view, "view"), (&events, "events")] {
            let serialised = serde_json::to_string(message).unwrap();
            let tag = format!(r#""type":"{kind}","#);
            let spliced = serialised.replacen(&tag, &format!(r#"{tag}"match":9,"#), 1);
            assert_eq!(encode(9, message), spliced);
        }
        assert_eq!(
            encode(9, &view),
            r#"{"type":"view","match":9,"step":3,"view":{"round":2,"names":["a","b"]}}"#
        );
    }

    /// Prompts are written by hand, byte for byte as the serialised message with
    /// `match` spliced in after the type, for every turn model.
    #[test]
    fn prompt_lines_are_the_serialised_prompts_with_the_match_spliced_in() {
        let turns = [
            Turn::One(1),
            Turn::Sealed(vec![0, 1]),
            Turn::AnyOf(vec![]),
            Turn::AnyOf(vec![2, 0, 3]),
            Turn::Over,
        ];
        for turn in turns {
            let prompt = ToSeat::Prompt {
                step: 1234,
                deadline_ms: u64::MAX,
                time_bank_ms: 0,
                turn,
                legal: None,
            };
            let serialised = serde_json::to_string(&prompt).unwrap();
            let tag = r#""type":"prompt","#;
            let spliced = serialised.replacen(tag, &format!(r#"{tag}"match":-5,"#), 1);
            assert_eq!(encode(-5, &prompt), spliced);
        }
        let prompt = ToSeat::Prompt {
            step: 3,
            deadline_ms: 9000,
            time_bank_ms: 4000,
            turn: Turn::Sealed(vec![0, 1]),
            legal: None,
        };
        assert_eq!(
            encode(9, &prompt),
            r#"{"type":"prompt","match":9,"step":3,"deadline_ms":9000,"time_bank_ms":4000,"turn":{"model":"sealed","seats":[0,1]}}"#
        );
        // With the legal actions (asked for with `options`), through the general path.
        let prompt = ToSeat::Prompt {
            step: 3,
            deadline_ms: 9000,
            time_bank_ms: 4000,
            turn: Turn::One(0),
            legal: Some(vec![serde_json::json!("pass")]),
        };
        assert_eq!(
            encode(9, &prompt),
            r#"{"type":"prompt","match":9,"step":3,"deadline_ms":9000,"time_bank_ms":4000,"turn":{"model":"one","seats":0},"legal":["pass"]}"#
        );
    }

    #[test]
    fn referee_messages_get_the_match_id_after_the_type() {
        let line = encode(
            7,
            &ToSeat::Rejected {
                code: "not_your_turn".into(),
                message: "wait".into(),
            },
        );
        assert_eq!(
            line,
            r#"{"type":"rejected","match":7,"code":"not_your_turn","message":"wait"}"#
        );
        let joined = encode(
            7,
            &ToSeat::Joined {
                match_id: 7,
                ruleset: "tae".into(),
                seat: Some(1),
                seats: vec!["a".into(), "b".into()],
                config: Value::Null,
            },
        );
        assert!(
            joined.starts_with(r#"{"type":"joined","match":7,"ruleset":"tae","seat":1"#),
            "{joined}"
        );
    }

    /// Every kind of message reads back as the same fields, `match` added, whichever
    /// way it was written.
    #[test]
    fn the_spliced_line_equals_the_rebuilt_one() {
        let messages = [
            ToSeat::Rejected {
                code: "bad".into(),
                message: "quote \" and brace }".into(),
            },
            ToSeat::Ejected {
                seat: 1,
                reason: "gone".into(),
            },
            ToSeat::View {
                step: 12,
                view: JsonText::new(r#"{"board":[1,"a\"b"],"n":null}"#.into()),
            },
            ToSeat::Events {
                events: JsonText::new(r#"[{"type":"moved","to":"}"},{"type":"done"}]"#.into()),
            },
            ToSeat::Joined {
                match_id: 3,
                ruleset: "qgame".into(),
                seat: None,
                seats: vec!["a".into()],
                config: serde_json::json!({"qbo": 8}),
            },
        ];
        for message in messages {
            let fast: Value = serde_json::from_str(&encode(42, &message)).unwrap();
            let slow: Value = serde_json::from_str(&encode_as_value(42, &message)).unwrap();
            assert_eq!(fast, slow);
            assert_eq!(fast["match"], 42);
            assert!(fast.get("match_id").is_none());
        }
    }
}
