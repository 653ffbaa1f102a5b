//! This node's link to the others: the NATS connection, the subjects, asking another
//! node, the local connections that other nodes' lines are for, and the stand-ins of
//! other nodes' connections (see [`super::relays`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use futures::StreamExt;
use parking_lot::Mutex;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use arbiter_store::{LiveNode, Store};

use super::asks::{Answer, Ask, RemoteConn};
use super::relays::{LineSink, Relays};
use super::tunnels::Tunnels;
use crate::connection::{ConnId, Outbox};
use crate::protocol::Refusal;

/// How long a node waits for another's answer before it tells its client the other
/// node is unreachable.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the matchmaker's name is reused before the store is asked again.
const MATCHMAKER_FRESH: Duration = Duration::from_secs(2);

/// The refusal of a node asked to hold a queue place or a table while it is not the
/// matchmaker: the asker looked before the live nodes changed (a node that restarted
/// answers to the same name, as its youngest member now), and looks again.
pub const NOT_MATCHMAKER: &str = "not_matchmaker";

/// How many times a node asks the matchmaker it finds, looking again after each
/// `not_matchmaker`, before it gives its client the refusal.
const MATCHMAKER_TRIES: usize = 3;

/// The requests a node takes.
pub fn ask_subject(node: &str) -> String {
    format!("arbiter.{node}.ask")
}

/// The lines for connection `conn` of `node`, sent by node `sender` (named so that
/// `node` can tell it when the connection has gone).
pub fn conn_subject(node: &str, conn: ConnId, sender: &str) -> String {
    format!("arbiter.{node}.conn.{conn}.{sender}")
}

/// Every connection of `node` (what `node` subscribes to).
pub fn conns_subject(node: &str) -> String {
    format!("arbiter.{node}.conn.*.*")
}

/// The connection and the sending node a line's subject names.
pub fn parse_conn_subject(subject: &str) -> Option<(ConnId, &str)> {
    let mut tokens = subject.rsplitn(3, '.');
    let sender = tokens.next()?;
    let conn = tokens.next()?.parse().ok()?;
    Some((conn, sender))
}

/// Publishes this node's stand-ins' lines to their connections' nodes.
pub struct Publisher {
    client: async_nats::Client,
    node: String,
}

pub struct Mesh {
    pub(super) client: async_nats::Client,
    pub(crate) publisher: Arc<Publisher>,
    pub node: String,
    /// Connections of this node, for the lines other nodes send them.
    local: Mutex<HashMap<ConnId, Outbox>>,
    pub relays: Relays,
    /// Compatibility-port connections carried to or from other nodes.
    pub tunnels: Tunnels,
    /// A node whose heartbeat is older than this is not asked to be the matchmaker.
    lease: Duration,
    /// When this node's process started: with the name, this incarnation of the node.
    pub started_at: i64,
    matchmaker: Mutex<Option<(Instant, LiveNode)>>,
    /// This node's connections waiting in the queue of another node, with what to ask
    /// again should that node die.
    queued_away: Mutex<HashMap<ConnId, QueuedAway>>,
    /// This node's connections sitting at tables another node holds, so that they can
    /// be told the tables are gone should that node die.
    tables_away: Mutex<HashMap<ConnId, TablesAway>>,
    /// This node's connections taking part in tournaments another node directs, so
    /// that they can be named again to the node that takes over should it die.
    tournaments_away: Mutex<HashMap<(ConnId, i64), TournamentAway>>,
}

/// A connection of this node taking part in (or watching) a tournament another node
/// directs.
#[derive(Debug, Clone)]
pub struct TournamentAway {
    /// The node (and incarnation) directing it when the connection was named to it.
    pub director: LiveNode,
    pub outbox: Outbox,
    pub tournament: i64,
    /// The [`Ask::Tournament`] that named it, to make again.
    pub ask: Ask,
}

/// A connection of this node at tables held by another node (the matchmaker).
#[derive(Debug, Clone)]
pub struct TablesAway {
    /// The node (and incarnation) holding the tables.
    pub lobby: LiveNode,
    pub outbox: Outbox,
    /// The tables it sits at, as the lobby's `table` lines told it.
    pub tables: BTreeSet<u64>,
}

/// A connection of this node waiting in the deployment's queue on another node.
#[derive(Debug, Clone)]
pub struct QueuedAway {
    /// The node (and incarnation) holding the queue place.
    pub lobby: LiveNode,
    pub outbox: Outbox,
    /// The queue request, to make again on the next matchmaker.
    pub ask: Ask,
}

impl Mesh {
    /// Connect to NATS as `node`.
    pub async fn connect(
        url: &str,
        node: &str,
        lease: Duration,
        started_at: i64,
    ) -> anyhow::Result<Arc<Mesh>> {
        let client = async_nats::ConnectOptions::new()
            .name(format!("arbiter {node}"))
            .connect(url)
            .await
            .with_context(|| format!("cannot reach NATS at {url}"))?;
        Ok(Arc::new(Mesh {
            publisher: Arc::new(Publisher {
                client: client.clone(),
                node: node.to_string(),
            }),
            client,
            node: node.to_string(),
            local: Mutex::default(),
            relays: Relays::default(),
            tunnels: Tunnels::default(),
            lease,
            started_at,
            matchmaker: Mutex::default(),
            queued_away: Mutex::default(),
            tables_away: Mutex::default(),
            tournaments_away: Mutex::default(),
        }))
    }

    /// A connection of this node opened: lines from other nodes may come for it.
    pub fn connection_opened(&self, outbox: &Outbox) {
        self.local.lock().insert(outbox.conn(), outbox.clone());
    }

    pub fn connection_closed(&self, conn: ConnId) {
        self.local.lock().remove(&conn);
        self.queued_away.lock().remove(&conn);
        self.tables_away.lock().remove(&conn);
        self.tournaments_away.lock().retain(|&(c, _), _| c != conn);
    }

    /// The connection was named to `away.director` for its tournament.
    pub fn tournament_away(&self, away: TournamentAway) {
        let key = (away.outbox.conn(), away.tournament);
        self.tournaments_away.lock().insert(key, away);
    }

    /// The connection stopped watching `tournament`: the node it was named to, if any.
    /// An entrant's connection stays named for its games.
    pub fn unwatched_tournament_away(&self, conn: ConnId, tournament: i64) -> Option<String> {
        let mut away = self.tournaments_away.lock();
        let entry = away.get_mut(&(conn, tournament))?;
        let node = entry.director.name.clone();
        match &mut entry.ask {
            Ask::Tournament {
                account: Some(_),
                watch,
                ..
            } => *watch = false,
            _ => {
                away.remove(&(conn, tournament));
            }
        }
        Some(node)
    }

    /// The tournament connections named to node incarnations no longer among `live`,
    /// taken out of the registry, for connections still open.
    pub fn stranded_tournaments(&self, live: &[LiveNode]) -> Vec<TournamentAway> {
        let lost = take_lost(&mut self.tournaments_away.lock(), live, |a| &a.director);
        lost.into_iter()
            .filter(|away| !away.outbox.is_closed())
            .collect()
    }

    /// `outbox`'s connection asked `lobby` about tables: the tables it sits at there
    /// are noted from the lines `lobby` sends it (`sat_at_table_away`).
    pub fn asked_about_tables_away(&self, lobby: LiveNode, outbox: &Outbox) {
        let mut away = self.tables_away.lock();
        match away.get_mut(&outbox.conn()) {
            Some(entry) if entry.lobby == lobby => {}
            _ => {
                let entry = TablesAway {
                    lobby,
                    outbox: outbox.clone(),
                    tables: BTreeSet::new(),
                };
                away.insert(outbox.conn(), entry);
            }
        }
    }

    /// The lobby told `conn` it sits at `table` (`true`) or no longer does (`false`).
    pub fn sat_at_table_away(&self, conn: ConnId, table: u64, sits: bool) {
        if let Some(entry) = self.tables_away.lock().get_mut(&conn) {
            if sits {
                entry.tables.insert(table);
            } else {
                entry.tables.remove(&table);
            }
        }
    }

    /// The tables held by node incarnations that are no longer among `live`, taken
    /// out of the registry, for connections still open.
    pub fn stranded_tables(&self, live: &[LiveNode]) -> Vec<TablesAway> {
        let lost = take_lost(&mut self.tables_away.lock(), live, |entry| &entry.lobby);
        lost.into_iter()
            .filter(|entry| !entry.outbox.is_closed() && !entry.tables.is_empty())
            .collect()
    }

    /// `outbox`'s connection waits in `lobby`'s queue, asked with `ask`.
    pub fn queued_away(&self, lobby: LiveNode, outbox: &Outbox, ask: Ask) {
        let away = QueuedAway {
            lobby,
            outbox: outbox.clone(),
            ask,
        };
        self.queued_away.lock().insert(outbox.conn(), away);
    }

    /// The connection left the queue (or was matched): forget its place. Returns the
    /// node that held it.
    pub fn left_queue_away(&self, conn: ConnId) -> Option<String> {
        self.queued_away
            .lock()
            .remove(&conn)
            .map(|away| away.lobby.name)
    }

    /// Where the connection waits, if on another node.
    pub fn queue_away(&self, conn: ConnId) -> Option<String> {
        self.queued_away
            .lock()
            .get(&conn)
            .map(|away| away.lobby.name.clone())
    }

    /// The queue places held by node incarnations that are no longer among `live`
    /// (they died, or restarted without their queue), taken out of the registry.
    pub fn stranded(&self, live: &[LiveNode]) -> Vec<QueuedAway> {
        let lost = take_lost(&mut self.queued_away.lock(), live, |place| &place.lobby);
        lost.into_iter()
            .filter(|place| !place.outbox.is_closed())
            .collect()
    }

    /// The local connection `conn`, if it is still open.
    pub(crate) fn local(&self, conn: ConnId) -> Option<Outbox> {
        self.local.lock().get(&conn).cloned()
    }

    /// How this node names its connection `conn` to the others.
    pub fn remote(&self, conn: ConnId) -> RemoteConn {
        RemoteConn {
            node: self.node.clone(),
            conn,
        }
    }

    /// Ask `node` to do something for one of our connections; its lines come back on
    /// the connection's subject.
    pub async fn ask(&self, node: &str, ask: &Ask) -> Result<(), Refusal> {
        let payload = serde_json::to_vec(ask)
            .map_err(|e| Refusal::new("internal", format!("cannot encode a request: {e}")))?;
        let unreachable = |why: String| {
            tracing::warn!(node, %why, "another node did not answer");
            Refusal::new(
                "node_unreachable",
                format!("the server running this ({node}) did not answer; try again shortly"),
            )
        };
        let reply = tokio::time::timeout(
            ASK_TIMEOUT,
            self.client.request(ask_subject(node), payload.into()),
        )
        .await
        .map_err(|_| unreachable(format!("no answer in {ASK_TIMEOUT:?}")))?
        .map_err(|e| unreachable(e.to_string()))?;
        let answer: Answer = serde_json::from_slice(&reply.payload)
            .map_err(|e| unreachable(format!("an answer that is not one: {e}")))?;
        answer.into_result()
    }

    /// Tell `node` without waiting for an answer (a closed connection).
    pub async fn tell(&self, node: &str, ask: &Ask) {
        let Ok(payload) = serde_json::to_vec(ask) else {
            return;
        };
        if let Err(error) = self.client.publish(ask_subject(node), payload.into()).await {
            tracing::warn!(node, %error, "could not tell another node");
        }
    }

    /// Tell every other live node that this one stopped (`Ask::NodeStopped`), and wait
    /// until the messages have left: the process ends next.
    pub async fn tell_stopped(&self, live: &[LiveNode]) {
        let ask = Ask::NodeStopped {
            node: self.node.clone(),
        };
        for other in live.iter().filter(|other| other.name != self.node) {
            self.tell(&other.name, &ask).await;
        }
        if let Err(error) = self.client.flush().await {
            tracing::warn!(%error, "could not tell the other nodes this one stopped");
        }
    }

    /// This node as the others see it.
    pub fn incarnation(&self) -> LiveNode {
        LiveNode {
            name: self.node.clone(),
            started_at: self.started_at,
        }
    }

    /// The node that holds the deployment's lobby (queue and tables): the one whose
    /// process has run longest among the nodes with a fresh heartbeat (this node when
    /// none has one yet). Every node computes the same from the shared store, and a
    /// node that joins later never takes the lobby from a live one. While a dead
    /// matchmaker's lease runs out, asks to it fail (`node_unreachable`); after, its
    /// queue places are asked again of the next one (`Hub::recover_stranded`).
    pub async fn matchmaker(&self, store: &Store) -> Result<LiveNode, Refusal> {
        if let Some((at, node)) = &*self.matchmaker.lock() {
            if at.elapsed() < MATCHMAKER_FRESH {
                return Ok(node.clone());
            }
        }
        let live = store.live_nodes(self.lease).await?;
        let node = live
            .into_iter()
            .next()
            .unwrap_or_else(|| self.incarnation());
        *self.matchmaker.lock() = Some((Instant::now(), node.clone()));
        Ok(node)
    }

    /// Refuse (`not_matchmaker`) unless this node is the matchmaker now: asked of it
    /// before it holds a queue place or a table for another node, whose view may be
    /// older. The cached answer when it says yes (only the loss of this node's lease
    /// could change that); looked up afresh when it says no.
    pub async fn ensure_matchmaker(&self, store: &Store) -> Result<(), Refusal> {
        if self.matchmaker(store).await? == self.incarnation() {
            return Ok(());
        }
        self.forget_matchmaker();
        let matchmaker = self.matchmaker(store).await?;
        if matchmaker == self.incarnation() {
            return Ok(());
        }
        Err(Refusal::new(
            NOT_MATCHMAKER,
            format!(
                "{} holds the deployment's lobby now, not {}; ask again",
                matchmaker.name, self.node
            ),
        ))
    }

    /// Forget the cached matchmaker (the live nodes changed).
    pub fn forget_matchmaker(&self) {
        *self.matchmaker.lock() = None;
    }

    /// Ask the deployment's matchmaker, when it is another node, for `ask`, and return
    /// the node that took it; `None` when this node is the matchmaker, for the caller
    /// to do it here. `before` runs with each node about to be asked. A node that is
    /// not the matchmaker by the time it is asked refuses (`not_matchmaker`): look
    /// again afresh and ask the one found, [`MATCHMAKER_TRIES`] times in all.
    pub async fn ask_lobby(
        &self,
        store: &Store,
        ask: &Ask,
        before: impl Fn(&LiveNode),
    ) -> Result<Option<LiveNode>, Refusal> {
        let mut refused = Refusal::new(NOT_MATCHMAKER, "no node holds the lobby");
        for _ in 0..MATCHMAKER_TRIES {
            let lobby = self.matchmaker(store).await?;
            if lobby.name == self.node {
                return Ok(None);
            }
            before(&lobby);
            match self.ask(&lobby.name, ask).await {
                Ok(()) => return Ok(Some(lobby)),
                Err(refusal) if refusal.code == NOT_MATCHMAKER => {
                    tracing::info!(node = %lobby.name, "the matchmaker changed; looking again");
                    self.forget_matchmaker();
                    refused = refusal;
                }
                Err(refusal) => return Err(refusal),
            }
        }
        Err(refused)
    }
}

impl LineSink for Publisher {
    async fn publish(&self, to: &RemoteConn, line: bytes::Bytes) -> bool {
        let subject = conn_subject(&to.node, to.conn, &self.node);
        match self.client.publish(subject, line).await {
            Ok(()) => true,
            Err(error) => {
                tracing::warn!(node = %to.node, conn = to.conn, %error, "a line for another node was not sent");
                false
            }
        }
    }
}

/// Takes out of `away` the entries whose lobby (as `lobby` reads it) is not among
/// `live`: the node incarnation holding them died or restarted.
fn take_lost<K: Copy + Eq + std::hash::Hash, T>(
    away: &mut HashMap<K, T>,
    live: &[LiveNode],
    lobby: impl Fn(&T) -> &LiveNode,
) -> Vec<T> {
    let lost: Vec<K> = away
        .iter()
        .filter(|(_, entry)| !live.contains(lobby(entry)))
        .map(|(&key, _)| key)
        .collect();
    lost.into_iter()
        .filter_map(|key| away.remove(&key))
        .collect()
}

/// The next message of `subscription`, or `None` once it ends or `shutdown` fires: the
/// loop of every task that serves a subject.
pub(super) async fn next_message(
    subscription: &mut async_nats::Subscriber,
    shutdown: &CancellationToken,
) -> Option<async_nats::Message> {
    tokio::select! {
        _ = shutdown.cancelled() => None,
        message = subscription.next() => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_name_the_node_and_connection() {
        assert_eq!(ask_subject("east-1"), "arbiter.east-1.ask");
        let subject = conn_subject("east-1", 42, "west_2");
        assert_eq!(subject, "arbiter.east-1.conn.42.west_2");
        assert_eq!(parse_conn_subject(&subject), Some((42, "west_2")));
        assert_eq!(parse_conn_subject("arbiter.east-1.conn.x.west"), None);
        assert_eq!(conns_subject("east-1"), "arbiter.east-1.conn.*.*");
    }
}
