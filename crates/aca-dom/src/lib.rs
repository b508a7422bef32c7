//! The page side of the agent, compiled to WebAssembly and injected into console pages by the
//! extension and the headless runtime alike.
//!
//! It turns the live DOM into an [`aca_core::Observation`] (indexed elements with roles, names,
//! states and places; frames and shadow roots walked; off-screen parts summarised; elements under a
//! modal mask left out), draws set-of-marks labels, and executes [`aca_core::ActRequest`]s with the
//! event sequences a person's input produces. The JavaScript surface (`observe`, `observe_text`,
//! `act`, `mark`, `outline`, `pick`, `settle`, `bench_observe`) takes and returns JSON strings so that CDP callers can
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

#[cfg(target_arch = "wasm32")]
pub use exports::*;

/// The JavaScript surface. Strings in, strings out (JSON), so CDP callers can use it with
/// `Runtime.evaluate`; `act` and `settle` return promises.
#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::*;

    use crate::assemble::ObserveOptions;
    use crate::dom::{act as actions, marks, observe as observing, pick as picking, settle as settling};

    fn options(json: &str) -> Result<ObserveOptions, JsError> {
        ObserveOptions::parse(json).map_err(|e| JsError::new(&e))
    }

    /// Starts watching DOM mutations and requests as soon as the module is instantiated, so that
    /// `settle` knows how long the page has been quiet.
    #[wasm_bindgen(start)]
    pub fn start() {
        settling::install();
    }

    /// The page as an Observation (JSON). Options (JSON, all optional):
    /// `{"mark": bool, "max_elements": n, "viewport_only": bool}`. Throws on invalid options.
    #[wasm_bindgen]
    pub fn observe(options_json: &str) -> Result<String, JsError> {
        let options = options(options_json)?;
        let (observation, _) = observing::observe(&options, true).map_err(|e| JsError::new(&e))?;
        serde_json::to_string(&observation).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The text tree of a fresh observation (`Observation::to_text`).
    #[wasm_bindgen]
    pub fn observe_text(options_json: &str) -> Result<String, JsError> {
        let options = options(options_json)?;
        let (observation, _) = observing::observe(&options, true).map_err(|e| JsError::new(&e))?;
        Ok(observation.to_text())
    }

    /// Runs an ActRequest (JSON); resolves to an ActionOutcome (JSON). Never rejects.
    #[wasm_bindgen]
    pub async fn act(request_json: String) -> String {
        let outcome = actions::act(&request_json).await;
        serde_json::to_string(&outcome)
            .unwrap_or_else(|e| format!(r#"{{"outcome":"failed","message":"cannot encode the outcome: {e}"}}"#))
    }

    /// For a click or hover ActRequest (JSON): resolves to an Aim (JSON), the point where a runtime
    /// with trusted input should press or move the real pointer. Never rejects.
    #[wasm_bindgen]
    pub async fn aim(request_json: String) -> String {
        let aim = actions::aim(&request_json).await;
        serde_json::to_string(&aim).unwrap_or_else(|e| {
            format!(r#"{{"aim":"refused","because":{{"outcome":"failed","message":"cannot encode the aim: {e}"}}}}"#)
        })
    }

    /// Draws (true) or removes (false) the set-of-marks overlay for the last observation.
    #[wasm_bindgen]
    pub fn mark(show: bool) -> Result<(), JsError> {
        if show {
            marks::draw().map_err(|e| JsError::new(&e))
        } else {
            marks::remove();
            Ok(())
        }
    }

    /// Draws the mark of element `index` of the last observation alone (step mode's proposal);
    /// `mark(false)` removes it.
    #[wasm_bindgen]
    pub fn outline(index: u32) -> Result<(), JsError> {
        marks::outline(index).map_err(|e| JsError::new(&e))
    }

    /// Waits at most `max_ms` for the person to click an element of the last observation (the
    /// marks shown, the click kept from the page); resolves to its index, or null.
    #[wasm_bindgen]
    pub async fn pick(max_ms: u32) -> Result<Option<u32>, JsError> {
        picking::pick(max_ms).await.map_err(|e| JsError::new(&e))
    }

    /// Step mode's take-over: the control a person's own click landed on, as JSON
    /// `{"role", "name"}`, or null when it landed on no control an observation lists. Call it from
    /// the click's listener, while the event is dispatched.
    #[wasm_bindgen]
    pub fn clicked(event: web_sys::Event) -> Option<String> {
        crate::dom::clicked::clicked(&event).and_then(|control| serde_json::to_string(&control).ok())
    }

    /// Resolves to true once the page had no DOM mutation for ~300 ms and no known request in
    /// flight, or to false when `max_ms` passed first.
    #[wasm_bindgen]
    pub async fn settle(max_ms: u32) -> bool {
        settling::settle(max_ms).await
    }

    /// Times `runs` observations (without changing what indices refer to): JSON with `runs`,
    /// `p50_ms`, `p99_ms`, `mean_ms`, `max_ms`, the page's `dom_nodes` and the listed `elements`.
    #[wasm_bindgen]
    pub fn bench_observe(options_json: &str, runs: u32) -> Result<String, JsError> {
        let options = options(options_json)?;
        let runs = runs.max(1);
        let mut times: Vec<f64> = Vec::with_capacity(runs as usize);
        let mut elements = 0;
        for _ in 0..runs {
            let start = settling::now();
            let (observation, _) = observing::observe(&options, false).map_err(|e| JsError::new(&e))?;
            times.push(settling::now() - start);
            elements = observation.elements.len();
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[(((times.len() - 1) as f64) * q).round() as usize];
        let dom_nodes = crate::dom::js::top_document()
            .ok()
            .and_then(|d| d.query_selector_all("*").ok())
            .map(|l| l.length())
            .unwrap_or(0);
        let report = serde_json::json!({
            "runs": runs,
            "p50_ms": at(0.5),
            "p99_ms": at(0.99),
            "mean_ms": times.iter().sum::<f64>() / times.len() as f64,
            "max_ms": at(1.0),
            "dom_nodes": dom_nodes,
            "elements": elements,
        });
        Ok(report.to_string())
    }

    /// The crate version, so runtimes can tell which build they injected.
    #[wasm_bindgen]
    pub fn version() -> String {
        env!("CARGO_PKG_VERSION").to_owned()
    }
}
