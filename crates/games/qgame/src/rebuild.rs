//! A full state from one seat's view, for players that receive only views.
//!
//! Everything but the other hands and the pile order is in the view. The tiles the seat
//! cannot see are public arithmetic: the game's tiles (the full set, or `state0`'s
//! map, pile and hands) minus the map minus the seat's own hand. They are shuffled and
//! dealt back into the public hand sizes and the pile, as `determinize` does.

use std::collections::BTreeMap;

use arbiter_engine::{GameRng, Seat};
use rand::seq::SliceRandom;

use crate::config::Config;
use crate::state::{PlayerState, State, MAX_PLAYERS};
use crate::tile::Tile;
use crate::view::View;

/// Every tile the game was played with.
fn game_tiles(config: &Config) -> Vec<Tile> {
    match &config.state0 {
        None => Tile::full_set(),
        Some(state0) => state0
            .map
            .iter()
            .map(|(_, tile)| tile)
            .chain(state0.pile.iter().copied())
            .chain(state0.players.iter().flat_map(|p| p.tiles.iter().copied()))
            .collect(),
    }
}

/// The state `seat` may be in, given its `view`; see `Game::state_from_view`.
pub fn state_from_view(
    config: &Config,
    view: &View,
    seat: Seat,
    rng: &mut GameRng,
) -> Result<State, String> {
    if view.you != Some(seat) {
        return Err(format!("this is not seat {seat}'s view"));
    }
    let seats = view.players.len();
    if seat >= seats || seats > MAX_PLAYERS {
        return Err(format!("seat {seat} in a view of {seats} players"));
    }
    if (view.qbo, view.fbo) != (config.qbo, config.fbo) {
        return Err("the view's bonuses differ from the configuration's".to_string());
    }
    let listed = |seats_list: &[Seat]| seats_list.iter().all(|&s| s < seats);
    if !listed(&view.turn_order) || !listed(&view.round_left) || !listed(&view.ejection_order) {
        return Err("the view names a seat that does not exist".to_string());
    }
    let own = view.players[seat]
        .hand
        .clone()
        .ok_or("the view does not show the seat's own hand")?;
    if own.len() != view.players[seat].hand_size {
        return Err("the seat's hand and its hand size disagree".to_string());
    }

    let mut unseen: BTreeMap<Tile, usize> = BTreeMap::new();
    for tile in game_tiles(config) {
        *unseen.entry(tile).or_default() += 1;
    }
    for tile in view
        .map
        .iter()
        .map(|(_, tile)| tile)
        .chain(own.iter().copied())
    {
        match unseen.get_mut(&tile) {
            Some(count) if *count > 0 => *count -= 1,
            _ => {
                return Err(format!(
                    "the view shows more {tile} tiles than the game has"
                ))
            }
        }
    }
    // Canonical (sorted) order before shuffling, so the draw depends on the rng only.
    let mut pool: Vec<Tile> = unseen
        .into_iter()
        .flat_map(|(tile, count)| std::iter::repeat_n(tile, count))
        .collect();
    let hidden: usize = view.pile
        + (0..seats)
            .filter(|&s| s != seat)
            .map(|s| view.players[s].hand_size)
            .sum::<usize>();
    if pool.len() != hidden {
        return Err(format!(
            "the view hides {hidden} tiles but the game leaves {} unseen",
            pool.len()
        ));
    }
    pool.shuffle(rng);
    let mut pool = pool.into_iter();

    let players = view
        .players
        .iter()
        .enumerate()
        .map(|(s, p)| PlayerState {
            name: p.name.clone(),
            score: p.score,
            hand: if s == seat {
                own.clone()
            } else {
                pool.by_ref().take(p.hand_size).collect()
            },
            ejected: p.ejected.clone(),
        })
        .collect();
    let state = State {
        map: view.map.clone(),
        pile: pool.collect(),
        players,
        queue: view.turn_order.clone(),
        round_left: view.round_left.clone(),
        placed_this_round: view.placed_this_round,
        ejection_order: view.ejection_order.clone(),
        over: view.over,
        qbo: view.qbo,
        fbo: view.fbo,
        // Only ejections read these, and a thinking player ejects nobody.
        course_calls: false,
        undelivered: None,
    };
    if state.active() != view.to_act {
        return Err("the view's seat to act disagrees with its turn order".to_string());
    }
    Ok(state)
}
