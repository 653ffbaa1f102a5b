//! The Arbiter network server: the native protocol (JSON lines over TCP and WebSocket),
//! accounts, matchmaking and tables, live matches run by `arbiter-referee`, results and
//! ratings kept by `arbiter-store`, and an HTTP API with replays and metrics.
//!
//! ```text
//! transport/ (tcp), http/ (ws) ──lines──▶ session ──▶ hub: lobby/ (queues, tables), matches/
//!                    ◀──outbox (connection/)── forwarders ◀── referee (one task per match) ──▶ store
//! http/ (api, /metrics) ──reads──▶ store, hub
//! mesh/ ──NATS──▶ the other nodes of a deployment; nodes/ answers their asks
//! ```
//!
//! The folders stand in layers (ARCHITECTURE.md draws them; `tests/module_graph.rs`
//! checks them): a folder uses only folders below its own.

pub mod client;
pub mod config;
pub mod connection;
pub mod heap;
pub mod http;
pub mod hub;
pub mod lobby;
pub mod matches;
pub mod mesh;
pub mod metrics;
pub mod nodes;
pub mod ports;
pub mod protocol;
pub mod server;
pub mod session;
pub mod tournaments;
pub mod transport;

pub use config::{Config, ServeArgs};
pub use server::Server;
