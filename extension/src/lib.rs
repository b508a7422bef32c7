//! The Chrome MV3 extension, compiled to WebAssembly: the service worker that holds a run and relays
//! to the console tab's content script (`sw`), the side panel with **Verify this page** and step mode
//! (`panel`), and the options page (`options`), all speaking the protocol of [`messages`].
//!
//! `scripts/build-extension` builds this crate for wasm32, runs `wasm-bindgen --target web` and
//! assembles the unpacked extension next to `aca-dom`, whose content script walks every frame.

pub mod audit;
pub mod console;
pub mod messages;
pub mod report;
pub mod settings;

#[cfg(target_arch = "wasm32")]
pub mod chrome;
#[cfg(target_arch = "wasm32")]
mod http;
#[cfg(target_arch = "wasm32")]
mod options;
#[cfg(target_arch = "wasm32")]
mod panel;
#[cfg(target_arch = "wasm32")]
mod rpc;
#[cfg(target_arch = "wasm32")]
pub mod server;
#[cfg(target_arch = "wasm32")]
mod sw;
