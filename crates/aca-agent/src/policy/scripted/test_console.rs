//! The scaffolding the scripted policy's unit tests share: places, elements, and whole episodes run
//! against a hand-built fake console.

use aca_core::{ActionOutcome, Element, Fingerprint, GuiAction, Observation, Place, PlaceKind, Procedure, Role};

use super::ScriptedPolicy;
use crate::episode::{Episode, Next};
use crate::grade::{Report, RuleResult};
use crate::task::{ResourceReport, Task};

/// A console page built by hand: what it shows, and what an action does to it.
pub(super) trait FakeConsole {
    fn observe(&self) -> Observation;
    fn act(&mut self, action: &GuiAction) -> ActionOutcome;
}

pub(super) fn place(kind: PlaceKind, name: &str) -> Place {
    Place {
        kind,
        name: name.into(),
    }
}

/// An element with no value, the default state and an empty fingerprint.
pub(super) fn element(index: u32, role: Role, name: &str, places: Vec<Place>) -> Element {
    Element::new(index, role, name, places)
}

/// The elements of one observation, indexed from 1 in the order they are added.
#[derive(Debug, Default)]
pub(super) struct Elements(Vec<Element>);

impl Elements {
    /// Adds an element fingerprinted by its role and name, and returns it for its other fields.
    pub(super) fn add(&mut self, role: Role, name: &str, places: Vec<Place>) -> &mut Element {
        self.add_at(role, name, places, "")
    }

    /// Adds an element fingerprinted by its role, name and structural `path`.
    pub(super) fn add_at(&mut self, role: Role, name: &str, places: Vec<Place>, path: &str) -> &mut Element {
        let mut added = element(self.0.len() as u32 + 1, role, name, places);
        added.fingerprint = Fingerprint {
            role: Some(role),
            name: name.into(),
            path: path.into(),
            ..Fingerprint::default()
        };
        self.0.push(added);
        self.0.last_mut().expect("an element was just added")
    }

    pub(super) fn into_vec(self) -> Vec<Element> {
        self.0
    }
}

/// A task on `procedure` whose resource was provisioned as `text`, known by `names`.
pub(super) fn task_with_resource(procedure: Procedure, text: &str, names: &[&str]) -> Task {
    let mut task = Task::new(procedure);
    task.resource_report = Some(ResourceReport {
        text: text.into(),
        names: names.iter().map(|n| n.to_string()).collect(),
        secrets: Vec::new(),
    });
    task
}

/// Runs the scripted policy on `task` against `console` until the episode finishes or `exchanges`
/// exchanges have passed; the caller checks `Episode::end` where finishing matters.
pub(super) fn drive(console: &mut impl FakeConsole, task: Task, exchanges: usize) -> Episode {
    let mut episode = Episode::new(task, Box::new(ScriptedPolicy::new()));
    let mut next = episode.next(console.observe()).unwrap();
    for _ in 0..exchanges {
        next = match next {
            Next::Act(request) => episode.outcome(console.act(&request.action)).unwrap(),
            Next::Observe => episode.next(console.observe()).unwrap(),
            Next::Finished(_) => break,
            // The fake environment has nothing more to give.
            Next::Provision(_) => episode.resource_unavailable("nothing can be provisioned here").unwrap(),
            other => panic!("unexpected {other:?}"),
        };
    }
    episode
}

/// The episode's report, with the success rule matched or not.
pub(super) fn report(episode: &Episode, matched: bool) -> Report {
    Report::of(
        episode,
        &RuleResult {
            matched: Some(matched),
            events: vec![],
        },
    )
}
