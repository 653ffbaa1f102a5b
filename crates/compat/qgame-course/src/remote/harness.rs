//! The milestone-10 harness programs: `xserver PORT` reads a JServerConfig on standard
//! input, runs the server on 127.0.0.1:PORT and prints the result; `xclients PORT`
//! reads a JClientConfig (and, optionally, the name of a special client) and runs
//! the clients against PORT. The port on the command line wins over the files'.
//!
//! The configurations are read with their integers exact, as the other harnesses read
//! their input: state0's coordinates may be `-0` or of any size.

use std::io::Read;
use std::net::TcpListener;

use crate::exact::ExactJson;
use crate::harness::HarnessError;
use crate::referee::CourseResult;
use crate::remote::client::{run_clients, ClientReport};
use crate::remote::config::{ClientConfig, ServerConfig, SpecialClient, PORTS};
use crate::remote::server::serve;
use crate::remote::wire::{JsonReader, WireError};

/// Largest configuration read from standard input (a state0 with a full pile is
/// about 60 KB).
const MAX_CONFIG_BYTES: usize = 16 << 20;

/// A command-line port: a number from 10000 to 60000, as the course's programs take.
pub fn parse_port(text: &str) -> Result<u16, HarnessError> {
    match text.parse::<u64>() {
        Ok(port) if PORTS.contains(&port) => Ok(port as u16),
        _ => Err(HarnessError::Usage(format!(
            "the port must be a number from {} to {}, not {text:?}",
            PORTS.start(),
            PORTS.end()
        ))),
    }
}

/// The next value of the input; `None` at its end.
fn next_input<R: Read>(input: &mut JsonReader<R>) -> Result<Option<ExactJson>, HarnessError> {
    match input.next_exact() {
        Ok(value) => Ok(Some(value)),
        Err(WireError::Closed("")) => Ok(None),
        Err(e) => Err(HarnessError::NotJson(e.to_string())),
    }
}

/// Read the server's configuration: the first JSON value of `input` (the reference
/// reads one value and does not wait for the end of its input).
pub fn read_server_config(input: impl Read) -> Result<ServerConfig, HarnessError> {
    let mut input = JsonReader::with_limit(input, MAX_CONFIG_BYTES);
    let value = next_input(&mut input)?
        .ok_or_else(|| HarnessError::Schema("missing JServerConfig in the input".into()))?;
    ServerConfig::from_exact(&value).map_err(HarnessError::Schema)
}

/// Read the clients' configuration and the optional special client after it.
pub fn read_client_config(
    input: impl Read,
) -> Result<(ClientConfig, Vec<SpecialClient>), HarnessError> {
    let mut input = JsonReader::with_limit(input, MAX_CONFIG_BYTES);
    let value = next_input(&mut input)?
        .ok_or_else(|| HarnessError::Schema("missing JClientConfig in the input".into()))?;
    let config = ClientConfig::from_exact(&value).map_err(HarnessError::Schema)?;
    let specials = match next_input(&mut input)? {
        None => Vec::new(),
        Some(name) => vec![SpecialClient::parse(&name).map_err(HarnessError::Schema)?],
    };
    Ok((config, specials))
}

/// `xserver PORT`: run the server on 127.0.0.1:`port`; the result to print.
pub fn xserver(input: impl Read, port: u16) -> Result<CourseResult, HarnessError> {
    let config = read_server_config(input)?;
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| HarnessError::Network(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    Ok(serve(&config, listener))
}

/// `xclients PORT`: run every client against `port` until all have finished.
pub fn xclients(input: impl Read, port: u16) -> Result<Vec<ClientReport>, HarnessError> {
    let (config, specials) = read_client_config(input)?;
    let reports = run_clients(&config, &specials, port);
    if !config.quiet {
        for report in &reports {
            eprintln!("client {}: {:?}", report.name, report.end);
        }
    }
    Ok(reports)
}
