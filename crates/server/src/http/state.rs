//! What every HTTP handler (and the WebSocket door) is given. Its own file so the
//! transports can take it without reaching into the router.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::replay_cache::ReplayCache;
use crate::hub::Hub;

#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    /// Cancelled when the server shuts down (WebSocket sessions end on it).
    pub shutdown: CancellationToken,
    /// Replays of ended matches, built once.
    pub replays: Arc<ReplayCache>,
}
