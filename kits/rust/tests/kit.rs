//! The kit's tests, one binary: its message types against the server's, and every kit
//! (this one, Python's, JavaScript's) playing whole matches against a real server.

mod every_kit;
mod protocol_types;
