//! What each ruleset lends the generic MCTS bot ([`arbiter_bots::Guide`]): which moves
//! to consider, how to play a rollout cheaply, and how to score a position where a
//! rollout stops before the end. The search itself is the same for every ruleset.

pub mod qgame;
pub mod spacecrack;
pub mod spacegoo;
pub mod tae;
