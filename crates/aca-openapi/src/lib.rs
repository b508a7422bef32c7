//! Alibaba Cloud's OpenAPI, client side and verifier side alike.
//!
//! [`sign`] holds the request signatures (RPC 1.0 HMAC-SHA1 and V3 `ACS3-HMAC-SHA256`) as pure
//! functions: the bundled emulator verifies with them, clients sign with them, and the module builds
//! for wasm32. [`client`] (feature `client`, on by default, native only) is a signed RPC client that
//! talks to the real cloud and to the emulator the same way. [`endpoint`] resolves each product's
//! endpoint per region as the official SDKs do, with one override for the emulator. [`private_file`] keeps files that hold secrets their
//! owner's only.

pub mod endpoint;
#[cfg(not(target_arch = "wasm32"))]
pub mod private_file;
pub mod sign;

#[cfg(feature = "client")]
pub mod client;

#[cfg(feature = "client")]
pub use client::{AccessKeyPair, ApiFailure, ClientError, RpcClient};
pub use endpoint::Endpoints;
pub use sign::{RpcRequest, sign_rpc};
