//! The native protocol over TCP: JSON lines in, the session's lines out. Transports only
//! move lines; the session decides. (The same messages as WebSocket text frames are an
//! HTTP route: `http/ws.rs`.)

pub mod tcp;
