//! Scrolling by about one viewport: the page, or the scrolling container an element sits in.

use aca_core::{ActionOutcome, Fingerprint, ScrollDirection};
use web_sys::{Element, ScrollBehavior, ScrollToOptions};

use super::super::js;
use super::target::resolve;

/// The share of a viewport one scroll moves, leaving some context on screen.
const STEP: f64 = 0.8;

fn vertical(direction: ScrollDirection) -> bool {
    matches!(direction, ScrollDirection::Up | ScrollDirection::Down)
}

/// The element itself or its nearest ancestor that scrolls in the direction's axis.
fn scroll_container(element: &Element, direction: ScrollDirection) -> Option<Element> {
    let mut current = Some(element.clone());
    while let Some(e) = current {
        let tag = e.local_name();
        if tag == "html" || tag == "body" {
            return None;
        }
        let style = js::window_of(&e).and_then(|w| js::computed_style(&w, &e));
        let axis = if vertical(direction) {
            "overflow-y"
        } else {
            "overflow-x"
        };
        let overflow = style.map(|s| js::style_value(&s, axis)).unwrap_or_default();
        let room = if vertical(direction) {
            e.scroll_height() > e.client_height()
        } else {
            e.scroll_width() > e.client_width()
        };
        if room && (overflow == "auto" || overflow == "scroll") {
            return Some(e);
        }
        current = js::composed_parent(&e);
    }
    None
}

fn delta(direction: ScrollDirection, width: f64, height: f64) -> (f64, f64) {
    match direction {
        ScrollDirection::Up => (0.0, -height * STEP),
        ScrollDirection::Down => (0.0, height * STEP),
        ScrollDirection::Left => (-width * STEP, 0.0),
        ScrollDirection::Right => (width * STEP, 0.0),
    }
}

fn options(dx: f64, dy: f64) -> ScrollToOptions {
    let options = ScrollToOptions::new();
    options.set_left(dx);
    options.set_top(dy);
    options.set_behavior(ScrollBehavior::Instant);
    options
}

pub async fn scroll(
    direction: ScrollDirection,
    index: Option<u32>,
    wanted: Option<&Fingerprint>,
    timeout_ms: u32,
) -> ActionOutcome {
    let mut reresolved = false;
    let container = match index {
        Some(index) => match resolve(index, wanted, timeout_ms).await {
            Ok(target) => {
                reresolved = target.reresolved;
                scroll_container(&target.element, direction)
            }
            Err(outcome) => return outcome,
        },
        None => None,
    };
    match container {
        Some(element) => {
            let (dx, dy) = delta(
                direction,
                f64::from(element.client_width()),
                f64::from(element.client_height()),
            );
            element.scroll_by_with_scroll_to_options(&options(dx, dy));
        }
        None => {
            let window = match js::top_window() {
                Ok(w) => w,
                Err(message) => return ActionOutcome::Failed { message },
            };
            let view = js::viewport(&window);
            let (dx, dy) = delta(direction, view.width, view.height);
            window.scroll_by_with_scroll_to_options(&options(dx, dy));
        }
    }
    ActionOutcome::Done { reresolved }
}
