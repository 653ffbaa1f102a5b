//! Matchmaking queues: players wait per (ruleset, configuration, seat count); every
//! pairing interval the waiting players are grouped by rating proximity. A user never
//! meets itself, even when it queues from two connections.

use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::time::Instant;

use arbiter_store::AccountId;
use serde_json::Value;

use crate::connection::{ConnId, Outbox};
use crate::mesh::asks::RemoteConn;

/// Which queue: players only meet others who asked for the same game.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct QueueKey {
    pub ruleset: String,
    /// The normalized configuration as compact JSON (defaults filled in).
    pub config: String,
    pub seats: usize,
}

impl QueueKey {
    pub fn config_value(&self) -> Value {
        serde_json::from_str(&self.config).unwrap_or(Value::Null)
    }
}

/// A player waiting in a queue.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub account: AccountId,
    pub name: String,
    /// The player's rating in this ruleset when it joined.
    pub rating: f64,
    pub outbox: Outbox,
    /// For a player of another node of the deployment (`outbox` is then its stand-in
    /// here): its connection there, so that its match may run on its own node.
    pub home: Option<RemoteConn>,
    pub since: Instant,
}

#[derive(Default)]
pub struct Matchmaking {
    queues: Mutex<BTreeMap<QueueKey, Vec<Waiting>>>,
}

impl Matchmaking {
    /// Add a player; a connection waits in one queue at a time. Returns how many wait in
    /// that queue now.
    pub fn join(&self, key: QueueKey, waiting: Waiting) -> Result<usize, String> {
        let mut queues = self.queues.lock();
        let conn = waiting.outbox.conn();
        if let Some((key, _)) = queues
            .iter()
            .find(|(_, list)| list.iter().any(|w| w.outbox.conn() == conn))
        {
            return Err(format!(
                "this connection already waits in the {} queue; leave it first",
                key.ruleset
            ));
        }
        let list = queues.entry(key).or_default();
        list.push(waiting);
        Ok(list.len())
    }

    /// Remove a connection from whatever queue it is in; the ruleset it left.
    pub fn leave(&self, conn: ConnId) -> Option<String> {
        let mut queues = self.queues.lock();
        let mut left = None;
        for (key, list) in queues.iter_mut() {
            let before = list.len();
            list.retain(|w| w.outbox.conn() != conn);
            if list.len() != before {
                left = Some(key.ruleset.clone());
            }
        }
        queues.retain(|_, list| !list.is_empty());
        left
    }

    /// Players waiting in every queue.
    pub fn waiting(&self) -> usize {
        self.queues.lock().values().map(Vec::len).sum()
    }

    /// Take out every group that can play now; the rest keep waiting. Players whose
    /// connection closed are dropped.
    pub fn pair(&self) -> Vec<(QueueKey, Vec<Waiting>)> {
        let mut queues = self.queues.lock();
        let mut matched = Vec::new();
        for (key, list) in queues.iter_mut() {
            list.retain(|w| !w.outbox.is_closed());
            let entries = std::mem::take(list);
            let (groups, rest) = group_by_rating(entries, key.seats, |w| (w.account, w.rating));
            *list = rest;
            matched.extend(groups.into_iter().map(|group| (key.clone(), group)));
        }
        queues.retain(|_, list| !list.is_empty());
        matched
    }
}

/// Group entries `size` at a time, each group of neighbours in rating order and of
/// distinct accounts. An entry whose account is already in the group being formed is
/// skipped and keeps waiting. Returns the groups and the entries left over, the latter
/// in their original order (first come stays first).
pub fn group_by_rating<T>(
    entries: Vec<T>,
    size: usize,
    key: impl Fn(&T) -> (AccountId, f64),
) -> (Vec<Vec<T>>, Vec<T>) {
    let size = size.max(1);
    let mut order: Vec<usize> = (0..entries.len()).collect();
    // Stable: equal ratings keep arrival order.
    order.sort_by(|&a, &b| key(&entries[a]).1.total_cmp(&key(&entries[b]).1));
    let mut taken = vec![false; entries.len()];
    let mut groups_idx: Vec<Vec<usize>> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut group: Vec<usize> = Vec::with_capacity(size);
        for &index in &order[start..] {
            if taken[index] {
                continue;
            }
            let account = key(&entries[index]).0;
            if group.iter().any(|&g| key(&entries[g]).0 == account) {
                continue;
            }
            group.push(index);
            if group.len() == size {
                break;
            }
        }
        if group.len() < size {
            break;
        }
        for &index in &group {
            taken[index] = true;
        }
        groups_idx.push(group);
        while start < order.len() && taken[order[start]] {
            start += 1;
        }
    }
    let mut slots: Vec<Option<T>> = entries.into_iter().map(Some).collect();
    let groups = groups_idx
        .into_iter()
        .map(|group| group.into_iter().filter_map(|i| slots[i].take()).collect())
        .collect();
    let rest = slots.into_iter().flatten().collect();
    (groups, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(groups: &[Vec<(i64, f64)>]) -> Vec<Vec<i64>> {
        groups
            .iter()
            .map(|g| g.iter().map(|e| e.0).collect())
            .collect()
    }

    #[test]
    fn pairs_neighbours_in_rating() {
        let entries = vec![
            (1, 1500.0),
            (2, 1000.0),
            (3, 1490.0),
            (4, 1010.0),
            (5, 2000.0),
        ];
        let (groups, rest) = group_by_rating(entries, 2, |e| *e);
        assert_eq!(ids(&groups), vec![vec![2, 4], vec![3, 1]]);
        assert_eq!(rest, vec![(5, 2000.0)]);
    }

    #[test]
    fn never_pairs_a_user_with_itself() {
        let entries = vec![(7, 1000.0), (7, 1000.0), (7, 1001.0)];
        let (groups, rest) = group_by_rating(entries, 2, |e| *e);
        assert!(groups.is_empty());
        assert_eq!(rest.len(), 3);
        let entries = vec![(7, 1000.0), (7, 1000.0), (8, 1500.0)];
        let (groups, rest) = group_by_rating(entries, 2, |e| *e);
        assert_eq!(ids(&groups), vec![vec![7, 8]]);
        assert_eq!(rest, vec![(7, 1000.0)]);
    }

    #[test]
    fn groups_of_three_and_leftovers_in_arrival_order() {
        let entries = vec![(1, 5.0), (2, 1.0), (3, 3.0), (4, 2.0), (5, 4.0)];
        let (groups, rest) = group_by_rating(entries, 3, |e| *e);
        assert_eq!(ids(&groups), vec![vec![2, 4, 3]]);
        assert_eq!(rest, vec![(1, 5.0), (5, 4.0)]);
    }

    #[test]
    fn every_entry_ends_in_exactly_one_place_and_groups_are_distinct() {
        // A deterministic spread of accounts (with repeats) and ratings.
        let entries: Vec<(i64, f64)> = (0..40)
            .map(|i| ((i * 7 % 13) as i64, ((i * 37) % 100) as f64))
            .collect();
        for size in 2..=4 {
            let (groups, rest) = group_by_rating(entries.clone(), size, |e| *e);
            let total: usize = groups.iter().map(Vec::len).sum::<usize>() + rest.len();
            assert_eq!(total, entries.len());
            for group in &groups {
                assert_eq!(group.len(), size);
                let mut accounts: Vec<i64> = group.iter().map(|e| e.0).collect();
                accounts.sort();
                accounts.dedup();
                assert_eq!(accounts.len(), size, "{group:?}");
            }
        }
    }
}
