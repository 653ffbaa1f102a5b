//! A TCP proxy in front of a database server, for tests of store faults: cut, every
//! open link closes at once and new connections are refused until it is restored.
//! That is what a client of PostgreSQL sees while the server restarts (its backends are
//! terminated, the port refuses) or while the network to it fails, and the database
//! itself stays untouched for other tests.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A running proxy; it stops when dropped.
pub struct FaultProxy {
    address: SocketAddr,
    /// `true` while cut. Links watch it and close when it turns `true`.
    down: Arc<watch::Sender<bool>>,
    accepting: tokio::task::JoinHandle<()>,
}

impl FaultProxy {
    /// Listen on a free loopback port and forward every connection to `upstream`.
    pub async fn start(upstream: SocketAddr) -> std::io::Result<FaultProxy> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let (down, _) = watch::channel(false);
        let down = Arc::new(down);
        let accepting = tokio::spawn(accept(listener, upstream, down.clone()));
        Ok(FaultProxy {
            address,
            down,
            accepting,
        })
    }

    /// A proxy in front of the server `url` names (`scheme://user@host:port/…`; the
    /// port defaults to PostgreSQL's 5432). Panics when the address cannot be found.
    pub async fn in_front_of(url: &str) -> FaultProxy {
        let host = &url[host_span(url)];
        let host = if host.contains(':') {
            host.to_string()
        } else {
            format!("{host}:5432")
        };
        let upstream = tokio::net::lookup_host(&host)
            .await
            .ok()
            .and_then(|mut found| found.next())
            .unwrap_or_else(|| panic!("cannot resolve the database address {host}"));
        FaultProxy::start(upstream)
            .await
            .unwrap_or_else(|e| panic!("cannot start a proxy: {e}"))
    }

    /// Where clients connect.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// `url` (`scheme://user@host:port/rest`) with its host and port replaced by the
    /// proxy's.
    pub fn url_for(&self, url: &str) -> String {
        let host = host_span(url);
        format!("{}{}{}", &url[..host.start], self.address, &url[host.end..])
    }

    /// Close every open link now and refuse new connections until [`Self::restore`].
    pub fn cut(&self) {
        self.down.send_replace(true);
    }

    /// Accept and forward connections again.
    pub fn restore(&self) {
        self.down.send_replace(false);
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.cut();
        self.accepting.abort();
    }
}

/// Where `host[:port]` stands in `scheme://user@host:port/rest`.
fn host_span(url: &str) -> std::ops::Range<usize> {
    let start = url.find("://").map_or(0, |i| i + 3);
    let start = url[start..].find('@').map_or(start, |at| start + at + 1);
    let end = url[start..]
        .find(['/', '?'])
        .map_or(url.len(), |end| start + end);
    start..end
}

async fn accept(listener: TcpListener, upstream: SocketAddr, down: Arc<watch::Sender<bool>>) {
    loop {
        let Ok((client, _)) = listener.accept().await else {
            continue;
        };
        if *down.borrow() {
            // Refused: closed before a byte is exchanged.
            drop(client);
            continue;
        }
        tokio::spawn(link(client, upstream, down.subscribe()));
    }
}

/// Forward both ways until either side closes or the proxy is cut.
async fn link(mut client: TcpStream, upstream: SocketAddr, mut down: watch::Receiver<bool>) {
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
        _ = down.wait_for(|down| *down) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn urls_point_at_the_proxy() {
        let proxy = FaultProxy::start("127.0.0.1:9".parse().expect("address"))
            .await
            .expect("proxy");
        let at = proxy.address();
        for (url, expected) in [
            (
                "postgres://u@127.0.0.1:5432/db",
                format!("postgres://u@{at}/db"),
            ),
            (
                "postgres://u:p@h:1/db?x=1",
                format!("postgres://u:p@{at}/db?x=1"),
            ),
            ("postgresql://h:1", format!("postgresql://{at}")),
        ] {
            assert_eq!(proxy.url_for(url), expected);
        }
    }
}
