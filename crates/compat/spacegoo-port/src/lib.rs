//! The spacegoo compatibility port: the reference server's text protocol
//! (`rules/spacegoo.md`, background §4–§6) byte for byte, so existing spacegoo bots play
//! on Arbiter unchanged, in ordinary Arbiter matches (stored, rated, replayable,
//! watchable).
//!
//! ```text
//! server::serve ── accept ──▶ connection (one task per client)
//!    │                          before login ─ accounts (store) ─▶ lobby
//!    └─ pairing clock ─ lobby ─▶ games: store row + referee ─▶ connection in game
//!                                   │                          request ▶ referee.act
//!                                   └─ store writer (log, result, Elo)   script ◀ referee
//! ```
//!
//! - [`request`] classifies a client line (the rules crate's tokenizer and command
//!   parser, plus `login`/`quit` and the reference's reply texts in [`replies`]);
//! - [`lines`] bounds line length and line rate per connection;
//! - [`script`] turns the referee's messages to a seat into the reference's lines, the
//!   state line rendered by the rules crate from the seat's own view;
//! - [`lobby`] pairs like the reference (rating order, Gaussian partner);
//! - [`games`] starts each match as a rated store match run by the referee, writes its
//!   log as it goes and finishes it with its Elo changes;
//! - [`server::serve`] is the entry point the server mounts.
//!
//! The server mounts it as:
//!
//! ```no_run
//! # async fn mount(store: arbiter_store::Store) -> Result<(), Box<dyn std::error::Error>> {
//! use arbiter_spacegoo_port::{serve, PortContext, SpacegooPortOptions};
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:6000").await?;
//! let shutdown = tokio_util::sync::CancellationToken::new();
//! let context = PortContext {
//!     store,
//!     options: SpacegooPortOptions::default(),
//!     observer: None,
//!     admission: None,
//!     route: None,
//! };
//! tokio::spawn(serve(listener, context, shutdown.clone()));
//! # Ok(()) }
//! ```

pub mod accounts;
mod connection;
pub mod games;
pub mod lines;
pub mod lobby;
pub mod options;
pub mod replies;
pub mod request;
pub mod script;
pub mod server;

pub use games::{Entrant, GameResult, MatchObserver, StartedMatch};
pub use options::SpacegooPortOptions;
pub use server::{serve, Admission, PortContext, PortError, Route, SHUTDOWN_REASON};

/// The address the reference listened on (there on all interfaces).
pub const DEFAULT_ADDRESS: &str = "127.0.0.1:6000";
