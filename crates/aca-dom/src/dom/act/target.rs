//! Finding the element an action is for (by index, or again by fingerprint when the index went
//! stale) and waiting until a person could act on it: shown, in view, enabled, not covered.

use aca_core::{ActionOutcome, Fingerprint, NotActionable, Rect};
use web_sys::{Element, ScrollBehavior, ScrollIntoViewOptions, ScrollLogicalPosition};

use super::super::{describe, name, observe, settle, states, visibility};
use crate::assemble::fingerprints;
use crate::fingerprint::best_match;
use crate::visibility::Visibility;

/// An action's element and whether it had to be found again.
pub struct Target {
    pub element: Element,
    pub reresolved: bool,
}

/// What an action needs of its element besides being visible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Enabled and the topmost thing under the pointer.
    Pointer,
    /// Enabled, not covered, and editable.
    Text,
    /// Under the pointer; disabled is fine (its tooltip says why).
    Hover,
}

/// Finds the element behind `index`: the one the last observation listed if it is still in the
/// page, else the best match for the fingerprint (the request's, or the one remembered for the
/// index), retried until `timeout_ms` while the page re-renders.
pub async fn resolve(index: u32, wanted: Option<&Fingerprint>, timeout_ms: u32) -> Result<Target, ActionOutcome> {
    let remembered = observe::indexed(index);
    if let Some((element, fingerprint)) = &remembered {
        let same_observation = wanted.is_none_or(|w| w == fingerprint);
        let same_element = match fingerprint.role {
            Some(role) if role != aca_core::Role::Cell && !fingerprint.name.is_empty() => {
                describe::current_name(element, role) == fingerprint.name
            }
            _ => true,
        };
        if same_observation && visibility::attached(element) && same_element {
            return Ok(Target {
                element: element.clone(),
                reresolved: false,
            });
        }
    }
    let Some(wanted) = wanted.cloned().or(remembered.map(|(_, f)| f)) else {
        return Err(ActionOutcome::ElementNotFound { index });
    };
    let start = settle::now();
    loop {
        if let Some(element) = find(&wanted) {
            return Ok(Target {
                element,
                reresolved: true,
            });
        }
        if settle::now() - start >= f64::from(timeout_ms) {
            return Err(ActionOutcome::ElementNotFound { index });
        }
        settle::sleep(100).await;
    }
}

/// The element of the current page that best fits a fingerprint.
pub fn find(wanted: &Fingerprint) -> Option<Element> {
    let mut walked = super::super::walk::walk().ok()?;
    walked.complete_all();
    let prints = fingerprints(&walked.candidates);
    let visible: Vec<(usize, &Fingerprint)> = prints
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.as_ref().map(|f| (i, f)))
        .collect();
    let best = best_match(visible.iter().map(|(_, f)| *f), wanted)?;
    walked.handles.get(visible[best].0).cloned()
}

fn scroll_into_view(element: &Element) {
    let options = ScrollIntoViewOptions::new();
    options.set_block(ScrollLogicalPosition::Center);
    options.set_inline(ScrollLogicalPosition::Nearest);
    options.set_behavior(ScrollBehavior::Instant);
    element.scroll_into_view_with_scroll_into_view_options(&options);
}

/// Waits (up to `timeout_ms`) until a person could act on `element`, scrolling it into view once
/// when it is off-screen. Returns the visible part of its box, or why it cannot take the action.
pub async fn actionable(element: &Element, index: u32, need: Need, timeout_ms: u32) -> Result<Rect, ActionOutcome> {
    let start = settle::now();
    let mut scrolled = false;
    loop {
        if !visibility::attached(element) {
            return Err(ActionOutcome::ElementNotFound { index });
        }
        let tag = element.local_name();
        let disabled = states::is_disabled(element, &tag);
        let (seen, rect) = visibility::visibility_of(element);
        let problem = match seen {
            Visibility::Offscreen(_) if !scrolled => {
                scrolled = true;
                let geometry = visibility::geometry_element(element).unwrap_or_else(|| element.clone());
                scroll_into_view(&geometry);
                continue;
            }
            Visibility::Offscreen(_) | Visibility::Hidden => NotActionable::Hidden,
            Visibility::Covered(by) => NotActionable::Covered { by },
            Visibility::Shown if disabled && need != Need::Hover => NotActionable::Disabled {
                reason: name::hint_of(element, aca_core::Role::Button, "", true),
            },
            Visibility::Shown if need == Need::Text && states::is_readonly(element, &tag) => NotActionable::Readonly,
            Visibility::Shown => return Ok(rect),
        };
        if settle::now() - start >= f64::from(timeout_ms) {
            return Err(ActionOutcome::NotActionable { index, reason: problem });
        }
        settle::sleep(50).await;
    }
}
