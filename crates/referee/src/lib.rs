//! The async referee: one task per match owns the game's state, gives every seat that
//! owes a decision its view and a deadline, and applies the ruleset's policy to late,
//! malformed, illegal and out-of-turn answers, with every ejection's reason recorded.
//!
//! It knows games only through `DynState` (JSON actions, views and events) and talks to
//! the outside only through channels: a transport attaches a seat ([`MatchHandle::attach`])
//! and forwards what arrives ([`MatchHandle::act`]); a store reads the record as it grows
//! through a [`MatchSink`]. Bots decide on the blocking pool, never on the runtime.
//!
//! How a match is refereed:
//! - Every seat the ruleset lists in `to_act` owes one decision at a time, each with the
//!   match's deadline: the seat of a sequential turn, each seat of a sealed round, each
//!   seat of a concurrent turn (whose clock restarts after each accepted action, so a
//!   seat can hold a concurrent turn for at most its decisions × the deadline).
//! - A missed deadline gets the ruleset's `on_timeout`: an ejection with its reason, or
//!   an action applied for the seat and recorded as an ordinary `Act`.
//! - A malformed or illegal answer is refused with the ruleset's code; the seat may try
//!   again before its deadline unless the ruleset's [`Policy`] ejects for it (Q-Game).
//!   An out-of-turn answer is refused and changes nothing (spacegoo disqualifies a second
//!   command in a round, as its rules say).
//! - A disconnected seat keeps its place and its deadline; attaching again resumes it.
//! - A bot that panics counts as having missed its decision (and is rebuilt); a bot's
//!   refused answer costs what the policy says, or a missed decision where seats may
//!   retry (a bot cannot think again). The match goes on either way. Every accepted action and ejection is logged with the state digest,
//!   so `Registry::replay(record, true)` verifies the record.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use arbiter_referee::{DiscardSink, MatchSetup, Referee, SeatSetup};
//!
//! let ruleset = arbiter_rulesets::find("qgame").ok_or("no qgame")?;
//! let seats = vec![SeatSetup::remote("ada"), SeatSetup::house("dag#2", "dag", 7)];
//! let handle = Referee::start(MatchSetup::new(1, ruleset, 42, seats), Arc::new(DiscardSink))?;
//! let mut ada = handle.attach(0).await?;
//! while let Some(message) = ada.recv().await {
//!     println!("{}", serde_json::to_string(&message)?);
//! }
//! let record = handle.wait().await?;
//! # Ok(()) }
//! ```

mod command;
pub mod handle;
pub mod instruments;
pub mod mailbox;
pub mod messages;
mod referee;
pub mod setup;
pub mod sink;
pub mod status;
mod task;

pub use arbiter_engine::{IllegalAnswer, Policy};
pub use handle::{
    MatchAborted, MatchHandle, SeatAttachment, SeatConnection, SeatError, SpectatorConnection,
};
pub use instruments::Instruments;
pub use mailbox::{Mailbox, Undelivered};
pub use messages::{JsonText, LegalActions, ToSeat};
pub use referee::{Referee, MIN_DEADLINE};
pub use setup::{MatchSetup, Program, SeatKind, SeatSetup, StandInSetup};
pub use sink::{DiscardSink, MatchSink, PendingEvent, RecordEvent, Stored, StoredSignal, Unstored};
pub use status::{MatchStatus, Phase, PlayerKind, SeatStatus};
