//! Describing a candidate: its name, value, states and hint, and for what the walk left for later
//! (elements out of view) the path read upward from the element.

use aca_core::{ElementState, PlaceKind, Role};
use wasm_bindgen::intern;
use web_sys::Element;

use super::walk::Walked;
use super::{js, name, places, states};
use crate::fingerprint::{MAX_SEGMENTS, join_path};
use crate::name::tidy;

impl Walked {
    /// Describes candidate `i` in full (name, value, state, hint) if the walk left it for later.
    pub fn complete(&mut self, i: usize) {
        let Some(pending) = self.pending.get_mut(i).and_then(Option::take) else {
            return;
        };
        let role = self.candidates[i].role;
        let active = js::deep_active_element();
        let details = details_of(
            &self.handles[i],
            &pending.tag,
            role,
            pending.status_header.as_deref(),
            active.as_ref(),
        );
        let candidate = &mut self.candidates[i];
        candidate.described = true;
        if let Some(cell) = pending.row_name_cell
            && let Some(row) = candidate
                .places
                .iter_mut()
                .rev()
                .find(|p| p.kind == PlaceKind::Row && p.name.is_empty())
        {
            row.name = places::row_name(&cell);
        }
        candidate.name = details.name;
        candidate.value = details.value;
        candidate.state = details.state;
        candidate.rect = js::top_rect(&self.handles[i]);
        if candidate.path.is_empty() {
            candidate.path = path_of(&self.handles[i]);
        }
        candidate.hint = details.hint;
    }

    /// Describes every candidate in full.
    pub fn complete_all(&mut self) {
        for i in 0..self.candidates.len() {
            self.complete(i);
        }
    }
}

/// What describing a candidate later needs from the walk.
pub struct PendingDetails {
    pub(super) tag: String,
    pub(super) status_header: Option<String>,
    /// The naming cell of the unnamed row the candidate is in.
    pub(super) row_name_cell: Option<Element>,
}

/// What a person reads off a candidate besides where it is.
#[derive(Default)]
pub(super) struct Details {
    pub(super) name: String,
    pub(super) value: Option<String>,
    pub(super) state: ElementState,
    pub(super) hint: Option<String>,
}

/// The name `element` shows now in `role`, to tell whether an index still points at what the agent
/// saw (frameworks reuse elements for other rows).
pub fn current_name(element: &Element, role: Role) -> String {
    describe_name(element, &element.local_name(), role, None)
}

/// An element's name: the text of things to read (a status cell with its column's header), the
/// accessible name of controls; with the label that gave it, if a form item's label did.
pub(super) fn describe_name(element: &Element, tag: &str, role: Role, status_header: Option<&str>) -> String {
    name_and_label(element, tag, role, status_header).0
}

fn name_and_label(element: &Element, tag: &str, role: Role, status_header: Option<&str>) -> (String, Option<Element>) {
    match role {
        Role::DialogTitle | Role::Cell | Role::FieldError | Role::Alert | Role::Heading => {
            let text = tidy(&js::visible_text(element, None));
            match status_header {
                Some(header) => (crate::name::shown_under(header, &text).0, None),
                None => (text, None),
            }
        }
        _ => name::accessible_name(element, tag, role),
    }
}

pub(super) fn details_of(
    element: &Element,
    tag: &str,
    role: Role,
    status_header: Option<&str>,
    active: Option<&Element>,
) -> Details {
    let (name, label) = name_and_label(element, tag, role, status_header);
    let mut state = states::state_of(element, tag, role, label.as_ref());
    state.focused = active.is_some_and(|a| a == element);
    // A secret shown as text ("AccessKey Secret: …") or typed into a box that names one ("Secret
    // Value") is masked like a password box.
    state.secret |= status_header.is_some_and(crate::name::names_a_secret)
        || (matches!(role, Role::Textbox) && crate::name::names_a_secret(&name));
    let value = name::value_of(element, tag, role, &name).map(|v| {
        if state.secret && !v.is_empty() {
            "********".to_owned()
        } else {
            v
        }
    });
    let hint = name::hint_of(element, role, &name, state.disabled);
    Details {
        name,
        value,
        state,
        hint,
    }
}

/// The structural path of an element read upward from it, the way the walk builds it downward
/// (for candidates the walk left undescribed).
fn path_of(element: &Element) -> String {
    let mut segments: Vec<String> = Vec::new();
    let mut current = Some(element.clone());
    while let Some(e) = current {
        let tag = e.local_name();
        let text = crate::fingerprint::segment(
            &tag,
            e.get_attribute(intern("id")).as_deref(),
            e.get_attribute(intern("class")).as_deref(),
            position_among_same_tag(&e, &tag),
        );
        let anchored = text.contains('#');
        segments.push(text);
        if anchored || segments.len() >= MAX_SEGMENTS {
            break;
        }
        current = match e.parent_element() {
            Some(parent) => Some(parent),
            None => match js::composed_parent(&e) {
                Some(host) => {
                    segments.push("::shadow".into());
                    Some(host)
                }
                None => js::window_of(&e).and_then(|w| w.frame_element().ok().flatten()),
            },
        };
    }
    segments.reverse();
    join_path(&segments)
}

/// The 1-based position among element siblings with the same tag, when there are several.
fn position_among_same_tag(element: &Element, tag: &str) -> Option<u32> {
    let mut before = 0;
    let mut sibling = element.previous_element_sibling();
    while let Some(s) = sibling {
        if s.local_name() == tag {
            before += 1;
        }
        sibling = s.previous_element_sibling();
    }
    let mut after = false;
    let mut sibling = element.next_element_sibling();
    while let Some(s) = sibling {
        if s.local_name() == tag {
            after = true;
            break;
        }
        sibling = s.next_element_sibling();
    }
    (before > 0 || after).then_some(before + 1)
}
