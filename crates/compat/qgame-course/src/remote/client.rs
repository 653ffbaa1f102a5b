//! The client side of the course's remote protocol: connect, sign up with a name, then
//! let a proxy referee serve the calls. [`run_clients`] launches one client per
//! configured player (and any special clients after them), `wait` seconds apart, so
//! the sign-up order is the configuration's order.
//!
//! A client tries to connect [`CONNECT_TRIES`] times, [`CONNECT_PAUSE`] apart, as the
//! reference clients do: the course starts the server and the clients together, and a
//! server may need a few seconds before it listens.

use std::net::TcpStream;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::actors::ActorSpec;
use crate::remote::config::{ClientConfig, SpecialClient};
use crate::remote::deadline::DeadlineStream;
use crate::remote::proxy_referee::{run_proxy_referee, Flaw, SessionEnd, IDLE_LIMIT};
use crate::remote::wire::{write_value, JsonReader};

/// One client to launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientKind {
    /// An in-house player; a Bonus name (`nonSetup`, `illTT`, …) gives it a broken proxy.
    Player(ActorSpec),
    Special(SpecialClient),
}

impl ClientKind {
    pub fn name(&self) -> &str {
        match self {
            ClientKind::Player(spec) => &spec.name,
            ClientKind::Special(SpecialClient::DivergeBeforeSending) => "divergeBeforeSending",
            ClientKind::Special(SpecialClient::SendNameLoop) => "sendnameloop",
        }
    }
}

/// What became of one client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientReport {
    pub name: String,
    pub end: ClientEnd,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientEnd {
    CannotConnect(String),
    /// The session with the server and how it ended.
    Session(SessionEnd),
    /// A special client saw the server close the connection.
    Dropped,
}

/// How many times a client tries to connect before it gives up (the reference's 10).
pub const CONNECT_TRIES: u32 = 10;
/// The pause between two tries (the reference's 1 s).
pub const CONNECT_PAUSE: Duration = Duration::from_secs(1);

/// Call `connect` up to `tries` times, calling `pause(between)` after each failure but
/// the last; the first success, or the last failure. (`pause` is a parameter so tests
/// can see the tries without waiting through them.)
pub fn connect_with_retries<T, E>(
    tries: u32,
    between: Duration,
    mut connect: impl FnMut() -> Result<T, E>,
    mut pause: impl FnMut(Duration),
) -> Result<T, E> {
    let mut attempt = 1;
    loop {
        match connect() {
            Ok(connected) => return Ok(connected),
            Err(e) if attempt >= tries => return Err(e),
            Err(_) => {
                pause(between);
                attempt += 1;
            }
        }
    }
}

/// Run one client against `host:port` until its session ends.
pub fn run_client(host: &str, port: u16, kind: &ClientKind) -> ClientReport {
    run_client_with(kind, || TcpStream::connect((host, port)), thread::sleep)
}

/// [`run_client`] with its way of connecting and of pausing between tries given.
pub fn run_client_with(
    kind: &ClientKind,
    connect: impl FnMut() -> std::io::Result<TcpStream>,
    pause: impl FnMut(Duration),
) -> ClientReport {
    let name = kind.name().to_string();
    let connected = connect_with_retries(CONNECT_TRIES, CONNECT_PAUSE, connect, pause);
    let end = match connected {
        Err(e) => ClientEnd::CannotConnect(format!("{e} (after {CONNECT_TRIES} tries)")),
        Ok(stream) => match kind {
            ClientKind::Player(spec) => sign_up_and_play(stream, spec),
            ClientKind::Special(SpecialClient::DivergeBeforeSending) => idle_until_closed(stream),
            ClientKind::Special(SpecialClient::SendNameLoop) => {
                match write_value(&stream, &Value::from(name.as_str())) {
                    Ok(()) => idle_until_closed(stream),
                    Err(e) => ClientEnd::Session(SessionEnd::ConnectionError(e.to_string())),
                }
            }
        },
    };
    ClientReport { name, end }
}

fn sign_up_and_play(stream: TcpStream, spec: &ActorSpec) -> ClientEnd {
    if let Err(e) = write_value(&stream, &Value::from(spec.name.as_str())) {
        return ClientEnd::Session(SessionEnd::ConnectionError(e.to_string()));
    }
    let flaw = Flaw::for_name(&spec.name);
    ClientEnd::Session(run_proxy_referee(stream, Box::new(spec.build()), flaw))
}

/// Read (and never answer) whatever the server sends until it closes the connection.
fn idle_until_closed(stream: TcpStream) -> ClientEnd {
    let mut reader = JsonReader::new(DeadlineStream::new(stream));
    loop {
        reader
            .get_mut()
            .set_deadline(Some(Instant::now() + IDLE_LIMIT));
        if reader.next_value().is_err() {
            reader.get_ref().close();
            return ClientEnd::Dropped;
        }
    }
}

/// Launch every client of `config`, then the `specials`, each after a pause of
/// `config.wait`, connecting to `config.host` on `port`; wait for all of them.
pub fn run_clients(
    config: &ClientConfig,
    specials: &[SpecialClient],
    port: u16,
) -> Vec<ClientReport> {
    let kinds = config
        .players
        .iter()
        .cloned()
        .map(ClientKind::Player)
        .chain(specials.iter().copied().map(ClientKind::Special));
    let mut running: Vec<Result<(String, JoinHandle<ClientReport>), ClientReport>> = Vec::new();
    for kind in kinds {
        thread::sleep(config.wait);
        let host = config.host.clone();
        let name = kind.name().to_string();
        let spawned = thread::Builder::new()
            .name(format!("qgame-client-{name}"))
            .spawn(move || run_client(&host, port, &kind));
        running.push(match spawned {
            Ok(handle) => Ok((name, handle)),
            Err(e) => Err(ClientReport {
                name,
                end: ClientEnd::CannotConnect(format!("no thread for the client: {e}")),
            }),
        });
    }
    running
        .into_iter()
        .map(|client| match client {
            Err(report) => report,
            Ok((name, handle)) => handle.join().unwrap_or_else(|_| ClientReport {
                name,
                end: ClientEnd::Session(SessionEnd::ConnectionError(
                    "the client thread panicked".into(),
                )),
            }),
        })
        .collect()
}
