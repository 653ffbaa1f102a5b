//! The four colonist kinds, and the per-kind counters built on them (hands, bag
//! composition, resources).
//!
//! Every kind has a colonist tile, a leader and a resource, so one enum indexes all
//! three; the counters are small named structs rather than arrays so that configs,
//! actions and views read well as JSON.

use serde::{Deserialize, Serialize};

/// A colonist kind (and the matching leader kind).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Scientists; their leader is the lead scientist; they produce Technology.
    #[default]
    Scientist,
    /// Mining robots; only they may colonize uninhabitable cells; Raw Materials.
    Mining,
    /// Merchants; their leader harvests artifacts; Money.
    Merchant,
    /// Settlers; their leader collects for kinds without a leader in the region; People.
    Settler,
}

impl Kind {
    /// All kinds in their canonical order (also the default order of conflicts).
    pub const ALL: [Kind; 4] = [Kind::Scientist, Kind::Mining, Kind::Merchant, Kind::Settler];

    pub fn index(self) -> usize {
        match self {
            Kind::Scientist => 0,
            Kind::Mining => 1,
            Kind::Merchant => 2,
            Kind::Settler => 3,
        }
    }

    /// The colonist's name for people.
    pub fn colonist_name(self) -> &'static str {
        match self {
            Kind::Scientist => "scientist",
            Kind::Mining => "mining robot",
            Kind::Merchant => "merchant",
            Kind::Settler => "settler",
        }
    }

    /// The resource this kind produces.
    pub fn resource_name(self) -> &'static str {
        match self {
            Kind::Scientist => "Technology",
            Kind::Mining => "Raw Materials",
            Kind::Merchant => "Money",
            Kind::Settler => "People",
        }
    }

    /// Colony letter in the text rendering (leaders use the lowercase letter).
    pub fn letter(self) -> char {
        match self {
            Kind::Scientist => 'S',
            Kind::Mining => 'R',
            Kind::Merchant => 'M',
            Kind::Settler => 'P',
        }
    }
}

/// Colonist tiles by kind: a hand, a bag composition, a swap or a discard pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tiles {
    pub scientist: u32,
    pub mining: u32,
    pub merchant: u32,
    pub settler: u32,
}

impl Tiles {
    pub fn new(scientist: u32, mining: u32, merchant: u32, settler: u32) -> Self {
        Tiles {
            scientist,
            mining,
            merchant,
            settler,
        }
    }

    pub fn get(&self, kind: Kind) -> u32 {
        match kind {
            Kind::Scientist => self.scientist,
            Kind::Mining => self.mining,
            Kind::Merchant => self.merchant,
            Kind::Settler => self.settler,
        }
    }

    pub fn get_mut(&mut self, kind: Kind) -> &mut u32 {
        match kind {
            Kind::Scientist => &mut self.scientist,
            Kind::Mining => &mut self.mining,
            Kind::Merchant => &mut self.merchant,
            Kind::Settler => &mut self.settler,
        }
    }

    pub fn total(&self) -> u32 {
        Kind::ALL.iter().map(|&k| self.get(k)).sum()
    }

    /// Whether every count of `other` is available here.
    pub fn contains(&self, other: &Tiles) -> bool {
        Kind::ALL.iter().all(|&k| self.get(k) >= other.get(k))
    }

    /// Counts of the tiles in a list.
    pub fn from_kinds(kinds: &[Kind]) -> Self {
        let mut tiles = Tiles::default();
        for &kind in kinds {
            *tiles.get_mut(kind) += 1;
        }
        tiles
    }

    /// The tiles as a list in canonical kind order.
    pub fn to_kinds(&self) -> Vec<Kind> {
        Kind::ALL
            .iter()
            .flat_map(|&k| std::iter::repeat_n(k, self.get(k) as usize))
            .collect()
    }

    /// Remove `other`; the caller has checked [`Tiles::contains`].
    pub(crate) fn take(&mut self, other: &Tiles) {
        for kind in Kind::ALL {
            let slot = self.get_mut(kind);
            *slot = slot.saturating_sub(other.get(kind));
        }
    }

    pub(crate) fn add(&mut self, other: &Tiles) {
        for kind in Kind::ALL {
            *self.get_mut(kind) += other.get(kind);
        }
    }
}

/// A player's resource totals, one per kind (secret until the game ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Resources {
    /// From scientists.
    pub technology: u32,
    /// From mining robots.
    pub raw_materials: u32,
    /// From merchants.
    pub money: u32,
    /// From settlers.
    pub people: u32,
}

impl Resources {
    pub fn new(technology: u32, raw_materials: u32, money: u32, people: u32) -> Self {
        Resources {
            technology,
            raw_materials,
            money,
            people,
        }
    }

    pub fn get(&self, kind: Kind) -> u32 {
        match kind {
            Kind::Scientist => self.technology,
            Kind::Mining => self.raw_materials,
            Kind::Merchant => self.money,
            Kind::Settler => self.people,
        }
    }

    pub fn get_mut(&mut self, kind: Kind) -> &mut u32 {
        match kind {
            Kind::Scientist => &mut self.technology,
            Kind::Mining => &mut self.raw_materials,
            Kind::Merchant => &mut self.money,
            Kind::Settler => &mut self.people,
        }
    }

    /// The four totals in kind order.
    pub fn to_array(&self) -> [u32; 4] {
        Kind::ALL.map(|k| self.get(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_round_trip_through_lists() {
        let tiles = Tiles::new(2, 0, 1, 3);
        assert_eq!(Tiles::from_kinds(&tiles.to_kinds()), tiles);
        assert_eq!(tiles.total(), 6);
        assert!(tiles.contains(&Tiles::new(1, 0, 1, 0)));
        assert!(!tiles.contains(&Tiles::new(0, 1, 0, 0)));
    }

    #[test]
    fn kinds_serialize_in_snake_case() {
        assert_eq!(
            serde_json::to_string(&Kind::Merchant).unwrap_or_default(),
            "\"merchant\""
        );
    }
}
