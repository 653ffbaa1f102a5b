//! The client side of the native protocol, for bots that play over the network
//! (`arbiter bot`, the load benchmark, the integration tests).

pub mod backoff;
pub mod bot;
pub mod connection;
pub mod games;
pub mod random;

pub use bot::{
    play, BotPlan, BotReport, Decider, DeciderFactory, GameResult, DEFAULT_RECONNECT_FOR,
};
pub use connection::Connection;
pub use games::{Games, SeatPool};
pub use random::RandomFromView;
