//! What this node does when another node of the deployment asks (`mesh::asks::Ask`):
//! the same hub calls a local connection's session makes, for a connection on that
//! node, reached through its stand-in here (`mesh::relays`). The mesh carries the asks;
//! this is where they meet the hub, above both.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::connection::Outbox;
use crate::hub::{Hub, SeatPlan};
use crate::matches::Player;
use crate::mesh::asks::{Ask, QueuedSeat, RemoteConn};
use crate::mesh::link::Mesh;
use crate::mesh::serve::AnswerAsks;
use crate::protocol::{Refusal, ServerMessage};

/// The hub's answers to other nodes.
pub struct Answers {
    pub mesh: Arc<Mesh>,
    pub hub: Arc<Hub>,
}

impl AnswerAsks for Answers {
    fn answer(&self, ask: Ask) -> Pin<Box<dyn Future<Output = Result<(), Refusal>> + Send + '_>> {
        Box::pin(self.handle(ask))
    }
}

impl Answers {
    /// The stand-in here of `from`, a connection on another node: what is sent to it
    /// reaches that connection.
    fn stand_in(&self, from: &RemoteConn) -> Outbox {
        self.mesh.relays.outbox(
            &self.mesh.publisher,
            from,
            self.hub.config.limits.outbox_bytes,
        )
    }

    /// Do what another node asks, for its connection `from`.
    async fn handle(&self, ask: Ask) -> Result<(), Refusal> {
        let hub = &self.hub;
        match ask {
            Ask::Spectate { from, match_id } => {
                let watching = hub.spectate(&self.stand_in(&from), match_id).await?;
                self.mesh.relays.watch(&from, match_id, watching);
                Ok(())
            }
            Ask::Unspectate { from, match_id } => {
                if !self.mesh.relays.unwatch(&from, match_id) {
                    return Err(Refusal::new(
                        "not_spectating",
                        format!("you are not watching match {match_id}"),
                    ));
                }
                self.stand_in(&from)
                    .send(&ServerMessage::Unspectated { match_id });
                Ok(())
            }
            Ask::Resume { from, account } => {
                hub.resume_seats(account, &self.stand_in(&from)).await;
                Ok(())
            }
            Ask::Act {
                from,
                account,
                match_id,
                seat,
                action,
                step,
            } => {
                let outbox = self.stand_in(&from);
                hub.act(account, &outbox, Some(match_id), seat, action, step)
                    .await
            }
            Ask::Resign {
                account,
                match_id,
                seat,
                ..
            } => hub.resign(account, Some(match_id), seat).await,
            Ask::Legal {
                from,
                account,
                match_id,
            } => {
                let legal = hub.legal(account, Some(match_id)).await?;
                self.stand_in(&from).send(&legal);
                Ok(())
            }
            Ask::Queue {
                from,
                account,
                name,
                ruleset,
                config,
                seats,
            } => {
                self.mesh.ensure_matchmaker(&hub.store).await?;
                let outbox = self.stand_in(&from);
                let queued = hub
                    .join_queue(
                        account,
                        &name,
                        &outbox,
                        Some(from),
                        &ruleset,
                        &config,
                        seats,
                    )
                    .await?;
                outbox.send(&queued);
                Ok(())
            }
            Ask::Start {
                ruleset,
                config,
                seats,
            } => self.start_queued_match(&ruleset, config, seats).await,
            Ask::LeaveQueue { from } => {
                let outbox = self.stand_in(&from);
                match hub.matchmaking.leave(outbox.conn()) {
                    Some(ruleset) => {
                        outbox.send(&ServerMessage::LeftQueue { ruleset });
                        Ok(())
                    }
                    None => Err(Refusal::new("not_queued", "you are not in a queue")),
                }
            }
            Ask::Table {
                from,
                account,
                name,
                request,
            } => {
                self.mesh.ensure_matchmaker(&hub.store).await?;
                hub.table_request(account, &name, &self.stand_in(&from), request)
                    .await
            }
            Ask::Tunnel {
                port,
                client_node,
                id,
                client,
            } => self.mesh.take_tunnel(port, client_node, id, client).await,
            Ask::Tournament {
                from,
                tournament,
                account,
                watch,
            } => self.tournament(&from, tournament, account, watch),
            Ask::TournamentUnwatch { from, tournament } => {
                hub.tournaments
                    .unwatch(tournament, self.stand_in(&from).conn());
                Ok(())
            }
            Ask::Closed { from } => {
                if let Some(conn) = self.mesh.relays.closed(&from) {
                    hub.matchmaking.leave(conn);
                    hub.leave_tables(0, conn);
                }
                Ok(())
            }
            Ask::NodeStopped { node } => {
                tracing::info!(%node, "a node stopped; taking over its matches");
                hub.sweep_now.notify_one();
                Ok(())
            }
            Ask::SeatsResumed { node, accounts } => {
                self.seats_resumed(&node, accounts).await;
                Ok(())
            }
        }
    }

    /// The matchmaker (on another node) paired a queue here: start the match, each
    /// player told directly if connected here, else through its node.
    async fn start_queued_match(
        &self,
        ruleset: &str,
        config: serde_json::Value,
        seats: Vec<QueuedSeat>,
    ) -> Result<(), Refusal> {
        let ruleset = self.hub.ruleset(ruleset)?.clone();
        let plan = seats
            .into_iter()
            .map(|seat| SeatPlan {
                player: Player::Account {
                    id: seat.account,
                    name: seat.name,
                },
                // A player of this node is told directly (if still connected;
                // otherwise it resumes the seat when it comes back).
                outbox: if seat.conn.node == self.mesh.node {
                    self.mesh.local(seat.conn.conn)
                } else {
                    Some(self.stand_in(&seat.conn))
                },
            })
            .collect();
        self.hub
            .start_queued_match(&ruleset, config, plan)
            .await
            .map(|_| ())
    }

    /// A connection on another node watches or enters a tournament directed here.
    fn tournament(
        &self,
        from: &RemoteConn,
        tournament: arbiter_store::TournamentId,
        account: Option<arbiter_store::AccountId>,
        watch: bool,
    ) -> Result<(), Refusal> {
        let outbox = self.stand_in(from);
        let tournaments = &self.hub.tournaments;
        if watch && !tournaments.watch(tournament, &outbox) {
            return Err(Refusal::new(
                "too_many_watched",
                "a connection watches at most a few tournaments",
            ));
        }
        if let Some(account) = account {
            tournaments.entrant_away(account, &outbox);
            // An arena pairs whoever is reachable: this entrant is, now.
            tournaments.ring(tournament);
        }
        Ok(())
    }

    /// Matches of `node` seat these accounts: each connected here follows its seats
    /// there (its lines come back through `node`'s stand-in of the connection).
    async fn seats_resumed(&self, node: &str, accounts: Vec<arbiter_store::AccountId>) {
        for account in accounts {
            let Some(outbox) = self.hub.online.latest(account) else {
                continue;
            };
            let ask = Ask::Resume {
                from: self.mesh.remote(outbox.conn()),
                account,
            };
            if let Err(refusal) = self.mesh.ask(node, &ask).await {
                tracing::warn!(%node, account, code = refusal.code, "seats that moved to another node not resumed");
            }
        }
    }
}
