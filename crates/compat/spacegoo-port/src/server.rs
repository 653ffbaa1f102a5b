//! The port's accept loop and pairing clock: `serve` is what `arbiter serve --spacegoo
//! ADDR` mounts on its listener.

use std::any::Any;
use std::collections::BTreeSet;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use arbiter_spacegoo::reasons;
use arbiter_store::{MatchId, Store};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::accounts::Online;
use crate::games::{Entrant, GameResult, Games, MatchObserver, Seated, StartError, StartedMatch};
use crate::lobby::Lobby;
use crate::options::SpacegooPortOptions;
use crate::replies;

/// How long shutdown waits for connections to say goodbye.
const DRAIN_TIME: Duration = Duration::from_secs(5);
/// The reason the port's running matches are marked aborted with at shutdown.
pub const SHUTDOWN_REASON: &str = "the server shut down";

/// What the port needs from the server.
#[derive(Clone)]
pub struct PortContext {
    /// The server's store: accounts, matches and ratings are shared with the native
    /// protocol.
    pub store: Store,
    pub options: SpacegooPortOptions,
    /// Told of every match the port starts and ends (to list and show it).
    pub observer: Option<Arc<dyn MatchObserver>>,
    /// Asked before each new connection is served (`None`: every one, up to
    /// `max_connections`). The server counts each address's connections across all of
    /// its protocols, so one address cannot take every socket through the port.
    pub admission: Option<Arc<dyn Admission>>,
    /// Asked where each new connection is served (`None`: here). A server that is one
    /// node of several carries its clients to the node holding the deployment's lobby,
    /// so that they all meet.
    pub route: Option<Arc<dyn Route>>,
}

/// Whether a new connection from `peer` may be served: `Some` ticket, held for the
/// connection's life, or `None` to refuse it (the client is told
/// [`replies::TOO_MANY_CONNECTIONS`], the reference's line for a full server).
pub trait Admission: Send + Sync {
    fn admit(&self, peer: IpAddr) -> Option<Box<dyn Any + Send>>;
}

/// Where a new connection is served, for a server that is one node of a deployment.
pub trait Route: Send + Sync {
    /// The client a connection accepted from `peer` stands for: `peer`'s address, or,
    /// for a connection another node carried here, its client's. Admission and the
    /// login throttle count this address.
    fn client(&self, peer: SocketAddr) -> IpAddr;

    /// Serve `stream` (accepted from `peer`) elsewhere, or give it back (`Err`) to be
    /// served here.
    fn carry(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
    ) -> Pin<Box<dyn Future<Output = Result<(), TcpStream>> + Send>>;
}

/// State shared by the port's connections.
pub(crate) struct Shared {
    pub store: Store,
    pub options: SpacegooPortOptions,
    pub games: Games,
    pub lobby: Lobby<oneshot::Sender<Seated>>,
    pub online: Online,
}

/// Why the port could not start.
#[derive(Debug, thiserror::Error)]
pub enum PortError {
    #[error(transparent)]
    Start(#[from] StartError),
}

/// Keeps the ids of the port's running matches, so shutdown can mark them aborted, and
/// passes everything on to the server's observer.
struct Running {
    ids: Mutex<BTreeSet<MatchId>>,
    next: Option<Arc<dyn MatchObserver>>,
}

impl MatchObserver for Running {
    fn started(&self, started: &StartedMatch) {
        self.ids.lock().insert(started.match_id);
        if let Some(next) = &self.next {
            next.started(started);
        }
    }

    fn ended(&self, match_id: MatchId, result: &GameResult) {
        self.ids.lock().remove(&match_id);
        if let Some(next) = &self.next {
            next.ended(match_id, result);
        }
    }
}

/// Serve the spacegoo text protocol on `listener` until `shutdown` is cancelled. Then
/// stop accepting, tell every connection the server is going away, and mark the port's
/// running matches aborted (no result, no rating change).
pub async fn serve(
    listener: TcpListener,
    context: PortContext,
    shutdown: CancellationToken,
) -> Result<(), PortError> {
    let options = context.options.clone();
    let running = Arc::new(Running {
        ids: Mutex::new(BTreeSet::new()),
        next: context.observer.clone(),
    });
    let games = Games::new(
        context.store.clone(),
        options.max_rounds,
        options.deadline,
        options.seed,
        Some(running.clone() as Arc<dyn MatchObserver>),
    )?
    .with_store_patience(options.store_patience);
    let shared = Arc::new(Shared {
        store: context.store.clone(),
        options: options.clone(),
        games,
        lobby: Lobby::default(),
        online: Online::default(),
    });
    let slots = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let mut connections = JoinSet::new();
    let pairing = tokio::spawn(pair_regularly(shared.clone(), shutdown.clone()));
    if let Ok(address) = listener.local_addr() {
        tracing::info!(%address, "spacegoo port listening");
    }
    loop {
        tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let client = context.route.as_ref().map_or(peer.ip(), |route| route.client(peer));
                    let ticket = match &context.admission {
                        Some(admission) => admission.admit(client),
                        None => Some(Box::new(()) as Box<dyn Any + Send>),
                    };
                    match (ticket, slots.clone().try_acquire_owned()) {
                        (Some(ticket), Ok(slot)) => {
                            let shared = shared.clone();
                            let shutdown = shutdown.clone();
                            let route = context.route.clone();
                            connections.spawn(async move {
                                let stream = match route {
                                    Some(route) => route.carry(stream, peer).await.err(),
                                    None => Some(stream),
                                };
                                if let Some(stream) = stream {
                                    crate::connection::serve(stream, client, shared, shutdown).await;
                                }
                                drop((slot, ticket));
                            });
                        }
                        _ => {
                            // Best effort, without waiting: the client may not be
                            // reading.
                            let line = format!("{}\n", replies::TOO_MANY_CONNECTIONS);
                            let _ = stream.try_write(line.as_bytes());
                        }
                    }
                }
                Err(error) => {
                    // Out of file descriptors, say: wait a little instead of spinning.
                    tracing::warn!(%error, "spacegoo port: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    let _ = pairing.await;
    let drained = tokio::time::timeout(DRAIN_TIME, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        connections.abort_all();
    }
    let ids: Vec<MatchId> = running.ids.lock().iter().copied().collect();
    for id in ids {
        if let Err(error) = context.store.abort_match(id, SHUTDOWN_REASON).await {
            tracing::debug!(match_id = id, %error, "not marked aborted");
        }
    }
    Ok(())
}

/// Pair the lobby every pairing interval until shutdown.
async fn pair_regularly(shared: Arc<Shared>, shutdown: CancellationToken) {
    let mut clock = tokio::time::interval(shared.options.pairing_interval);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = clock.tick() => pair_once(&shared).await,
        }
    }
}

/// Pair who waits now and start their games.
async fn pair_once(shared: &Shared) {
    let pairs = {
        let mut rng = rand::rng();
        shared.lobby.pair(&mut rng, |notify| notify.is_closed())
    };
    for (one, two) in pairs {
        let players = [
            Entrant {
                account: one.account,
                name: one.name.clone(),
            },
            Entrant {
                account: two.account,
                name: two.name.clone(),
            },
        ];
        match shared.games.start(players).await {
            Ok([first, second]) => {
                deliver(one.notify, first).await;
                deliver(two.notify, second).await;
            }
            Err(error) => {
                // Dropping the notifiers tells both connections the game did not start.
                tracing::error!(%error, "a spacegoo match could not start");
            }
        }
    }
}

/// Hand a seat to its connection; one that left meanwhile loses the game at once.
async fn deliver(notify: oneshot::Sender<Seated>, seated: Seated) {
    if let Err(seated) = notify.send(seated) {
        let _ = seated
            .handle
            .eject(seated.seat, reasons::CONNECTION_LOST)
            .await;
    }
}
