//! What an observation should include, as the page side's `observe` takes it.

use serde::Serialize;

/// Options of one observation (passed to the page side as JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ObserveOptions {
    /// Draw the set-of-marks overlay (numbered boxes) and leave it on the page.
    pub mark: bool,
    /// At most this many elements are listed; the rest are summarised.
    pub max_elements: u32,
    /// List only elements inside the viewport and summarise the others by direction.
    pub viewport_only: bool,
}

impl Default for ObserveOptions {
    fn default() -> Self {
        Self {
            mark: false,
            max_elements: 400,
            viewport_only: false,
        }
    }
}
