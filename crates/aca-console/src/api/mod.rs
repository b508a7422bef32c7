//! The emulator's HTTP surfaces: the signed OpenAPI, the admin API, and their shared wiring.

pub mod admin;
pub mod nonce;
pub mod rpc;
pub mod signature;
