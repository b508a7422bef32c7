//! The platform dashboard served by `aca server`: what its API answers (`model`), and, on wasm32,
//! the leptos views over it (`app`) and the calls that fetch it (`api`).

pub mod model;

#[cfg(target_arch = "wasm32")]
mod api;
#[cfg(target_arch = "wasm32")]
mod app;

/// Mounts the dashboard into `index.html`'s body.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn start_dashboard() {
    leptos::mount::mount_to_body(app::Dashboard);
}
