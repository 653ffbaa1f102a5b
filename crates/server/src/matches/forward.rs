//! Forwarders: one task per attached seat or spectator, carrying the referee's messages
//! to the connection's outbox as protocol lines, until either side ends.

use std::sync::Arc;

use arbiter_referee::{SeatConnection, SpectatorConnection, ToSeat};
use serde_json::{Map, Value};

use super::LiveMatch;
use crate::transport::Outbox;

/// Carry a seat's messages to its connection until either side ends. Dropping the
/// seat connection tells the referee the seat is detached.
pub(super) async fn forward_seat(
    mut connection: SeatConnection,
    live: Arc<LiveMatch>,
    outbox: Outbox,
) {
    let seat = connection.seat();
    loop {
        tokio::select! {
            message = connection.recv() => match message {
                Some(message) => {
                    if !outbox.send_line(encode(live.id, &message).into()) {
                        break;
                    }
                }
                None => break,
            },
            _ = outbox.closed() => break,
        }
    }
    {
        let mut attached = live.attached.lock();
        if attached.get(seat).copied().flatten() == Some(outbox.conn()) {
            attached[seat] = None;
        }
    }
    connection.detach().await;
}

pub(super) async fn forward_spectator(
    mut connection: SpectatorConnection,
    match_id: i64,
    outbox: Outbox,
) {
    loop {
        tokio::select! {
            message = connection.recv() => match message {
                Some(message) => {
                    if !outbox.send_line(encode(match_id, &message).into()) {
                        break;
                    }
                }
                None => break,
            },
            _ = outbox.closed() => break,
        }
    }
}

/// A referee message as a protocol line: its own fields, with `match` after `type`.
///
/// Every view, prompt and event of every match passes through here, so the message is
/// written straight to text and `"match":id` spliced in after the tag, rather than
/// rebuilt as a `Value` tree first (which deep-copied each view once more).
pub fn encode(match_id: i64, message: &ToSeat) -> String {
    // `joined` carries its own `match_id`, which the line names `match`; it is rare.
    if matches!(message, ToSeat::Joined { .. }) {
        return encode_as_value(match_id, message);
    }
    let Ok(body) = serde_json::to_string(message) else {
        return encode_as_value(match_id, message);
    };
    // Internally tagged: the text starts with the tag, whose snake_case name needs no
    // escapes, so its value ends at the next quote.
    const TAG: &str = r#"{"type":""#;
    let tag_end = body
        .strip_prefix(TAG)
        .and_then(|rest| rest.find('"'))
        .map(|end| TAG.len() + end + 1);
    match tag_end {
        Some(end) => {
            let mut line = String::with_capacity(body.len() + 24);
            line.push_str(&body[..end]);
            line.push_str(r#","match":"#);
            line.push_str(&match_id.to_string());
            line.push_str(&body[end..]);
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
