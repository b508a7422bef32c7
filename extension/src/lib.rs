//! The Chrome MV3 extension, compiled to WebAssembly: the service worker that holds a run and relays
//! to the console tab's content script (`sw`), the side panel with **Verify this page** and step mode
//! (`panel`), and the options page (`options`), all speaking the protocol of [`messages`].
//!
//! **Verify this page** drives aca-run's run core in the service worker against the writer's own
//! signed-in console tab; the companion server provisions, decides the reward from ActionTrail and
//! cleans up. The parts without I/O build natively and are tested there: [`messages`], [`settings`],
//! [`origins`] (which sites it may use) and [`chat`] (the LLM policy's chat completion).
//!
//! `scripts/build-extension` builds this crate for wasm32, runs `wasm-bindgen --target web` and
//! assembles the unpacked extension next to `aca-dom`, whose content script walks every frame.

pub mod chat;
pub mod messages;
pub mod origins;
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
