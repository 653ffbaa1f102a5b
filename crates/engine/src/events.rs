//! Where a ruleset's step puts its events: a list for the referee and the record, or
//! nowhere for a playout or a search that drops them ([`Game::apply_quietly`]). Rules
//! written against [`EventSink`] build events only when someone keeps them: with
//! [`Discard`] the optimiser removes their construction.
//!
//! [`Game::apply_quietly`]: crate::Game::apply_quietly

/// A destination for events of type `E`.
pub trait EventSink<E> {
    fn push(&mut self, event: E);
}

impl<E> EventSink<E> for Vec<E> {
    fn push(&mut self, event: E) {
        Vec::push(self, event);
    }
}

/// Events nobody reads (playouts and search).
pub struct Discard;

impl<E> EventSink<E> for Discard {
    fn push(&mut self, _event: E) {}
}
