//! The emulator's HTTP surfaces: the signed OpenAPI, the admin API, and their shared wiring.
//! Signatures are computed by `aca_openapi::sign`, the same code clients sign with.

pub mod admin;
pub mod nonce;
pub mod rpc;
