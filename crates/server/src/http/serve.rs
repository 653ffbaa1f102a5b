//! The HTTP accept loop. Ours rather than `axum::serve` for one reason: axum's loop
//! gives no way to set hyper's header read timeout, and hyper without a timer has none,
//! so a client that sends half a request (or nothing) would hold its socket for ever.
//! Here every connection gets a timer and `Limits::http_header_timeout`; the client's
//! address is handed to the handlers as axum's `ConnectInfo`, as before. Each socket's
//! send buffer is set as the native TCP transport sets its own (`Limits::
//! socket_send_buffer`), so a WebSocket client that never reads holds that much in the
//! kernel, not the megabytes the kernel would grow the buffer to.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

/// How long a connection being closed at shutdown may take to finish its response.
const DRAIN: Duration = Duration::from_secs(5);

/// What each HTTP connection is held to.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Time to read a request's headers.
    pub header_timeout: Duration,
    /// The socket's kernel send buffer, in bytes.
    pub send_buffer: usize,
}

/// Serve `app` on `listener` until `shutdown`, each connection held to `limits`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: CancellationToken,
) {
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
        crate::transport::cap_send_buffer(&stream, limits.send_buffer, peer);
        tokio::spawn(connection(
            stream,
            peer,
            app.clone(),
            limits.header_timeout,
            shutdown.clone(),
        ));
    }
}

async fn connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    shutdown: CancellationToken,
) {
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        app.clone().call(request)
    });
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connection = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
    tokio::pin!(connection);
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
