//! Observing: walk, assemble, and remember what the indices of the agent's observation point at
//! (elements and fingerprints) and which elements it showed, to set `is_new` next time.

use std::cell::RefCell;
use std::collections::HashSet;

use aca_core::{Fingerprint, Observation};
use web_sys::Element;

use super::{marks, walk};
use aca_core::ScrollDirection;

use crate::assemble::{ObserveOptions, SUMMARY_NAMES, assemble, identity_keys, lists_everything};
use crate::visibility::Visibility;

/// What the last observation handed to the agent refers to.
#[derive(Default)]
struct Remembered {
    /// By index: the element and its fingerprint.
    indexed: Vec<(u32, Element, Fingerprint)>,
    /// The elements whose value the observation masked as a secret (a password, "AccessKey Secret").
    secret: Vec<Element>,
    /// Identity keys of the last observation's elements; `None` before the first.
    previous: Option<HashSet<String>>,
}

thread_local! {
    static REMEMBERED: RefCell<Remembered> = RefCell::new(Remembered::default());
}

/// Observes the page. `remember` makes this the agent's observation: its indices become the ones
/// actions refer to and its elements the baseline for `is_new`.
pub fn observe(options: &ObserveOptions, remember: bool) -> Result<(Observation, Vec<Element>), String> {
    if remember {
        marks::remove();
    }
    let mut walked = walk::walk()?;
    complete_what_is_listed(&mut walked, options);
    let previous = REMEMBERED.with(|r| r.borrow().previous.clone());
    let assembly = assemble(walked.page, &walked.candidates, options, previous.as_ref());
    let elements: Vec<Element> = assembly.listed.iter().map(|&i| walked.handles[i].clone()).collect();
    if remember {
        let observation = &assembly.observation;
        REMEMBERED.with(|r| {
            let mut r = r.borrow_mut();
            r.indexed = observation
                .elements
                .iter()
                .zip(&elements)
                .map(|(e, handle)| (e.index, handle.clone(), e.fingerprint.clone()))
                .collect();
            r.secret = observation
                .elements
                .iter()
                .zip(&elements)
                .filter(|(e, _)| e.state.secret)
                .map(|(_, handle)| handle.clone())
                .collect();
            r.previous = Some(identity_keys(observation));
        });
        if options.mark {
            marks::draw()?;
        }
    }
    Ok((assembly.observation, elements))
}

/// Describes the off-screen controls the walk left undescribed where the observation needs them:
/// all of them on a small page, else the first few in each direction (for the summary's names).
fn complete_what_is_listed(walked: &mut walk::Walked, options: &ObserveOptions) {
    if lists_everything(&walked.candidates, options) {
        walked.complete_all();
        return;
    }
    let mut per_direction: Vec<(ScrollDirection, usize)> = Vec::new();
    for i in 0..walked.candidates.len() {
        let Visibility::Offscreen(direction) = walked.candidates[i].visibility else {
            continue;
        };
        if walked.pending[i].is_none() {
            continue;
        }
        let count = match per_direction.iter_mut().find(|(d, _)| *d == direction) {
            Some(entry) => {
                entry.1 += 1;
                entry.1
            }
            None => {
                per_direction.push((direction, 1));
                1
            }
        };
        if count <= SUMMARY_NAMES * 2 {
            walked.complete(i);
        }
    }
}

/// The element and fingerprint behind an index of the last observation.
pub fn indexed(index: u32) -> Option<(Element, Fingerprint)> {
    REMEMBERED.with(|r| {
        r.borrow()
            .indexed
            .iter()
            .find(|(i, _, _)| *i == index)
            .map(|(_, e, f)| (e.clone(), f.clone()))
    })
}

/// The elements of the last observation that show a secret, for the overlay to cover.
pub fn secret_elements() -> Vec<Element> {
    REMEMBERED.with(|r| r.borrow().secret.clone())
}

/// Every indexed element of the last observation, for the overlay.
pub fn all_indexed() -> Vec<(u32, Element)> {
    REMEMBERED.with(|r| r.borrow().indexed.iter().map(|(i, e, _)| (*i, e.clone())).collect())
}
