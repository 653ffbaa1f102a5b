//! Replays of ended matches, kept once built. A replay is rebuilt from the stored record
//! with every digest verified, which costs a whole match's simulation; an ended
//! match never changes, so its answer is computed once and served from here after,
//! within a byte bound (oldest out first). Running matches are not cached: their
//! replays grow with every move.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use parking_lot::Mutex;

/// A match and the audience of its replay (`None`: spectators; `Some(seat)`).
pub type ReplayKey = (i64, Option<usize>);

/// What the server keeps of ended matches' replays.
pub const DEFAULT_BYTES: usize = 64 * 1024 * 1024;

pub struct ReplayCache {
    max_bytes: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    bodies: HashMap<ReplayKey, Arc<str>>,
    /// Insertion order, for eviction.
    order: VecDeque<ReplayKey>,
    bytes: usize,
}

impl ReplayCache {
    pub fn new(max_bytes: usize) -> ReplayCache {
        ReplayCache {
            max_bytes,
            inner: Mutex::new(Inner::default()),
        }
    }

    pub fn get(&self, key: ReplayKey) -> Option<Arc<str>> {
        self.inner.lock().bodies.get(&key).cloned()
    }

    /// Keep `body` for `key`; a body larger than the whole bound is not kept.
    pub fn insert(&self, key: ReplayKey, body: Arc<str>) {
        if body.len() > self.max_bytes {
            return;
        }
        let mut inner = self.inner.lock();
        if let Some(old) = inner.bodies.insert(key, body.clone()) {
            inner.bytes -= old.len();
        } else {
            inner.order.push_back(key);
        }
        inner.bytes += body.len();
        while inner.bytes > self.max_bytes {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            if let Some(gone) = inner.bodies.remove(&oldest) {
                inner.bytes -= gone.len();
            }
        }
    }

    pub fn bytes(&self) -> usize {
        self.inner.lock().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_within_its_bound_oldest_out_first() {
        let cache = ReplayCache::new(10);
        cache.insert((1, None), Arc::from("aaaa"));
        cache.insert((2, Some(0)), Arc::from("bbbb"));
        assert_eq!(cache.get((1, None)).as_deref(), Some("aaaa"));
        cache.insert((3, None), Arc::from("cccc"));
        assert_eq!(cache.get((1, None)), None, "the oldest went");
        assert_eq!(cache.get((3, None)).as_deref(), Some("cccc"));
        assert!(cache.bytes() <= 10);
        cache.insert((4, None), Arc::from("x".repeat(11)));
        assert_eq!(
            cache.get((4, None)),
            None,
            "larger than the bound: not kept"
        );
    }
}
