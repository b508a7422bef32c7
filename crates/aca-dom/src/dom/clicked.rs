//! Step mode's take-over: the control a person's own click landed on, named as an observation
//! names it, so that the report can say what they used instead of the documented control.

use aca_core::ClickedControl;
use wasm_bindgen::JsCast;

use super::observe;
use crate::assemble::ObserveOptions;

/// The innermost listed control on the click's path, read from a fresh observation that leaves
/// the indices of the last one as they were; `None` when the click landed on no listed control.
/// Call it while the event is dispatched: its path is empty afterwards.
pub fn clicked(event: &web_sys::Event) -> Option<ClickedControl> {
    let path = event.composed_path();
    let (observation, handles) = observe::observe(&ObserveOptions::default(), false).ok()?;
    (0..path.length()).find_map(|i| {
        let node = path.get(i).dyn_into::<web_sys::Element>().ok()?;
        let at = handles.iter().position(|handle| *handle == node)?;
        let element = observation.elements.get(at)?;
        Some(ClickedControl {
            role: element.role,
            name: element.name.clone(),
        })
    })
}
