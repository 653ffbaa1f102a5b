//! The spacegoo port (`--spacegoo`): the `arbiter-spacegoo-port` crate speaks the
//! reference text protocol and runs its matches with the referee and the shared store;
//! it tells the hub of each one (through [`HubObserver`]) so it is listed, counted and
//! watchable like a native match while it runs. In a deployment of several nodes each
//! connection is first offered to the mesh ([`Route`]), which carries it to the node
//! holding the lobby unless that is this one (`mesh/tunnels.rs`).

use std::sync::Arc;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;

use arbiter_spacegoo_port::{
    Admission, GameResult, MatchObserver, Route, SpacegooPortOptions, StartedMatch,
};
use arbiter_store::MatchId;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::hub::Hub;
use crate::matches::{LiveMatch, Player};
use crate::mesh::asks::Port;
use crate::mesh::link::Mesh;

/// Registers a port's matches with the hub while they run.
pub struct HubObserver {
    hub: Arc<Hub>,
    port: &'static str,
}

impl MatchObserver for HubObserver {
    fn started(&self, started: &StartedMatch) {
        let players = started
            .players
            .iter()
            .map(|entrant| Player::Account {
                id: entrant.account,
                name: entrant.name.clone(),
            })
            .collect();
        let live = LiveMatch::new(
            started.match_id,
            arbiter_spacegoo_port::games::RULESET.to_string(),
            started.config.clone(),
            players,
            true,
            crate::matches::MatchClock {
                deadline: started.deadline,
                time_bank: std::time::Duration::ZERO,
                abandon_after: None,
                stand_in_grace: None,
            },
            started.handle.clone(),
        )
        .through_port(self.port);
        tracing::info!(match_id = started.match_id, port = self.port, players = ?live.player_names(), "port match started");
        self.hub.matches.insert(Arc::new(live));
        self.hub.metrics.match_started();
    }

    fn ended(&self, match_id: MatchId, result: &GameResult) {
        self.hub.matches.remove(match_id);
        let finished = !matches!(result, GameResult::Aborted { .. });
        self.hub.metrics.match_ended(finished);
        if let GameResult::Unrated { why } = result {
            self.hub.metrics.store_failure();
            tracing::error!(match_id, %why, "port match finished unrated");
        }
    }
}

/// Admits a port connection against its address's share of the server's connections,
/// counted with the native TCP and WebSocket ones (`connections_per_address`).
struct AddressShare {
    hub: Arc<Hub>,
}

impl Admission for AddressShare {
    fn admit(&self, peer: std::net::IpAddr) -> Option<Box<dyn std::any::Any + Send>> {
        let max = self.hub.config.limits.connections_per_address;
        let slot = self.hub.addresses.enter(peer, max);
        if slot.is_none() {
            tracing::debug!(%peer, max, "spacegoo port: the address holds its share of connections");
            self.hub.metrics.connection_refused("spacegoo");
        }
        slot.map(|slot| Box::new(slot) as Box<dyn std::any::Any + Send>)
    }
}

/// Carries each connection to the node holding the deployment's lobby (see
/// `mesh::tunnels`), so the port's clients meet whatever node they reached.
struct ToTheLobby {
    hub: Arc<Hub>,
    mesh: Arc<Mesh>,
}

impl Route for ToTheLobby {
    fn client(&self, peer: SocketAddr) -> IpAddr {
        self.mesh.tunnels.client_of(peer)
    }

    fn carry(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
    ) -> Pin<Box<dyn Future<Output = Result<(), TcpStream>> + Send>> {
        let (hub, mesh) = (self.hub.clone(), self.mesh.clone());
        // As for every connection: no Nagle delay, and a client that never reads
        // holds this much (the port sets them again on a connection it serves here).
        crate::connection::prepare_accepted(&stream, hub.config.limits.socket_send_buffer, peer);
        Box::pin(async move { mesh.carry(&hub.store, Port::Spacegoo, stream, peer).await })
    }
}

/// Serve the spacegoo text protocol on `listener` until `shutdown`, with the server's
/// store, its spacegoo deadline, and finished games linked to the replay API at `http`.
pub fn spawn_spacegoo(
    listener: TcpListener,
    hub: Arc<Hub>,
    http: std::net::SocketAddr,
    shutdown: CancellationToken,
) -> JoinHandle<()> {
    let mut options = SpacegooPortOptions {
        // The replay player, where a person watches the game again.
        game_url: format!(
            "{}/#/replay/{{id}}",
            hub.config
                .public_url
                .clone()
                .unwrap_or_else(|| format!("http://{http}"))
        ),
        store_patience: hub.config.store_patience,
        // As for native connections: a client that never reads holds this much.
        send_buffer: Some(hub.config.limits.socket_send_buffer),
        ..SpacegooPortOptions::default()
    };
    if let Ok(spacegoo) = hub.ruleset(arbiter_spacegoo_port::games::RULESET) {
        options.deadline = hub.config.deadline(spacegoo.game.as_ref());
    }
    let context = arbiter_spacegoo_port::PortContext {
        store: hub.store.clone(),
        options,
        observer: Some(Arc::new(HubObserver {
            hub: hub.clone(),
            port: "spacegoo",
        })),
        admission: Some(Arc::new(AddressShare { hub: hub.clone() })),
        route: hub.mesh.clone().map(|mesh| {
            if let Ok(address) = listener.local_addr() {
                mesh.tunnels.port_listens(Port::Spacegoo, address);
            }
            Arc::new(ToTheLobby {
                hub: hub.clone(),
                mesh,
            }) as Arc<dyn Route>
        }),
    };
    tokio::spawn(async move {
        if let Err(error) = arbiter_spacegoo_port::serve(listener, context, shutdown).await {
            tracing::error!(%error, "the spacegoo port stopped");
        }
    })
}
