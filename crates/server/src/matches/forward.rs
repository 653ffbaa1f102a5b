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
pub fn encode(match_id: i64, message: &ToSeat) -> String {
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
}
