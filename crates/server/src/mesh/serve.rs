//! This node's side of the mesh: receiving other nodes' requests about its matches and
//! queue (answered by an [`AnswerAsks`], the hub's side: `nodes/answers.rs`), and
//! queueing the lines other nodes send for this node's connections.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::asks::{Answer, Ask};
use super::link::{ask_subject, conns_subject, next_message, parse_conn_subject, Mesh};
use super::{carry, tunnels};
use crate::protocol::Refusal;

/// What does what another node asks. The mesh only carries asks and answers; what they
/// mean is the hub's, a layer above, which implements this (`nodes/answers.rs`).
pub trait AnswerAsks: Send + Sync + 'static {
    fn answer(&self, ask: Ask) -> Pin<Box<dyn Future<Output = Result<(), Refusal>> + Send + '_>>;
}

/// Subscribe to this node's subjects and serve them until `shutdown`.
pub async fn spawn(
    mesh: Arc<Mesh>,
    answerer: Arc<dyn AnswerAsks>,
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
    let answering = tokio::spawn(answer_asks(mesh.clone(), answerer, asks, shutdown.clone()));
    let tunnelling = tokio::spawn(carry::deliver(mesh.clone(), tunnels, shutdown.clone()));
    let delivering = tokio::spawn(deliver_lines(mesh, lines, shutdown));
    Ok(vec![answering, tunnelling, delivering])
}

async fn answer_asks(
    mesh: Arc<Mesh>,
    answerer: Arc<dyn AnswerAsks>,
    mut asks: async_nats::Subscriber,
    shutdown: CancellationToken,
) {
    while let Some(message) = next_message(&mut asks, &shutdown).await {
        let (mesh, answerer) = (mesh.clone(), answerer.clone());
        // Each request on its own task: a slow one (a referee busy, the store slow)
        // holds up no other. One connection's requests never overlap: its node waits
        // for each answer before it reads the client's next line.
        tokio::spawn(async move {
            let answer = match serde_json::from_slice::<Ask>(&message.payload) {
                Ok(ask) => Answer::from(answerer.answer(ask).await),
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
