//! The headless runtime: Chromium over CDP with the `aca-dom` page side injected into every frame
//! (in an isolated world, from inlined bytes), so that an episode can observe a page, act on it and
//! capture it without any browser extension.
//!
//! ```no_run
//! # async fn run() -> Result<(), aca_runner::RunnerError> {
//! use aca_runner::{ObserveOptions, Runner, RunnerConfig, Session};
//! let runner = Runner::launch(RunnerConfig::default()).await?;
//! let mut session = Session::open(&runner, "http://127.0.0.1:8080/login").await?;
//! println!("{}", session.observe_text(&ObserveOptions::default()).await?);
//! runner.close().await;
//! # Ok(()) }
//! ```

mod child;
mod config;
mod error;
pub mod find;
mod frames;
mod input;
pub mod logon;
mod options;
mod page_side;
pub mod process;
mod runner;
mod session;
mod watch;
mod world;

pub use config::RunnerConfig;
pub use error::RunnerError;
pub use options::ObserveOptions;
pub use page_side::{GLUE_FILE, PageSide, WASM_FILE, WORLD_NAME};
pub use runner::Runner;
pub use session::Session;
