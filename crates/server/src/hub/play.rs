//! What a player or spectator does in a live match of this node: act, resign, ask for
//! the legal actions, watch, resume its seats. A session calls these for its own
//! connection; the mesh calls them for a connection of another node of the deployment
//! (through that connection's stand-in outbox here), so both go by the same rules.

use std::sync::Arc;

use arbiter_store::{
    AccountId, LiveNode, MatchFilter, MatchStatus, TournamentStatus, MAX_LIST_LIMIT,
};
use serde_json::Value;

use super::Hub;
use crate::connection::Outbox;
use crate::matches::{LiveMatch, Watching};
use crate::mesh::asks::Ask;
use crate::mesh::link::{Mesh, QueuedAway, TablesAway, TournamentAway};
use crate::protocol::messages::MatchInfo;
use crate::protocol::Refusal;
use crate::protocol::ServerMessage;

impl Hub {
    /// `account` acts in its seat of `match_id` (or of its only running match). An
    /// answer from a connection the seat is not attached to takes the seat over, so
    /// that the answer's `rejected` (if any) comes back to it.
    pub async fn act(
        &self,
        account: AccountId,
        outbox: &Outbox,
        match_id: Option<i64>,
        seat: Option<usize>,
        action: Value,
        step: Option<usize>,
    ) -> Result<(), Refusal> {
        let found = self.matches.seat_for(account, match_id)?;
        self.act_in_seat(found, outbox, seat, action, step).await
    }

    /// [`Hub::act`] in the seat `seat_for` found: a session that looked it up already
    /// (to tell a match of another node) does not take the live matches' lock again.
    pub async fn act_in_seat(
        &self,
        (live, own): (Arc<LiveMatch>, usize),
        outbox: &Outbox,
        seat: Option<usize>,
        action: Value,
        step: Option<usize>,
    ) -> Result<(), Refusal> {
        if let Some(seat) = seat.filter(|&s| s != own) {
            return Err(not_your_seat(live.id, own, seat));
        }
        self.metrics.action_received();
        if !live.is_attached_to(own, outbox.conn()) {
            self.matches.attach(&live, own, outbox).await;
        }
        live.handle
            .act_at(own, action, step)
            .await
            .map_err(|e| Refusal::new("match_over", e.to_string()))
    }

    /// `account` takes its seat in `match_id` (or its only running match) back from
    /// the house bot standing in for it: the seat is attached to `outbox` again, which
    /// the referee takes as the player's return, whether or not it was attached.
    pub async fn take_seat(
        &self,
        account: AccountId,
        outbox: &Outbox,
        match_id: Option<i64>,
    ) -> Result<(), Refusal> {
        let (live, own) = self.matches.seat_for(account, match_id)?;
        self.matches.attach(&live, own, outbox).await;
        Ok(())
    }

    pub async fn resign(
        &self,
        account: AccountId,
        match_id: Option<i64>,
        seat: Option<usize>,
    ) -> Result<(), Refusal> {
        let found = self.matches.seat_for(account, match_id)?;
        self.resign_in_seat(found, seat).await
    }

    /// [`Hub::resign`] in the seat `seat_for` found.
    pub async fn resign_in_seat(
        &self,
        (live, own): (Arc<LiveMatch>, usize),
        seat: Option<usize>,
    ) -> Result<(), Refusal> {
        if let Some(seat) = seat.filter(|&s| s != own) {
            return Err(not_your_seat(live.id, own, seat));
        }
        live.handle
            .resign(own)
            .await
            .map_err(|e| Refusal::new("match_over", e.to_string()))
    }

    /// The seat's legal actions now, from the referee (only the seat's own: the
    /// account must hold it).
    pub async fn legal(
        &self,
        account: AccountId,
        match_id: Option<i64>,
    ) -> Result<ServerMessage, Refusal> {
        let found = self.matches.seat_for(account, match_id)?;
        self.legal_in_seat(found).await
    }

    /// [`Hub::legal`] in the seat `seat_for` found.
    pub async fn legal_in_seat(
        &self,
        (live, seat): (Arc<LiveMatch>, usize),
    ) -> Result<ServerMessage, Refusal> {
        let legal = live
            .handle
            .legal(seat)
            .await
            .map_err(|e| Refusal::new("match_over", e.to_string()))?;
        Ok(ServerMessage::Legal {
            match_id: live.id,
            seat,
            step: legal.step,
            actions: legal.actions,
        })
    }

    /// Watch a live match of this node on `outbox`: `spectating` first, then the
    /// match's lines until the returned [`Watching`] is dropped.
    pub async fn spectate(&self, outbox: &Outbox, match_id: i64) -> Result<Watching, Refusal> {
        let live = self
            .matches
            .get(match_id)
            .ok_or_else(|| no_live_match(match_id))?;
        outbox.send(&ServerMessage::Spectating {
            match_id,
            ruleset: live.ruleset.clone(),
            players: live.player_names(),
        });
        self.matches.spectate(&live, outbox).await
    }

    /// The live matches of the whole deployment: this node's, and (joined to others)
    /// the running matches the shared store lists for the other nodes, newest first
    /// up to its page size.
    pub async fn live_matches(&self) -> Result<Vec<MatchInfo>, Refusal> {
        let mut live = self.matches.list();
        let Some(mesh) = &self.mesh else {
            return Ok(live);
        };
        let filter = MatchFilter {
            status: Some(MatchStatus::Running),
            limit: Some(MAX_LIST_LIMIT),
            ..MatchFilter::default()
        };
        let running = self.store.list_matches(&filter).await?;
        live.extend(
            running
                .into_iter()
                .filter(|m| m.node != mesh.node)
                .map(|m| MatchInfo {
                    match_id: m.id,
                    ruleset: m.ruleset,
                    players: m.seats.into_iter().map(|seat| seat.name).collect(),
                    rated: m.rating.is_some(),
                    port: None,
                }),
        );
        live.sort_by_key(|m| m.match_id);
        Ok(live)
    }

    /// Attach `outbox` to every seat `account` holds in a running match of this node
    /// (each starts with `joined`, the seat's view and any pending prompt). Returns
    /// the matches.
    pub async fn resume_seats(&self, account: AccountId, outbox: &Outbox) -> Vec<i64> {
        let seats = self.matches.seats_of(account);
        let ids = seats.iter().map(|(live, _)| live.id).collect();
        for (live, seat) in seats {
            self.matches.attach(&live, seat, outbox).await;
        }
        ids
    }
}

impl Hub {
    /// What this node's connections had on a lobby (matchmaker) that has since died,
    /// or restarted without what it held: their queue places are asked again of the
    /// deployment's matchmaker now, so a player waiting for a game keeps waiting for
    /// one, and players at its tables are told the tables closed. Run after each
    /// heartbeat.
    pub async fn recover_stranded(self: &std::sync::Arc<Self>) {
        let Some(mesh) = &self.mesh else {
            return;
        };
        let live = match self.store.live_nodes(self.config.node_lease).await {
            Ok(live) => live,
            Err(error) => {
                tracing::warn!(%error, "cannot list the live nodes");
                return;
            }
        };
        mesh.tunnels.close_dead(&live);
        for away in mesh.stranded_tournaments(&live) {
            self.rename_tournament_away(mesh, &live, away).await;
        }
        let (tables, places) = (mesh.stranded_tables(&live), mesh.stranded(&live));
        if tables.is_empty() && places.is_empty() {
            return;
        }
        mesh.forget_matchmaker();
        tables.iter().for_each(close_stranded_tables);
        for place in places {
            self.requeue(mesh, place).await;
        }
    }

    /// A connection named to a tournament's director that has since died: name it to
    /// the node that took the tournament over (nothing to do if that is this one, where
    /// the connection is), or wait for a node to take it over.
    async fn rename_tournament_away(&self, mesh: &Mesh, live: &[LiveNode], away: TournamentAway) {
        let node = match self.store.tournament(away.tournament).await {
            Ok(Some(t))
                if matches!(t.status, TournamentStatus::Open | TournamentStatus::Running) =>
            {
                t.node
            }
            Ok(_) => return,
            Err(error) => {
                tracing::warn!(tournament = away.tournament, %error, "cannot find a tournament's node");
                mesh.tournament_away(away);
                return;
            }
        };
        if node == mesh.node {
            return;
        }
        let Some(director) = live.iter().find(|n| n.name == node) else {
            mesh.tournament_away(away); // not taken over yet: looked at again next time
            return;
        };
        tracing::info!(tournament = away.tournament, conn = away.outbox.conn(), to = %node, "naming a connection to a tournament's new director");
        if let Err(refusal) = mesh.ask(&director.name, &away.ask).await {
            tracing::warn!(
                tournament = away.tournament,
                code = refusal.code,
                "a tournament's new director was not told of a connection"
            );
        }
        mesh.tournament_away(TournamentAway {
            director: director.clone(),
            ..away
        });
    }

    /// Ask for `place` again of the matchmaker now.
    async fn requeue(&self, mesh: &Mesh, place: QueuedAway) {
        let Ask::Queue {
            account,
            name,
            ruleset,
            config,
            seats,
            ..
        } = &place.ask
        else {
            return;
        };
        // A player seated in a running match is never queued again, whatever became of
        // the node that held the place: one match at a time.
        match self.store.running_seats(*account).await {
            Ok(seats) if !seats.is_empty() => {
                // The place became a match as its node stopped, and word of it never
                // reached this connection (it would have forgotten the place): the
                // client is told and let go, and comes back (as every client of ours
                // does) to a login that resumes its seat wherever the match now runs.
                let ids: Vec<String> = seats.iter().map(|s| s.match_id.to_string()).collect();
                place.outbox.send(&ServerMessage::error(
                    "seated_elsewhere",
                    format!(
                        "the server holding your queue place stopped as it seated you in match {}; connect again and log in to take your seat",
                        ids.join(", ")
                    ),
                ));
                place.outbox.close();
                return;
            }
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(%error, "cannot tell whether a stranded queue place is playing");
                return;
            }
        }
        tracing::warn!(conn = place.outbox.conn(), from = %place.lobby.name, "queueing again: the node holding the queue place stopped");
        // Asked of the matchmaker as it is now (the sweep forgot the cached one).
        let queued = match mesh.ask_lobby(&self.store, &place.ask, |_| {}).await {
            Ok(Some(lobby)) => {
                mesh.queued_away(lobby, &place.outbox, place.ask.clone());
                Ok(())
            }
            Ok(None) => self
                .join_queue(*account, name, &place.outbox, None, ruleset, config, *seats)
                .await
                .map(|queued| {
                    place.outbox.send(&queued);
                }),
            Err(refusal) => Err(refusal),
        };
        if let Err(refusal) = queued {
            place.outbox.send(&ServerMessage::error(
                refusal.code,
                format!(
                    "the server holding your queue place stopped, and queueing again \
                     failed ({}); queue again",
                    refusal.message
                ),
            ));
        }
    }
}

/// Tables are not moved: a table is a moment's arrangement of who is there, so its
/// players are told it is gone and may open or join another.
fn close_stranded_tables(away: &TablesAway) {
    tracing::warn!(conn = away.outbox.conn(), from = %away.lobby.name, tables = ?away.tables, "tables closed: the node holding them stopped");
    for &table in &away.tables {
        away.outbox.send(&ServerMessage::TableClosed {
            table,
            reason: "the server holding this table stopped; open or join a table again".to_string(),
        });
    }
}

fn not_your_seat(match_id: i64, own: usize, asked: usize) -> Refusal {
    Refusal::new(
        "not_your_seat",
        format!("you play seat {own} in match {match_id}, not seat {asked}"),
    )
}

/// The refusal for a match that is not running (anywhere the asker can reach).
pub fn no_live_match(match_id: i64) -> Refusal {
    Refusal::new(
        "no_such_match",
        format!("no live match {match_id}; finished matches are at /api/matches/{match_id}/replay (the page: /#/replay/{match_id})"),
    )
}
