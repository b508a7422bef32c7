//! Grounding: finding the elements of an observation that a documented label, role and place name.

use aca_core::{Element, Observation, PlaceKind, Role};

use crate::label::{LabelMatch, is_more_label, match_label, mentions, normalise, overlap_score};

/// Roles a person clicks.
pub const CLICKABLE: &[Role] = &[
    Role::Button,
    Role::Link,
    Role::Menuitem,
    Role::Tab,
    Role::Clickable,
    Role::Option,
];

pub fn is_more_trigger(element: &Element) -> bool {
    is_more_label(&element.name)
}

/// The innermost dialog, drawer, wizard step or form an element sits in.
pub fn container_of(element: &Element) -> Option<&aca_core::Place> {
    element.places.iter().rev().find(|p| {
        matches!(
            p.kind,
            PlaceKind::Dialog | PlaceKind::Panel | PlaceKind::WizardStep | PlaceKind::Form
        )
    })
}

/// The innermost dialog or drawer an element sits in (modal containers).
pub fn modal_of(element: &Element) -> Option<&aca_core::Place> {
    // The innermost: a panel opened over a panel's form (Configure Rule Description over Create
    // Alert Rule) is where its fields are.
    element
        .places
        .iter()
        .rev()
        .find(|p| matches!(p.kind, PlaceKind::Dialog | PlaceKind::Panel))
}

/// The open modal of the page: the last dialog or drawer in document order, or, where one is open
/// over another's form, the one on top (the deepest).
pub fn open_modal(observation: &Observation) -> Option<&aca_core::Place> {
    let depth = |e: &Element| {
        e.places
            .iter()
            .filter(|p| matches!(p.kind, PlaceKind::Dialog | PlaceKind::Panel))
            .count()
    };
    // `max_by_key` keeps the last of equals: the last in document order at the deepest level.
    observation
        .elements
        .iter()
        .filter(|e| modal_of(e).is_some())
        .max_by_key(|e| depth(e))
        .and_then(modal_of)
}

pub fn in_place(element: &Element, kind: PlaceKind) -> bool {
    element.places.iter().any(|p| p.kind == kind)
}

/// What consoles write in a list that has no rows.
const EMPTY_LIST_TEXTS: &[&str] = &[
    "No data",
    "No data available",
    "No records",
    "No records found",
    "No resources",
];

/// Whether the page's list shows no resource at all: only the row that says so.
pub fn list_is_empty(observation: &Observation) -> bool {
    let says_empty = |text: &str| EMPTY_LIST_TEXTS.iter().any(|t| normalise(t) == normalise(text));
    let mut listed = observation
        .elements
        .iter()
        .filter(|e| in_place(e, PlaceKind::Table) || row_of(e).is_some())
        .peekable();
    listed.peek().is_some() && listed.all(|e| says_empty(row_of(e).map_or(&e.name, |r| &r.name)))
}

/// The row an element sits in.
pub fn row_of(element: &Element) -> Option<&aca_core::Place> {
    element.places.iter().find(|p| p.kind == PlaceKind::Row)
}

/// Whether an element sits in a place named like `name` (a dialog, a section, a wizard step).
pub fn in_named_place(element: &Element, name: &str) -> bool {
    element
        .places
        .iter()
        .any(|p| !p.name.is_empty() && match_label(name, &p.name) == Some(LabelMatch::Exact))
}

/// Whether the page is the one named `name`: its title or a heading says so.
pub fn page_is(observation: &Observation, name: &str) -> bool {
    mentions(&observation.title, name)
        || observation
            .elements
            .iter()
            .any(|e| e.role == Role::Heading && crate::label::same_name(name, &e.name))
}

/// Preferences among equally labelled candidates: lower is better.
#[derive(Debug, Clone, Default)]
pub struct Preference<'a> {
    /// A container the step names ("In the Create VPC dialog box").
    pub container: Option<&'a str>,
    /// Section names the step mentions.
    pub sections: &'a [String],
    /// Section names other steps mention: their fields are theirs (two sections may both have a
    /// `Name`).
    pub avoid: &'a [String],
    /// Resource names whose rows are meant.
    pub rows: &'a [String],
    pub want_row: bool,
}

impl Preference<'_> {
    fn rank(&self, observation: &Observation, element: &Element) -> (u8, u8, u8, u8, u8) {
        let modal = open_modal(observation);
        let in_modal = match modal {
            Some(m) => u8::from(modal_of(element) != Some(m)),
            None => 0,
        };
        let container = match self.container {
            Some(name) => u8::from(!in_named_place(element, name)),
            None => 0,
        };
        let section = u8::from(!self.sections.iter().any(|s| in_named_place(element, s)));
        let avoided = u8::from(self.avoid.iter().any(|s| in_named_place(element, s)));
        let row = row_of(element);
        let placement = if self.want_row {
            match row {
                Some(r) if self.rows.iter().any(|n| mentions(&r.name, n)) => 0,
                Some(_) if self.rows.is_empty() => 0,
                Some(_) => 2,
                None => 3,
            }
        } else if row.is_some() || in_place(element, PlaceKind::Navigation) {
            2
        } else {
            0
        } + u8::from(element.state.disabled);
        (in_modal, container, placement, section, avoided)
    }

    /// Sorts candidates best first, keeping document order among equals.
    pub fn sort(&self, observation: &Observation, candidates: &mut [&Element]) {
        candidates.sort_by_key(|e| self.rank(observation, e));
    }

    /// Sorts candidates and keeps only the best-ranked ones.
    pub fn best<'o>(&self, observation: &Observation, mut candidates: Vec<&'o Element>) -> Vec<&'o Element> {
        self.sort(observation, &mut candidates);
        let Some(top) = candidates.first().map(|e| self.rank(observation, e)) else {
            return candidates;
        };
        candidates.retain(|e| self.rank(observation, e) == top);
        candidates
    }
}

/// Elements of the given roles whose name matches `label` at least as well as `at_least`.
pub fn labelled<'o>(
    observation: &'o Observation,
    label: &str,
    roles: &[Role],
    accept: impl Fn(LabelMatch) -> bool,
) -> Vec<&'o Element> {
    observation
        .elements
        .iter()
        .filter(|e| roles.contains(&e.role))
        .filter(|e| match_label(label, &e.name).is_some_and(&accept))
        .collect()
}

/// Elements of the given roles in the same place as `like` would be: the open modal when one is
/// open, else the page outside rows and the navigation pane (or the given row).
pub fn same_place<'o>(observation: &'o Observation, roles: &[Role], row: Option<&str>) -> Vec<&'o Element> {
    let modal = open_modal(observation).cloned();
    observation
        .elements
        .iter()
        .filter(|e| roles.contains(&e.role))
        .filter(|e| match (&modal, row) {
            (Some(m), _) => modal_of(e) == Some(m),
            (None, Some(r)) => row_of(e).is_some_and(|p| p.name == r),
            (None, None) => row_of(e).is_none() && !in_place(e, PlaceKind::Navigation),
        })
        .collect()
}

/// The best alternative label for `label` among `candidates`: a prefix match, then the largest
/// token overlap. `None` when nothing shares a word with it.
pub fn renamed<'o>(label: &str, candidates: &[&'o Element], exclude: &[String]) -> Option<&'o Element> {
    let mut best: Option<(&Element, LabelMatch, f64)> = None;
    for element in candidates {
        if exclude.iter().any(|x| normalise(x) == normalise(&element.name)) {
            continue;
        }
        let Some(quality) = match_label(label, &element.name) else {
            continue;
        };
        if quality == LabelMatch::Exact {
            continue;
        }
        let score = overlap_score(label, &element.name);
        let better = match best {
            None => true,
            Some((_, q, s)) => quality < q || (quality == q && score > s),
        };
        if better {
            best = Some((element, quality, score));
        }
    }
    best.map(|(e, _, _)| e)
}

/// The lines of the text tree that back a finding: the element's places and the element.
pub fn evidence(element: &Element) -> Vec<String> {
    let mut lines: Vec<String> = element
        .places
        .iter()
        .map(|p| {
            if p.name.is_empty() {
                format!("<{}>", p.kind.as_str())
            } else {
                format!("<{} {}>", p.kind.as_str(), aca_core::observation::quote(&p.name))
            }
        })
        .collect();
    lines.push(element.line());
    lines
}

/// Whether an offscreen summary names `label`: scrolling that way is worth it.
pub fn offscreen_direction(observation: &Observation, label: &str) -> Option<aca_core::ScrollDirection> {
    observation
        .offscreen
        .iter()
        .find(|s| s.names.iter().any(|n| match_label(label, n).is_some()))
        .map(|s| s.direction)
}

/// The options of a select rendered for it (its portal).
pub fn options_of(observation: &Observation, select: u32) -> Vec<&Element> {
    observation
        .elements
        .iter()
        .filter(|e| e.role == Role::Option && e.option_of == Some(select))
        .collect()
}

/// The field a validation message belongs to: the nearest input before it in the same places.
pub fn field_of_error<'o>(observation: &'o Observation, error: &Element) -> Option<&'o Element> {
    let at = observation.elements.iter().position(|e| e.index == error.index)?;
    let field = |e: &&Element| matches!(e.role, Role::Textbox | Role::Combobox | Role::Checkbox | Role::Switch);
    // A message that names its field ("IPv4 CIDR Block A subnet of …") belongs to it, wherever the
    // page puts the box (a web component's box comes after the message); of two fields of that
    // name (the VPC's block shown above the vSwitch's own), the nearer one.
    let message = normalise(&error.name);
    let start = at.saturating_sub(4);
    let named = observation.elements[start..(at + 4).min(observation.elements.len())]
        .iter()
        .enumerate()
        .filter(|(_, e)| field(e))
        .filter(|(_, e)| {
            let name = normalise(&e.name);
            !name.is_empty() && message.starts_with(&name)
        })
        .min_by_key(|(offset, _)| (start + offset).abs_diff(at))
        .map(|(_, e)| e);
    named.or_else(|| owner_of_error(observation, at, error).filter(field))
}

/// The control a message without a field of its own belongs to: the nearest field or section
/// trigger before it in its container.
fn owner_of_error<'o>(observation: &'o Observation, at: usize, error: &Element) -> Option<&'o Element> {
    let owner = |e: &&Element| {
        matches!(e.role, Role::Textbox | Role::Combobox | Role::Checkbox | Role::Switch) || is_section_trigger(e)
    };
    observation.elements[..at]
        .iter()
        .rev()
        .find(|e| owner(e) && container_of(e) == container_of(error))
}

fn is_section_trigger(element: &Element) -> bool {
    element.role == Role::Button && element.state.expanded.is_some()
}

/// "This section is required." under an **Add Rule** button: the button that opens the section a
/// field error is about, when the error belongs to no field.
pub fn section_of_error<'o>(observation: &'o Observation, error: &Element) -> Option<&'o Element> {
    let at = observation.elements.iter().position(|e| e.index == error.index)?;
    owner_of_error(observation, at, error).filter(|e| is_section_trigger(e))
}

/// A search box on the page.
pub fn search_box(observation: &Observation) -> Option<&Element> {
    observation.elements.iter().find(|e| {
        e.role == Role::Textbox
            && !in_place(e, PlaceKind::TopBar)
            && (normalise(&e.name).contains("search")
                || e.hint.as_deref().is_some_and(|h| normalise(h).contains("search")))
    })
}

/// Whether a resource's identifier is an id the console generated (`vpc-bp1abc…`, a UUID) rather
/// than a name a person gave it.
pub fn looks_like_id(text: &str) -> bool {
    let uuid = text.len() == 36
        && text.char_indices().all(|(i, c)| {
            if [8, 13, 18, 23].contains(&i) {
                c == '-'
            } else {
                c.is_ascii_hexdigit()
            }
        });
    let prefixed = text.split_once('-').is_some_and(|(kind, rest)| {
        !kind.is_empty()
            && kind.chars().all(|c| c.is_ascii_lowercase())
            && rest.len() >= 8
            && rest.chars().all(|c| c.is_ascii_alphanumeric())
            && rest.chars().any(|c| c.is_ascii_digit())
    });
    uuid || prefixed
}

/// What to type into a list's search box: an id where the box searches by ID, a name where it
/// searches by name (the key is the drop-down list right before it), else the first identifier.
pub fn search_term<'n>(observation: &Observation, search: &Element, names: &'n [String]) -> Option<&'n String> {
    let at = observation.elements.iter().position(|e| e.index == search.index)?;
    let key = observation.elements[..at]
        .iter()
        .rev()
        .take(2)
        .find(|e| e.role == Role::Combobox)
        .map(|e| normalise(&e.name));
    let words: Vec<&str> = key
        .as_deref()
        .map(|k| k.split_whitespace().collect())
        .unwrap_or_default();
    let by_id = words.contains(&"id");
    let by_name = words.contains(&"name");
    names
        .iter()
        .find(|n| (by_id && looks_like_id(n)) || (by_name && !by_id && !looks_like_id(n)))
        .or(names.first())
}

#[cfg(test)]
mod search_tests {
    use super::looks_like_id;

    #[test]
    fn generated_ids_are_told_from_names() {
        assert!(looks_like_id("vpc-bp1a2b3c4d5e6f7g8h"));
        assert!(looks_like_id("4c13a527-7f3d-4b47-a359-fc1848bf79cc"));
        assert!(!looks_like_id("web-vpc"));
        assert!(!looks_like_id("audit-trail-a1b2"));
        assert!(!looks_like_id("cpu-alert-rule"));
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_console::{Elements, place};
    use super::*;

    #[test]
    fn a_message_that_names_its_field_belongs_to_it_wherever_the_box_is() {
        let section = vec![place(PlaceKind::WizardStep, "vSwitch")];
        let mut elements = Elements::default();
        elements.add(Role::Combobox, "Zone", section.clone());
        elements.add(
            Role::FieldError,
            "IPv4 CIDR Block A subnet of the VPC's CIDR block is required.",
            section.clone(),
        );
        elements.add(Role::Textbox, "IPv4 CIDR Block", section.clone());
        elements.add(Role::FieldError, "This field is required.", section);
        let observation = Observation {
            elements: elements.into_vec(),
            ..Observation::default()
        };
        let field = |error: usize| field_of_error(&observation, &observation.elements[error]).map(|e| e.name.as_str());
        assert_eq!(field(1), Some("IPv4 CIDR Block"));
        // A message that names nothing is the nearest box's before it.
        assert_eq!(field(3), Some("IPv4 CIDR Block"));
    }

    #[test]
    fn of_two_fields_a_message_names_it_belongs_to_the_nearer() {
        // The Create vSwitch dialog: the VPC's block shown (a drop-down list), the vSwitch's own
        // block (a box after its message).
        let dialog = vec![place(PlaceKind::Dialog, "Create vSwitch")];
        let mut elements = Elements::default();
        elements.add(Role::Combobox, "VPC", dialog.clone());
        elements.add(Role::Combobox, "IPv4 CIDR Block", dialog.clone());
        elements.add(Role::Combobox, "Zone", dialog.clone());
        elements.add(Role::FieldError, "IPv4 CIDR Block The CIDR block must be within the VPC's.", dialog.clone());
        elements.add(Role::Textbox, "IPv4 CIDR Block", dialog);
        let observation = Observation {
            elements: elements.into_vec(),
            ..Observation::default()
        };
        let field = field_of_error(&observation, &observation.elements[3]).expect("the error's field");
        assert_eq!((field.role, field.index), (Role::Textbox, observation.elements[4].index));
    }
}
