//! The page side of the agent, compiled to WebAssembly and injected into console pages by the
//! extension and the headless runtime alike.
//!
//! It turns the live DOM into an [`aca_core::Observation`] (indexed elements with roles, names,
//! states and places; frames and shadow roots walked; off-screen parts summarised; elements under a
//! modal mask left out), draws set-of-marks labels, and executes [`aca_core::ActRequest`]s with the
//! event sequences a person's input produces. The JavaScript surface (`observe`, `observe_text`,
//! `act`, `mark`, `settle`, `bench_observe`) takes and returns JSON strings so that CDP callers can
//! use it through `Runtime.evaluate`.
//!
//! The decisions are pure Rust, unit-tested natively: [`role`], [`name`], [`places`],
//! [`visibility`], [`fingerprint`], [`keys`] and [`assemble`]. Everything that touches the DOM is
//! in `dom` and exists only on wasm32.

pub mod assemble;
pub mod fingerprint;
pub mod keys;
pub mod name;
pub mod places;
pub mod role;
pub mod visibility;

#[cfg(target_arch = "wasm32")]
mod dom;
