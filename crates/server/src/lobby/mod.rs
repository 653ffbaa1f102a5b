//! Where players find each other: matchmaking queues and tables.

pub mod matchmaking;
pub mod online;
pub mod tables;
