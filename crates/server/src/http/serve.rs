//! The HTTP accept loop. Ours rather than `axum::serve` for one reason: axum's loop
//! gives no way to set hyper's header read timeout, and hyper without a timer has none,
//! so a client that sends half a request (or nothing) would hold its socket for ever.
//! Here every connection gets a timer and `Limits::http_header_timeout`; the client's
//! address is handed to the handlers as axum's `ConnectInfo`, as before. Each socket's
//! send buffer is set as the native TCP transport sets its own (`Limits::
//! socket_send_buffer`), so a WebSocket client that never reads holds that much in the
//! kernel, not the megabytes the kernel would grow the buffer to.
//!
//! Every HTTP connection holds a place in its address's count of HTTP connections
//! (`Limits::http_connections_per_address`, apart from the native doors' count: a
//! browser opens up to six connections to load a page, so a class behind one address
//! needs many); over the cap, every request on it is answered `429
//! too_many_connections` and the connection is closed. A WebSocket session, once
//! upgraded, counts with the native doors instead (`http/ws.rs`). Requests for the
//! API, `/metrics` and `/ws` are also paced per address ([`RequestPace`]); the static
//! pages and files are not (they are served from memory, and a page load is dozens).
//!
//! Behind a trusted reverse proxy ([`TrustedProxies`]) the proxy's connections are not
//! counted (they carry many clients' requests in turn); each request is counted, paced
//! and handed to the handlers (as `ConnectInfo`) under the client address the proxy
//! forwarded, so a WebSocket session takes its place under that address.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::api::ApiError;
use super::pace::RequestPace;
use crate::config::proxies::TrustedProxies;
use crate::connection::addresses::{AddressCounts, AddressSlot};

/// How long a connection being closed at shutdown may take to finish its response.
const DRAIN: Duration = Duration::from_secs(5);

/// What each HTTP connection is held to.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Time to read a request's headers.
    pub header_timeout: Duration,
    /// The socket's kernel send buffer, in bytes.
    pub send_buffer: usize,
    /// HTTP connections one address may hold.
    pub per_address: usize,
}

/// What the accept loop checks each connection and request against.
#[derive(Clone)]
pub struct HttpDoor {
    pub limits: ConnectionLimits,
    /// HTTP connections held per address.
    pub connections: Arc<AddressCounts>,
    pub pace: Arc<RequestPace>,
    pub proxies: Arc<TrustedProxies>,
    /// Where refused connections are counted.
    pub metrics: Arc<crate::metrics::Metrics>,
}

/// Serve `app` on `listener` until `shutdown`, each connection held to `door`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    door: HttpDoor,
    shutdown: CancellationToken,
) {
    let limits = door.limits;
    loop {
        let (stream, peer) = tokio::select! {
            _ = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!(%error, "HTTP accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        crate::connection::prepare_accepted(&stream, limits.send_buffer, peer);
        let admission = if door.proxies.trusts(peer.ip()) {
            Admission::Proxy
        } else {
            match door.connections.enter(peer.ip(), limits.per_address) {
                Some(slot) => Admission::Counted(slot),
                None => {
                    tracing::debug!(%peer, max = limits.per_address, "HTTP: the address holds its share of HTTP connections");
                    door.metrics.connection_refused("http");
                    Admission::Crowded
                }
            }
        };
        tokio::spawn(connection(
            stream,
            peer,
            app.clone(),
            admission,
            door.clone(),
            shutdown.clone(),
        ));
    }
}

/// How a connection was let in.
enum Admission {
    /// With a place in its address's count, held (never read) until the connection
    /// ends.
    Counted(#[allow(dead_code)] AddressSlot),
    /// From a trusted proxy: not counted, its requests are.
    Proxy,
    /// Over its address's cap: every request is refused.
    Crowded,
}

/// The static pages and files (the web client, board pictures): served from memory,
/// dozens to a page load, so not paced.
fn is_static(path: &str) -> bool {
    path == "/" || path.starts_with("/web/") || path.starts_with("/boards/")
}

/// The answer to every request on a connection over its address's cap.
fn crowded(per_address: usize) -> axum::response::Response {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_connections",
        format!("this address already holds {per_address} HTTP connections; close one first"),
    )
    .into_response()
}

/// The answer to a request over its address's pace.
fn too_fast(wait: Duration) -> axum::response::Response {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_requests",
        "this address is sending requests faster than the server serves them; slow down",
    )
    .retry_after(wait)
    .into_response()
}

async fn connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    admission: Admission,
    door: HttpDoor,
    shutdown: CancellationToken,
) {
    let admitted = !matches!(admission, Admission::Crowded);
    let per_address = door.limits.per_address;
    let HttpDoor { pace, proxies, .. } = door.clone();
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        let mut app = app.clone();
        let pace = pace.clone();
        let client = SocketAddr::new(proxies.client(peer.ip(), request.headers()), peer.port());
        let paced = !is_static(request.uri().path());
        async move {
            if !admitted {
                return Ok(crowded(per_address));
            }
            if paced {
                if let Err(wait) = pace.admit(client.ip()) {
                    return Ok(too_fast(wait));
                }
            }
            request.extensions_mut().insert(ConnectInfo(client));
            app.call(request).await
        }
    });
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .keep_alive(admitted)
        .timer(TokioTimer::new())
        .header_read_timeout(door.limits.header_timeout);
    let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
    tokio::pin!(connection);
    // The connection's place (if counted) is given back when this task ends: when the
    // client closes, or when a WebSocket upgrade has taken the socket over.
    let _place = admission;
    tokio::select! {
        served = connection.as_mut() => {
            if let Err(error) = served {
                tracing::debug!(%peer, %error, "HTTP connection ended with an error");
            }
        }
        _ = shutdown.cancelled() => {
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(DRAIN, connection).await;
        }
    }
}
