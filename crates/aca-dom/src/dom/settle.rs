//! Knowing when the page has settled: DOM mutations (a `MutationObserver` on the top document,
//! the overlay's own changes ignored), requests finishing (resource timing), requests in flight
//! through this world's `fetch`, and the page starting to unload. Also the clock and sleeping.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Promise, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MutationObserver, MutationObserverInit, MutationRecord, PerformanceObserver};

use super::js;
use super::walk::MARKS_ID;

/// How long the page must stay quiet to count as settled.
pub const QUIET_MS: f64 = 300.0;

#[derive(Default)]
struct Activity {
    installed: bool,
    last_change: f64,
    pending: u32,
    /// Set when the page started to unload (a navigation), with the time it happened.
    unloading_since: Option<f64>,
    /// Kept alive as long as the page: the observers' callbacks.
    keep: Vec<JsValue>,
}

thread_local! {
    static ACTIVITY: RefCell<Activity> = RefCell::new(Activity::default());
}

/// Milliseconds since the page started (`performance.now()`).
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: u32) {
    let Some(window) = web_sys::window() else { return };
    let promise = Promise::new(&mut |resolve, _| {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
    });
    let _ = JsFuture::from(promise).await;
}

fn touch() {
    let at = now();
    ACTIVITY.with(|a| a.borrow_mut().last_change = at);
}

fn is_overlay_record(record: &MutationRecord) -> bool {
    let inside_overlay = |node: Option<web_sys::Node>| {
        node.and_then(|n| js::as_element(n.into()))
            .is_some_and(|e| e.id() == MARKS_ID || e.closest(&format!("#{MARKS_ID}")).ok().flatten().is_some())
    };
    if inside_overlay(record.target()) {
        return true;
    }
    let added = record.added_nodes();
    let removed = record.removed_nodes();
    let nodes: Vec<web_sys::Node> = (0..added.length())
        .filter_map(|i| added.item(i))
        .chain((0..removed.length()).filter_map(|i| removed.item(i)))
        .collect();
    !nodes.is_empty() && nodes.into_iter().all(|n| inside_overlay(Some(n)))
}

/// Starts watching the page (once): mutations, finished requests, `fetch` calls, unloading.
pub fn install() {
    if ACTIVITY.with(|a| a.borrow().installed) {
        return;
    }
    let Ok(window) = js::top_window() else { return };
    let Ok(document) = js::top_document() else { return };
    let mut keep: Vec<JsValue> = Vec::new();

    let on_mutation = Closure::<dyn FnMut(Array, MutationObserver)>::new(|records: Array, _| {
        let relevant = records
            .iter()
            .map(|r| r.unchecked_into::<MutationRecord>())
            .any(|r| !is_overlay_record(&r));
        if relevant {
            touch();
        }
    });
    if let Ok(observer) = MutationObserver::new(on_mutation.as_ref().unchecked_ref()) {
        let init = MutationObserverInit::new();
        init.set_child_list(true);
        init.set_subtree(true);
        init.set_attributes(true);
        init.set_character_data(true);
        // The document itself, so that loading at document start (no root element yet) works.
        let _ = observer.observe_with_options(&document, &init);
        keep.push(observer.into());
    }
    keep.push(on_mutation.into_js_value());

    let on_resource = Closure::<dyn FnMut(JsValue, JsValue)>::new(|_, _| touch());
    if let Ok(observer) = PerformanceObserver::new(on_resource.as_ref().unchecked_ref()) {
        let options = js_sys::Object::new();
        let _ = Reflect::set(&options, &"entryTypes".into(), &Array::of1(&"resource".into()));
        let observe = js::method(&observer, "observe");
        if let Some(observe) = observe {
            let _ = observe.call1(&observer, &options);
        }
        keep.push(observer.into());
    }
    keep.push(on_resource.into_js_value());

    let on_unload = Closure::<dyn FnMut()>::new(|| {
        let at = now();
        ACTIVITY.with(|a| a.borrow_mut().unloading_since = Some(at));
    });
    for event in ["beforeunload", "pagehide"] {
        let _ = window.add_event_listener_with_callback(event, on_unload.as_ref().unchecked_ref());
    }
    keep.push(on_unload.into_js_value());

    wrap_fetch(&window, &mut keep);

    let at = now();
    ACTIVITY.with(|a| {
        let mut a = a.borrow_mut();
        a.installed = true;
        a.last_change = at;
        a.keep = keep;
    });
}

/// Counts `fetch` calls in flight. This sees the page's own requests only when aca-dom runs in
/// the page's world; in an isolated world finished requests still count through resource timing.
fn wrap_fetch(window: &web_sys::Window, keep: &mut Vec<JsValue>) {
    const MARK: &str = "__acaDomOriginalFetch";
    let Ok(original) = Reflect::get(window, &"fetch".into()) else {
        return;
    };
    let Some(original) = js::as_function(original) else {
        return;
    };
    if Reflect::has(window, &MARK.into()).unwrap_or(false) {
        return;
    }
    let _ = Reflect::set(window, &MARK.into(), &original);
    let target = window.clone();
    let wrapper = Closure::<dyn FnMut(JsValue, JsValue) -> JsValue>::new(move |input: JsValue, init: JsValue| {
        let result = original.call2(&target, &input, &init);
        let Ok(result) = result else {
            return result.unwrap_or_else(|e| Promise::reject(&e).into());
        };
        ACTIVITY.with(|a| a.borrow_mut().pending += 1);
        touch();
        let done = Rc::new(Cell::new(false));
        let finish = move || {
            if !done.replace(true) {
                ACTIVITY.with(|a| {
                    let mut a = a.borrow_mut();
                    a.pending = a.pending.saturating_sub(1);
                });
                touch();
            }
        };
        let on_ok = {
            let finish = finish.clone();
            Closure::once_into_js(move |_: JsValue| finish())
        };
        let on_err = Closure::once_into_js(move |_: JsValue| finish());
        if let Some(then) = js::method(&result, "then") {
            let _ = then.call2(&result, &on_ok, &on_err);
        }
        result
    });
    let _ = Reflect::set(window, &"fetch".into(), wrapper.as_ref());
    keep.push(wrapper.into_js_value());
}

/// Whether the page started to unload at or after `since` (a `performance.now()` time).
pub fn unloading_since(since: f64) -> bool {
    ACTIVITY.with(|a| a.borrow().unloading_since.is_some_and(|t| t >= since))
}

/// Whether the page says it is loading: an element marked `aria-busy="true"` (a list being
/// refreshed, a page about to reload after a save).
fn page_busy() -> bool {
    js::top_document()
        .ok()
        .and_then(|d| d.query_selector("[aria-busy=true]").ok().flatten())
        .is_some()
}

/// Waits until the page has been quiet for [`QUIET_MS`] with no known request in flight and
/// nothing marked busy (true), or `max_ms` passed (false).
pub async fn settle(max_ms: u32) -> bool {
    install();
    let start = now();
    loop {
        let (last, pending) = ACTIVITY.with(|a| {
            let a = a.borrow();
            (a.last_change, a.pending)
        });
        let t = now();
        if pending == 0 && t - last >= QUIET_MS && !page_busy() {
            return true;
        }
        if t - start >= f64::from(max_ms) {
            return false;
        }
        let until_quiet = (QUIET_MS - (t - last)).clamp(10.0, 50.0);
        sleep(until_quiet as u32).await;
    }
}
