//! Rulesets by id, and replay of match records through them.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::erased::{DynGame, DynState, Erased};
use crate::record::{DigestChain, LogEntry, MatchRecord, ReplayError, STATE_DIGEST_FORMAT};
use crate::ruleset::Ruleset;

/// Every ruleset a server or CLI can host, keyed by id.
#[derive(Clone, Default)]
pub struct Registry {
    games: BTreeMap<&'static str, Arc<dyn DynGame>>,
}

impl Registry {
    pub fn new() -> Self {
        Registry::default()
    }

    pub fn register<G: Ruleset>(&mut self) -> &mut Self {
        self.games.insert(G::ID, Arc::new(Erased::<G>::default()));
        self
    }

    /// Add an already type-erased ruleset.
    pub fn insert(&mut self, game: Arc<dyn DynGame>) -> &mut Self {
        self.games.insert(game.id(), game);
        self
    }

    pub fn get(&self, id: &str) -> Option<Arc<dyn DynGame>> {
        self.games.get(id).cloned()
    }

    pub fn ids(&self) -> Vec<&'static str> {
        self.games.keys().copied().collect()
    }

    /// Rebuild a match from its record. With `verify`, every log entry must produce the
    /// digest the record holds (see [`crate::record`] for what a digest covers), and the
    /// outcome must match: the first difference is an error naming the log entry.
    pub fn replay(
        &self,
        record: &MatchRecord,
        verify: bool,
    ) -> Result<Box<dyn DynState>, ReplayError> {
        self.replay_with(record, verify, |_, _| {})
    }

    /// As [`Registry::replay`], calling `each_step(index, state)` after the initial
    /// state (index `None`) and after every log entry (its index).
    pub fn replay_with(
        &self,
        record: &MatchRecord,
        verify: bool,
        each_step: impl FnMut(Option<usize>, &dyn DynState),
    ) -> Result<Box<dyn DynState>, ReplayError> {
        let game = self
            .get(&record.ruleset)
            .ok_or_else(|| ReplayError::UnknownRuleset(record.ruleset.clone()))?;
        let (state, _) = replay_on(game.as_ref(), record, verify, each_step)?;
        Ok(state)
    }
}

/// Rebuild a match of `game` from its record (see [`Registry::replay_with`]); also
/// returns the digest chain as it stands after the last entry, from which a referee
/// taking the match over goes on recording.
pub fn replay_on(
    game: &dyn DynGame,
    record: &MatchRecord,
    verify: bool,
    mut each_step: impl FnMut(Option<usize>, &dyn DynState),
) -> Result<(Box<dyn DynState>, DigestChain), ReplayError> {
    let mut state = game
        .new_state(&record.config, record.seats.len(), record.seed)
        .map_err(ReplayError::Config)?;
    if verify && !record.initial_digest.is_empty() && state.digest() != record.initial_digest {
        return Err(ReplayError::Diverged { index: None });
    }
    each_step(None, state.as_ref());
    let mut chain = DigestChain::new(&record.initial_digest);
    for (index, entry) in record.log.iter().enumerate() {
        let events = match entry {
            LogEntry::Act { seat, action, .. } => state
                .apply(*seat, action)
                .map_err(|illegal| ReplayError::Rejected { index, illegal })?,
            LogEntry::Eject { seat, reason, .. } => state.eject(*seat, reason),
        };
        if record.format == STATE_DIGEST_FORMAT {
            if verify && state.digest() != entry.digest() {
                return Err(ReplayError::Diverged { index: Some(index) });
            }
        } else {
            let over = state.to_act().is_over();
            let digest = chain.digest_next(entry, events.fingerprint(), over, || state.digest());
            if verify && digest != entry.digest() {
                return Err(ReplayError::Diverged { index: Some(index) });
            }
        }
        each_step(Some(index), state.as_ref());
    }
    // A record without an outcome (a running match, or one aborted by a crash, even
    // one whose last entry ended the game) verifies up to its last stored entry.
    if verify && record.outcome.is_some() && state.outcome() != record.outcome {
        return Err(ReplayError::OutcomeDiffers);
    }
    Ok((state, chain))
}
