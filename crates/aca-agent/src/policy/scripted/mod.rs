//! The scripted policy: no model, the embedded default. It grounds each documented step to elements
//! of the observation by label, role and place, tries fallbacks when a label is not where the page
//! says, and records how each step was matched for grading.
//!
//! Retry ladder for a target that is not visible as written: first look again (`wait()`: the page
//! may still be rendering), then one alternative per attempt (another label of the same role in the
//! same place, a More menu, a tab, a scroll, a search), then give up on the step. A finding (the
//! future defect) is only ever recorded after that first failed attempt.

mod ground;
mod intent;

use aca_core::{
    Action, ActionOutcome, ControlAction, Element, GuiAction, NotActionable, Observation, PlaceKind, Role, Step,
    Thought,
};

use self::ground::{
    CLICKABLE, Preference, TEXT_INPUTS, container_of, evidence, field_of_error, in_place, is_more_trigger, labelled,
    offscreen_direction, open_modal, options_of, page_is, renamed, row_of, same_place, search_box,
};
pub use self::intent::Intent;
use super::{Context, Decision, Finding, FindingKind, Grounding, Policy, Proposal, StepEvent};
use crate::label::{LabelMatch, is_confirm_label, match_label, mentions, normalise, overlap_score};

/// What a successful action means for the current intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// The intent is done.
    Complete,
    /// One menu segment is done.
    NextSegment,
    /// A confirmation was clicked: the next observation shows whether the console took it.
    ConfirmClicked,
    /// A step on the way (a menu opened, a wait, a scroll): the intent goes on.
    Nothing,
}

/// The result of grounding one intent on one observation.
enum Move {
    Act {
        action: GuiAction,
        goal: String,
        grounding: Option<Grounding>,
        effect: Effect,
        failed: Option<String>,
    },
    Done(Option<String>),
    GiveUp {
        reason: String,
        finding: Option<Finding>,
    },
    Provision(String),
}

/// The scripted policy's position in the procedure.
#[derive(Debug, Default)]
pub struct ScriptedPolicy {
    step: usize,
    intents: Vec<Intent>,
    derived_for: Option<usize>,
    intent: usize,
    /// The step's attempt count when the current intent started.
    intent_base: u32,
    /// What the last action means once it succeeds.
    pending: Option<Effect>,
    /// An alternative path taken for the current intent (a More menu opened, another tab).
    via: Option<Finding>,
    /// Alternatives already tried for the current intent.
    tried: Vec<String>,
    confirm_clicked: bool,
    /// A failure found while verifying, reported with the next action.
    failure: Option<String>,
    step_note: Option<String>,
    events: Vec<StepEvent>,
    asked_resource: bool,
    /// An action was taken for the current step.
    acted_in_step: bool,
}

impl ScriptedPolicy {
    pub fn new() -> ScriptedPolicy {
        ScriptedPolicy::default()
    }

    fn start_intent(&mut self, ctx: &Context<'_>) {
        self.intent_base = ctx.attempts_on(self.step);
        self.via = None;
        self.tried.clear();
        self.confirm_clicked = false;
    }

    fn ensure_intents(&mut self, ctx: &Context<'_>) {
        if self.derived_for == Some(self.step) {
            return;
        }
        self.intents = ctx
            .steps
            .get(self.step)
            .map(|s| intent::intents(s, ctx.task))
            .unwrap_or_default();
        self.derived_for = Some(self.step);
        self.intent = 0;
        self.acted_in_step = false;
        self.step_note = None;
        self.start_intent(ctx);
    }

    fn complete_intent(&mut self, ctx: &Context<'_>) {
        self.intent += 1;
        self.start_intent(ctx);
    }

    fn apply_last_outcome(&mut self, ctx: &Context<'_>) {
        let Some(effect) = self.pending.take() else { return };
        if !ctx.last_outcome().is_some_and(ActionOutcome::succeeded) {
            return;
        }
        match effect {
            Effect::Complete => self.complete_intent(ctx),
            Effect::NextSegment => {
                if let Some(Intent::Navigate { at, .. }) = self.intents.get_mut(self.intent) {
                    *at += 1;
                }
            }
            Effect::ConfirmClicked => self.confirm_clicked = true,
            Effect::Nothing => {}
        }
    }

    fn thought(&self, ctx: &Context<'_>, goal: &str) -> Thought {
        let step = ctx.steps.get(self.step);
        Thought {
            progress: match step {
                Some(s) => format!("Step {} of the procedure: {}", s.number, s.text),
                None => "Every documented step is done.".into(),
            },
            observation: format!(
                "The page {} shows {} elements.",
                aca_core::observation::quote(&ctx.observation.title),
                ctx.observation.elements.len()
            ),
            next_goal: goal.to_owned(),
        }
    }

    fn decision(&mut self, ctx: &Context<'_>, action: Action, goal: &str) -> Decision {
        let mut decision = Decision::new(
            self.thought(ctx, goal),
            action,
            Some(self.step).filter(|s| *s < ctx.steps.len()),
        );
        decision.events = std::mem::take(&mut self.events);
        decision
    }

    fn control(&mut self, ctx: &Context<'_>, action: ControlAction, goal: &str) -> Proposal {
        Proposal::Act(Box::new(self.decision(ctx, Action::Control(action), goal)))
    }
}

impl Policy for ScriptedPolicy {
    fn propose(&mut self, ctx: &Context<'_>) -> Proposal {
        self.apply_last_outcome(ctx);
        loop {
            if self.step >= ctx.steps.len() {
                let summary = format!(
                    "All {} documented steps were carried out; the page shows {}.",
                    ctx.steps.len(),
                    aca_core::observation::quote(&ctx.observation.title)
                );
                return self.control(ctx, ControlAction::TaskComplete { summary }, "report the task complete");
            }
            self.ensure_intents(ctx);
            let Some(intent) = self.intents.get(self.intent).cloned() else {
                let note = self.step_note.take();
                self.events.push(StepEvent::Done { step: self.step, note });
                self.step += 1;
                continue;
            };
            match self.ground(ctx, &intent) {
                Move::Act {
                    action,
                    goal,
                    grounding,
                    effect,
                    failed,
                } => {
                    self.pending = Some(effect);
                    self.acted_in_step = true;
                    let mut decision = self.decision(ctx, Action::Gui(action), &goal);
                    decision.grounding = grounding;
                    decision.failed_attempt = self.failure.take().or(failed);
                    return Proposal::Act(Box::new(decision));
                }
                Move::Done(note) => {
                    if note.is_some() {
                        self.step_note = note;
                    }
                    self.complete_intent(ctx);
                }
                Move::Provision(description) => {
                    self.asked_resource = true;
                    return self.control(
                        ctx,
                        ControlAction::RequestResource { description },
                        "ask for the resource the step acts on",
                    );
                }
                Move::GiveUp { reason, finding } => {
                    let number = ctx.steps.get(self.step).map(|s| s.number.clone()).unwrap_or_default();
                    if let Some(found) = finding.clone().filter(|f| f.kind == FindingKind::Absent)
                        && self.rest_is_visible(ctx)
                    {
                        if self.acted_in_step || self.intent + 1 < self.intents.len() {
                            // Only this part of the step is gone: the rest of it goes on.
                            self.events.push(StepEvent::PartlySkipped {
                                step: self.step,
                                finding: found,
                            });
                            self.complete_intent(ctx);
                        } else {
                            self.events.push(StepEvent::Skipped {
                                step: self.step,
                                finding: found,
                            });
                            self.step += 1;
                        }
                        continue;
                    }
                    self.events.push(StepEvent::Failed {
                        step: self.step,
                        reason: reason.clone(),
                        finding,
                    });
                    let reason = format!("Step {number}: {reason}");
                    return self.control(ctx, ControlAction::TaskUnachievable { reason }, "give up");
                }
            }
        }
    }

    fn resource_reported(&mut self, _available: bool) {
        self.asked_resource = true;
    }
}

impl ScriptedPolicy {
    fn ground(&mut self, ctx: &Context<'_>, intent: &Intent) -> Move {
        match intent {
            Intent::Nothing { note } => Move::Done(Some(note.clone())),
            Intent::Navigate { segments, at } => self.ground_navigate(ctx, segments, *at),
            Intent::FindRow => self.ground_row(ctx),
            Intent::Click { label, row, confirm } => {
                if self.confirm_clicked {
                    self.verify_confirm(ctx)
                } else {
                    self.ground_click(ctx, label, *row, *confirm)
                }
            }
            Intent::Fill {
                label,
                value,
                undocumented,
            } => self.ground_fill(ctx, label, value, *undocumented),
            Intent::Choose {
                labels,
                value,
                undocumented,
            } => self.ground_choose(ctx, labels, value.as_deref(), *undocumented),
        }
    }

    fn step(&self, ctx: &Context<'_>) -> Option<Step> {
        ctx.steps.get(self.step).cloned()
    }

    fn resource_names(ctx: &Context<'_>) -> Vec<String> {
        ctx.task
            .resource_report
            .as_ref()
            .map(|r| r.names.clone())
            .unwrap_or_default()
    }

    /// Every label the procedure documents except `label`: never taken for a renamed `label`.
    fn other_labels(ctx: &Context<'_>, label: &str) -> Vec<String> {
        ctx.steps
            .iter()
            .flat_map(|s| s.labels.iter().chain(s.menu_path.iter()))
            .filter(|l| normalise(l) != normalise(label))
            .cloned()
            .collect()
    }

    /// The target was not found as written: look again once, then try one alternative per attempt.
    fn fallback(&mut self, ctx: &Context<'_>, what: &str, alternatives: Vec<Alternative>) -> Move {
        let local = ctx.attempts_on(self.step).saturating_sub(self.intent_base);
        if local == 0 {
            return Move::Act {
                action: GuiAction::Wait { ms: None },
                goal: format!("look again: {what} is not visible yet"),
                grounding: None,
                effect: Effect::Nothing,
                failed: Some(format!("{what} is not on the page as written")),
            };
        }
        if local <= ctx.task.limits.max_target_attempts {
            for alternative in alternatives {
                if self.tried.contains(&alternative.key) {
                    continue;
                }
                self.tried.push(alternative.key.clone());
                if alternative.via.is_some() {
                    self.via = alternative.via.clone();
                }
                return Move::Act {
                    failed: Some(format!(
                        "{what} is still not on the page as written; trying: {}",
                        alternative.goal
                    )),
                    action: alternative.action,
                    goal: alternative.goal,
                    grounding: alternative.grounding,
                    effect: alternative.effect,
                };
            }
        }
        let mut lines = vec![format!(
            "Title: {}",
            aca_core::observation::quote(&ctx.observation.title)
        )];
        lines.extend(
            ctx.observation
                .elements
                .iter()
                .filter(|e| matches!(e.role, Role::Heading | Role::DialogTitle))
                .map(Element::line),
        );
        Move::GiveUp {
            reason: format!("{what} is not on the page, and no alternative found it"),
            finding: Some(Finding {
                kind: FindingKind::Absent,
                documented: what.to_owned(),
                observed: String::new(),
                evidence: lines,
            }),
        }
    }

    fn as_written(&self) -> Option<Grounding> {
        Some(Grounding {
            as_written: self.via.is_none(),
            finding: self.via.clone(),
        })
    }

    fn ground_navigate(&mut self, ctx: &Context<'_>, segments: &[String], at: usize) -> Move {
        let obs = ctx.observation;
        let Some(segment) = segments.get(at) else {
            return Move::Done(None);
        };
        let last = at + 1 == segments.len();
        let effect = if last { Effect::Complete } else { Effect::NextSegment };
        let in_nav = |label: &str, accept: &dyn Fn(LabelMatch) -> bool| -> Vec<&Element> {
            labelled(obs, label, CLICKABLE, accept)
                .into_iter()
                .filter(|e| in_place(e, PlaceKind::Navigation))
                .collect()
        };
        if let Some(target) = in_nav(segment, &|m| m == LabelMatch::Exact).first() {
            if !last && target.state.expanded == Some(true) {
                // An open group: clicking it again would close it.
                if let Some(Intent::Navigate { at, .. }) = self.intents.get_mut(self.intent) {
                    *at += 1;
                }
                return self.ground_navigate(ctx, segments, at + 1);
            }
            return Move::Act {
                action: GuiAction::Click { index: target.index },
                goal: format!("open \"{segment}\" in the navigation pane"),
                grounding: self.as_written(),
                effect,
                failed: None,
            };
        }
        // A group that is already open, or a page already shown, needs no click.
        if let Some(later) =
            (at + 1..segments.len()).find(|i| !in_nav(&segments[*i], &|m| m == LabelMatch::Exact).is_empty())
        {
            if let Some(Intent::Navigate { at, .. }) = self.intents.get_mut(self.intent) {
                *at = later;
            }
            return self.ground_navigate(ctx, segments, later);
        }
        if last && page_is(obs, segment) {
            return Move::Done(Some(format!("the {segment} page was already open")));
        }
        let mut alternatives = Vec::new();
        let exclude = Self::other_labels(ctx, segment);
        let nav: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| CLICKABLE.contains(&e.role) && in_place(e, PlaceKind::Navigation))
            .collect();
        if let Some(other) = renamed(segment, &nav, &exclude) {
            alternatives.push(Alternative::finding(
                "renamed",
                GuiAction::Click { index: other.index },
                format!(
                    "open \"{}\", the navigation item that reads like \"{segment}\"",
                    other.name
                ),
                effect,
                FindingKind::Renamed,
                segment,
                &other.name,
                other,
            ));
        }
        if let Some(elsewhere) = labelled(obs, segment, CLICKABLE, |m| m == LabelMatch::Exact).first() {
            alternatives.push(Alternative::finding(
                "elsewhere",
                GuiAction::Click { index: elsewhere.index },
                format!("open \"{segment}\" outside the navigation pane"),
                effect,
                FindingKind::Moved,
                &format!("navigation pane > {}", segments.join(" > ")),
                &place_path(elsewhere),
                elsewhere,
            ));
        }
        for group in nav.iter().filter(|e| e.state.expanded == Some(false)) {
            alternatives.push(Alternative::path(
                &format!("expand {}", group.index),
                GuiAction::Click { index: group.index },
                format!("expand the navigation group \"{}\"", group.name),
            ));
        }
        alternatives.extend(scroll_alternative(obs, segment));
        self.fallback(ctx, &format!("the navigation item \"{segment}\""), alternatives)
    }

    fn ground_row(&mut self, ctx: &Context<'_>) -> Move {
        let obs = ctx.observation;
        let names = Self::resource_names(ctx);
        let rows: Vec<&Element> = obs.elements.iter().filter(|e| row_of(e).is_some()).collect();
        let ours = rows
            .iter()
            .any(|e| row_of(e).is_some_and(|r| names.iter().any(|n| mentions(&r.name, n))));
        // Without a resource report nothing says which row is the task's: ask for the resource.
        if ctx.task.resource_report.is_none() && !self.asked_resource {
            return Move::Provision(self.resource_description(ctx));
        }
        if ours || (names.is_empty() && !rows.is_empty()) {
            return Move::Done(None);
        }
        let mut alternatives = Vec::new();
        if let (Some(search), Some(name)) = (search_box(obs), names.first()) {
            alternatives.push(Alternative::path(
                "search",
                GuiAction::Type {
                    index: search.index,
                    text: name.clone(),
                    submit: true,
                },
                format!("search for \"{name}\""),
            ));
        }
        if let Some(name) = names.first() {
            alternatives.extend(scroll_alternative(obs, name));
        }
        match self.fallback(ctx, "the resource's row", alternatives) {
            // A resource that is not listed is the environment's problem, not the page's.
            Move::GiveUp { reason, .. } => Move::GiveUp { reason, finding: None },
            other => other,
        }
    }

    fn resource_description(&self, ctx: &Context<'_>) -> String {
        let step = self.step(ctx).unwrap_or_default();
        let mut description = format!("Step {} acts on an existing resource: {}", step.number, step.text);
        if !ctx.task.procedure.prerequisites.is_empty() {
            description.push_str(" Prerequisites: ");
            description.push_str(&ctx.task.procedure.prerequisites.join(" "));
        }
        description
    }

    fn ground_click(&mut self, ctx: &Context<'_>, label: &str, row: bool, confirm: bool) -> Move {
        let obs = ctx.observation;
        let step = self.step(ctx).unwrap_or_default();
        let names = Self::resource_names(ctx);
        if row && ctx.task.resource_report.is_none() && !self.asked_resource {
            return Move::Provision(self.resource_description(ctx));
        }
        let container = step
            .container
            .as_ref()
            .filter(|c| c.kind != aca_core::ContainerKind::Page)
            .map(|c| c.name.clone());
        let preference = Preference {
            container: container.as_deref(),
            sections: &[],
            rows: &names,
            want_row: row,
        };
        if let Some(page) = step
            .container
            .as_ref()
            .filter(|c| c.kind == aca_core::ContainerKind::Page)
            && !page_is(obs, &page.name)
            && open_modal(obs).is_none()
            && !self.tried.iter().any(|t| t == "open page")
        {
            // "On the X page": go there first when the navigation pane offers it.
            let link = labelled(obs, &page.name, CLICKABLE, |m| m == LabelMatch::Exact)
                .into_iter()
                .find(|e| in_place(e, PlaceKind::Navigation));
            if let Some(link) = link {
                self.tried.push("open page".into());
                return Move::Act {
                    action: GuiAction::Click { index: link.index },
                    goal: format!("open the {} page, where the step starts", page.name),
                    grounding: None,
                    effect: Effect::Nothing,
                    failed: None,
                };
            }
        }
        let mut exact = labelled(obs, label, CLICKABLE, |m| m == LabelMatch::Exact);
        if row {
            // The row's own controls, or a menu one of them opened (rendered in the row or a portal).
            exact.retain(|e| match row_of(e) {
                Some(r) => names.is_empty() || names.iter().any(|n| mentions(&r.name, n)),
                None => in_place(e, PlaceKind::Menu),
            });
        }
        preference.sort(obs, &mut exact);
        if let Some(target) = exact.iter().find(|e| !e.state.disabled).or(exact.first()) {
            if confirm && let Some(prefill) = self.prefill_documented(ctx, target) {
                return prefill;
            }
            return Move::Act {
                action: GuiAction::Click { index: target.index },
                goal: format!("click \"{label}\""),
                grounding: self.as_written(),
                effect: if confirm {
                    Effect::ConfirmClicked
                } else {
                    Effect::Complete
                },
                failed: None,
            };
        }
        let our_row = if row {
            obs.elements
                .iter()
                .filter_map(row_of)
                .find(|r| names.is_empty() || names.iter().any(|n| mentions(&r.name, n)))
                .map(|r| r.name.clone())
        } else {
            None
        };
        let place = same_place(obs, CLICKABLE, our_row.as_deref());
        let exclude = Self::other_labels(ctx, label);
        let effect = if confirm {
            Effect::ConfirmClicked
        } else {
            Effect::Complete
        };
        let mut alternatives = Vec::new();
        if let Some(other) = renamed(label, &place, &exclude) {
            alternatives.push(Alternative::finding(
                "renamed",
                GuiAction::Click { index: other.index },
                format!(
                    "click \"{}\", which reads like \"{label}\" in the same place",
                    other.name
                ),
                effect,
                FindingKind::Renamed,
                label,
                &other.name,
                other,
            ));
        }
        if confirm {
            let synonym = place.iter().find(|e| {
                e.role == Role::Button
                    && is_confirm_label(&e.name)
                    && !matches!(normalise(&e.name).as_str(), "close" | "cancel")
                    && !e.state.disabled
            });
            if let Some(other) = synonym {
                alternatives.push(Alternative::finding(
                    "confirm",
                    GuiAction::Click { index: other.index },
                    format!("click \"{}\", the confirmation button in the same place", other.name),
                    effect,
                    FindingKind::Renamed,
                    label,
                    &other.name,
                    other,
                ));
            }
        }
        let more = place
            .iter()
            .find(|e| is_more_trigger(e) && e.state.expanded != Some(true));
        if let Some(more) = more {
            let documented = if row {
                format!("{label} (in the Actions column)")
            } else {
                label.to_owned()
            };
            alternatives.push(Alternative {
                key: "more".into(),
                action: GuiAction::Click { index: more.index },
                goal: format!("open the \"{}\" menu to look for \"{label}\"", more.name),
                grounding: None,
                effect: Effect::Nothing,
                via: Some(Finding {
                    kind: FindingKind::Moved,
                    documented,
                    observed: format!("{} > {label}", more.name),
                    evidence: evidence(more),
                }),
            });
        }
        alternatives.extend(scroll_alternative(obs, label));
        if row && let (Some(search), Some(name)) = (search_box(obs), names.first()) {
            alternatives.push(Alternative::path(
                "search",
                GuiAction::Type {
                    index: search.index,
                    text: name.clone(),
                    submit: true,
                },
                format!("search for \"{name}\""),
            ));
        }
        for tab in obs
            .elements
            .iter()
            .filter(|e| e.role == Role::Tab && !e.state.selected && !e.state.disabled)
        {
            alternatives.push(Alternative {
                key: format!("tab {}", tab.name),
                action: GuiAction::Click { index: tab.index },
                goal: format!("look for \"{label}\" on the \"{}\" tab", tab.name),
                grounding: None,
                effect: Effect::Nothing,
                via: Some(Finding {
                    kind: FindingKind::Moved,
                    documented: label.to_owned(),
                    observed: format!("{} tab > {label}", tab.name),
                    evidence: evidence(tab),
                }),
            });
        }
        self.fallback(ctx, &format!("\"{label}\""), alternatives)
    }

    /// Before a confirmation: required fields still empty that the page's parameter tables give a
    /// value for (an example or a default) are filled first.
    fn prefill_documented(&mut self, ctx: &Context<'_>, confirm: &Element) -> Option<Move> {
        let container = container_of(confirm);
        let empty_required = ctx.observation.elements.iter().filter(|e| {
            matches!(e.role, Role::Textbox | Role::Combobox)
                && e.state.required
                && e.value.as_deref().is_none_or(|v| v.trim().is_empty())
                && container.is_none_or(|c| e.places.contains(c))
        });
        for field in empty_required {
            let Some(value) = documented_value(ctx, &field.name) else {
                continue;
            };
            let key = format!("prefill {}", field.name);
            if self.tried.contains(&key) {
                continue;
            }
            self.tried.push(key);
            let intent = if field.role == Role::Combobox {
                Intent::Choose {
                    labels: vec![field.name.clone()],
                    value: Some(value),
                    undocumented: false,
                }
            } else {
                Intent::Fill {
                    label: field.name.clone(),
                    value,
                    undocumented: false,
                }
            };
            self.intents.insert(self.intent, intent.clone());
            let tried = std::mem::take(&mut self.tried);
            self.start_intent(ctx);
            self.tried = tried;
            return Some(self.ground(ctx, &intent));
        }
        None
    }

    /// After a confirmation: did the console take it, or does it show field errors?
    fn verify_confirm(&mut self, ctx: &Context<'_>) -> Move {
        let obs = ctx.observation;
        let errors: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| e.role == Role::FieldError && !e.name.trim().is_empty())
            .collect();
        if errors.is_empty() {
            self.confirm_clicked = false;
            return Move::Done(None);
        }
        let mut inserted = Vec::new();
        let mut messages = Vec::new();
        for error in &errors {
            messages.push(aca_core::observation::quote(&error.name));
            let Some(field) = field_of_error(obs, error) else {
                continue;
            };
            let (value, undocumented) = match documented_value(ctx, &field.name) {
                Some(value) => (Some(value), false),
                None => (None, true),
            };
            let intent = if field.role == Role::Combobox {
                Intent::Choose {
                    labels: vec![field.name.clone()],
                    value,
                    undocumented,
                }
            } else {
                Intent::Fill {
                    label: field.name.clone(),
                    value: value.unwrap_or_else(|| invented_value(ctx, &field.name)),
                    undocumented,
                }
            };
            if !inserted.contains(&intent) {
                inserted.push(intent);
            }
        }
        self.confirm_clicked = false;
        if inserted.is_empty() {
            return Move::GiveUp {
                reason: format!("the console refused the form: {}", messages.join(", ")),
                finding: None,
            };
        }
        self.failure = Some(format!("the console refused the form: {}", messages.join(", ")));
        for (offset, intent) in inserted.into_iter().enumerate() {
            self.intents.insert(self.intent + offset, intent);
        }
        let base = self.intent_base;
        self.start_intent(ctx);
        // The refusal is this intent's failure: its fallbacks may record findings.
        self.intent_base = base;
        match self.intents.get(self.intent).cloned() {
            Some(first) => self.ground(ctx, &first),
            None => Move::Done(None),
        }
    }

    fn undocumented_grounding(&self, label: &str, element: &Element) -> Option<Grounding> {
        Some(Grounding {
            as_written: true,
            finding: Some(Finding {
                kind: FindingKind::Undocumented,
                documented: String::new(),
                observed: format!("required field \"{label}\""),
                evidence: evidence(element),
            }),
        })
    }

    fn ground_fill(&mut self, ctx: &Context<'_>, label: &str, value: &str, undocumented: bool) -> Move {
        let obs = ctx.observation;
        let step = self.step(ctx).unwrap_or_default();
        let sections = intent::sections(&step);
        let preference = Preference {
            sections: &sections,
            ..Preference::default()
        };
        let mut exact = labelled(obs, label, &[Role::Textbox, Role::Combobox], |m| m == LabelMatch::Exact);
        preference.sort(obs, &mut exact);
        if exact
            .iter()
            .any(|e| e.value.as_deref().map(str::trim) == Some(value.trim()))
        {
            return Move::Done(None);
        }
        let target = exact
            .iter()
            .find(|e| e.value.as_deref().is_none_or(|v| v.trim().is_empty()) && !e.state.readonly)
            .or(exact.first());
        if let Some(target) = target.filter(|t| t.role == Role::Combobox) {
            // "Set Zone to …" on a drop-down list: choose the option.
            let label = target.name.clone();
            return self.ground_choose(ctx, &[label], Some(value), undocumented);
        }
        if let Some(target) = target {
            let grounding = if undocumented {
                self.undocumented_grounding(label, target)
            } else {
                self.as_written()
            };
            return Move::Act {
                action: GuiAction::Type {
                    index: target.index,
                    text: value.to_owned(),
                    submit: false,
                },
                goal: format!("set \"{label}\" to \"{value}\""),
                grounding,
                effect: Effect::Complete,
                failed: None,
            };
        }
        let place = same_place(obs, TEXT_INPUTS, None);
        let mut alternatives = Vec::new();
        if let Some(other) = renamed(label, &place, &Self::other_labels(ctx, label)) {
            alternatives.push(Alternative::finding(
                "renamed",
                GuiAction::Type {
                    index: other.index,
                    text: value.to_owned(),
                    submit: false,
                },
                format!("set \"{}\", which reads like \"{label}\"", other.name),
                Effect::Complete,
                FindingKind::Renamed,
                label,
                &other.name,
                other,
            ));
        }
        alternatives.extend(scroll_alternative(obs, label));
        self.fallback(ctx, &format!("the field \"{label}\""), alternatives)
    }

    fn ground_choose(&mut self, ctx: &Context<'_>, labels: &[String], value: Option<&str>, undocumented: bool) -> Move {
        let obs = ctx.observation;
        let step = self.step(ctx).unwrap_or_default();
        let sections = intent::sections(&step);
        let preference = Preference {
            sections: &sections,
            ..Preference::default()
        };
        let found = labels.iter().find_map(|label| {
            let mut exact = labelled(obs, label, &[Role::Combobox], |m| m == LabelMatch::Exact);
            preference.sort(obs, &mut exact);
            exact
                .iter()
                .find(|e| e.value.as_deref().is_none_or(|v| v.trim().is_empty()))
                .or(exact.first())
                .map(|e| (label.clone(), *e))
        });
        let Some((label, select)) = found else {
            let what = format!("the drop-down list \"{}\"", labels.join("\" or \""));
            let place = same_place(obs, &[Role::Combobox], None);
            let mut alternatives = Vec::new();
            for label in labels.iter().filter(|_| value.is_some()) {
                if let Some(other) = renamed(label, &place, &Self::other_labels(ctx, label)) {
                    alternatives.push(Alternative::finding(
                        "renamed",
                        GuiAction::Select {
                            index: other.index,
                            option: value.unwrap_or_default().to_owned(),
                        },
                        format!("choose in \"{}\", which reads like \"{label}\"", other.name),
                        Effect::Complete,
                        FindingKind::Renamed,
                        label,
                        &other.name,
                        other,
                    ));
                    break;
                }
            }
            for label in labels {
                alternatives.extend(scroll_alternative(obs, label));
            }
            return self.fallback(ctx, &what, alternatives);
        };
        let grounding = if undocumented {
            self.undocumented_grounding(&label, select)
        } else {
            self.as_written()
        };
        let options = options_of(obs, select.index);
        match value {
            Some(wanted) => {
                if select
                    .value
                    .as_deref()
                    .is_some_and(|v| match_label(wanted, v) == Some(LabelMatch::Exact))
                {
                    return Move::Done(None);
                }
                // The option the page names is not offered: take the closest one, and say so.
                if let Some(available) = refused_option(ctx, select.index) {
                    // The most words in common; the first offered among equals.
                    let closest = available
                        .iter()
                        .filter(|o| match_label(wanted, o).is_some())
                        .fold(None::<&String>, |best, option| match best {
                            Some(b) if overlap_score(wanted, b) >= overlap_score(wanted, option) => Some(b),
                            _ => Some(option),
                        })
                        .or(available.first());
                    if let Some(closest) = closest.filter(|_| !self.tried.iter().any(|t| t == "changed value")) {
                        self.tried.push("changed value".into());
                        return Move::Act {
                            action: GuiAction::Select {
                                index: select.index,
                                option: closest.clone(),
                            },
                            goal: format!("choose \"{closest}\": \"{wanted}\" is not offered"),
                            grounding: Some(Grounding {
                                as_written: false,
                                finding: Some(Finding {
                                    kind: FindingKind::ChangedValue,
                                    documented: wanted.to_owned(),
                                    observed: closest.clone(),
                                    evidence: evidence(select),
                                }),
                            }),
                            effect: Effect::Complete,
                            failed: None,
                        };
                    }
                }
                let action = match options
                    .iter()
                    .find(|o| match_label(wanted, &o.name) == Some(LabelMatch::Exact))
                {
                    Some(option) => GuiAction::Click { index: option.index },
                    None => GuiAction::Select {
                        index: select.index,
                        option: wanted.to_owned(),
                    },
                };
                Move::Act {
                    action,
                    goal: format!("choose \"{wanted}\" in \"{label}\""),
                    grounding,
                    effect: Effect::Complete,
                    failed: None,
                }
            }
            None => {
                if select.value.as_deref().is_some_and(|v| !v.trim().is_empty()) {
                    return Move::Done(None);
                }
                if let Some(option) = options.iter().find(|o| !o.state.disabled) {
                    return Move::Act {
                        action: GuiAction::Click { index: option.index },
                        goal: format!("choose \"{}\" in \"{label}\"", option.name),
                        grounding,
                        effect: Effect::Complete,
                        failed: None,
                    };
                }
                let key = format!("open {}", select.index);
                if self.tried.contains(&key) {
                    return Move::GiveUp {
                        reason: format!("the drop-down list \"{label}\" shows no options"),
                        finding: None,
                    };
                }
                self.tried.push(key);
                Move::Act {
                    action: GuiAction::Click { index: select.index },
                    goal: format!("open the drop-down list \"{label}\""),
                    grounding: None,
                    effect: Effect::Nothing,
                    failed: None,
                }
            }
        }
    }

    /// Whether the procedure can go on from this page without the current intent: the first later
    /// intent (of this step or the next ones) with a target finds it as written.
    fn rest_is_visible(&self, ctx: &Context<'_>) -> bool {
        for intent in self.intents.iter().skip(self.intent + 1) {
            if let Some(visible) = visible_as_written(ctx.observation, intent) {
                return visible;
            }
        }
        for step in ctx.steps.iter().skip(self.step + 1) {
            for intent in intent::intents(step, ctx.task) {
                if let Some(visible) = visible_as_written(ctx.observation, &intent) {
                    return visible;
                }
            }
        }
        true
    }
}

/// Whether an intent's target is on the page as written; `None` for intents with no target.
fn visible_as_written(obs: &Observation, intent: &Intent) -> Option<bool> {
    let exact = |label: &str, roles: &[Role]| !labelled(obs, label, roles, |m| m == LabelMatch::Exact).is_empty();
    match intent {
        Intent::Nothing { .. } | Intent::FindRow => None,
        Intent::Navigate { segments, .. } => segments.first().map(|s| exact(s, CLICKABLE)),
        Intent::Click { label, .. } => Some(exact(label, CLICKABLE)),
        Intent::Fill { label, .. } => Some(exact(label, &[Role::Textbox, Role::Combobox])),
        Intent::Choose { labels, .. } => Some(labels.iter().any(|l| exact(l, &[Role::Combobox]))),
    }
}

/// The options the page side said a select offers, when the last action on it found no such option.
fn refused_option(ctx: &Context<'_>, select: u32) -> Option<Vec<String>> {
    match ctx.last_outcome() {
        Some(ActionOutcome::NotActionable {
            index,
            reason: NotActionable::NoSuchOption { available, .. },
        }) if *index == select => Some(available.clone()),
        _ => None,
    }
}

/// An example or default the page's parameter tables give for a field.
fn documented_value(ctx: &Context<'_>, field: &str) -> Option<String> {
    ctx.task
        .procedure
        .parameters
        .iter()
        .flat_map(|t| &t.rows)
        .find(|p| match_label(&p.name, field) == Some(LabelMatch::Exact))
        .and_then(|p| p.example.clone().or_else(|| p.default.clone()))
        .map(|v| ctx.task.substitute(&v))
}

/// A value for a required field no step documents, shaped by its label.
fn invented_value(ctx: &Context<'_>, label: &str) -> String {
    let suffix = ctx
        .task
        .bindings
        .get("suffix")
        .cloned()
        .unwrap_or_else(|| "verify".into());
    let label = normalise(label);
    if label.contains("password") {
        format!("Aca#{suffix}2026x")
    } else if label.contains("port") {
        "80".into()
    } else if label.contains("description") {
        "Created while verifying documentation".into()
    } else {
        format!("aca-{suffix}")
    }
}

/// "Instances & Images > Instances" for an element's places and name.
fn place_path(element: &Element) -> String {
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

fn scroll_alternative(obs: &Observation, label: &str) -> Option<Alternative> {
    offscreen_direction(obs, label).map(|direction| {
        Alternative::path(
            &format!("scroll {label}"),
            GuiAction::Scroll { direction, index: None },
            format!("scroll to \"{label}\", which the page lists out of view"),
        )
    })
}

/// One way to reach a target that is not where the page says.
struct Alternative {
    key: String,
    action: GuiAction,
    goal: String,
    grounding: Option<Grounding>,
    effect: Effect,
    /// A path that leads to the target: the finding the target's grounding will carry.
    via: Option<Finding>,
}

impl Alternative {
    /// The alternative is the target itself, found under another label or in another place.
    #[allow(clippy::too_many_arguments)]
    fn finding(
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

    /// A step on the way (scroll, search, expand a group): no finding of its own.
    fn path(key: &str, action: GuiAction, goal: String) -> Alternative {
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

#[cfg(test)]
mod tests;
