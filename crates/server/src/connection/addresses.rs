//! How many connections each client address holds, capped: one address cannot take all
//! of the server's sockets (and the memory each one may hold). A connection counts from
//! its acceptance to the drop of its [`AddressSlot`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use parking_lot::Mutex;

#[derive(Debug, Default)]
pub struct AddressCounts {
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection's place in its address's count, given back on drop.
#[derive(Debug)]
pub struct AddressSlot {
    counts: Arc<AddressCounts>,
    address: IpAddr,
}

impl AddressCounts {
    /// A slot for a new connection from `address`, or `None` when it already holds `max`.
    pub fn enter(self: &Arc<Self>, address: IpAddr, max: usize) -> Option<AddressSlot> {
        let mut held = self.held.lock();
        let count = held.entry(address).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            counts: self.clone(),
            address,
        })
    }

    /// Connections `address` holds now.
    pub fn held(&self, address: IpAddr) -> usize {
        self.held.lock().get(&address).copied().unwrap_or(0)
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut held = self.counts.held.lock();
        if let Some(count) = held.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_cap_and_gets_slots_back() {
        let counts = Arc::new(AddressCounts::default());
        let home: IpAddr = [127, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let first = counts.enter(home, 2).unwrap();
        let _second = counts.enter(home, 2).unwrap();
        assert!(counts.enter(home, 2).is_none());
        assert!(counts.enter(other, 2).is_some(), "per address");
        drop(first);
        assert_eq!(counts.held(home), 1);
        assert!(counts.enter(home, 2).is_some());
    }
}
