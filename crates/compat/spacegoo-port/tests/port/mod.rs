//! A real port for tests: a SQLite store in a temporary directory, a loopback listener
//! on a free port, and the port's own `serve` running until the test drops it.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter_spacegoo_port::{
    serve, GameResult, MatchObserver, PortContext, SpacegooPortOptions, StartedMatch,
};
use arbiter_store::{MatchId, Store};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Options for quick tests: fast pairing and a short linger.
pub fn quick_options() -> SpacegooPortOptions {
    SpacegooPortOptions {
        pairing_interval: Duration::from_millis(20),
        close_delay: Duration::from_millis(50),
        game_url: "http://arbiter.test/matches/{id}".to_string(),
        ..SpacegooPortOptions::default()
    }
}

/// What the port told its observer.
#[derive(Default)]
pub struct Seen {
    pub started: Mutex<Vec<StartedMatch>>,
    pub ended: Mutex<Vec<MatchId>>,
}

impl MatchObserver for Seen {
    fn started(&self, started: &StartedMatch) {
        self.started.lock().expect("lock").push(started.clone());
    }

    fn ended(&self, match_id: MatchId, _result: &GameResult) {
        self.ended.lock().expect("lock").push(match_id);
    }
}

pub struct Port {
    pub address: SocketAddr,
    pub store: Store,
    pub seen: Arc<Seen>,
    shutdown: CancellationToken,
    task: JoinHandle<()>,
    _dir: tempfile::TempDir,
}

impl Port {
    pub async fn start(options: SpacegooPortOptions) -> Port {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open_data_dir(dir.path()).await.expect("store");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        let seen = Arc::new(Seen::default());
        let context = PortContext {
            store: store.clone(),
            options,
            observer: Some(seen.clone() as Arc<dyn MatchObserver>),
            admission: None,
            route: None,
        };
        let shutdown = CancellationToken::new();
        let stop = shutdown.clone();
        let task = tokio::spawn(async move {
            serve(listener, context, stop)
                .await
                .expect("the port serves");
        });
        Port {
            address,
            store,
            seen,
            shutdown,
            task,
            _dir: dir,
        }
    }

    /// Stop the port and wait for it, keeping the store open.
    pub async fn halt(&mut self) {
        self.shutdown.cancel();
        (&mut self.task).await.expect("the port task ends");
    }

    /// Stop the port and wait for it.
    pub async fn stop(mut self) {
        if !self.task.is_finished() {
            self.halt().await;
        }
        self.store.close().await;
    }
}
