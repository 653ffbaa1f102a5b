//! One course client's seat in a refereed match: the referee asks the seat for a
//! decision like any in-process player, and this adapter hands the question to the
//! game's [`CourseTable`], which makes the course's calls over the clients' connections
//! (background §11.2) at the times the course's referee makes them. A call that fails
//! ejects its player through the match's handle, with the reason recorded.
//!
//! The course client only ever sees its own public state (`JPub`), as in the course.

use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::watch;

use arbiter_engine::erased::ErasedState;
use arbiter_engine::{DynState, Seat};
use arbiter_qgame::Qgame;
use arbiter_referee::{MatchHandle, Phase};
use arbiter_rulesets::HouseBot;
use serde_json::Value;

use super::table::{CourseTable, Ejector};

/// Every seat of one game shares its table: one seat's decision may make calls to the
/// others (`setup`, `win`), and the port sends the last `win` calls after the match.
#[derive(Clone)]
pub struct CourseSeat {
    table: Arc<Mutex<CourseTable>>,
}

impl CourseSeat {
    pub fn new(table: Arc<Mutex<CourseTable>>) -> CourseSeat {
        CourseSeat { table }
    }

    /// A player object for the referee (all of them drive the same table).
    pub fn player(&self) -> Box<dyn HouseBot> {
        Box::new(self.clone())
    }
}

impl HouseBot for CourseSeat {
    fn decide(&mut self, state: &dyn DynState, seat: Seat) -> Result<Value, String> {
        let typed = state
            .as_any()
            .downcast_ref::<ErasedState<Qgame>>()
            .ok_or_else(|| format!("a Q-Game client cannot play {}", state.ruleset()))?;
        let action = self.table.lock().decide(&typed.state, seat)?;
        serde_json::to_value(&action).map_err(|e| e.to_string())
    }

    fn ejections_after_answer(&mut self) -> Vec<(Seat, String)> {
        self.table.lock().take_ejections_after_answer()
    }
}

/// Ejects through the match's handle (known once the match has started; decisions may
/// begin before the port has it) and waits until the referee has made the ejection.
/// Runs on the blocking pool, where the referee asks bots for decisions.
pub struct HandleEjector {
    runtime: tokio::runtime::Handle,
    handle: watch::Receiver<Option<MatchHandle>>,
}

impl HandleEjector {
    pub fn new(
        runtime: tokio::runtime::Handle,
        handle: watch::Receiver<Option<MatchHandle>>,
    ) -> HandleEjector {
        HandleEjector { runtime, handle }
    }
}

impl Ejector for HandleEjector {
    fn eject(&mut self, seat: Seat, reason: &str) {
        let mut handle = self.handle.clone();
        let reason = reason.to_string();
        self.runtime.block_on(async move {
            // The sender goes away if the match never started: nothing to eject from.
            let Ok(handle) = handle.wait_for(Option::is_some).await.map(|h| h.clone()) else {
                return;
            };
            let Some(handle) = handle else { return };
            let mut status = handle.watch_status();
            if handle.eject(seat, reason).await.is_err() {
                return;
            }
            let _ = status
                .wait_for(|status| {
                    status.phase != Phase::Running
                        || status
                            .seats
                            .get(seat)
                            .is_none_or(|slot| slot.ejected.is_some())
                })
                .await;
        });
    }
}
