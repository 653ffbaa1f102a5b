//! Disqualification reasons, worded as the reference prints them after
//! `"player N disqualified: "`.
//!
//! The referee passes a reason to `Game::eject`; a reason that names a missed deadline
//! (see [`is_missed_deadline`]) is handled specially, because when *both* players miss
//! the same deadline the reference calls the game a draw instead of disqualifying.

/// The player's deadline passed without a command.
pub const NO_COMMAND: &str = "no command sent";
/// A second command arrived in the same round.
pub const MORE_THAN_ONE_COMMAND: &str = "sent more than one command";
/// A `send` with a negative ship count.
pub const NEGATIVE_SHIPS: &str = "sent negative amount of ships";
/// A `send` with a negative planet id (the rules disqualify any negative number; the
/// reference's message only covered ship counts, so this wording is ours).
pub const NEGATIVE_PLANET: &str = "sent a negative planet id";
/// The connection closed, or sent bytes the text protocol refuses.
pub const CONNECTION_LOST: &str = "connection lost";

/// The end reason when both players missed one round's deadline (a draw).
pub const BOTH_MISSED: &str = "both players failed to send a command";

/// Whether an ejection reason means "missed the round's deadline": [`NO_COMMAND`] or
/// any reason mentioning a timeout or deadline (case-insensitive), so a generic referee's
/// wording is understood too.
pub fn is_missed_deadline(reason: &str) -> bool {
    let reason = reason.to_ascii_lowercase();
    reason.starts_with(NO_COMMAND)
        || reason.contains("timeout")
        || reason.contains("timed out")
        || reason.contains("deadline")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_reasons_are_recognised() {
        assert!(is_missed_deadline(NO_COMMAND));
        assert!(is_missed_deadline("Timeout after 3000 ms"));
        assert!(is_missed_deadline("missed the deadline"));
        assert!(!is_missed_deadline(CONNECTION_LOST));
        assert!(!is_missed_deadline(MORE_THAN_ONE_COMMAND));
        assert!(!is_missed_deadline("illegal action: game_over"));
    }
}
