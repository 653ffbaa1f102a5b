//! The search tree: an arena of nodes, each an edge "seat played action" with its
//! statistics, looked up by fingerprint and chosen by UCB with availability counts.
//!
//! Under hidden information a move may be possible in one determinization and not in
//! another, so a child's exploration term counts the iterations in which it was
//! *available* rather than its parent's visits (Cowling, Powley and Whitehouse's
//! information-set MCTS).

use arbiter_engine::Seat;

pub type NodeId = usize;

pub struct Node<A> {
    /// Who played `action` to reach this node (unused at the root).
    pub seat: Seat,
    /// `None` only at the root.
    pub action: Option<A>,
    pub key: u64,
    pub visits: u32,
    /// Iterations in which this move was among the candidates at its parent.
    pub available: u32,
    /// Sum of `seat`'s rewards over the visits.
    pub reward: f64,
    /// Children sorted by key.
    children: Vec<NodeId>,
}

impl<A> Node<A> {
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / f64::from(self.visits)
        }
    }
}

pub struct Tree<A> {
    pub nodes: Vec<Node<A>>,
}

pub const ROOT: NodeId = 0;

impl<A: PartialEq> Tree<A> {
    pub fn new(root_seat: Seat) -> Self {
        Tree {
            nodes: vec![Node {
                seat: root_seat,
                action: None,
                key: 0,
                visits: 0,
                available: 0,
                reward: 0.0,
                children: Vec::new(),
            }],
        }
    }

    /// The child of `node` for (`seat`, `action`) with fingerprint `key`, if expanded.
    pub fn child(&self, node: NodeId, seat: Seat, key: u64, action: &A) -> Option<NodeId> {
        let children = &self.nodes[node].children;
        let start = children.partition_point(|&c| self.nodes[c].key < key);
        children[start..]
            .iter()
            .take_while(|&&c| self.nodes[c].key == key)
            .copied()
            .find(|&c| self.nodes[c].seat == seat && self.nodes[c].action.as_ref() == Some(action))
    }

    /// Add the child (`seat`, `action`) under `node`; it counts as available once.
    pub fn expand(&mut self, node: NodeId, seat: Seat, key: u64, action: A) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node {
            seat,
            action: Some(action),
            key,
            visits: 0,
            available: 1,
            reward: 0.0,
            children: Vec::new(),
        });
        let position = {
            let nodes = &self.nodes;
            nodes[node]
                .children
                .partition_point(|&c| nodes[c].key <= key)
        };
        self.nodes[node].children.insert(position, id);
        id
    }

    /// The available child with the best upper confidence bound for its own seat.
    pub fn select(&self, available: &[NodeId], exploration: f64) -> Option<NodeId> {
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for &child in available {
            let node = &self.nodes[child];
            let visits = f64::from(node.visits.max(1));
            let available = f64::from(node.available.max(1));
            let score = node.mean() + exploration * (available.ln() / visits).sqrt();
            if score > best_score {
                best_score = score;
                best = Some(child);
            }
        }
        best
    }

    /// Add one iteration's result to every node on `path` (root first).
    pub fn backup(&mut self, path: &[NodeId], reward_of: impl Fn(Seat) -> f64) {
        for &id in path {
            let node = &mut self.nodes[id];
            node.visits += 1;
            node.reward += reward_of(node.seat);
        }
    }
}
