//! Alternatives: the other ways to reach a target that is not where the page says it is.

use aca_core::{Element, GuiAction, Observation};

use super::Effect;
use super::ground::{evidence, offscreen_direction};
use crate::policy::{Finding, FindingKind, Grounding};

/// "Instances & Images > Instances" for an element's places and name.
pub(super) fn place_path(element: &Element) -> String {
    let mut parts: Vec<String> = element
        .places
        .iter()
        .map(|p| {
            if p.name.is_empty() {
                p.kind.as_str().to_owned()
            } else {
                p.name.clone()
            }
        })
        .collect();
    parts.push(element.name.clone());
    parts.join(" > ")
}

pub(super) fn scroll_alternative(obs: &Observation, label: &str) -> Option<Alternative> {
    offscreen_direction(obs, label).map(|direction| {
        Alternative::path(
            &format!("scroll {label}"),
            GuiAction::Scroll { direction, index: None },
            format!("scroll to \"{label}\", which the page lists out of view"),
        )
    })
}

/// One way to reach a target that is not where the page says.
pub(super) struct Alternative {
    pub(super) key: String,
    pub(super) action: GuiAction,
    pub(super) goal: String,
    pub(super) grounding: Option<Grounding>,
    pub(super) effect: Effect,
    /// A path that leads to the target: the finding the target's grounding will carry.
    pub(super) via: Option<Finding>,
}

impl Alternative {
    /// The alternative is the target itself, found under another label or in another place.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn finding(
        key: &str,
        action: GuiAction,
        goal: String,
        effect: Effect,
        kind: FindingKind,
        documented: &str,
        observed: &str,
        element: &Element,
    ) -> Alternative {
        Alternative {
            key: key.to_owned(),
            action,
            goal,
            grounding: Some(Grounding {
                as_written: false,
                finding: Some(Finding {
                    kind,
                    documented: documented.to_owned(),
                    observed: observed.to_owned(),
                    evidence: evidence(element),
                }),
            }),
            effect,
            via: None,
        }
    }

    /// A step towards a target that moved: the target's grounding will carry the move it found.
    pub(super) fn towards(
        key: impl Into<String>,
        action: GuiAction,
        goal: String,
        documented: String,
        observed: String,
        evidence: Vec<String>,
    ) -> Alternative {
        Alternative {
            key: key.into(),
            action,
            goal,
            grounding: None,
            effect: Effect::Nothing,
            via: Some(Finding {
                kind: FindingKind::Moved,
                documented,
                observed,
                evidence,
            }),
        }
    }

    /// A step on the way (scroll, search, expand a group): no finding of its own.
    pub(super) fn path(key: &str, action: GuiAction, goal: String) -> Alternative {
        Alternative {
            key: key.to_owned(),
            action,
            goal,
            grounding: None,
            effect: Effect::Nothing,
            via: None,
        }
    }
}
