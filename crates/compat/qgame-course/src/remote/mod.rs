//! The course's remote protocol (background §11): a server that signs up players over
//! TCP and referees them through proxies, and clients that run in-house players
//! behind proxy referees, including the misbehaving clients of the course's Bonus
//! tests.
//!
//! ```text
//! wire.rs           JSON values on a byte stream, bounded, split or batched
//! deadline.rs       a TCP stream whose reads and writes stop at a deadline
//! messages.rs       the four calls and their replies, checked strictly
//! config.rs         JServerConfig / JRefereeConfig / JClientConfig
//! signup.rs         waiting periods and name checks
//! proxy_player.rs   the server's stand-in for a remote player
//! server.rs         sign-up, then the course referee over the proxies
//! proxy_referee.rs  the client's stand-in for the referee (and its Bonus flaws)
//! client.rs         connecting, signing up, launching clients in order
//! harness.rs        `xserver PORT` and `xclients PORT`
//! ```

pub mod client;
pub mod config;
pub mod deadline;
pub mod harness;
pub mod messages;
pub mod proxy_player;
pub mod proxy_referee;
pub mod server;
pub mod signup;
pub mod wire;

pub use client::{run_client, run_clients, ClientKind, ClientReport};
pub use config::{ClientConfig, RefereeConfig, ServerConfig, SpecialClient};
pub use proxy_player::ProxyPlayer;
pub use proxy_referee::{run_proxy_referee, Flaw, SessionEnd};
pub use server::serve;
