//! Probing: a documented navigation item that is nowhere under its name, nor under a name sharing a
//! word with it, is looked for among the items of the same pane (the same group when the page's
//! group is still there) that the procedure does not otherwise name. Each candidate is opened and
//! judged by look-ahead: whether the targets of the steps that follow appear on its page. The best
//! one is taken as the item renamed; the rename is remembered for later mentions of the old name.

use aca_core::{Element, GuiAction, Observation, PlaceKind, Role};

use super::ground::{CLICKABLE, in_place, labelled, page_is, renamed, row_of};
use super::targets::group_header;
use super::{Effect, Intent, Move, ScriptedPolicy, intent};
use crate::label::{LabelMatch, is_confirm_label, match_label, mentions, normalise};
use crate::policy::{Context, Finding, FindingKind, Grounding};

/// How many candidates a probe opens at most.
const MAX_CANDIDATES: usize = 6;
/// How many targets of the following steps the look-ahead weighs.
const LOOKAHEAD_TARGETS: usize = 4;
/// How many following steps the look-ahead reads at most.
const LOOKAHEAD_STEPS: usize = 3;

/// A probe of the navigation pane for one documented item.
#[derive(Debug, Clone, Default)]
pub(super) struct Probe {
    /// The candidates' names, in pane order.
    candidates: Vec<String>,
    /// The look-ahead score of each candidate probed so far, by position in `candidates`.
    scores: Vec<Option<u32>>,
    /// The candidate whose page the last action opened.
    opened: Option<usize>,
    /// Every candidate was judged and none led anywhere: the usual fallbacks take over.
    exhausted: bool,
    /// The documented group's rename (when the taken item sits in a group under another name) was
    /// reported.
    group_reported: bool,
}

/// What the following steps expect to find on the page a navigation item leads to.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Expectation {
    /// A control, field or heading with this label; in a table row when `row`.
    Label { label: String, roles: Vec<Role>, row: bool },
    /// The row of one of the task's resources.
    ResourceRow,
}

/// The targets of the intents after the current one (this step's, then the next steps'), in
/// procedure order; generic confirmations (`OK`) say nothing about the page and are left out.
pub(super) fn expectations(ctx: &Context<'_>, step: usize, rest: &[Intent]) -> Vec<Expectation> {
    let mut out = Vec::new();
    let later: Vec<Vec<Intent>> = (step + 1..ctx.steps.len())
        .take(LOOKAHEAD_STEPS)
        .map(|at| intent::intents_at(ctx.steps, at, ctx.task))
        .collect();
    for intent in rest.iter().chain(later.iter().flatten()) {
        if out.len() >= LOOKAHEAD_TARGETS {
            break;
        }
        let expectation = match intent {
            Intent::OnPage { name } => Expectation::Label {
                label: name.clone(),
                roles: vec![Role::Heading],
                row: false,
            },
            Intent::OnTab { name } => Expectation::Label {
                label: name.clone(),
                roles: vec![Role::Tab],
                row: false,
            },
            Intent::FindRow | Intent::OpenRow | Intent::SelectRows => Expectation::ResourceRow,
            Intent::Click { label, .. } if is_confirm_label(label) => continue,
            Intent::Click { label, row, .. } => Expectation::Label {
                label: label.clone(),
                roles: CLICKABLE.to_vec(),
                row: *row,
            },
            Intent::ClickEither { labels, row } => match labels.first() {
                Some(label) => Expectation::Label {
                    label: label.clone(),
                    roles: CLICKABLE.to_vec(),
                    row: *row,
                },
                None => continue,
            },
            Intent::Fill { label, .. } | Intent::Set { label } => Expectation::Label {
                label: label.clone(),
                roles: vec![Role::Textbox, Role::Combobox],
                row: false,
            },
            Intent::Choose { labels, .. } => match labels.first() {
                Some(label) => Expectation::Label {
                    label: label.clone(),
                    roles: vec![Role::Combobox, Role::Radio, Role::Option],
                    row: false,
                },
                None => continue,
            },
            Intent::Navigate { .. } => break,
            Intent::Nothing { .. }
            | Intent::NothingToAct { .. }
            | Intent::InWizardStep { .. }
            | Intent::InConsole { .. }
            | Intent::InModal { .. }
            | Intent::TypeResourceName { .. }
            | Intent::SetIfRequired { .. }
            | Intent::SetPlainlyNamed { .. } => {
                continue;
            }
        };
        if !out.contains(&expectation) {
            out.push(expectation);
        }
    }
    out
}

/// How well a page meets the expectations: per expectation 3 for its label as written (or a
/// resource's row), 2 for a prefix, 1 for a shared word; the navigation pane and the top bar,
/// the same on every page, are not read, and a row action is looked for in rows only, any other
/// target outside them (a row's text is data, not the page's controls).
pub(super) fn lookahead_score(obs: &Observation, expectations: &[Expectation], resources: &[String]) -> u32 {
    let page: Vec<&Element> = obs
        .elements
        .iter()
        .filter(|e| !in_place(e, PlaceKind::Navigation) && !in_place(e, PlaceKind::TopBar))
        .collect();
    expectations
        .iter()
        .map(|expectation| match expectation {
            Expectation::ResourceRow => {
                let listed = page
                    .iter()
                    .filter_map(|e| row_of(e))
                    .any(|r| resources.iter().any(|n| mentions(&r.name, n)));
                // A directory that holds the resource (`reports/` for `reports/q3.txt`).
                let holder = page.iter().any(|e| {
                    row_of(e).is_some()
                        && e.name.ends_with('/')
                        && resources
                            .iter()
                            .any(|n| n.len() > e.name.len() && n.starts_with(e.name.as_str()))
                });
                if listed || holder { 3 } else { 0 }
            }
            Expectation::Label { label, roles, row } => page
                .iter()
                .filter(|e| roles.contains(&e.role))
                .filter(|e| row_of(e).is_some() == *row)
                .filter_map(|e| match_label(label, &e.name))
                .map(|quality| match quality {
                    LabelMatch::Exact => 3,
                    LabelMatch::Prefix => 2,
                    LabelMatch::Overlap => 1,
                })
                .max()
                .unwrap_or(0),
        })
        .sum()
}

/// The items of the navigation pane a renamed `item` may be: links (not group headers) that no
/// step names and whose page is not the one shown; inside the documented `group` when the pane
/// still has it.
pub(super) fn candidates<'o>(
    obs: &'o Observation,
    group: Option<&str>,
    documented_elsewhere: &[String],
) -> Vec<&'o Element> {
    let nav: Vec<&Element> = obs
        .elements
        .iter()
        .filter(|e| CLICKABLE.contains(&e.role) && in_place(e, PlaceKind::Navigation))
        .collect();
    let header = group.and_then(|g| {
        nav.iter()
            .find(|e| e.state.expanded.is_some() && match_label(g, &e.name) == Some(LabelMatch::Exact))
    });
    nav.iter()
        .copied()
        .filter(|e| e.state.expanded.is_none())
        .filter(|e| !documented_elsewhere.iter().any(|d| normalise(d) == normalise(&e.name)))
        .filter(|e| !page_is(obs, &e.name))
        .filter(|e| match header {
            Some(h) => group_header(obs, e).is_some_and(|g| g.index == h.index),
            None => true,
        })
        .take(MAX_CANDIDATES)
        .collect()
}

impl ScriptedPolicy {
    /// Probes the navigation pane for the path's last item when neither it nor a name sharing a
    /// word with it is there (after the first look again). `None` leaves the usual fallbacks to it.
    pub(super) fn probe_navigation(&mut self, ctx: &Context<'_>, segments: &[String]) -> Option<Move> {
        let obs = ctx.observation;
        let item = segments.last()?;
        let local = ctx.attempts_on(self.step).saturating_sub(self.intent_base);
        if local == 0 || self.probe.as_ref().is_some_and(|p| p.exhausted) {
            return None;
        }
        let nav: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| CLICKABLE.contains(&e.role) && in_place(e, PlaceKind::Navigation))
            .collect();
        if self.probe.is_none() {
            let in_nav = |label: &str| !labelled(obs, label, CLICKABLE, |m| m == LabelMatch::Exact).is_empty();
            let words_shared = renamed(item, &nav, &Self::other_labels(ctx, item)).is_some();
            if in_nav(item) || words_shared {
                return None;
            }
            let group = segments
                .len()
                .checked_sub(2)
                .map(|at| segments[at].as_str())
                .filter(|g| in_nav(g));
            let mut named = Self::other_labels(ctx, item);
            named.push(item.clone());
            let found = candidates(obs, group, &named);
            if found.is_empty() {
                return None;
            }
            self.probe = Some(Probe {
                candidates: found.iter().map(|e| e.name.clone()).collect(),
                scores: vec![None; found.len()],
                opened: None,
                exhausted: false,
                group_reported: false,
            });
        }
        let rest: Vec<Intent> = self.intents.iter().skip(self.intent + 1).cloned().collect();
        let expected = expectations(ctx, self.step, &rest);
        let resources = Self::resource_names(ctx);
        let last_succeeded = ctx.last_outcome().is_some_and(super::took_effect);
        let probe = self.probe.as_mut()?;
        if let Some(at) = probe.opened.take()
            && let Some(score) = probe.scores.get_mut(at)
        {
            *score = Some(if last_succeeded {
                lookahead_score(obs, &expected, &resources)
            } else {
                0
            });
        }
        let find = |name: &str| {
            nav.iter()
                .copied()
                .find(|e| e.state.expanded.is_none() && normalise(&e.name) == normalise(name))
        };
        while let Some(at) = probe.scores.iter().position(Option::is_none) {
            let name = probe.candidates[at].clone();
            match find(&name) {
                Some(element) => {
                    probe.opened = Some(at);
                    return Some(Move::Act {
                        action: GuiAction::Click { index: element.index },
                        goal: format!(
                            "open \"{name}\" to see whether it is what the page calls \"{item}\" \
                             (the next steps' targets should be there)"
                        ),
                        grounding: None,
                        effect: Effect::Nothing,
                        failed: None,
                    });
                }
                None => probe.scores[at] = Some(0),
            }
        }
        let best = probe
            .scores
            .iter()
            .enumerate()
            .filter_map(|(at, s)| s.map(|s| (at, s)))
            .filter(|(_, s)| *s > 0)
            .fold(None, |best: Option<(usize, u32)>, (at, s)| match best {
                Some((_, top)) if top >= s => best,
                _ => Some((at, s)),
            });
        let Some((at, _)) = best else {
            probe.exhausted = true;
            return None;
        };
        let name = probe.candidates[at].clone();
        let element = find(&name)?;
        // The documented group, when the item sits in a group under another name, is renamed too:
        // reported first, on its own.
        let group = segments.len().checked_sub(2).map(|g| segments[g].clone());
        if let (Some(group), Some(header)) = (group, group_header(obs, element))
            && normalise(&group) != normalise(&header.name)
            && !probe.group_reported
        {
            probe.group_reported = true;
            self.learned.push((group.clone(), header.name.clone()));
            return Some(Move::Act {
                action: GuiAction::Wait { ms: Some(100) },
                goal: format!(
                    "take the group \"{}\", which holds \"{name}\", as \"{group}\"",
                    header.name
                ),
                grounding: Some(Grounding {
                    as_written: false,
                    finding: Some(Finding {
                        kind: FindingKind::Renamed,
                        documented: group,
                        observed: header.name.clone(),
                        evidence: super::ground::evidence(header),
                    }),
                }),
                effect: Effect::Nothing,
                failed: None,
            });
        }
        self.learned.push((item.clone(), name.clone()));
        let finding = Finding {
            kind: FindingKind::Renamed,
            documented: item.clone(),
            observed: name.clone(),
            evidence: super::ground::evidence(element),
        };
        let action = if page_is(obs, &name) {
            GuiAction::Wait { ms: Some(100) }
        } else {
            GuiAction::Click { index: element.index }
        };
        Some(Move::Act {
            action,
            goal: format!("take \"{name}\" as \"{item}\": its page shows what the next steps need"),
            grounding: Some(Grounding {
                as_written: false,
                finding: Some(finding),
            }),
            effect: Effect::Complete,
            failed: None,
        })
    }

    /// The console name a label had in the page's time, learned earlier in this episode.
    pub(super) fn learned_name(&self, label: &str) -> Option<&str> {
        self.learned
            .iter()
            .rev()
            .find(|(documented, _)| normalise(documented) == normalise(label))
            .map(|(_, observed)| observed.as_str())
    }
}
