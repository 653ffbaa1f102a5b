//! What a client may ask about tournaments (over the native protocol or the HTTP API):
//! list, create, join, withdraw, watch. Every request goes to the store, which any node
//! of a deployment shares; the director on the tournament's own node hears of it.

use std::sync::Arc;

use arbiter_store::{Account, LateJoin, TournamentId, TournamentStatus};
use arbiter_tournament::Format;

use super::director;
use super::settings;
use super::state::{format_of, Games, Snapshot};
use crate::connection::Outbox;
use crate::hub::Hub;
use crate::protocol::messages::TournamentSettings;
use crate::protocol::{Refusal, ServerMessage};

/// Tournaments a list shows.
pub const LIST_LIMIT: u32 = 100;

pub async fn list(hub: &Hub) -> Result<ServerMessage, Refusal> {
    Ok(ServerMessage::Tournaments {
        tournaments: hub.store.list_tournaments(LIST_LIMIT).await?,
    })
}

/// Create a tournament from `asked` and start its director here.
pub async fn create(
    hub: &Arc<Hub>,
    creator: Option<&Account>,
    asked: &TournamentSettings,
) -> Result<TournamentId, Refusal> {
    let new = settings::check(hub, asked, creator.map(|a| a.id)).await?;
    let id = hub.store.create_tournament(&new).await?;
    tracing::info!(tournament = id, name = %new.name, format = %new.format, ruleset = %new.ruleset, entry = new.entry.as_str(), "tournament created");
    director::spawn(hub, id);
    Ok(id)
}

/// Enter `account` in tournament `id`; `outbox` watches it from now on.
pub async fn join(
    hub: &Hub,
    account: &Account,
    outbox: &Outbox,
    id: TournamentId,
) -> Result<(), Refusal> {
    let tournament = hub
        .store
        .tournament(id)
        .await?
        .ok_or_else(|| Refusal::new("no_such_tournament", format!("no tournament {id}")))?;
    let late = match format_of(&tournament.format) {
        // A Swiss tournament takes late entrants until its second round is paired.
        Format::Swiss => LateJoin::UntilRound(1),
        Format::Arena => LateJoin::Always,
        Format::RoundRobin => LateJoin::Never,
    };
    let rating = hub.rating_of(account.id, &tournament.ruleset).await?;
    let joined = hub
        .store
        .join_tournament(id, account.id, &account.name, rating, late)
        .await
        .map_err(Refusal::from);
    if let Err(refusal) = joined {
        if refusal.code == "already_entered" {
            // Refused, but this connection (a bot that reconnected, say) watches its
            // tournament from now on, as when it joined.
            hub.tournaments.watch(id, outbox);
        }
        return Err(refusal);
    }
    tracing::info!(tournament = id, account = %account.name, "joined a tournament");
    hub.tournaments.watch(id, outbox);
    hub.tournaments.ring(id);
    hub.tournaments.touch(id);
    Ok(())
}

/// Withdraw `account` (its own entry only) from tournament `id`.
pub async fn withdraw(hub: &Hub, account: &Account, id: TournamentId) -> Result<(), Refusal> {
    hub.store.withdraw_from_tournament(id, account.id).await?;
    tracing::info!(tournament = id, account = %account.name, "withdrew from a tournament");
    hub.tournaments.ring(id);
    hub.tournaments.touch(id);
    Ok(())
}

/// Pause (`paused`) or resume `account`'s pairing in arena `id`: a paused entrant keeps
/// their standing and any game under way, and is paired again once resumed.
pub async fn pause(
    hub: &Hub,
    account: &Account,
    id: TournamentId,
    paused: bool,
) -> Result<(), Refusal> {
    hub.store
        .pause_in_tournament(id, account.id, paused)
        .await?;
    tracing::info!(tournament = id, account = %account.name, paused, "arena pause");
    hub.tournaments.ring(id);
    hub.tournaments.touch(id);
    Ok(())
}

/// `outbox` watches tournament `id`: its state now, and whenever it changes.
pub async fn watch(hub: &Hub, outbox: &Outbox, id: TournamentId) -> Result<(), Refusal> {
    let snapshot = Snapshot::load(&hub.store, id)
        .await?
        .ok_or_else(|| Refusal::new("no_such_tournament", format!("no tournament {id}")))?;
    let over = matches!(
        snapshot.tournament.status,
        TournamentStatus::Finished | TournamentStatus::Cancelled
    );
    if !over && !hub.tournaments.watch(id, outbox) {
        return Err(Refusal::new(
            "too_many_watched",
            format!(
                "a connection watches at most {} tournaments",
                crate::hub::tournaments::MAX_WATCHED
            ),
        ));
    }
    outbox.send(&ServerMessage::Tournament {
        state: snapshot.document(Games::Current).into_value(),
    });
    if over {
        outbox.send(&ServerMessage::TournamentEnded { tournament: id });
    }
    Ok(())
}

/// Start the directors of this node's unfinished tournaments (at start-up).
pub async fn resume_all(hub: &Arc<Hub>) -> Result<usize, Refusal> {
    let ids = hub.store.unfinished_tournaments().await?;
    for &id in &ids {
        director::spawn(hub, id);
    }
    Ok(ids.len())
}
