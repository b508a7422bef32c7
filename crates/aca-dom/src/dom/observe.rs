//! Observing: walk, assemble, and remember what the indices of the agent's observation point at
//! (elements and fingerprints) and which elements it showed, to set `is_new` next time.

use std::cell::RefCell;
use std::collections::HashSet;

use aca_core::{Fingerprint, Observation};
use web_sys::Element;

use super::{marks, walk};
use crate::assemble::{ObserveOptions, assemble, identity_keys};

/// What the last observation handed to the agent refers to.
#[derive(Default)]
struct Remembered {
    /// By index: the element and its fingerprint.
    indexed: Vec<(u32, Element, Fingerprint)>,
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
    let walked = walk::walk()?;
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
            r.previous = Some(identity_keys(observation));
        });
        if options.mark {
            marks::draw()?;
        }
    }
    Ok((assembly.observation, elements))
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

/// Every indexed element of the last observation, for the overlay.
pub fn all_indexed() -> Vec<(u32, Element)> {
    REMEMBERED.with(|r| r.borrow().indexed.iter().map(|(i, e, _)| (*i, e.clone())).collect())
}
