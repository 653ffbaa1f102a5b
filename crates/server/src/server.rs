//! Wiring: open the store, bind the listeners, go on with the matches a previous run
//! left running (each from its stored log), and run the accept loops and the
//! matchmaking clock until shutdown. A shutdown ends no match: it tells every client
//! `server_restarting`, lets what the referees decided land in the store, and leaves the
//! matches running there for the next start (or another node) to go on with.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use arbiter_store::Store;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::{redact_url, Config};
use crate::http::{self, state::AppState};
use crate::hub::resume::ResumeReport;
use crate::hub::Hub;
use crate::mesh::link::Mesh;
use crate::ports;
use crate::transport::tcp;

/// A running server.
pub struct Server {
    pub hub: Arc<Hub>,
    /// The native protocol's bound address (the real port when 0 was asked).
    pub tcp_addr: SocketAddr,
    /// HTTP, WebSocket (`/ws`) and the API.
    pub http_addr: SocketAddr,
    /// The spacegoo port's bound address, when it is on.
    pub spacegoo_addr: Option<SocketAddr>,
    /// The Q-Game port's bound address, when it is on.
    pub qgame_addr: Option<SocketAddr>,
    pub data_dir: PathBuf,
    /// Matches a previous run left running, and whether each went on here.
    pub resumed_on_start: ResumeReport,
    shutdown: CancellationToken,
    tasks: Vec<JoinHandle<()>>,
}

/// Every listener the configuration asks for, bound before anything else starts (a
/// port in use is a clear error at once).
struct Listeners {
    tcp: TcpListener,
    http: TcpListener,
    spacegoo: Option<TcpListener>,
    qgame: Option<std::net::TcpListener>,
}

impl Listeners {
    async fn bind(config: &Config) -> anyhow::Result<Listeners> {
        let tcp = listen(&config.tcp)
            .await
            .with_context(|| format!("cannot listen on {} (native protocol)", config.tcp))?;
        let http = listen(&config.http)
            .await
            .with_context(|| format!("cannot listen on {} (HTTP)", config.http))?;
        let spacegoo = match &config.spacegoo {
            Some(address) => Some(
                listen(address)
                    .await
                    .with_context(|| format!("cannot listen on {address} (spacegoo port)"))?,
            ),
            None => None,
        };
        let qgame = match &config.qgame {
            Some(address) => Some(
                std::net::TcpListener::bind(address)
                    .with_context(|| format!("cannot listen on {address} (Q-Game port)"))?,
            ),
            None => None,
        };
        Ok(Listeners {
            tcp,
            http,
            spacegoo,
            qgame,
        })
    }
}

impl Server {
    /// Open the store (creating the data directory and the SQLite file on first run),
    /// bind both addresses and start serving.
    pub async fn start(config: Config) -> anyhow::Result<Server> {
        let store = open_store(&config).await?;
        // Read before this run's first heartbeat overwrites it: when the previous run
        // was last alive, so how long its matches were down.
        let last_alive = store
            .last_sign_of_life()
            .await
            .context("cannot read this server's last heartbeat")?;
        let listeners = Listeners::bind(&config).await?;
        let tcp_addr = listeners.tcp.local_addr()?;
        let http_addr = listeners.http.local_addr()?;
        let spacegoo_addr = match &listeners.spacegoo {
            Some(listener) => Some(listener.local_addr()?),
            None => None,
        };
        let qgame_addr = match &listeners.qgame {
            Some(listener) => Some(listener.local_addr()?),
            None => None,
        };
        let data_dir = config.data_dir.clone();
        let mut hub = Hub::new(config, store);
        let mesh = match &hub.config.nats {
            Some(url) => Some(
                Mesh::connect(url, &hub.config.node, hub.config.node_lease, hub.started_at).await?,
            ),
            None => None,
        };
        if let Some(mesh) = &mesh {
            hub = hub.with_mesh(mesh.clone());
        }
        let hub = Arc::new(hub);
        // Among the live nodes before serving anyone, not from the heartbeat task's
        // first turn: until then the deployment's other nodes cannot see this one, and
        // this one, seeing only older nodes or none, could take itself for the
        // matchmaker and hold a lobby of its own (a port client carried nowhere).
        hub.store
            .heartbeat(hub.started_at)
            .await
            .context("cannot write this server's first heartbeat")?;
        // Before anyone can connect: a player who logs in finds their seats running.
        let resumed_on_start = resume_left_running(&hub, last_alive).await?;
        let shutdown = CancellationToken::new();

        let mut tasks = Vec::new();
        if let Some(mesh) = mesh {
            let answers = Arc::new(crate::nodes::answers::Answers {
                mesh: mesh.clone(),
                hub: hub.clone(),
            });
            tasks.extend(crate::mesh::serve::spawn(mesh, answers, shutdown.clone()).await?);
            // Answering asks now: players of the matches gone on with here who are
            // connected to other nodes get their seats back through them.
            hub.tell_nodes_of_resumed_seats(&resumed_on_start).await;
        }
        tasks.extend(open_doors(&hub, listeners, http_addr, &shutdown));
        tasks.extend(run_clocks(&hub, &shutdown));
        tasks.push(go_on_with_tournaments(&hub).await?);
        tracing::info!(%tcp_addr, %http_addr, data = %data_dir.display(), "arbiter server started");
        Ok(Server {
            hub,
            tcp_addr,
            http_addr,
            spacegoo_addr,
            qgame_addr,
            data_dir,
            resumed_on_start,
            shutdown,
            tasks,
        })
    }

    /// Stop without losing anything: tournaments' directors stop; every match stops
    /// being refereed once what it decided is stored (it stays running in the store);
    /// every connection is told `server_restarting` and closed; the accept loops end;
    /// the last heartbeat says when this node was last alive; the store closes. The
    /// next start of this node (or, in a deployment, the node that takes its matches
    /// over) goes on with every match from its log.
    pub async fn shutdown(mut self) {
        // Directors first, and wait for them: one starting a game's match while the
        // matches are suspended would start a match nobody then referees here.
        if !self.hub.tournaments.stop_and_wait(SUSPEND_PATIENCE).await {
            tracing::warn!("a tournament director was still busy when the server stopped");
        }
        let suspended = self.hub.suspend_running(SUSPEND_PATIENCE).await;
        self.shutdown.cancel();
        for task in std::mem::take(&mut self.tasks) {
            let _ = task.await;
        }
        // A match paired while the others were being suspended.
        self.hub.suspend_running(SUSPEND_PATIENCE).await;
        if let Some(mesh) = &self.hub.mesh {
            mesh.relays.end_leaving_connections_open();
        }
        // The node's heartbeat goes stale now, and the deployment's other nodes are
        // told: they take its matches and tournaments over at once, not after the
        // lease. (A single server goes on with them when it starts again.)
        if let Err(error) = self.hub.store.stopped().await {
            tracing::warn!(%error, "cannot record that this server stopped");
        }
        if let Some(mesh) = &self.hub.mesh {
            match self.hub.store.live_nodes(self.hub.config.node_lease).await {
                Ok(live) => mesh.tell_stopped(&live).await,
                Err(error) => tracing::warn!(%error, "cannot list the nodes to tell"),
            }
        }
        self.hub.store.close().await;
        tracing::info!(
            matches = suspended,
            "arbiter server stopped; its running matches go on from their logs when it starts again"
        );
    }
}

/// How long a stopping server waits for its matches' last writes to land.
const SUSPEND_PATIENCE: std::time::Duration = std::time::Duration::from_secs(3);

/// A server dropped without [`Server::shutdown`] (a failed test, a panicking embedder)
/// still stops its accept loops, so that nothing (the Q-Game port's sign-up thread
/// above all) keeps the runtime from shutting down.
impl Drop for Server {
    fn drop(&mut self) {
        self.shutdown.cancel();
        self.hub.tournaments.stop();
    }
}

/// Connections the kernel may hold for us before we accept them. A hackathon's bots
/// connect all at once when the server starts; with the usual 128, the rest of a burst
/// of thousands are dropped after the client thinks it is connected, and it waits for
/// a welcome that never comes. The kernel caps this at `net.core.somaxconn`.
const LISTEN_BACKLOG: u32 = 4096;

/// The store, with the data directory made first (SQLite's file lives there).
async fn open_store(config: &Config) -> anyhow::Result<Store> {
    std::fs::create_dir_all(&config.data_dir).with_context(|| {
        format!(
            "cannot create the data directory {}",
            config.data_dir.display()
        )
    })?;
    let store = Store::connect(&config.database_url)
        .await
        .with_context(|| {
            format!(
                "cannot open the database {}",
                redact_url(&config.database_url)
            )
        })?
        .with_node(config.node.clone());
    Ok(store)
}

/// Go on with the matches the previous run of this node left running, each from its
/// stored log, granting their players the time the node was down.
async fn resume_left_running(
    hub: &Arc<Hub>,
    last_alive: Option<i64>,
) -> anyhow::Result<ResumeReport> {
    let left_running = hub
        .store
        .running_matches_of_this_node()
        .await
        .context("cannot list the matches left running")?;
    if left_running.is_empty() {
        return Ok(ResumeReport::default());
    }
    let down = crate::nodes::down_since(last_alive.unwrap_or(hub.started_at));
    let report = hub.resume_matches(left_running, down).await;
    tracing::info!(
        resumed = report.resumed,
        failed = report.failed,
        down_ms = down.as_millis() as u64,
        "matches left running by the previous run go on from their stored logs"
    );
    Ok(report)
}

/// The accept loops: native TCP, HTTP (pages, API, `/ws`), and the compatibility ports
/// that are on.
fn open_doors(
    hub: &Arc<Hub>,
    listeners: Listeners,
    http_addr: SocketAddr,
    shutdown: &CancellationToken,
) -> Vec<JoinHandle<()>> {
    let mut tasks = vec![tokio::spawn(tcp::serve(
        listeners.tcp,
        hub.clone(),
        shutdown.clone(),
    ))];
    let app = http::router(AppState {
        hub: hub.clone(),
        shutdown: shutdown.clone(),
        replays: Arc::new(http::replay_cache::ReplayCache::new(
            http::replay_cache::DEFAULT_BYTES,
        )),
    });
    let limits = &hub.config.limits;
    tasks.push(tokio::spawn(http::serve::serve(
        listeners.http,
        app,
        http::serve::HttpDoor {
            limits: http::serve::ConnectionLimits {
                header_timeout: limits.http_header_timeout,
                send_buffer: limits.socket_send_buffer,
                per_address: limits.http_connections_per_address,
            },
            connections: Arc::default(),
            pace: Arc::new(http::pace::RequestPace::new(
                limits.http_rate,
                limits.http_burst,
            )),
            proxies: Arc::new(hub.config.trusted_proxies.clone()),
            metrics: hub.metrics.clone(),
        },
        shutdown.clone(),
    )));
    if let Some(listener) = listeners.spacegoo {
        tasks.push(ports::spacegoo::spawn_spacegoo(
            listener,
            hub.clone(),
            http_addr,
            shutdown.clone(),
        ));
    }
    if let Some(listener) = listeners.qgame {
        tasks.push(ports::qgame::spawn_qgame(
            listener,
            hub.clone(),
            hub.config.qgame_port,
            shutdown.clone(),
        ));
    }
    tasks
}

/// What runs on a clock: the heartbeat (and takeovers of silent nodes' matches), and
/// the matchmaker's pairing.
fn run_clocks(hub: &Arc<Hub>, shutdown: &CancellationToken) -> Vec<JoinHandle<()>> {
    let heartbeat = tokio::spawn(crate::nodes::keep_alive(hub.clone(), shutdown.clone()));
    let (matchmaker, stop_pairing) = (hub.clone(), shutdown.clone());
    let pairing = tokio::spawn(async move {
        let mut clock = tokio::time::interval(matchmaker.config.pairing_interval);
        clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = stop_pairing.cancelled() => break,
                _ = clock.tick() => matchmaker.pair_waiting_players().await,
            }
        }
    });
    vec![heartbeat, pairing]
}

/// Tournaments this node was running go on where the store says they were, and the
/// house's recurring ones keep their next occurrence open: the task that does so.
async fn go_on_with_tournaments(hub: &Arc<Hub>) -> anyhow::Result<JoinHandle<()>> {
    match crate::tournaments::requests::resume_all(hub).await {
        Ok(0) => {}
        Ok(count) => tracing::info!(count, "tournaments resumed"),
        Err(refusal) => tracing::warn!(message = %refusal.message, "tournaments not resumed"),
    }
    crate::tournaments::house::check_all(hub, &hub.config.house_tournaments)
        .await
        .map_err(|why| anyhow::anyhow!(why))?;
    Ok(tokio::spawn(crate::tournaments::house::run(
        hub.clone(),
        hub.config.house_tournaments.clone(),
        hub.tournaments.stopping(),
    )))
}

/// Listen on `address` (host:port, names resolved) with [`LISTEN_BACKLOG`].
async fn listen(address: &str) -> anyhow::Result<TcpListener> {
    let mut last_error = None;
    for resolved in tokio::net::lookup_host(address).await? {
        let socket = match resolved {
            std::net::SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            std::net::SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        };
        socket.set_reuseaddr(true)?;
        match socket
            .bind(resolved)
            .and_then(|()| socket.listen(LISTEN_BACKLOG))
        {
            Ok(listener) => return Ok(listener),
            Err(error) => last_error = Some(error),
        }
    }
    Err(match last_error {
        Some(error) => error.into(),
        None => anyhow::anyhow!("{address} names no address"),
    })
}
