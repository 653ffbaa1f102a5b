//! `arbiter serve`: run the server (native protocol on TCP, HTTP + WebSocket + API) on
//! an embedded SQLite database unless told otherwise. Prints its addresses, then logs.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use arbiter_server::{Config, ServeArgs, Server};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    serve: ServeArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let config = Config::resolve(&args.serve)?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let database = config.database_url.clone();
        let server = Server::start(config).await?;
        // One "key value" per line, so scripts (and tests) can read the bound ports.
        let mut out = std::io::stdout().lock();
        writeln!(out, "arbiter {} serving", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "tcp      {}", server.tcp_addr)?;
        writeln!(out, "http     http://{}", server.http_addr)?;
        writeln!(out, "ws       ws://{}/ws", server.http_addr)?;
        if let Some(spacegoo) = server.spacegoo_addr {
            writeln!(out, "spacegoo {spacegoo}")?;
        }
        if let Some(qgame) = server.qgame_addr {
            writeln!(out, "qgame    {qgame}")?;
        }
        writeln!(out, "data     {}", server.data_dir.display())?;
        writeln!(
            out,
            "database {}",
            arbiter_server::config::redact_url(&database)
        )?;
        let resumed = &server.resumed_on_start;
        writeln!(
            out,
            "resumed  {} match(es) left running by the previous run{}",
            resumed.resumed,
            match resumed.failed {
                0 => String::new(),
                failed => format!(" ({failed} could not go on: see the log)"),
            }
        )?;
        out.flush()?;
        drop(out);
        stop_signal().await;
        server.shutdown().await;
        Ok(ExitCode::SUCCESS)
    })
}

/// Ctrl-C, or SIGTERM where there is one.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
