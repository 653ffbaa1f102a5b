//! A session's requests that concern another node of the deployment (`--nats`): a seat
//! in a match another node runs, a match watched there, the queue on the matchmaker.
//! Each goes to that node as an [`Ask`]; what the client is told comes back as lines
//! through the node's stand-in of this connection (see `mesh`). Without a mesh every
//! one of these refuses as a single server does.

use std::collections::{BTreeSet, HashMap};

use arbiter_store::{Account, AccountId, LiveNode, RunningSeat};
use serde_json::Value;

use super::{Reply, Session};
use crate::connection::ConnId;
use crate::mesh::asks::{Ask, RemoteConn};
use crate::mesh::link::{Mesh, TournamentAway};
use crate::protocol::{ClientMessage, Refusal};

/// What one connection reached on other nodes.
#[derive(Default)]
pub(super) struct Reached {
    /// Every node asked anything: each is told when the connection closes.
    nodes: BTreeSet<String>,
    /// Matches watched elsewhere, with their node.
    watching: HashMap<i64, String>,
    /// Running matches elsewhere where the account holds a seat, with their node.
    seats: HashMap<i64, String>,
}

impl Reached {
    pub(super) fn watches(&self, match_id: i64) -> bool {
        self.watching.contains_key(&match_id)
    }

    /// The connection closed: every node it reached (and the one holding its queue
    /// place, which may have been asked for it since) forgets it.
    pub(super) async fn closed(&self, mesh: &Mesh, conn: ConnId) {
        let mut nodes = self.nodes.clone();
        nodes.extend(mesh.queue_away(conn));
        for node in &nodes {
            mesh.tell(
                node,
                &Ask::Closed {
                    from: mesh.remote(conn),
                },
            )
            .await;
        }
    }
}

impl Session {
    fn mesh(&self) -> Option<&std::sync::Arc<Mesh>> {
        self.hub.mesh.as_ref()
    }

    fn from(&self, mesh: &Mesh) -> RemoteConn {
        mesh.remote(self.outbox.conn())
    }

    /// Ask `node` for this connection, remembering that it was reached.
    async fn ask(&mut self, node: &str, ask: Ask) -> Reply {
        let Some(mesh) = self.hub.mesh.clone() else {
            return Err(Refusal::new(
                "internal",
                "this server is not in a deployment",
            ));
        };
        self.reached.nodes.insert(node.to_string());
        mesh.ask(node, &ask).await
    }

    /// The seats the account holds in running matches of other nodes (none without a
    /// mesh; none, with a warning, when the store cannot say).
    pub(super) async fn seats_elsewhere(&mut self, account: AccountId) -> Vec<RunningSeat> {
        let Some(node) = self.mesh().map(|mesh| mesh.node.clone()) else {
            return Vec::new();
        };
        match self.hub.store.running_seats(account).await {
            Ok(seats) => {
                let elsewhere: Vec<RunningSeat> =
                    seats.into_iter().filter(|seat| seat.node != node).collect();
                for seat in &elsewhere {
                    self.reached.seats.insert(seat.match_id, seat.node.clone());
                }
                elsewhere
            }
            Err(error) => {
                tracing::warn!(%error, "cannot look up seats on other nodes");
                Vec::new()
            }
        }
    }

    /// Attach this connection to the account's seats on other nodes.
    pub(super) async fn resume_elsewhere(&mut self, account: AccountId, seats: &[RunningSeat]) {
        let Some(mesh) = self.hub.mesh.clone() else {
            return;
        };
        let nodes: BTreeSet<&str> = seats.iter().map(|seat| seat.node.as_str()).collect();
        for node in nodes {
            let ask = Ask::Resume {
                from: self.from(&mesh),
                account,
            };
            if let Err(refusal) = self.ask(node, ask).await {
                tracing::warn!(
                    node,
                    code = refusal.code,
                    "seats on another node not resumed"
                );
            }
        }
    }

    /// Act (or resign, or ask the legal actions) in a seat of a match another node
    /// runs. `here` is why this node refused: it stands when no other node has the
    /// seat either.
    pub(super) async fn act_elsewhere(
        &mut self,
        account: AccountId,
        match_id: Option<i64>,
        here: Refusal,
        ask: impl Fn(RemoteConn, i64) -> Ask,
    ) -> Reply {
        let Some(mesh) = self.hub.mesh.clone() else {
            return Err(here);
        };
        if !matches!(here.code, "not_seated" | "no_such_match") {
            return Err(here);
        }
        let known = match_id.and_then(|id| Some((self.reached.seats.get(&id)?.clone(), id)));
        let (node, match_id) = match known.clone() {
            Some(found) => found,
            None => self.seat_in_store(account, match_id).await?.ok_or(here)?,
        };
        let result = self.ask(&node, ask(self.from(&mesh), match_id)).await;
        let Err(refusal) = &result else {
            return result;
        };
        if !matches!(
            refusal.code,
            "match_over" | "no_such_match" | "not_seated" | "node_unreachable"
        ) {
            return result;
        }
        self.reached.seats.remove(&match_id);
        // Where the match ran when this connection last looked: it may have moved
        // since (its node stopped or died, and another goes on with it). Ask where the
        // store says it runs now, once.
        if known.is_some() {
            if let Ok(Some((now, _))) = self.seat_in_store(account, Some(match_id)).await {
                if now != node {
                    tracing::info!(match_id, from = %node, to = %now, "a seat's match moved; acting there");
                    return self.ask(&now, ask(self.from(&mesh), match_id)).await;
                }
            }
        }
        result
    }

    /// The node running `account`'s seat (in `match_id`, or its only match elsewhere),
    /// from the store; `None` when no other node runs one.
    async fn seat_in_store(
        &mut self,
        account: AccountId,
        match_id: Option<i64>,
    ) -> Result<Option<(String, i64)>, Refusal> {
        let elsewhere = self.seats_elsewhere(account).await;
        let mut matches: Vec<(String, i64)> = elsewhere
            .into_iter()
            .filter(|seat| match_id.is_none_or(|id| id == seat.match_id))
            .map(|seat| (seat.node, seat.match_id))
            .collect();
        matches.dedup();
        match matches.as_slice() {
            [] => Ok(None),
            [only] => Ok(Some(only.clone())),
            _ => Err(Refusal::new(
                "ambiguous_match",
                "you play in several matches; say which with \"match\"",
            )),
        }
    }

    /// Watch a match another node runs, if one does.
    pub(super) async fn spectate_elsewhere(&mut self, match_id: i64) -> Reply {
        let here = crate::hub::play::no_live_match(match_id);
        let Some(mesh) = self.hub.mesh.clone() else {
            return Err(here);
        };
        let summary = self.hub.store.match_summary(match_id).await?;
        let Some(summary) = summary
            .filter(|m| m.status == arbiter_store::MatchStatus::Running && m.node != mesh.node)
        else {
            return Err(here);
        };
        let ask = Ask::Spectate {
            from: self.from(&mesh),
            match_id,
        };
        self.ask(&summary.node, ask).await?;
        self.reached.watching.insert(match_id, summary.node);
        Ok(())
    }

    pub(super) async fn unspectate_elsewhere(&mut self, match_id: i64) -> Reply {
        let (Some(mesh), Some(node)) = (
            self.hub.mesh.clone(),
            self.reached.watching.remove(&match_id),
        ) else {
            return Err(Refusal::new(
                "not_spectating",
                format!("you are not watching match {match_id}"),
            ));
        };
        let ask = Ask::Unspectate {
            from: self.from(&mesh),
            match_id,
        };
        self.ask(&node, ask).await
    }

    /// [`Mesh::ask_lobby`] for this connection (`ask_for` builds its request), noting
    /// the node that took it: it is told when the connection closes.
    pub(super) async fn ask_lobby(
        &mut self,
        ask_for: impl Fn(RemoteConn) -> Ask,
        before: impl Fn(&Mesh, &LiveNode),
    ) -> Result<Option<LiveNode>, Refusal> {
        let Some(mesh) = self.hub.mesh.clone() else {
            return Ok(None);
        };
        let ask = ask_for(self.from(&mesh));
        let lobby = mesh
            .ask_lobby(&self.hub.store, &ask, |lobby| before(&mesh, lobby))
            .await?;
        if let Some(lobby) = &lobby {
            self.reached.nodes.insert(lobby.name.clone());
        }
        Ok(lobby)
    }

    /// Wait in the deployment's queue on its matchmaker; `false` when that is this
    /// node, for the caller to queue here.
    pub(super) async fn queue_elsewhere(
        &mut self,
        account: &Account,
        ruleset: &str,
        config: &Value,
        seats: Option<usize>,
    ) -> Result<bool, Refusal> {
        let ask_for = |from| Ask::Queue {
            from,
            account: account.id,
            name: account.name.clone(),
            ruleset: ruleset.to_string(),
            config: config.clone(),
            seats,
        };
        let Some(lobby) = self.ask_lobby(ask_for, |_, _| {}).await? else {
            return Ok(false);
        };
        if let Some(mesh) = self.mesh() {
            let ask = ask_for(self.from(mesh));
            mesh.queued_away(lobby, &self.outbox, ask);
        }
        Ok(true)
    }

    /// A request about tables, to the node that holds them; `false` when that is this
    /// node, for the caller to answer here.
    pub(super) async fn table_request_elsewhere(
        &mut self,
        account: &Account,
        request: &ClientMessage,
    ) -> Result<bool, Refusal> {
        let ask_for = |from| Ask::Table {
            from,
            account: account.id,
            name: account.name.clone(),
            request: request.clone(),
        };
        let outbox = self.outbox.clone();
        // Before asking: the lobby's `table` line may come before its answer.
        let noted = |mesh: &Mesh, lobby: &LiveNode| {
            mesh.asked_about_tables_away(lobby.clone(), &outbox);
        };
        Ok(self.ask_lobby(ask_for, noted).await?.is_some())
    }

    pub(super) async fn leave_queue_elsewhere(&mut self) -> Reply {
        let mesh = self.hub.mesh.clone();
        let Some((mesh, node)) =
            mesh.and_then(|mesh| Some((mesh.clone(), mesh.queue_away(self.outbox.conn())?)))
        else {
            return Err(Refusal::new("not_queued", "you are not in a queue"));
        };
        let ask = Ask::LeaveQueue {
            from: self.from(&mesh),
        };
        self.ask(&node, ask).await?;
        mesh.left_queue_away(self.outbox.conn());
        Ok(())
    }

    /// Name this connection to the node directing tournament `id`, when that is another
    /// node of the deployment: as `account`'s (an entrant's), so that its games reach
    /// it; and, with `watch`, to hear the tournament's state. Noted, so that should the
    /// director die, the node that takes the tournament over is told instead.
    pub(super) async fn tournament_elsewhere(
        &mut self,
        id: i64,
        account: Option<AccountId>,
        watch: bool,
    ) {
        let Some(mesh) = self.hub.mesh.clone() else {
            return;
        };
        let node = match self.hub.store.tournament(id).await {
            Ok(Some(t)) if t.node != mesh.node => t.node,
            Ok(_) => return,
            Err(error) => {
                tracing::warn!(tournament = id, %error, "cannot find a tournament's node");
                return;
            }
        };
        let live = match self.hub.store.live_nodes(self.hub.config.node_lease).await {
            Ok(live) => live,
            Err(error) => {
                tracing::warn!(%error, "cannot list the live nodes");
                Vec::new()
            }
        };
        let ask = Ask::Tournament {
            from: self.from(&mesh),
            tournament: id,
            account,
            watch,
        };
        // A director that is not live is noted all the same (as an incarnation no node
        // has): the next heartbeat names the connection to whoever took it over.
        let director = match live.into_iter().find(|n| n.name == node) {
            Some(director) => {
                if let Err(refusal) = self.ask(&director.name, ask.clone()).await {
                    tracing::warn!(tournament = id, node = %director.name, code = refusal.code, "a tournament's director was not told of a connection");
                }
                director
            }
            None => LiveNode {
                name: node,
                started_at: -1,
            },
        };
        mesh.tournament_away(TournamentAway {
            director,
            outbox: self.outbox.clone(),
            tournament: id,
            ask,
        });
    }

    /// Name this connection to the directors of the tournaments `account` takes part
    /// in on other nodes (as it logs in), so that its next games reach it here.
    pub(super) async fn tournaments_elsewhere(&mut self, account: AccountId) {
        let Some(mesh) = self.hub.mesh.clone() else {
            return;
        };
        match self.hub.store.tournaments_entered(account).await {
            Ok(entered) => {
                for (id, node) in entered {
                    if node != mesh.node {
                        self.tournament_elsewhere(id, Some(account), false).await;
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "cannot list an account's tournaments"),
        }
    }

    /// Stop watching tournament `id` on the node directing it, if it is another.
    pub(super) async fn untournament_elsewhere(&mut self, id: i64) {
        let Some(mesh) = self.hub.mesh.clone() else {
            return;
        };
        if let Some(node) = mesh.unwatched_tournament_away(self.outbox.conn(), id) {
            let ask = Ask::TournamentUnwatch {
                from: self.from(&mesh),
                tournament: id,
            };
            if let Err(refusal) = self.ask(&node, ask).await {
                tracing::warn!(
                    tournament = id,
                    node,
                    code = refusal.code,
                    "a tournament's director was not told to stop"
                );
            }
        }
    }
}
