//! From the walker's candidates to an [`Observation`]: which elements are listed and which are
//! summarised as off-screen, indices in document order, `is_new` against the previous observation,
//! neighbours for fingerprints, and the select each portal option belongs to. Pure: the walker
//! (`dom::walk`) gathers the candidates.

use std::collections::HashSet;

use aca_core::{
    Element, ElementState, Fingerprint, Observation, OffscreenSummary, Place, Rect, Role, ScrollDirection, ScrollExtent,
};
use serde::Deserialize;

use crate::fingerprint::identity_key;
use crate::role::{Strength, is_interactive};
use crate::visibility::{Visibility, bottom};

/// `observe`'s options; every field may be left out.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ObserveOptions {
    /// Draw the set-of-marks overlay for the listed elements.
    pub mark: bool,
    /// List at most this many elements; the rest are summarised.
    pub max_elements: u32,
    /// List only what is in the viewport, even on a small page.
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

impl ObserveOptions {
    /// Parses the options JSON; an empty string means the defaults.
    pub fn parse(json: &str) -> Result<Self, String> {
        if json.trim().is_empty() {
            return Ok(Self::default());
        }
        serde_json::from_str(json).map_err(|e| format!("observe options are not valid: {e}"))
    }
}

/// Pages with at most this many visible elements are listed whole, off-screen parts included.
pub const SMALL_PAGE: usize = 80;
/// How many names an off-screen summary shows.
pub const SUMMARY_NAMES: usize = 5;

/// What ties a combobox and the options of its popup together.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PopupLink {
    /// The element's `id` (comboboxes: listboxes may name them in `aria-labelledby`).
    pub dom_id: Option<String>,
    /// Comboboxes: ids in `aria-controls` and `aria-owns`.
    pub controls: Vec<String>,
    /// Options: the id of the listbox they are in, and the ids that listbox is labelled by.
    pub listbox_id: Option<String>,
    pub listbox_labelled_by: Vec<String>,
    /// Options: the candidate index of a combobox they sit inside.
    pub inside_combobox: Option<usize>,
}

/// One element the walker found, before indices are given.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub role: Role,
    pub strength: Strength,
    pub name: String,
    pub value: Option<String>,
    pub state: ElementState,
    pub hint: Option<String>,
    /// Its box relative to the top frame's viewport.
    pub rect: Rect,
    pub places: Vec<Place>,
    pub visibility: Visibility,
    pub path: String,
    pub popup: PopupLink,
    /// The nearest enclosing candidate that is a heuristic clickable or a cell, which is dropped
    /// when this candidate is a control (the control is what a person clicks).
    pub wrapper: Option<usize>,
    /// Its name, value and states were read (the walker leaves them for later out of view).
    pub described: bool,
}

/// An observation and, for each listed element, the candidate it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembly {
    pub observation: Observation,
    pub listed: Vec<usize>,
}

/// The page-level facts that are not about one element.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageFacts {
    pub url: String,
    pub title: String,
    pub scroll: ScrollExtent,
    pub unwalked_frames: Vec<String>,
}

/// Candidates that a person sees as their own element (not a wrapper around a control, not a
/// nameless clickable, not hidden or covered).
fn kept(candidates: &[Candidate]) -> Vec<bool> {
    let mut keep: Vec<bool> = candidates
        .iter()
        .map(|c| {
            let unseen = matches!(c.visibility, Visibility::Hidden | Visibility::Covered(_));
            let nameless =
                c.described && c.name.is_empty() && matches!(c.strength, Strength::Heuristic | Strength::Readable);
            !unseen && !nameless
        })
        .collect();
    for c in candidates {
        if let Some(w) = c.wrapper
            && is_interactive(c.role)
            && c.strength != Strength::Readable
        {
            keep[w] = false;
        }
    }
    keep
}

/// Whether the observation lists off-screen elements too (a small page, and not `viewport_only`).
pub fn lists_everything(candidates: &[Candidate], options: &ObserveOptions) -> bool {
    !options.viewport_only && kept(candidates).iter().filter(|k| **k).count() <= SMALL_PAGE
}

/// The listed combobox an option belongs to: the one it sits in, the one whose `aria-controls` or
/// `aria-owns` names its listbox, the one its listbox is labelled by, or else the only expanded one.
fn owner_of(option: &Candidate, candidates: &[Candidate], index_of: &[Option<u32>]) -> Option<usize> {
    if let Some(i) = option.popup.inside_combobox {
        return Some(i);
    }
    let is_combobox = |c: &Candidate| c.role == Role::Combobox;
    if let Some(listbox) = &option.popup.listbox_id
        && let Some(i) = candidates
            .iter()
            .position(|c| is_combobox(c) && c.popup.controls.iter().any(|id| id == listbox))
    {
        return Some(i);
    }
    if let Some(i) = candidates.iter().position(|c| {
        is_combobox(c)
            && c.popup
                .dom_id
                .as_ref()
                .is_some_and(|id| option.popup.listbox_labelled_by.contains(id))
    }) {
        return Some(i);
    }
    let expanded: Vec<usize> = candidates
        .iter()
        .enumerate()
        .filter(|(i, c)| is_combobox(c) && c.state.expanded == Some(true) && index_of[*i].is_some())
        .map(|(i, _)| i)
        .collect();
    match expanded.as_slice() {
        [only] => Some(*only),
        [] => None,
        several => several.iter().copied().min_by(|a, b| {
            let distance = |i: usize| {
                let r = &candidates[i].rect;
                (r.x - option.rect.x).abs() + (bottom(r) - option.rect.y).abs()
            };
            distance(*a).total_cmp(&distance(*b))
        }),
    }
}

fn neighbours(names: &[&str], at: usize) -> Vec<String> {
    let before = names[..at].iter().rev().find(|n| !n.is_empty());
    let after = names[at + 1..].iter().find(|n| !n.is_empty());
    before.into_iter().chain(after).map(|n| (*n).to_owned()).collect()
}

/// Builds the observation. `previous` holds the identity keys of the last observation (none
/// before the first, when nothing is new).
pub fn assemble(
    page: PageFacts,
    candidates: &[Candidate],
    options: &ObserveOptions,
    previous: Option<&HashSet<String>>,
) -> Assembly {
    let keep = kept(candidates);
    let visible: Vec<usize> = (0..candidates.len()).filter(|&i| keep[i]).collect();
    let small = lists_everything(candidates, options);
    let max = options.max_elements as usize;

    let mut listed: Vec<usize> = Vec::new();
    let mut summarised: Vec<(ScrollDirection, usize)> = Vec::new();
    for &i in &visible {
        let direction = match &candidates[i].visibility {
            Visibility::Offscreen(direction) => Some(*direction),
            _ => None,
        };
        let listable = direction.is_none() || small;
        if listable && listed.len() < max {
            listed.push(i);
        } else {
            summarised.push((direction.unwrap_or(ScrollDirection::Down), i));
        }
    }

    let mut index_of: Vec<Option<u32>> = vec![None; candidates.len()];
    for (n, &i) in listed.iter().enumerate() {
        index_of[i] = Some(n as u32 + 1);
    }
    let names: Vec<&str> = visible.iter().map(|&i| candidates[i].name.as_str()).collect();
    let position_in_visible = |i: usize| visible.iter().position(|&v| v == i).unwrap_or(0);

    let elements: Vec<Element> = listed
        .iter()
        .map(|&i| {
            let c = &candidates[i];
            let fingerprint = Fingerprint {
                role: Some(c.role),
                name: c.name.clone(),
                path: c.path.clone(),
                neighbours: neighbours(&names, position_in_visible(i)),
            };
            let is_new = previous.is_some_and(|keys| !keys.contains(&identity_key(&fingerprint)));
            let option_of = (c.role == Role::Option)
                .then(|| owner_of(c, candidates, &index_of))
                .flatten()
                .and_then(|owner| index_of[owner]);
            let mut state = c.state.clone();
            state.in_viewport = !matches!(c.visibility, Visibility::Offscreen(_));
            Element {
                index: index_of[i].unwrap_or_default(),
                role: c.role,
                name: c.name.clone(),
                value: c.value.clone(),
                state,
                places: c.places.clone(),
                option_of,
                is_new,
                hint: c.hint.clone(),
                rect: Some(c.rect),
                fingerprint,
            }
        })
        .collect();

    let mut offscreen: Vec<OffscreenSummary> = Vec::new();
    for direction in [
        ScrollDirection::Up,
        ScrollDirection::Down,
        ScrollDirection::Left,
        ScrollDirection::Right,
    ] {
        let members: Vec<usize> = summarised
            .iter()
            .filter(|(d, _)| *d == direction)
            .map(|(_, i)| *i)
            .collect();
        if members.is_empty() {
            continue;
        }
        let mut shown: Vec<String> = Vec::new();
        for &i in &members {
            let name = &candidates[i].name;
            if !name.is_empty() && !shown.contains(name) && shown.len() < SUMMARY_NAMES {
                shown.push(name.clone());
            }
        }
        offscreen.push(OffscreenSummary {
            direction,
            count: members.len() as u32,
            names: shown,
        });
    }

    Assembly {
        observation: Observation {
            url: page.url,
            title: page.title,
            elements,
            scroll: page.scroll,
            offscreen,
            unwalked_frames: page.unwalked_frames,
        },
        listed,
    }
}

/// Fingerprints of every candidate a person can see or scroll to (hidden ones get `None`), with
/// neighbours as [`assemble`] gives them: what a stale index is matched against.
pub fn fingerprints(candidates: &[Candidate]) -> Vec<Option<Fingerprint>> {
    let keep = kept(candidates);
    let visible: Vec<usize> = (0..candidates.len())
        .filter(|&i| keep[i] || matches!(candidates[i].visibility, Visibility::Covered(_)))
        .collect();
    let names: Vec<&str> = visible.iter().map(|&i| candidates[i].name.as_str()).collect();
    let mut out = vec![None; candidates.len()];
    for (at, &i) in visible.iter().enumerate() {
        let c = &candidates[i];
        out[i] = Some(Fingerprint {
            role: Some(c.role),
            name: c.name.clone(),
            path: c.path.clone(),
            neighbours: neighbours(&names, at),
        });
    }
    out
}

/// The identity keys of an observation's elements, kept to set `is_new` next time.
pub fn identity_keys(observation: &Observation) -> HashSet<String> {
    observation
        .elements
        .iter()
        .map(|e| identity_key(&e.fingerprint))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::PlaceKind;

    fn candidate(role: Role, name: &str, visibility: Visibility) -> Candidate {
        Candidate {
            role,
            strength: if is_interactive(role) {
                Strength::Control
            } else {
                Strength::Readable
            },
            name: name.into(),
            value: None,
            state: ElementState::default(),
            hint: None,
            rect: Rect {
                x: 0.0,
                y: 0.0,
                width: 10.0,
                height: 10.0,
            },
            places: vec![],
            visibility,
            path: format!("body>{name}"),
            popup: PopupLink::default(),
            wrapper: None,
            described: true,
        }
    }

    fn page() -> PageFacts {
        PageFacts {
            url: "http://console/vpc".into(),
            title: "VPC".into(),
            ..Default::default()
        }
    }

    #[test]
    fn hidden_covered_and_nameless_heuristic_elements_are_not_listed() {
        let mut nameless = candidate(Role::Clickable, "", Visibility::Shown);
        nameless.strength = Strength::Heuristic;
        let candidates = vec![
            candidate(
                Role::Button,
                "Create VPC",
                Visibility::Covered("div.dialog-mask".into()),
            ),
            candidate(Role::Button, "Hidden", Visibility::Hidden),
            nameless,
            candidate(Role::Button, "OK", Visibility::Shown),
        ];
        let assembly = assemble(page(), &candidates, &ObserveOptions::default(), None);
        let names: Vec<&str> = assembly.observation.elements.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["OK"]);
        assert_eq!(assembly.listed, [3]);
        assert_eq!(assembly.observation.elements[0].index, 1);
    }

    #[test]
    fn a_clickable_wrapper_gives_way_to_the_control_inside_it() {
        let mut wrapper = candidate(Role::Clickable, "Name vpc-1", Visibility::Shown);
        wrapper.strength = Strength::Heuristic;
        let mut link = candidate(Role::Link, "vpc-1", Visibility::Shown);
        link.wrapper = Some(0);
        let mut heading = candidate(Role::Heading, "Details", Visibility::Shown);
        heading.wrapper = Some(2);
        let mut card = candidate(Role::Clickable, "Card", Visibility::Shown);
        card.strength = Strength::Heuristic;
        let candidates = vec![wrapper, link, card, heading];
        let names: Vec<String> = assemble(page(), &candidates, &ObserveOptions::default(), None)
            .observation
            .elements
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(
            names,
            ["vpc-1", "Card", "Details"],
            "text inside a clickable does not hide it"
        );
    }

    #[test]
    fn large_pages_summarise_what_is_off_screen_small_pages_list_it() {
        let mut candidates: Vec<Candidate> = (0..100)
            .map(|i| candidate(Role::Link, &format!("vpc-{i}"), Visibility::Shown))
            .collect();
        for c in candidates.iter_mut().skip(10) {
            c.visibility = Visibility::Offscreen(ScrollDirection::Down);
        }
        let large = assemble(page(), &candidates, &ObserveOptions::default(), None).observation;
        assert_eq!(large.elements.len(), 10);
        assert_eq!(large.offscreen.len(), 1);
        assert_eq!(large.offscreen[0].count, 90);
        assert_eq!(
            large.offscreen[0].names,
            ["vpc-10", "vpc-11", "vpc-12", "vpc-13", "vpc-14"]
        );

        candidates.truncate(20);
        let small = assemble(page(), &candidates, &ObserveOptions::default(), None).observation;
        assert_eq!(small.elements.len(), 20);
        assert!(!small.elements[15].state.in_viewport);
        assert!(small.offscreen.is_empty());
        let only_viewport = ObserveOptions {
            viewport_only: true,
            ..Default::default()
        };
        assert_eq!(
            assemble(page(), &candidates, &only_viewport, None)
                .observation
                .elements
                .len(),
            10
        );
        let capped = ObserveOptions {
            max_elements: 5,
            ..Default::default()
        };
        let capped = assemble(page(), &candidates, &capped, None).observation;
        assert_eq!(capped.elements.len(), 5);
        assert_eq!(capped.offscreen[0].count, 15);
    }

    #[test]
    fn elements_not_seen_last_time_are_new() {
        let first = vec![candidate(Role::Button, "Create VPC", Visibility::Shown)];
        let before = assemble(page(), &first, &ObserveOptions::default(), None).observation;
        assert!(!before.elements[0].is_new, "nothing is new in the first observation");
        let keys = identity_keys(&before);
        let mut second = first.clone();
        let mut ok = candidate(Role::Button, "OK", Visibility::Shown);
        ok.places = vec![Place {
            kind: PlaceKind::Dialog,
            name: "Create VPC".into(),
        }];
        second.push(ok);
        let after = assemble(page(), &second, &ObserveOptions::default(), Some(&keys)).observation;
        assert!(!after.elements[0].is_new);
        assert!(after.elements[1].is_new);
        assert_eq!(after.elements[1].fingerprint.neighbours, ["Create VPC"]);
    }

    #[test]
    fn portal_options_name_the_select_they_belong_to() {
        let mut zone = candidate(Role::Combobox, "Zone", Visibility::Shown);
        zone.state.expanded = Some(false);
        let mut region = candidate(Role::Combobox, "Region", Visibility::Shown);
        region.state.expanded = Some(true);
        let mut controlled = candidate(Role::Combobox, "Spec", Visibility::Shown);
        controlled.popup.controls = vec!["spec-list".into()];
        let mut by_expansion = candidate(Role::Option, "China (Hangzhou)", Visibility::Shown);
        by_expansion.places = vec![Place {
            kind: PlaceKind::Listbox,
            name: String::new(),
        }];
        let mut by_controls = candidate(Role::Option, "ecs.g7.large", Visibility::Shown);
        by_controls.popup.listbox_id = Some("spec-list".into());
        let observation = assemble(
            page(),
            &[zone, region, controlled, by_expansion, by_controls],
            &ObserveOptions::default(),
            None,
        )
        .observation;
        assert_eq!(observation.elements[3].option_of, Some(2));
        assert_eq!(observation.elements[4].option_of, Some(3));
        assert!(observation.to_text().contains("of=[2]"));
    }

    #[test]
    fn options_json_is_checked() {
        assert_eq!(ObserveOptions::parse("").unwrap(), ObserveOptions::default());
        let parsed = ObserveOptions::parse(r#"{"mark":true,"max_elements":50}"#).unwrap();
        assert!(parsed.mark && parsed.max_elements == 50 && !parsed.viewport_only);
        assert!(
            ObserveOptions::parse(r#"{"marks":true}"#)
                .unwrap_err()
                .contains("marks")
        );
    }
}
