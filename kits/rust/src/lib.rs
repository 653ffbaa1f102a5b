//! A small, blocking client of Arbiter's native protocol (`docs/protocol.md`), for bots
//! written in Rust. Plain `std::net::TcpStream` and `serde_json`: no async runtime.
//!
//! The protocol in three lines: the client sends JSON objects, one per line, each with a
//! `"type"`; the server answers requests (`register` → `registered`, `legal` → `legal`,
//! …) or says `error`, and pushes match messages (`view`, `prompt`, `events`,
//! `rejected`, `ejected`, `outcome`) as they happen.
//!
//! A bot is one method, [`Bot::decide`]:
//!
//! ```
//! use arbiter_kit::{Bot, Prompt};
//! use serde_json::Value;
//!
//! struct FirstLegal;
//!
//! impl Bot for FirstLegal {
//!     fn decide(&mut self, _view: &Value, legal: &[Value], _prompt: &Prompt) -> Value {
//!         legal[0].clone()
//!     }
//! }
//! ```
//!
//! - `view`: the ruleset's view of the game for your seat (the last `view` message's `view`);
//! - `legal`: actions your seat may send now, as the prompt lists them (the kit asks for
//!   `legal_in_prompt` with `{"type":"options"}`) or as `{"type":"legal"}` answers
//!   (for qgame and spacegoo a sample: other well-formed actions are accepted too);
//! - `prompt`: the `prompt` message plus what the kit knows ([`Prompt`]).
//!
//! Use it like this:
//!
//! ```no_run
//! use arbiter_kit::{BotThread, Client, TableOptions};
//! # struct FirstLegal;
//! # impl arbiter_kit::Bot for FirstLegal {
//! #     fn decide(&mut self, _: &serde_json::Value, legal: &[serde_json::Value], _: &arbiter_kit::Prompt) -> serde_json::Value { legal[0].clone() }
//! # }
//! let mut client = Client::new("127.0.0.1:7000", "alice", "secret");
//! client.connect()?; // register, or log in if the name is taken
//! let table = TableOptions { house_bot: "random".into(), ..TableOptions::default() };
//! let match_id = client.create_table("tae", &table)?; // or client.queue("tae", None, None)
//! let mut bot = BotThread::new(FirstLegal); // decide() runs on a thread of its own
//! let result = client.play(match_id, &mut bot)?; // answers every prompt until the outcome
//! println!("{}", result.line());
//! # Ok::<(), arbiter_kit::Error>(())
//! ```
//!
//! One file per concern: [`messages`] (the JSON shapes), [`connection`] (lines over TCP),
//! [`client`] (login, lobby, playing, reconnecting), [`backoff`] (the waits between
//! reconnection attempts), [`game`] (what the kit knows of a match), [`bot`] (the trait
//! and the fallback), [`thinking`] (decide with a time limit), [`http`] (an outcome
//! missed while away), [`bots`] (one example per ruleset).
//!
//! A lost connection, or a server that says `server_restarting`, is resumed by itself
//! (see [`client`]), and every answer names its prompt's `step`, so that an answer to a
//! decision already closed is refused (`stale_answer`) instead of landing on a later one.

pub mod backoff;
pub mod bot;
pub mod bots;
pub mod client;
pub mod connection;
pub mod error;
pub mod game;
pub mod http;
pub mod messages;
pub mod thinking;

pub use bot::{default_fallback, Bot, Prompt};
pub use client::{Client, TableOptions};
pub use error::{Error, Result};
pub use game::{GameResult, Match};
pub use thinking::BotThread;

/// The protocol version this kit speaks (the server's `welcome` says its own).
pub const PROTOCOL: u32 = 1;
