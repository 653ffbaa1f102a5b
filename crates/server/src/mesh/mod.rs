//! The servers (nodes) of one deployment, joined through NATS, so that a player or
//! spectator connected to any node reaches every live match and the one matchmaking
//! queue. Each live match stays on the node that started it (the `node` of its row);
//! what crosses is requests and lines, never a match's state:
//!
//! ```text
//!   node B (the client's)                       node A (the match's)
//!   session ──ask (request–reply)──▶ arbiter.A.ask ──▶ serve: hub.act/spectate/queue…
//!   outbox  ◀──lines── arbiter.B.conn.<id> ◀── relay task ◀── stand-in outbox (relays)
//! ```
//!
//! On node A a remote connection is an ordinary [`Outbox`](crate::connection::Outbox)
//! (its "stand-in", kept in [`relays`]), so matches, seats, spectators and queues
//! treat it exactly as a local one; a task publishes its lines to the client's node,
//! which queues them on the real connection. An empty message closes the connection;
//! the client's node says when the connection has closed (`closed`).
//!
//! NATS keeps the order of one publisher's messages on a subject, so a connection's
//! lines arrive in the order the referee wrote them (after they were stored: write
//! first, announce after, as on one node). NATS is the deployment's own bus: it must
//! not be reachable by players (a node believes the account another node names).

pub mod asks;
pub mod carry;
pub mod link;
pub mod relays;
pub mod serve;
pub mod tunnels;
