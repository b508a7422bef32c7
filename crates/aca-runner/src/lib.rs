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
//!
//! How it works:
//! - [`Runner`] launches Chromium headless with a fresh profile folder and kills its whole process
//!   tree on `close`, on drop and when a panic unwinds through its owner.
//! - [`Session::open`] registers the page side's script (`aca_dom.js` with `aca_dom_bg.wasm` inlined as
//!   base64) with `Page.addScriptToEvaluateOnNewDocument` in the isolated world [`WORLD_NAME`], for every
//!   frame of every document the tab loads, and bypasses the page's CSP so that the module compiles
//!   anywhere. The page's own scripts never see it. Calls go through `Page.createIsolatedWorld` (which
//!   returns that same world) and `Runtime.evaluate`; a world without the page side gets it injected.
//! - Same-origin frames and open shadow roots are walked by the page side from the top frame.
//!   Cross-origin frames (out-of-process iframes) are separate CDP targets: the session attaches to each
//!   one as a child session, injects the page side there, and [`Session::observe`] appends that frame's
//!   elements (renumbered after the top frame's, boxes moved by the frame's position, inside a `frame`
//!   place) and removes it from `unwalked_frames`; [`Session::act`] sends an action on one of them to
//!   that frame under its own index. Frames nested inside a cross-origin frame are not followed.
//! - [`Session::act`] leaves most actions to the page side (real DOM event sequences, stale indexes
//!   found again by fingerprint, disabled or covered elements reported) and uses trusted CDP input
//!   where synthetic events fall short: `hover` moves the real pointer (only that makes CSS `:hover`
//!   menus open), and `type` into an input inside a shadow root clicks it and inserts the text. After
//!   each action the runtime waits for the page to settle (no request in flight, no DOM churn) and
//!   reports a navigation the action caused as `Navigated` once the new page has its page side; a
//!   crashed tab gives `Failed`, a page that does not settle in time `Timeout`.

mod act;
mod child;
mod config;
mod error;
pub mod find;
mod frames;
mod inject;
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
pub use input::press_key;
pub use options::ObserveOptions;
pub use page_side::{GLUE_FILE, PageSide, WASM_FILE, WORLD_NAME};
pub use runner::Runner;
pub use session::Session;
