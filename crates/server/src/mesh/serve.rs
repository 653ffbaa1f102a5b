//! This node's side of the mesh: answering other nodes' requests about its matches and
//! queue (through the stand-ins of their connections), and queueing the lines other
//! nodes send for this node's connections.

use std::sync::Arc;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::asks::{Answer, Ask, RemoteConn};
use super::link::{ask_subject, conns_subject, next_message, parse_conn_subject, Mesh};
use super::{carry, tunnels};
use crate::hub::{Hub, SeatPlan};
use crate::matches::Player;
use crate::protocol::{Refusal, ServerMessage};
use crate::transport::Outbox;

/// Subscribe to this node's subjects and serve them until `shutdown`.
pub async fn spawn(
    mesh: Arc<Mesh>,
    hub: Arc<Hub>,
    shutdown: CancellationToken,
) -> anyhow::Result<Vec<JoinHandle<()>>> {
    let asks = mesh.client.subscribe(ask_subject(&mesh.node)).await?;
    let lines = mesh.client.subscribe(conns_subject(&mesh.node)).await?;
    let tunnels = mesh
        .client
        .subscribe(tunnels::tunnels_subject(&mesh.node))
        .await?;
    // The subscriptions are in place once the server has flushed them: only then may
    // another node be told of this one (through its heartbeat, its matches).
    mesh.client.flush().await?;
    let answering = tokio::spawn(answer_asks(mesh.clone(), hub, asks, shutdown.clone()));
    let tunnelling = tokio::spawn(carry::deliver(mesh.clone(), tunnels, shutdown.clone()));
    let delivering = tokio::spawn(deliver_lines(mesh, lines, shutdown));
    Ok(vec![answering, tunnelling, delivering])
}

async fn answer_asks(
    mesh: Arc<Mesh>,
    hub: Arc<Hub>,
    mut asks: async_nats::Subscriber,
    shutdown: CancellationToken,
) {
    while let Some(message) = next_message(&mut asks, &shutdown).await {
        let (mesh, hub) = (mesh.clone(), hub.clone());
        // Each request on its own task: a slow one (a referee busy, the store slow)
        // holds up no other. One connection's requests never overlap: its node waits
        // for each answer before it reads the client's next line.
        tokio::spawn(async move {
            let answer = match serde_json::from_slice::<Ask>(&message.payload) {
                Ok(ask) => Answer::from(handle(&mesh, &hub, ask).await),
                Err(error) => Answer::from(Err(Refusal::new(
                    "bad_message",
                    format!("not a request this node knows: {error}"),
                ))),
            };
            if let Some(reply) = message.reply {
                let payload = serde_json::to_vec(&answer).unwrap_or_default();
                if let Err(error) = mesh.client.publish(reply, payload.into()).await {
                    tracing::warn!(%error, "an answer to another node was not sent");
                }
            }
        });
    }
}

/// Do what another node asks, for its connection `from`.
async fn handle(mesh: &Arc<Mesh>, hub: &Arc<Hub>, ask: Ask) -> Result<(), Refusal> {
    let stand_in = |from: &RemoteConn| -> Outbox {
        mesh.relays
            .outbox(&mesh.publisher, from, hub.config.limits.outbox_bytes)
    };
    match ask {
        Ask::Spectate { from, match_id } => {
            let watching = hub.spectate(&stand_in(&from), match_id).await?;
            mesh.relays.watch(&from, match_id, watching);
            Ok(())
        }
        Ask::Unspectate { from, match_id } => {
            if !mesh.relays.unwatch(&from, match_id) {
                return Err(Refusal::new(
                    "not_spectating",
                    format!("you are not watching match {match_id}"),
                ));
            }
            stand_in(&from).send(&ServerMessage::Unspectated { match_id });
            Ok(())
        }
        Ask::Resume { from, account } => {
            hub.resume_seats(account, &stand_in(&from)).await;
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
            hub.act(
                account,
                &stand_in(&from),
                Some(match_id),
                seat,
                action,
                step,
            )
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
            stand_in(&from).send(&legal);
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
            mesh.ensure_matchmaker(&hub.store).await?;
            let outbox = stand_in(&from);
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
        } => {
            let ruleset = hub.ruleset(&ruleset)?.clone();
            let plan = seats
                .into_iter()
                .map(|seat| SeatPlan {
                    player: Player::Account {
                        id: seat.account,
                        name: seat.name,
                    },
                    // A player of this node is told directly (if still connected;
                    // otherwise it resumes the seat when it comes back).
                    outbox: if seat.conn.node == mesh.node {
                        mesh.local(seat.conn.conn)
                    } else {
                        Some(stand_in(&seat.conn))
                    },
                })
                .collect();
            hub.start_queued_match(&ruleset, config, plan)
                .await
                .map(|_| ())
        }
        Ask::LeaveQueue { from } => {
            let outbox = stand_in(&from);
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
            mesh.ensure_matchmaker(&hub.store).await?;
            hub.table_request(account, &name, &stand_in(&from), request)
                .await
        }
        Ask::Tunnel {
            port,
            client_node,
            id,
            client,
        } => mesh.take_tunnel(port, client_node, id, client).await,
        Ask::Tournament {
            from,
            tournament,
            account,
            watch,
        } => {
            let outbox = stand_in(&from);
            if watch && !hub.tournaments.watch(tournament, &outbox) {
                return Err(Refusal::new(
                    "too_many_watched",
                    "a connection watches at most a few tournaments",
                ));
            }
            if let Some(account) = account {
                hub.tournaments.entrant_away(account, &outbox);
                // An arena pairs whoever is reachable: this entrant is, now.
                hub.tournaments.ring(tournament);
            }
            Ok(())
        }
        Ask::TournamentUnwatch { from, tournament } => {
            hub.tournaments.unwatch(tournament, stand_in(&from).conn());
            Ok(())
        }
        Ask::Closed { from } => {
            if let Some(conn) = mesh.relays.closed(&from) {
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
            // A player connected here whose match moved: its seats follow it there
            // (its lines come back through `node`'s stand-in of the connection).
            for account in accounts {
                let Some(outbox) = hub.online.latest(account) else {
                    continue;
                };
                let ask = Ask::Resume {
                    from: mesh.remote(outbox.conn()),
                    account,
                };
                if let Err(refusal) = mesh.ask(&node, &ask).await {
                    tracing::warn!(%node, account, code = refusal.code, "seats that moved to another node not resumed");
                }
            }
            Ok(())
        }
    }
}

/// Queue each line another node sent on the local connection it names; an empty one
/// closes that connection. A line for a connection that has closed tells its sender
/// so, and its stand-in there closes (the connection may have closed before its node
/// knew that node held one).
async fn deliver_lines(
    mesh: Arc<Mesh>,
    mut lines: async_nats::Subscriber,
    shutdown: CancellationToken,
) {
    while let Some(message) = next_message(&mut lines, &shutdown).await {
        let Some((conn, sender)) = parse_conn_subject(&message.subject) else {
            continue;
        };
        match mesh.local(conn) {
            Some(outbox) if message.payload.is_empty() => outbox.close(),
            Some(outbox) => match std::str::from_utf8(&message.payload) {
                Ok(line) => {
                    // A queue place on another node ends with a match or a leave.
                    if line.starts_with(r#"{"type":"match_started""#)
                        || line.starts_with(r#"{"type":"left_queue""#)
                    {
                        mesh.left_queue_away(conn);
                    }
                    if let Some((table, sits)) = table_news(line) {
                        mesh.sat_at_table_away(conn, table, sits);
                    }
                    outbox.send_line(line);
                }
                Err(_) => tracing::warn!(conn, "a line from another node is not UTF-8"),
            },
            // Gone before the sender heard: tell it, so that its stand-in closes.
            None if !message.payload.is_empty() => {
                let from = mesh.remote(conn);
                mesh.tell(sender, &Ask::Closed { from }).await;
            }
            None => {}
        }
    }
}

/// What a line from the lobby says about a table the connection sits at: `(table,
/// true)` for a table it sits at (created, joined, changed), `(table, false)` for one it
/// no longer does (left, closed, started as a match). Other lines: `None`.
fn table_news(line: &str) -> Option<(u64, bool)> {
    const SITS: &str = r#"{"type":"table","#;
    const GONE: [&str; 3] = [
        r#"{"type":"left_table","#,
        r#"{"type":"table_closed","#,
        r#"{"type":"table_started","#,
    ];
    let sits = if line.starts_with(SITS) {
        true
    } else if GONE.iter().any(|prefix| line.starts_with(prefix)) {
        false
    } else {
        return None;
    };
    let message: serde_json::Value = serde_json::from_str(line).ok()?;
    Some((message["table"].as_u64()?, sits))
}

#[cfg(test)]
mod tests {
    use super::table_news;
    use crate::protocol::messages::TableInfo;
    use crate::protocol::ServerMessage;

    #[test]
    fn table_lines_are_read_for_the_table_they_are_about() {
        let line = |message: &ServerMessage| serde_json::to_string(message).expect("json");
        let left = line(&ServerMessage::LeftTable { table: 7 });
        let closed = line(&ServerMessage::TableClosed {
            table: 8,
            reason: "owner left".into(),
        });
        let started = line(&ServerMessage::TableStarted {
            table: 9,
            match_id: 3,
        });
        assert_eq!(table_news(&left), Some((7, false)));
        assert_eq!(table_news(&closed), Some((8, false)));
        assert_eq!(table_news(&started), Some((9, false)));
        let listed = line(&ServerMessage::Tables { tables: Vec::new() });
        assert_eq!(table_news(&listed), None);
        assert_eq!(table_news(r#"{"type":"pong"}"#), None);
        let table = TableInfo {
            table: 6,
            ruleset: "tae".into(),
            config: serde_json::json!({}),
            owner: "ann".into(),
            seats: Vec::new(),
            deadline_ms: 1000,
            time_bank_ms: 0,
        };
        assert_eq!(
            table_news(&line(&ServerMessage::Table { table })),
            Some((6, true))
        );
    }
}
