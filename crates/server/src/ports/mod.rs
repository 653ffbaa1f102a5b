//! The compatibility ports `arbiter serve` mounts beside the native protocol, so the
//! original games' clients play here unchanged: the spacegoo text protocol
//! (`--spacegoo`) and the Q-Game course's remote protocol (`--qgame`). Their matches
//! are ordinary matches of this server: stored, rated, replayable, and listed and
//! watchable while they run.

pub mod qgame;
pub mod spacegoo;
