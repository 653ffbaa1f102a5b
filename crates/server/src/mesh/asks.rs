//! What one node asks of another, and the answer: JSON over NATS request–reply.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use std::net::IpAddr;

use arbiter_store::{AccountId, LiveNode};

use crate::connection::ConnId;
use crate::protocol::{ClientMessage, Refusal};

/// A compatibility port, as a tunnel to it names it (see `mesh::tunnels`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Port {
    Spacegoo,
    Qgame,
}

/// A connection of another node: where its lines go.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RemoteConn {
    pub node: String,
    pub conn: ConnId,
}

/// A seat of a match the matchmaker paired: who, and its connection (on any node).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueuedSeat {
    pub account: AccountId,
    pub name: String,
    pub conn: RemoteConn,
}

/// A request to the node that runs a match (or, for the queue, the matchmaker). `from`
/// is the connection the request came in on; its lines go back there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum Ask {
    /// Watch a live match.
    Spectate {
        from: RemoteConn,
        match_id: i64,
    },
    Unspectate {
        from: RemoteConn,
        match_id: i64,
    },
    /// Attach every seat the account holds in a running match of the node.
    Resume {
        from: RemoteConn,
        account: AccountId,
    },
    Act {
        from: RemoteConn,
        account: AccountId,
        match_id: i64,
        seat: Option<usize>,
        action: Value,
        /// The prompt's step the answer names (see `ClientMessage::Act`).
        #[serde(default)]
        step: Option<usize>,
    },
    Resign {
        from: RemoteConn,
        account: AccountId,
        match_id: i64,
        seat: Option<usize>,
    },
    Legal {
        from: RemoteConn,
        account: AccountId,
        match_id: i64,
    },
    /// Wait in the deployment's queue (asked of the matchmaker).
    Queue {
        from: RemoteConn,
        account: AccountId,
        name: String,
        ruleset: String,
        config: Value,
        seats: Option<usize>,
    },
    /// Start a match the matchmaker paired, here: the first player's node.
    Start {
        ruleset: String,
        config: Value,
        seats: Vec<QueuedSeat>,
    },
    LeaveQueue {
        from: RemoteConn,
    },
    /// A request about tables (asked of the matchmaker, which holds them): one of the
    /// protocol's table messages, as the client sent it.
    Table {
        from: RemoteConn,
        account: AccountId,
        name: String,
        request: ClientMessage,
    },
    /// Take a compatibility-port connection of `client_node` (this node holds the
    /// lobby): connect it to this node's `port` as the client at `client`; its bytes
    /// travel as tunnel `id` (see `mesh::tunnels`).
    Tunnel {
        port: Port,
        client_node: LiveNode,
        id: u64,
        client: IpAddr,
    },
    /// The connection takes part in tournament `tournament`, which the node asked
    /// directs: as `account`'s connection when that is given (an entrant's), where its
    /// games reach it; and, with `watch`, it hears the tournament's state.
    Tournament {
        from: RemoteConn,
        tournament: i64,
        account: Option<AccountId>,
        watch: bool,
    },
    TournamentUnwatch {
        from: RemoteConn,
        tournament: i64,
    },
    /// The connection closed: forget it (its queue place, tables, watching; its seats
    /// stay the account's, as on one node).
    Closed {
        from: RemoteConn,
    },
    /// `node` stopped in order and its heartbeat is stale: take its running matches
    /// and tournaments over now, not after its lease.
    NodeStopped {
        node: String,
    },
    /// `node` now runs matches (taken over, or its own after a restart) that seat
    /// `accounts`: for each connected here, this node asks `node` to resume its seats
    /// for the connection ([`Ask::Resume`]), as its login would have. Told, not asked.
    SeatsResumed {
        node: String,
        accounts: Vec<AccountId>,
    },
}

/// The answer to an [`Ask`]: done (what was to be told went to the connection's lines),
/// or refused with the protocol's code and sentence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Done,
    Refused { code: String, message: String },
}

impl From<Result<(), Refusal>> for Answer {
    fn from(result: Result<(), Refusal>) -> Answer {
        match result {
            Ok(()) => Answer::Done,
            Err(refusal) => Answer::Refused {
                code: refusal.code.to_string(),
                message: refusal.message,
            },
        }
    }
}

impl Answer {
    /// Back to a [`Refusal`] on the asking node. Codes are the protocol's fixed words;
    /// they are kept as they came (see [`intern_code`](crate::protocol::refusal::intern_code)).
    pub fn into_result(self) -> Result<(), Refusal> {
        match self {
            Answer::Done => Ok(()),
            Answer::Refused { code, message } => Err(Refusal::new(
                crate::protocol::refusal::intern_code(&code),
                message,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_and_answers_keep_their_shape_through_json() {
        let from = RemoteConn {
            node: "east".into(),
            conn: 7,
        };
        let ask = Ask::Act {
            from,
            account: 3,
            match_id: 9,
            seat: Some(1),
            action: serde_json::json!({"kind": "pass"}),
            step: Some(4),
        };
        let text = serde_json::to_string(&ask).expect("json");
        assert!(text.contains(r#""ask":"act""#), "{text}");
        assert_eq!(serde_json::from_str::<Ask>(&text).expect("back"), ask);
        let refused = Answer::from(Err(Refusal::new("not_your_seat", "no")));
        let text = serde_json::to_string(&refused).expect("json");
        let back: Answer = serde_json::from_str(&text).expect("back");
        assert_eq!(back.into_result(), Err(Refusal::new("not_your_seat", "no")));
        let watch = Ask::Tournament {
            from: RemoteConn {
                node: "east".into(),
                conn: 8,
            },
            tournament: 4,
            account: Some(5),
            watch: true,
        };
        let text = serde_json::to_string(&watch).expect("json");
        assert!(text.contains(r#""ask":"tournament""#), "{text}");
        assert_eq!(serde_json::from_str::<Ask>(&text).expect("back"), watch);
        let malformed = Answer::Refused {
            code: "Not A Code!".into(),
            message: "?".into(),
        };
        assert_eq!(malformed.into_result().map_err(|r| r.code), Err("refused"));
    }
}
