//! The scripted policy: no model, the embedded default. It grounds each documented step to elements
//! of the observation by label, role and place, tries fallbacks when a label is not where the page
//! says, and records how each step was matched for grading.
//!
//! Retry ladder for a target that is not visible as written: first look again (`wait()`: the page
//! may still be rendering), then one alternative per attempt (another label of the same role in the
//! same place, a More menu, a tab, a scroll, a search), then give up on the step. A finding (the
//! future defect) is only ever recorded after that first failed attempt. A navigation item that is
//! nowhere under its name nor a name sharing a word with it is probed for (the `probe` module): the pane's
//! items the page does not name are opened and judged by whether the next steps' targets appear; a
//! rename found so is remembered for the page's later mentions of the old name.

mod alternative;
mod console;
mod forms;
mod ground;
mod intent;
mod probe;
mod targets;

use aca_core::{Action, ActionOutcome, ControlAction, Element, GuiAction, Observation, Role, Step, Thought};

use self::alternative::Alternative;
use self::ground::{CLICKABLE, labelled};
pub use self::intent::Intent;
use super::{Context, Decision, Finding, FindingKind, Grounding, Policy, Proposal, StepEvent};
use crate::label::{LabelMatch, normalise};

/// What a successful action means for the current intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// The intent is done.
    Complete,
    /// The intent and this many after it are done (a menu item found outside its menu).
    CompleteWithNext(usize),
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
    /// Nothing in the step can be acted on: it is passed over, not verified.
    Unverified(String),
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
    /// The dialog or panel a confirmation was clicked in, and the button: still open after it
    /// with an error shown, the console refused what was confirmed; still open without one, the
    /// same button is not clicked again as what the page leaves implicit.
    confirmed_in: Option<(String, String)>,
    /// A failure found while verifying, reported with the next action.
    failure: Option<String>,
    step_note: Option<String>,
    events: Vec<StepEvent>,
    asked_resource: bool,
    /// Clicks made for what the last step left open (a wizard's Nexts, then its OK); at
    /// [`MAX_IMPLICIT_CLICKS`] once the OK is clicked.
    implicit_clicks: usize,
    /// The step that last asked for a resource because its list was empty: once per step.
    asked_in_step: Option<usize>,
    /// The step that opened a tab to read an authenticator's setup key: once per step.
    key_tab_opened_in_step: Option<usize>,
    /// The resource was asked for from inside the step (a drop-down list with no options): once it
    /// exists, the page is loaded again and the step starts over.
    redo_step_when_provided: bool,
    /// The step starting over may need the step before it to open its dialog again.
    reopen_after_reload: bool,
    /// The resource was replaced by another (one billed otherwise): the procedure goes back to the
    /// step that opened the resource, to open the new one.
    reopen_resource: bool,
    /// The list to go back to before the procedure opens the resource again.
    return_to: Option<String>,
    /// The resource was asked for while a dialog or panel was open (one an earlier step opened,
    /// named or not).
    asked_inside_modal: bool,
    /// An action was taken for the current step.
    acted_in_step: bool,
    /// The current step filled a field: it typed, or chose in a field of the form it works in.
    filled_in_step: bool,
    /// The page a step last filled a field on: a page's form an earlier step filled is still
    /// the procedure's while the page shows it.
    filled_on: Option<String>,
    /// The page whose own form (outside any dialog or panel) a step last filled: once a panel
    /// opened over it is confirmed, that form is still to be submitted.
    filled_page_form_on: Option<String>,
    /// What the procedure typed (never into a password box): the names of what it created, which
    /// a later step finds in a list.
    typed: Vec<String>,
    /// The row whose control was last clicked: a dialog it opens that asks for an ID asks for
    /// that row's.
    acted_row: Option<String>,
    /// The wizard steps the documented steps acted in: a wizard step beyond them is one the page
    /// never showed.
    acted_in_wizard_steps: Vec<String>,
    /// Any step acted on the page.
    acted_in_episode: bool,
    /// Fields of the current step filled from the page's parameter tables before a confirmation.
    prefilled: Vec<String>,
    /// When the codes of an authenticator app were read for the current form: both codes come
    /// from this one reading, so that they stay consecutive.
    codes_read_ms: Option<u64>,
    /// The page whose row control was clicked last: a resource's own page is one step past it.
    list_page: Option<String>,
    /// A probe of the navigation pane for the current intent's item.
    probe: Option<probe::Probe>,
    /// Renames found earlier in the episode (documented label, console label): a later mention of
    /// the old name ("On the Disks page") means the new one.
    learned: Vec<(String, String)>,
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
        self.probe = None;
    }

    fn ensure_intents(&mut self, ctx: &Context<'_>) {
        if self.derived_for == Some(self.step) {
            return;
        }
        // The page was loaded again for a resource asked for inside a dialog or panel an earlier
        // step opened: that step opens it again first.
        let in_modal = std::mem::take(&mut self.asked_inside_modal);
        if std::mem::take(&mut self.reopen_resource)
            && let Some(opening) = (0..self.step).rev().find(|at| {
                ctx.steps.get(*at).is_some_and(|s| {
                    intent::intents(s, ctx.task)
                        .iter()
                        .any(|i| matches!(i, Intent::OpenRow | Intent::FindRow))
                })
            })
        {
            self.reopen_after_reload = false;
            self.step = opening;
            self.return_to = self.list_page.clone();
        }
        if std::mem::take(&mut self.reopen_after_reload)
            && self.step > 0
            && ground::open_modal(ctx.observation).is_none()
            && (in_modal
                || ctx.steps.get(self.step).is_some_and(|s| {
                    s.container.as_ref().is_some_and(|c| {
                        matches!(c.kind, aca_core::ContainerKind::Dialog | aca_core::ContainerKind::Panel)
                    })
                }))
        {
            self.step -= 1;
        }
        self.intents = intent::intents_at(ctx.steps, self.step, ctx.task);
        self.derived_for = Some(self.step);
        self.intent = 0;
        self.acted_in_step = false;
        self.filled_in_step = false;
        self.prefilled.clear();
        self.codes_read_ms = None;
        self.step_note = None;
        self.start_intent(ctx);
    }

    fn complete_intent(&mut self, ctx: &Context<'_>) {
        self.intent += 1;
        self.start_intent(ctx);
    }

    fn apply_last_outcome(&mut self, ctx: &Context<'_>) {
        let Some(effect) = self.pending.take() else { return };
        if !ctx.last_outcome().is_some_and(took_effect) {
            return;
        }
        match effect {
            Effect::Complete => self.complete_intent(ctx),
            Effect::CompleteWithNext(more) => {
                for _ in 0..=more {
                    self.complete_intent(ctx);
                }
            }
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
            if let Some(url) = self.return_to.take().filter(|url| *url != ctx.observation.url) {
                let goal = "go back to the list, to open the resource the run has now";
                return Proposal::Act(Box::new(self.decision(ctx, Action::Gui(GuiAction::Goto { url }), goal)));
            }
            if self.intent == self.intents.len()
                && self.step + 1 == ctx.steps.len()
                && let Some(submit) = self.implicit_submit(ctx)
            {
                self.intents.push(submit);
            }
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
                    if effect == Effect::ConfirmClicked {
                        let button = action
                            .index()
                            .and_then(|i| ctx.observation.element(i))
                            .map(|e| e.name.clone())
                            .unwrap_or_default();
                        self.confirmed_in = ground::open_modal(ctx.observation).map(|m| (m.name.clone(), button));
                    }
                    self.pending = Some(effect);
                    self.acted_in_step = true;
                    self.acted_in_episode = true;
                    let fills = matches!(action, GuiAction::Type { .. } | GuiAction::Select { .. })
                        || matches!(
                            intent,
                            Intent::Fill { .. }
                                | Intent::Set { .. }
                                | Intent::SetIfRequired { .. }
                                | Intent::SetPlainlyNamed { .. }
                                | Intent::Choose { .. }
                        );
                    self.filled_in_step |= fills;
                    if fills {
                        self.filled_on = Some(ctx.observation.url.clone());
                        let in_modal = action
                            .index()
                            .and_then(|i| ctx.observation.element(i))
                            .is_none_or(|e| ground::modal_of(e).is_some());
                        if !in_modal {
                            self.filled_page_form_on = Some(ctx.observation.url.clone());
                        }
                    }
                    if self.implicit_clicks == 0
                        && let Some(index) = action.index()
                        && let Some(step) = ctx
                            .observation
                            .element(index)
                            .and_then(|e| e.places.iter().find(|p| p.kind == aca_core::PlaceKind::WizardStep))
                        && !self.acted_in_wizard_steps.contains(&step.name)
                    {
                        self.acted_in_wizard_steps.push(step.name.clone());
                    }
                    if let GuiAction::Type { index, text, .. } = &action
                        && !ctx.observation.element(*index).is_some_and(|e| e.state.secret)
                        && text.trim().len() >= 3
                        && text.chars().any(char::is_alphabetic)
                    {
                        self.typed.push(text.trim().to_owned());
                    }
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
                Move::Unverified(reason) => {
                    self.events.push(StepEvent::Unverified {
                        step: self.step,
                        reason,
                    });
                    // The last step names nothing to act on, and the page ends with a form the
                    // procedure opened: it is submitted as a person would; the step stays unverified.
                    if self.step + 1 == ctx.steps.len()
                        && let Some(submit) = self.implicit_submit(ctx)
                    {
                        self.intents.truncate(self.intent + 1);
                        self.intents.push(submit);
                        self.complete_intent(ctx);
                        continue;
                    }
                    self.step += 1;
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
                    // "(Optional) … click Switch to Policy Editor": the reader may leave the step
                    // out, and so does the agent when it cannot be done; it stays unverified.
                    if ctx.steps.get(self.step).is_some_and(|s| s.optional) {
                        self.events.push(StepEvent::Unverified {
                            step: self.step,
                            reason: format!("an optional step, left out: {reason}"),
                        });
                        self.step += 1;
                        continue;
                    }
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

    fn resource_reported(&mut self, available: bool) {
        self.asked_resource = true;
        if std::mem::take(&mut self.redo_step_when_provided) && available {
            self.derived_for = None;
            self.implicit_clicks = 0;
            self.reopen_after_reload = true;
        }
    }
}

/// The most clicks made for what the last step left open: a wizard's remaining steps and its OK.
const MAX_IMPLICIT_CLICKS: usize = 6;

impl ScriptedPolicy {
    /// The OK the page left implicit opened a dialog that asks for what the page never names (the
    /// Create Policy dialog's Policy Name after the editor): the page stops short of the operation.
    /// The field is filled as undocumented, which records the missing step, and the dialog's own
    /// OK is left to be clicked, once.
    fn asked_after_the_end(&mut self, ctx: &Context<'_>, modal: Option<&aca_core::Place>) -> Option<Intent> {
        let modal = modal?;
        if self.confirmed_in.as_ref().is_some_and(|(title, _)| *title == modal.name) {
            return None;
        }
        let field = ctx.observation.elements.iter().find(|e| {
            e.role == aca_core::Role::Textbox
                && e.state.required
                && ground::modal_of(e) == Some(modal)
                && e.value.as_deref().is_none_or(|v| v.trim().is_empty())
                && !forms::documented_anywhere(ctx, &e.name)
        })?;
        self.implicit_clicks = MAX_IMPLICIT_CLICKS - 1;
        // The page's end did not end the operation: a failed try, which lets the finding count.
        self.failure = Some(format!(
            "the page ends, and the \"{}\" dialog then asks for {}",
            modal.name,
            aca_core::observation::quote(&field.name)
        ));
        Some(Intent::Fill {
            label: field.name.clone(),
            value: forms::invented_value(ctx.task, &field.name),
            undocumented: true,
        })
    }

    /// The last step filled a dialog, a wizard step or a page's form and the page ends there
    /// ("select the corresponding ECS instance."): its OK is what a person clicks next, so it is
    /// clicked, and noted; a wizard left before its last step is taken through its Next first.
    fn implicit_submit(&mut self, ctx: &Context<'_>) -> Option<Intent> {
        let obs = ctx.observation;
        let modal = ground::open_modal(obs);
        if self.implicit_clicks >= MAX_IMPLICIT_CLICKS {
            return self.asked_after_the_end(ctx, modal);
        }
        // A page's form is submitted only when the step filled it; a dialog the procedure opened
        // and the page ends in (a confirmation, a form) is what it leaves to the reader.
        let form_filled = self.filled_in_step || self.filled_on.as_deref() == Some(obs.url.as_str());
        if (modal.is_none() && !form_filled) || (modal.is_some() && !self.acted_in_episode) {
            return None;
        }
        // The open dialog's buttons, else those of a form on the page (never the top bar's).
        let buttons: Vec<&aca_core::Element> = obs
            .elements
            .iter()
            .filter(|e| e.role == aca_core::Role::Button && !e.state.disabled)
            .filter(|e| match modal {
                Some(m) => ground::modal_of(e) == Some(m),
                None => {
                    ground::in_place(e, aca_core::PlaceKind::Form) && !ground::in_place(e, aca_core::PlaceKind::TopBar)
                }
            })
            .collect();
        let named = |labels: &[&str]| {
            buttons
                .iter()
                .find(|e| {
                    labels
                        .iter()
                        .any(|l| crate::label::normalise(l) == crate::label::normalise(&e.name))
                })
                .copied()
        };
        // The dialog's own final confirmation was clicked already and it is still closing: not
        // again (a wizard's Next comes once per step and is clicked on each).
        let confirmed_here = |button: &aca_core::Element| {
            modal.is_some_and(|m| self.confirmed_in.as_ref() == Some(&(m.name.clone(), button.name.clone())))
        };
        let submit = named(&["OK", "Confirm", "Save", "Create", "Submit"])
            .or_else(|| modal.and_then(|m| own_confirm(&buttons, m)))
            .filter(|b| !confirmed_here(b));
        let (button, last) = match (submit, named(&["Next"])) {
            (Some(submit), _) => (submit, true),
            (None, Some(next)) => (next, false),
            (None, None) => return None,
        };
        // A panel opened over a page's form the procedure filled (the Servers panel of the
        // Create vServer Group page): once it is confirmed, the page's form is submitted too.
        let form_below = modal.is_some() && self.filled_page_form_on.as_deref() == Some(obs.url.as_str());
        self.implicit_clicks = match (last, form_below) {
            (true, true) => MAX_IMPLICIT_CLICKS - 1,
            (true, false) => MAX_IMPLICIT_CLICKS,
            (false, _) => self.implicit_clicks + 1,
        };
        let filled = match modal {
            Some(m) => format!("the \"{}\" dialog", m.name),
            None => format!("the form on \"{}\"", obs.title),
        };
        let note = format!(
            "the page ends with {filled} filled; its \"{}\" button, which the page leaves implicit, was clicked",
            button.name
        );
        self.step_note = Some(match self.step_note.take() {
            Some(before) if before.starts_with("the page ends with") => format!("{before}; then {note}"),
            _ => note,
        });
        Some(Intent::Click {
            label: button.name.clone(),
            row: false,
            confirm: true,
            batch: false,
        })
    }

    fn ground(&mut self, ctx: &Context<'_>, intent: &Intent) -> Move {
        match intent {
            Intent::Nothing { note } => Move::Done(Some(note.clone())),
            Intent::NothingToAct { reason } => Move::Unverified(reason.clone()),
            Intent::InConsole { name } => self.ground_in_console(ctx, name),
            Intent::Navigate { segments, at } => self.ground_navigate(ctx, segments, *at),
            Intent::FindRow => self.ground_row(ctx),
            Intent::OpenRow => self.ground_open_row(ctx),
            Intent::SelectRows => self.ground_select_rows(ctx),
            Intent::OnPage { name } => self.ground_on_page(ctx, name),
            Intent::OnTab { name } => self.ground_on_tab(ctx, name),
            Intent::InModal { name } => self.ground_in_modal(ctx, name),
            Intent::InWizardStep { name } => self.ground_in_wizard_step(ctx, name),
            Intent::Set { label } => self.ground_set(ctx, label),
            Intent::SetIfRequired { label } => self.ground_set_if_required(ctx, label),
            Intent::SetPlainlyNamed { label } => self.ground_set_plainly_named(ctx, label),
            Intent::TypeResourceName { id } => self.ground_resource_name(ctx, *id),
            Intent::Click {
                label,
                row,
                confirm,
                batch,
            } => {
                if self.confirm_clicked {
                    self.verify_confirm(ctx)
                } else {
                    self.ground_click(ctx, label, *row, *confirm, *batch)
                }
            }
            Intent::ClickEither { labels, row } => {
                let shown = labels.iter().find(|label| {
                    !ground::labelled(ctx.observation, label, ground::CLICKABLE, |m| m == LabelMatch::Exact).is_empty()
                });
                let label = shown.or(labels.first()).cloned().unwrap_or_default();
                self.ground_click(ctx, &label, *row, false, false)
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

    /// What identifies the task's resources in a list: their names, and their ids (`${vpc_id}`
    /// bindings), since some lists show a resource by its id alone.
    fn resource_names(ctx: &Context<'_>) -> Vec<String> {
        let mut names = ctx
            .task
            .resource_report
            .as_ref()
            .map(|r| r.names.clone())
            .unwrap_or_default();
        if ctx.task.resource_report.is_some() {
            let ids: Vec<String> = ctx
                .task
                .bindings
                .iter()
                .filter(|(key, id)| key.ends_with("_id") && !id.is_empty() && !names.contains(id))
                .map(|(_, id)| id.clone())
                .collect();
            names.extend(ids);
        }
        // An object `reports/q3.txt` is listed as `q3.txt` inside its directory.
        let basenames: Vec<String> = names
            .iter()
            .filter_map(|n| n.rsplit_once('/').map(|(_, base)| base.to_owned()))
            .filter(|base| !base.is_empty() && !names.contains(base))
            .collect();
        names.extend(basenames);
        names
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
    /// `what` names the target in sentences (`the field "Name"`); `documented` is the page's own
    /// text for it (`Name`), what a defect quotes.
    fn fallback(&mut self, ctx: &Context<'_>, what: &str, documented: &str, alternatives: Vec<Alternative>) -> Move {
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
                documented: documented.to_owned(),
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

    /// Whether the procedure can go on from this page without the current intent: the first later
    /// intent (of this step or the next ones) with a target finds it as written.
    fn rest_is_visible(&self, ctx: &Context<'_>) -> bool {
        for intent in self.intents.iter().skip(self.intent + 1) {
            if let Some(visible) = visible_as_written(ctx.observation, intent) {
                return visible;
            }
        }
        for at in self.step + 1..ctx.steps.len() {
            for intent in intent::intents_at(ctx.steps, at, ctx.task) {
                if let Some(visible) = visible_as_written(ctx.observation, &intent) {
                    return visible;
                }
            }
        }
        true
    }
}

/// Whether the last action took effect: it succeeded, or it ran and only the wait for the page to
/// settle afterwards ran out (a busy page). Acting again then would undo it (a menu closed again).
/// Labels of a dialog's buttons that dismiss it or move between its steps: never its confirmation.
const NOT_CONFIRMING: &[&str] = &["Cancel", "Close", "Previous", "Back", "Next"];

/// A dialog's or panel's own confirmation where it bears no usual confirm label (the Servers
/// panel's Add): the one button of its footer, outside its steps and sections, that neither
/// dismisses it nor moves between its steps.
fn own_confirm<'o>(buttons: &[&'o Element], modal: &aca_core::Place) -> Option<&'o Element> {
    let mut footer = buttons.iter().copied().filter(|e| {
        e.places.last() == Some(modal) && !NOT_CONFIRMING.iter().any(|l| normalise(l) == normalise(&e.name))
    });
    let only = footer.next()?;
    footer.next().is_none().then_some(only)
}

pub(super) fn took_effect(outcome: &ActionOutcome) -> bool {
    let unsettled = |waiting_for: &str| waiting_for.starts_with("the page to settle");
    outcome.succeeded() || matches!(outcome, ActionOutcome::Timeout { waiting_for, .. } if unsettled(waiting_for))
}

/// Whether an intent's target is on the page as written; `None` for intents with no target.
fn visible_as_written(obs: &Observation, intent: &Intent) -> Option<bool> {
    let exact = |label: &str, roles: &[Role]| !labelled(obs, label, roles, |m| m == LabelMatch::Exact).is_empty();
    match intent {
        Intent::Nothing { .. }
        | Intent::NothingToAct { .. }
        | Intent::InConsole { .. }
        | Intent::InModal { .. }
        | Intent::FindRow
        | Intent::OpenRow
        | Intent::SelectRows
        | Intent::OnPage { .. }
        | Intent::InWizardStep { .. }
        | Intent::TypeResourceName { .. }
        | Intent::SetIfRequired { .. }
        | Intent::SetPlainlyNamed { .. } => None,
        Intent::OnTab { name } => Some(exact(name, &[Role::Tab])),
        Intent::Navigate { segments, .. } => segments.first().map(|s| exact(s, CLICKABLE)),
        Intent::Click { label, .. } => Some(exact(label, CLICKABLE)),
        Intent::ClickEither { labels, .. } => Some(labels.iter().any(|l| exact(l, CLICKABLE))),
        Intent::Fill { label, .. } | Intent::Set { label } => Some(exact(label, &[Role::Textbox, Role::Combobox])),
        Intent::Choose { labels, .. } => Some(labels.iter().any(|l| exact(l, &[Role::Combobox]))),
    }
}

#[cfg(test)]
mod probe_tests;
#[cfg(test)]
mod test_console;
#[cfg(test)]
mod tests;
