//! Choosing an element by hand (step mode's Edit): the person's next click on the page names an
//! indexed element of the last observation instead of acting on the page, with the marks shown.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::settle::sleep;
use super::{js, marks, observe};

/// The kinds of events a pick keeps from the page: what a click sets off.
const SWALLOWED: &[&str] = &["pointerdown", "mousedown", "pointerup", "mouseup", "click"];

/// Waits at most `max_ms` for a click on the page; the index of the innermost indexed element it
/// landed on, `Ok(None)` when it landed on none or no click came in time (Escape ends it too).
pub async fn pick(max_ms: u32) -> Result<Option<u32>, String> {
    let document = js::top_document()?;
    let indexed = observe::all_indexed();
    if indexed.is_empty() {
        return Err("observe the page first: there is nothing to pick from".into());
    }
    // `Some(answer)` once the pick is over.
    let chosen: Rc<Cell<Option<Option<u32>>>> = Rc::new(Cell::new(None));
    let on_event = {
        let chosen = chosen.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            event.prevent_default();
            event.stop_immediate_propagation();
            if event.type_() != "click" {
                return;
            }
            let path = event.composed_path();
            let hit = (0..path.length()).find_map(|i| {
                let node = path.get(i).dyn_into::<web_sys::Element>().ok()?;
                indexed.iter().find(|(_, element)| *element == node).map(|(index, _)| *index)
            });
            chosen.set(Some(hit));
        })
    };
    let on_key = {
        let chosen = chosen.clone();
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |event: web_sys::KeyboardEvent| {
            if event.key() == "Escape" {
                event.prevent_default();
                chosen.set(Some(None));
            }
        })
    };
    let options = web_sys::AddEventListenerOptions::new();
    options.set_capture(true);
    for kind in SWALLOWED {
        let _ = document.add_event_listener_with_callback_and_add_event_listener_options(
            kind,
            on_event.as_ref().unchecked_ref(),
            &options,
        );
    }
    let _ = document.add_event_listener_with_callback_and_add_event_listener_options(
        "keydown",
        on_key.as_ref().unchecked_ref(),
        &options,
    );
    let _ = marks::draw();
    let mut waited = 0;
    while chosen.get().is_none() && waited < max_ms {
        sleep(50).await;
        waited += 50;
    }
    for kind in SWALLOWED {
        let _ = document.remove_event_listener_with_callback_and_bool(kind, on_event.as_ref().unchecked_ref(), true);
    }
    let _ = document.remove_event_listener_with_callback_and_bool("keydown", on_key.as_ref().unchecked_ref(), true);
    marks::remove();
    Ok(chosen.get().flatten())
}
