//! The kit's tests, one binary: its message types against the server's, and every kit
//! (this one, Python's, JavaScript's) playing whole matches against a real server, and
//! through a restart of that server.

mod every_kit;
mod protocol_types;
mod restart;
