//! Grounding of form fields and drop-down lists, documented values, and what happens around a
//! confirmation: documented required fields filled first, field errors answered after.

use aca_core::{ActionOutcome, Element, GuiAction, NotActionable, Parameter, PlaceKind, Role};

use super::alternative::{Alternative, scroll_alternative};
use super::ground::{
    Preference, container_of, evidence, field_of_error, in_place, labelled, modal_of, open_modal, options_of, renamed,
    section_of_error,
    same_place,
};
use super::{Effect, Intent, Move, ScriptedPolicy, intent};
use crate::authenticator;
use crate::label::{LabelMatch, match_label, normalise, overlap_score};
use crate::policy::{Context, Finding, FindingKind, Grounding};

impl ScriptedPolicy {
    /// Before a confirmation: empty fields of its form that the page's parameter tables describe
    /// are filled first: with the table's example or default, or, for a required one without,
    /// with any option (a drop-down list) or a value shaped by its label.
    pub(super) fn prefill_documented(&mut self, ctx: &Context<'_>, confirm: &Element) -> Option<Move> {
        let container = container_of(confirm);
        let empty_fields = ctx.observation.elements.iter().filter(|e| {
            matches!(e.role, Role::Textbox | Role::Combobox)
                && e.value.as_deref().is_none_or(|v| v.trim().is_empty())
                && !e.state.readonly
                && !e.state.disabled
                && container.is_none_or(|c| e.places.contains(c))
        });
        for field in empty_fields {
            if let Some(code) = self.authenticator_code(ctx, field, container) {
                return Some(code);
            }
            let Some(parameter) = parameter_for(ctx, self.step, &field.name) else {
                continue;
            };
            let value = parameter
                .example
                .clone()
                .or_else(|| parameter.default.clone())
                .map(|v| ctx.task.substitute(&v));
            let required = field.state.required || parameter.required == Some(true);
            if value.is_none() && !required {
                continue;
            }
            // Once per field and step: a field the prefill could not set (its value went elsewhere,
            // the console cleared it) is left to the confirmation's field errors.
            let key = format!(
                "{} in {}",
                normalise(&field.name),
                container.map_or(String::new(), |c| normalise(&c.name))
            );
            if self.prefilled.contains(&key) {
                continue;
            }
            self.prefilled.push(key);
            let intent = match (field.role, value) {
                (Role::Combobox, value) => Intent::Choose {
                    labels: vec![field.name.clone()],
                    value,
                    undocumented: false,
                },
                (_, value) => Intent::Fill {
                    label: field.name.clone(),
                    value: value.unwrap_or_else(|| invented_value(ctx.task, &field.name)),
                    undocumented: false,
                },
            };
            self.intents.insert(self.intent, intent.clone());
            let tried = std::mem::take(&mut self.tried);
            self.start_intent(ctx);
            self.tried = tried;
            return Some(self.ground(ctx, &intent));
        }
        None
    }

    /// A code field the step asks to fill from an MFA app ("Enter the two consecutive
    /// verification codes"): filled with the code an authenticator shows for the setup key on the
    /// page, the first field with the last step's code, the next with the current one. Without a
    /// key on the page or a clock, the run lacks the app: the environment, not the page.
    fn authenticator_code(&mut self, ctx: &Context<'_>, field: &Element, container: Option<&aca_core::Place>) -> Option<Move> {
        let step = self.step(ctx)?;
        let asked = normalise(&step.text).split_whitespace().any(|w| w == "code" || w == "codes");
        if !asked || !authenticator::asks_for_code(&field.name) {
            return None;
        }
        let key = format!(
            "{} in {}",
            normalise(&field.name),
            container.map_or(String::new(), |c| normalise(&c.name))
        );
        if self.prefilled.contains(&key) {
            return None;
        }
        let codes = authenticator::setup_key(ctx.observation).zip(ctx.unix_ms).and_then(|(setup_key, now)| {
            let read = *self.codes_read_ms.get_or_insert(now);
            authenticator::consecutive_codes(&setup_key, read)
        });
        let Some(codes) = codes else {
            // The key may be on a tab of its own (the QR code's tab shown first): opened once.
            if let Some(tab) = authenticator::manual_entry_tab(ctx.observation)
                && self.key_tab_opened_in_step != Some(self.step)
            {
                self.key_tab_opened_in_step = Some(self.step);
                return Some(Move::Act {
                    action: GuiAction::Click { index: tab.index },
                    goal: format!("open \"{}\" to read the setup key", tab.name),
                    grounding: None,
                    effect: Effect::Nothing,
                    failed: None,
                });
            }
            if self.asked_in_step == Some(self.step) {
                return None;
            }
            self.asked_in_step = Some(self.step);
            return Some(Move::Provision(format!(
                "Step {} needs verification codes from an authenticator app the run does not have (the console shows no setup key to compute them from)",
                step.number
            )));
        };
        self.prefilled.push(key);
        let position = authenticator::code_field_position(ctx.observation, field).min(1);
        let intent = Intent::Fill {
            label: field.name.clone(),
            value: codes[position].clone(),
            undocumented: false,
        };
        self.intents.insert(self.intent, intent.clone());
        let tried = std::mem::take(&mut self.tried);
        self.start_intent(ctx);
        self.tried = tried;
        Some(self.ground(ctx, &intent))
    }

    /// After a confirmation: did the console take it, or does it show field errors?
    pub(super) fn verify_confirm(&mut self, ctx: &Context<'_>) -> Move {
        let obs = ctx.observation;
        let errors: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| e.role == Role::FieldError && !e.name.trim().is_empty())
            .collect();
        if errors.is_empty() {
            // The dialog stays open and the console says why: what was confirmed was refused
            // (a made-up current password, a quota). Looked at once more, then given up with the
            // console's own words.
            // A success message beside the error says an earlier submission went through.
            let alerts: Vec<&Element> = obs.elements.iter().filter(|e| e.role == Role::Alert).collect();
            let refusal = self
                .confirmed_in
                .as_ref()
                .filter(|(title, _)| open_modal(obs).is_some_and(|m| m.name == *title))
                .filter(|_| alerts.iter().all(|a| says_refused(&a.name)))
                .and_then(|_| alerts.first().copied());
            if let Some(alert) = refusal {
                let message = aca_core::observation::quote(&alert.name);
                if !self.tried.iter().any(|t| t == "refusal") {
                    self.tried.push("refusal".into());
                    return Move::Act {
                        action: GuiAction::Wait { ms: None },
                        goal: format!("look again: the console answered {message}"),
                        grounding: None,
                        effect: Effect::Nothing,
                        failed: None,
                    };
                }
                self.confirm_clicked = false;
                // A made-up current password refused: the run lacks a secret the page leaves to
                // its reader. The environment, not the page: asked for once, it cannot be had.
                if let Some(secret) = unknown_secret(ctx, self.step, &alert.name)
                    && self.asked_in_step != Some(self.step)
                {
                    self.asked_in_step = Some(self.step);
                    self.asked_resource = true;
                    let step = self.step(ctx).unwrap_or_default();
                    return Move::Provision(format!(
                        "Step {} needs {secret}, a secret the page leaves to its reader and the run was not given (the console answered {message})",
                        step.number
                    ));
                }
                return Move::GiveUp {
                    reason: format!("the console refused it: {message}"),
                    finding: None,
                };
            }
            self.confirm_clicked = false;
            return Move::Done(None);
        }
        let mut inserted = Vec::new();
        let mut messages = Vec::new();
        let mut unnamed_sections = Vec::new();
        for error in &errors {
            messages.push(aca_core::observation::quote(&error.name));
            let Some(field) = field_of_error(obs, error) else {
                // A section the console requires, opened by a control the page never names.
                if let Some(trigger) = section_of_error(obs, error)
                    && !documented_anywhere(ctx, &trigger.name)
                {
                    unnamed_sections.push((trigger, error));
                }
                continue;
            };
            let value = documented_value(ctx, self.step, &field.name);
            // A check box is ticked; "Read the risk notice, select the confirmation checkbox"
            // documents it without its label.
            let ticked = matches!(field.role, Role::Checkbox | Role::Switch);
            let named_by_kind = ticked
                && ["checkbox", "check box"]
                    .iter()
                    .any(|w| self.step(ctx).is_some_and(|s| s.text.to_lowercase().contains(w)));
            let unmentioned = !documented_anywhere(ctx, &field.name) && !named_by_kind;
            // A wizard taken on past the page's end, to a step the page never names: what the
            // console asks for there is noted, not held against the page.
            let past_the_page = self.implicit_clicks > 0
                && field.places.iter().any(|place| {
                    let name = place.name.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
                    place.kind == PlaceKind::WizardStep
                        && !name.is_empty()
                        && !self.acted_in_wizard_steps.contains(&place.name)
                        && !documented_anywhere(ctx, name)
                });
            // "Configure the following parameters" where no list follows (a page cut short): the
            // page cannot be held to fields it meant to list.
            let list_missing = self.step(ctx).is_some_and(|step| promises_missing_list(ctx, &step));
            let undocumented = unmentioned && !past_the_page && !list_missing;
            if unmentioned && !undocumented {
                let why = if list_missing {
                    "the page promises a list of parameters it does not hold"
                } else {
                    "the page does not mention it"
                };
                let note = format!(
                    "the console then asked for {}; {why}, so a value was made up",
                    aca_core::observation::quote(&field.name)
                );
                self.step_note = Some(match self.step_note.take() {
                    Some(before) => format!("{before}; {note}"),
                    None => note,
                });
            }
            // The console refused the value already there: a plainer one (letters and digits).
            let value = value.or_else(|| {
                let invented = invented_value(ctx.task, &field.name);
                field.value.as_deref().is_some_and(|v| v.trim() == invented).then(|| {
                    invented
                        .chars()
                        .filter(char::is_ascii_alphanumeric)
                        .collect::<String>()
                        .to_lowercase()
                })
            });
            let intent = if field.role == Role::Combobox || ticked {
                Intent::Choose {
                    labels: vec![field.name.clone()],
                    value: value.filter(|_| !ticked),
                    undocumented,
                }
            } else {
                Intent::Fill {
                    label: field.name.clone(),
                    value: value.unwrap_or_else(|| {
                        // "Enter an integer.": the console says what shape the value takes.
                        let asks_number = ["integer", "number"]
                            .iter()
                            .any(|w| error.name.to_lowercase().contains(w));
                        invented_value(ctx.task, if asks_number { "number" } else { &field.name })
                    }),
                    undocumented,
                }
            };
            if !inserted.contains(&intent) {
                inserted.push(intent);
            }
        }
        self.confirm_clicked = false;
        if inserted.is_empty() {
            // What the console requires there is a whole part of the form the page leaves out.
            let finding = unnamed_sections.first().map(|(trigger, error)| Finding {
                kind: FindingKind::Undocumented,
                documented: String::new(),
                observed: format!(
                    "required section \"{}\" ({})",
                    trigger.name,
                    aca_core::observation::quote(&error.name)
                ),
                evidence: evidence(trigger),
            });
            return Move::GiveUp {
                reason: format!("the console refused the form: {}", messages.join(", ")),
                finding,
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

    pub(super) fn undocumented_grounding(&self, label: &str, element: &Element) -> Option<Grounding> {
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

    pub(super) fn ground_fill(&mut self, ctx: &Context<'_>, label: &str, value: &str, undocumented: bool) -> Move {
        let obs = ctx.observation;
        let step = self.step(ctx).unwrap_or_default();
        let sections = intent::sections(&step);
        let avoid = other_sections(ctx, self.step, &sections);
        let preference = Preference {
            sections: &sections,
            avoid: &avoid,
            ..Preference::default()
        };
        let exact = labelled(obs, label, &[Role::Textbox, Role::Combobox], |m| m == LabelMatch::Exact);
        let exact = preference.best(obs, exact);
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
        if let Some(choice) = self.ground_choice(ctx, label, value, undocumented) {
            return choice;
        }
        let place = same_place(obs, &[Role::Textbox, Role::Combobox], None);
        let mut alternatives = Vec::new();
        if let Some(other) = renamed(label, &place, &Self::other_labels(ctx, label)) {
            // The value goes in whichever kind of field the renamed one is.
            let action = if other.role == Role::Combobox {
                GuiAction::Select {
                    index: other.index,
                    option: value.to_owned(),
                }
            } else {
                GuiAction::Type {
                    index: other.index,
                    text: value.to_owned(),
                    submit: false,
                }
            };
            alternatives.push(Alternative::finding(
                "renamed",
                action,
                format!("set \"{}\", which reads like \"{label}\"", other.name),
                Effect::Complete,
                FindingKind::Renamed,
                label,
                &other.name,
                other,
            ));
        }
        alternatives.extend(scroll_alternative(obs, label));
        self.fallback(ctx, &format!("the field \"{label}\""), label, alternatives)
    }

    /// A field the step names without a value: a drop-down list keeps its option or gets the
    /// first; an empty text box gets a value shaped by its label; a field with a value keeps it.
    pub(super) fn ground_set(&mut self, ctx: &Context<'_>, label: &str) -> Move {
        let obs = ctx.observation;
        let fields = labelled(obs, label, &[Role::Textbox, Role::Combobox], |m| m == LabelMatch::Exact);
        let field = first_empty(&fields);
        // "set the Restart Mode: - Restart Now: … - Restart Within Maintenance Window: …": a group
        // of options the step describes, which has no box of its own: one of them is chosen.
        if field.is_none() {
            let step = self.step(ctx).unwrap_or_default();
            let options: Vec<&Element> = step
                .mentions
                .iter()
                .flat_map(|m| labelled(obs, m, &[Role::Radio], |m| m == LabelMatch::Exact))
                .collect();
            if options.iter().any(|o| o.state.checked == Some(true)) {
                return Move::Done(None);
            }
            if let Some(first) = options.first() {
                return Move::Act {
                    action: GuiAction::Click { index: first.index },
                    goal: format!("choose \"{}\" for \"{label}\"", first.name),
                    grounding: self.as_written(),
                    effect: Effect::Complete,
                    failed: None,
                };
            }
            if let Some(choice) = self.radio_group_choice(ctx, label) {
                return choice;
            }
        }
        if let Some(field) = field {
            if field.value.as_deref().is_some_and(|v| !v.trim().is_empty()) {
                return Move::Done(None);
            }
            if field.role == Role::Combobox {
                return self.ground_choose(ctx, &[label.to_owned()], None, false);
            }
        }
        let value = invented_value(ctx.task, label);
        self.ground_fill(ctx, label, &value, false)
    }

    /// "For Action, select the specific action" where Action is a group of radio buttons: it keeps
    /// its choice, or gets its first option.
    fn radio_group_choice(&self, ctx: &Context<'_>, label: &str) -> Option<Move> {
        let grouped = radio_group(ctx.observation, label);
        if grouped.iter().any(|o| o.state.checked == Some(true)) {
            return Some(Move::Done(None));
        }
        let first = grouped.first()?;
        Some(Move::Act {
            action: GuiAction::Click { index: first.index },
            goal: format!("choose \"{}\" for \"{label}\"", first.name),
            grounding: self.as_written(),
            effect: Effect::Complete,
            failed: None,
        })
    }

    /// A field the step's parameter table describes without a value: given one when the page
    /// shows it required and still empty; nothing to do otherwise.
    pub(super) fn ground_set_if_required(&mut self, ctx: &Context<'_>, label: &str) -> Move {
        let fields = labelled(ctx.observation, label, &[Role::Textbox, Role::Combobox], |m| {
            m == LabelMatch::Exact
        });
        let field = first_empty(&fields);
        match field {
            Some(field) if field.state.required && field.value.as_deref().is_none_or(|v| v.trim().is_empty()) => {
                self.ground_set(ctx, label)
            }
            Some(_) => Move::Done(None),
            // A check box, a switch or a group of options by that name: nothing to fill.
            None if shown_as_a_choice(ctx.observation, label) => Move::Done(None),
            None => self.renamed_required_field(ctx, label).unwrap_or_else(|| {
                Move::Done(Some(format!(
                    "the parameter table describes \"{label}\", which the page shows no field for"
                )))
            }),
        }
    }

    /// A field the step names in plain words: set where the page shows one by that name. Where it
    /// shows none, the words named no field: noted when the step did or still does something else,
    /// and otherwise the step is passed over, unverified.
    pub(super) fn ground_set_plainly_named(&mut self, ctx: &Context<'_>, label: &str) -> Move {
        // Where the reader would type: the open panel or dialog, else the page outside its lists.
        let fields = same_place(ctx.observation, &[Role::Textbox, Role::Combobox], None);
        let shown = fields
            .iter()
            .find(|e| match_label(label, &e.name) == Some(LabelMatch::Exact))
            .or_else(|| fields.iter().find(|e| starts_the_name(&e.name, label)));
        if let Some(field) = shown {
            let name = field.name.clone();
            return self.ground_set(ctx, &name);
        }
        let more_to_do = self.intents.get(self.intent + 1..).is_some_and(|rest| !rest.is_empty());
        if self.acted_in_step || more_to_do {
            return Move::Done(Some(format!("no field on the page is called \"{label}\"")));
        }
        let bold = self.step(ctx).is_some_and(|s| !s.labels.is_empty());
        Move::Unverified(if bold {
            format!("no field on the page is called \"{label}\"")
        } else {
            format!("the step names no control in bold, and no field on the page is called \"{label}\"")
        })
    }

    /// A row of the table that no field bears, where a required, empty text box reads like it
    /// (**Listening Port**, the console's **Listener Port**): the field under its new name, which
    /// the console will insist on. Filled, and the rename recorded.
    fn renamed_required_field(&mut self, ctx: &Context<'_>, label: &str) -> Option<Move> {
        let obs = ctx.observation;
        let required: Vec<&Element> = obs
            .elements
            .iter()
            .filter(|e| e.role == Role::Textbox && e.state.required && !e.state.readonly)
            .filter(|e| e.value.as_deref().is_none_or(|v| v.trim().is_empty()))
            // A field the page names itself (another row of the table) is no other row renamed.
            .filter(|e| !documented_anywhere(ctx, &e.name))
            .collect();
        let field = renamed(label, &required, &Self::other_labels(ctx, label))?;
        Some(Move::Act {
            action: GuiAction::Type {
                index: field.index,
                text: invented_value(ctx.task, &field.name),
                submit: false,
            },
            goal: format!("set \"{}\", the required field that reads like \"{label}\"", field.name),
            grounding: Some(Grounding {
                as_written: false,
                finding: Some(Finding {
                    kind: FindingKind::Renamed,
                    documented: label.to_owned(),
                    observed: field.name.clone(),
                    evidence: evidence(field),
                }),
            }),
            effect: Effect::Complete,
            failed: None,
        })
    }

    /// Types the task's resource's name (or id) into the open dialog's empty text box, where the
    /// console asks for it to confirm a deletion.
    pub(super) fn ground_resource_name(&mut self, ctx: &Context<'_>, id: bool) -> Move {
        let obs = ctx.observation;
        let reported: Vec<String> = ctx
            .task
            .resource_report
            .as_ref()
            .map(|r| r.names.clone())
            .unwrap_or_default();
        let all = Self::resource_names(ctx);
        // "In the Delete dialog box, enter the AccessKey ID": the ID of the row Delete was in.
        let of_row = self
            .acted_row
            .as_deref()
            .and_then(|row| all.iter().find(|n| crate::label::mentions(row, n) && n.len() >= 8));
        let value = if id {
            of_row.or_else(|| all.iter().find(|n| !reported.contains(n)))
        } else {
            reported.first()
        };
        let Some(value) = value.cloned() else {
            return Move::GiveUp {
                reason: format!(
                    "the step asks for the resource's {} and nothing says which resource it is",
                    if id { "ID" } else { "name" }
                ),
                finding: None,
            };
        };
        let modal = open_modal(obs);
        let field = obs
            .elements
            .iter()
            .find(|e| e.role == Role::Textbox && !e.state.disabled && modal.is_none_or(|m| modal_of(e) == Some(m)));
        match field {
            Some(field) if field.value.as_deref().is_some_and(|v| v.trim() == value) => Move::Done(None),
            Some(field) => Move::Act {
                action: GuiAction::Type {
                    index: field.index,
                    text: value.clone(),
                    submit: false,
                },
                goal: format!("type \"{value}\" to confirm"),
                grounding: self.as_written(),
                effect: Effect::Complete,
                failed: None,
            },
            None => self.fallback(ctx, "the box to type the resource's name in", "", Vec::new()),
        }
    }

    /// A switch or button to turn on that the console disables, with its reason: the resource the
    /// run has does not allow it (a pay-as-you-go instance is never renewed), so another one is
    /// asked for once, then the run gives up.
    fn turn_on_disabled(&mut self, ctx: &Context<'_>, label: &str, control: &Element) -> Move {
        let why = control
            .hint
            .as_deref()
            .map_or_else(|| "no reason given".to_owned(), aca_core::observation::quote);
        if self.asked_in_step == Some(self.step) {
            return Move::GiveUp {
                reason: format!("\"{label}\" stays disabled: {why}"),
                finding: None,
            };
        }
        self.asked_in_step = Some(self.step);
        let step = self.step(ctx).unwrap_or_default();
        let mut request = format!(
            "Step {} turns on \"{label}\", which the console disables for the resource the run has ({why}): {}",
            step.number, step.text
        );
        // "Pay-as-you-go instances do not require renewal.": a resource billed the other way.
        if let Some(refused) = control.hint.as_deref().and_then(aca_core::BillingMethod::named_in) {
            request.push_str(&format!("; {}", refused.other().request_clause()));
            // Another resource: the steps that opened this one open that one.
            self.redo_step_when_provided = true;
            self.reopen_resource = true;
        }
        Move::Provision(request)
    }

    /// A parameter whose value is picked rather than typed: a radio button or option card named
    /// like the value (`Billing Method: Pay-as-you-go`), or a switch named like the parameter
    /// (`Status: Enabled`). `None` when the page shows neither.
    fn ground_choice(&mut self, ctx: &Context<'_>, label: &str, value: &str, undocumented: bool) -> Option<Move> {
        let obs = ctx.observation;
        if let Some(switch) = labelled(obs, label, &[Role::Switch, Role::Checkbox], |m| m == LabelMatch::Exact)
            .into_iter()
            .next()
            && let Some(wanted) = switch_state(value)
        {
            if switch.state.checked == Some(wanted) {
                return Some(Move::Done(None));
            }
            if switch.state.disabled && wanted {
                return Some(self.turn_on_disabled(ctx, label, switch));
            }
            return Some(Move::Act {
                action: GuiAction::Click { index: switch.index },
                goal: format!("turn \"{label}\" {}", if wanted { "on" } else { "off" }),
                grounding: self.grounding_for(undocumented, label, switch),
                effect: Effect::Complete,
                failed: None,
            });
        }
        // "turn on Automatic renewal" where the console shows a button of that name: pressing it
        // is turning it on. Disabled, with the console's reason, the resource the run has does not
        // allow it (a pay-as-you-go instance is never renewed): asked for once, then given up.
        if switch_state(value) == Some(true)
            && let Some(button) = labelled(obs, label, &[Role::Button], |m| m == LabelMatch::Exact)
                .into_iter()
                .next()
        {
            if !button.state.disabled {
                return Some(Move::Act {
                    action: GuiAction::Click { index: button.index },
                    goal: format!("turn \"{label}\" on"),
                    grounding: self.grounding_for(undocumented, label, button),
                    effect: Effect::Complete,
                    failed: None,
                });
            }
            return Some(self.turn_on_disabled(ctx, label, button));
        }
        let picks = labelled(obs, value, &[Role::Radio, Role::Tab, Role::Clickable], |m| {
            m == LabelMatch::Exact
        });
        let pick = picks
            .iter()
            .find(|e| {
                e.places
                    .iter()
                    .any(|p| match_label(label, &p.name) == Some(LabelMatch::Exact))
            })
            .or(picks.first())?;
        if pick.state.checked == Some(true) || pick.state.selected {
            return Some(Move::Done(None));
        }
        Some(Move::Act {
            action: GuiAction::Click { index: pick.index },
            goal: format!("pick \"{value}\" for \"{label}\""),
            grounding: self.grounding_for(undocumented, label, pick),
            effect: Effect::Complete,
            failed: None,
        })
    }

    fn grounding_for(&self, undocumented: bool, label: &str, element: &Element) -> Option<Grounding> {
        if undocumented {
            self.undocumented_grounding(label, element)
        } else {
            self.as_written()
        }
    }

    pub(super) fn ground_choose(
        &mut self,
        ctx: &Context<'_>,
        labels: &[String],
        value: Option<&str>,
        undocumented: bool,
    ) -> Move {
        let obs = ctx.observation;
        // "turn on Automatic renewal, …, and select a renewal duration": on or off is a switch's
        // or a check box's, never an option of the list the sentence goes on to.
        if let Some(value) = value.filter(|v| switch_state(v).is_some())
            && let Some(choice) = labels
                .iter()
                .find_map(|label| self.ground_choice(ctx, label, value, undocumented))
        {
            return choice;
        }
        let step = self.step(ctx).unwrap_or_default();
        let sections = intent::sections(&step);
        let avoid = other_sections(ctx, self.step, &sections);
        let preference = Preference {
            sections: &sections,
            avoid: &avoid,
            ..Preference::default()
        };
        let found = labels
            .iter()
            .find_map(|label| {
                let exact = labelled(obs, label, &[Role::Combobox], |m| m == LabelMatch::Exact);
                let exact = preference.best(obs, exact);
                exact
                    .iter()
                    .find(|e| e.value.as_deref().is_none_or(|v| v.trim().is_empty()))
                    .or(exact.first())
                    .map(|e| (label.clone(), *e))
            })
            .or_else(|| {
                // "In the Add User to Group panel, select the RAM user group": the panel's list
                // the sentence selects by its head noun (`User Group`).
                let modal = open_modal(obs)?;
                obs.elements
                    .iter()
                    .find(|e| {
                        e.role == Role::Combobox
                            && modal_of(e) == Some(modal)
                            && selects_what_it_names(&step.text, &e.name)
                    })
                    .map(|e| (e.name.clone(), e))
            });
        let Some((label, select)) = found else {
            if value.is_none()
                && let Some(pick) = labels.iter().find_map(|label| {
                    labelled(obs, label, &[Role::Radio, Role::Checkbox, Role::Option], |m| {
                        m == LabelMatch::Exact
                    })
                    .into_iter()
                    .next()
                })
            {
                // "select **Public Read**": the label is the option itself, a radio button.
                if pick.state.checked == Some(true) || pick.state.selected {
                    return Move::Done(None);
                }
                return Move::Act {
                    action: GuiAction::Click { index: pick.index },
                    goal: format!("select \"{}\"", pick.name),
                    grounding: self.grounding_for(undocumented, &pick.name, pick),
                    effect: Effect::Complete,
                    failed: None,
                };
            }
            if value.is_none()
                && let Some(choice) = labels.iter().find_map(|label| self.radio_group_choice(ctx, label))
            {
                return choice;
            }
            // "Click Add Rule and select the appropriate metric type from the drop-down menu": the
            // menu the click opened offers the choice, and the page leaves it to the reader; its
            // first item is taken.
            if value.is_none()
                && step.text.to_lowercase().contains("drop-down menu")
                && let Some(item) = obs
                    .elements
                    .iter()
                    .find(|e| e.role == Role::Menuitem && !e.state.disabled && in_place(e, PlaceKind::Menu))
            {
                return Move::Act {
                    action: GuiAction::Click { index: item.index },
                    goal: format!("pick \"{}\" from the drop-down menu that opened", item.name),
                    grounding: self.as_written(),
                    effect: Effect::Complete,
                    failed: None,
                };
            }
            // "set Enable Health Check to Off" where the field is a switch or a group of radio
            // buttons, not a drop-down list.
            if let Some(value) = value
                && let Some(choice) = labels
                    .iter()
                    .find_map(|label| self.ground_choice(ctx, label, value, undocumented))
            {
                return choice;
            }
            // "set Listener Name to web" where the field is a text box: the value is typed; "Select
            // a CIDR block suggested by the console or enter a custom CIDR block" in a text box
            // with no value given: one shaped by its label.
            if let Some(label) = labels
                .iter()
                .find(|label| !labelled(obs, label, &[Role::Textbox], |m| m == LabelMatch::Exact).is_empty())
            {
                let boxes = labelled(obs, label, &[Role::Textbox], |m| m == LabelMatch::Exact);
                if value.is_none()
                    && boxes
                        .iter()
                        .all(|b| b.value.as_deref().is_some_and(|v| !v.trim().is_empty()))
                {
                    return Move::Done(None);
                }
                let value = value.map_or_else(|| invented_value(ctx.task, label), str::to_owned);
                return self.ground_fill(ctx, label, &value, undocumented);
            }
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
            return self.fallback(ctx, &what, &labels.join(" / "), alternatives);
        };
        let grounding = if undocumented {
            self.undocumented_grounding(&label, select)
        } else {
            self.as_written()
        };
        let options = options_of(obs, select.index);
        // "Instance Dimension > (ECS) CPU Utilization": an option filed under its group, which a
        // list shows by the option's own name.
        let value = value.map(|wanted| match wanted.rsplit_once(" > ") {
            Some((_, option)) if !option.trim().is_empty() => option.trim(),
            _ => wanted,
        });
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
                // Two lists of the same name (a primary and a secondary zone), or numbered alike
                // ("Zone 1", "Zone 2"), take different options where they can.
                let stem = numbered_stem(&select.name);
                let taken: Vec<&str> = obs
                    .elements
                    .iter()
                    .filter(|other| other.role == Role::Combobox && other.index != select.index)
                    .filter(|other| {
                        match_label(&label, &other.name) == Some(LabelMatch::Exact)
                            || normalise(numbered_stem(&other.name)) == normalise(stem)
                    })
                    .filter_map(|other| other.value.as_deref())
                    .collect();
                // The resources made for the run come first: another option may be the
                // account's own (the verifier's RAM user, a production VPC).
                let provided = ctx.task.resource_report.as_ref().map(|r| &r.names[..]).unwrap_or_default();
                let ours = |o: &Element| provided.iter().any(|n| !n.is_empty() && o.name.contains(n.as_str()));
                let usable = |o: &Element| !o.state.disabled && !taken.contains(&o.name.as_str());
                let free = options
                    .iter()
                    .find(|o| usable(o) && ours(o))
                    .or_else(|| options.iter().find(|o| usable(o)));
                if let Some(option) = free.or_else(|| options.iter().find(|o| !o.state.disabled)) {
                    return Move::Act {
                        action: GuiAction::Click { index: option.index },
                        goal: format!("choose \"{}\" in \"{label}\"", option.name),
                        grounding,
                        effect: Effect::Complete,
                        failed: None,
                    };
                }
                let key = format!("open {}", select.index);
                if self.tried.contains(&key) && self.asked_in_step != Some(self.step) {
                    // A list of the account's resources (the VPC a vSwitch goes in) that has none:
                    // the environment lacks them, never the page.
                    self.asked_in_step = Some(self.step);
                    self.asked_resource = true;
                    self.redo_step_when_provided = true;
                    self.asked_inside_modal = open_modal(ctx.observation).is_some();
                    let step = self.step(ctx).unwrap_or_default();
                    return Move::Provision(format!(
                        "Step {} chooses an existing resource in the drop-down list \"{label}\", which lists none: {}",
                        step.number, step.text
                    ));
                }
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
}

/// Whether a field's label is the first words of what a step calls it in plain words ("Email" for
/// "email address", "WebHook" for "webhook URL").
fn starts_the_name(field: &str, plain: &str) -> bool {
    let field = normalise(field);
    let plain = normalise(plain);
    field.len() >= 4 && plain.strip_prefix(field.as_str()).is_some_and(|rest| rest.starts_with(' '))
}

/// A list's label without the number that tells it from its siblings ("Zone 2" → "Zone").
fn numbered_stem(label: &str) -> &str {
    let trimmed = label.trim();
    match trimmed.rsplit_once(' ') {
        Some((stem, n)) if !stem.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => stem.trim_end(),
        _ => trimmed,
    }
}

/// The sections other steps name (`In the vSwitch section, …`), except those this step names too.
fn other_sections(ctx: &Context<'_>, step: usize, own: &[String]) -> Vec<String> {
    ctx.steps
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != step)
        .flat_map(|(_, s)| intent::sections(s))
        .filter(|s| !own.iter().any(|o| normalise(o) == normalise(s)))
        .collect()
}

/// The state a value asks of a switch: `Enabled`/`On`/`Yes` on, `Disabled`/`Off`/`No` off.
fn switch_state(value: &str) -> Option<bool> {
    match normalise(value).as_str() {
        "enabled" | "enable" | "on" | "yes" | "true" | "selected" => Some(true),
        "disabled" | "disable" | "off" | "no" | "false" | "cleared" => Some(false),
        _ => None,
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

/// The parameter-table row that describes a field: the current step's own tables first (two
/// sections may both have a `Name`), then the page's.
fn parameter_for<'c>(ctx: &Context<'c>, step: usize, field: &str) -> Option<&'c Parameter> {
    let number = ctx.steps.get(step).map(|s| s.number.as_str());
    let tables = &ctx.task.procedure.parameters;
    let own = tables
        .iter()
        .filter(|t| t.step.is_some() && t.step.as_deref() == number);
    own.chain(tables.iter())
        .flat_map(|t| &t.rows)
        .find(|p| match_label(&p.name, field) == Some(LabelMatch::Exact))
}

/// An example or default the page's parameter tables give for a field.
fn documented_value(ctx: &Context<'_>, step: usize, field: &str) -> Option<String> {
    parameter_for(ctx, step, field)
        .and_then(|p| p.example.clone().or_else(|| p.default.clone()))
        .map(|v| ctx.task.substitute(&v))
}

/// Whether the page names a field anywhere: a parameter table, a step's labels or values, or a
/// step's sentence ("select a VPC and a vSwitch").
/// Whether a message the console shows says it refused something.
fn says_refused(message: &str) -> bool {
    let lower = message.to_lowercase();
    [
        "error",
        "failed",
        "incorrect",
        "invalid",
        "denied",
        "not allowed",
        "cannot",
        "exceed",
        "does not exist",
        "already exist",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

pub(super) fn documented_anywhere(ctx: &Context<'_>, field: &str) -> bool {
    // "Confirm Password" repeats the password the page documents; "Old Password" is the one it
    // calls the current password.
    let lower = normalise(field);
    if let Some(confirmed) = lower.strip_prefix("confirm ")
        && (documented_anywhere(ctx, confirmed) || documented_anywhere(ctx, &format!("new {confirmed}")))
    {
        return true;
    }
    if let Some(rest) = lower.strip_prefix("old ")
        && ctx
            .steps
            .iter()
            .any(|s| crate::label::mentions(&s.text, &format!("current {rest}")))
    {
        return true;
    }
    let named = |label: &str| match_label(label, field) == Some(LabelMatch::Exact);
    if ctx
        .steps
        .iter()
        .any(|s| crate::label::mentions(&s.text, field) || selects_what_it_names(&s.text, field))
    {
        return true;
    }
    ctx.task
        .procedure
        .parameters
        .iter()
        .flat_map(|t| &t.rows)
        // "New Password and Confirm Password": one row for fields set together.
        .flat_map(|p| p.name.split(" and ").flat_map(|name| name.split(" / ")))
        .any(|name| match_label(name.trim(), field) == Some(LabelMatch::Exact))
        || ctx.steps.iter().any(|s| {
            s.labels.iter().any(|l| named(l)) || s.values.iter().any(|v| v.label.as_deref().is_some_and(named))
        })
}

/// The secret a refusal says was wrong when the run made it up: a current password the page asks
/// for without giving it ("enter the current password").
fn unknown_secret(ctx: &Context<'_>, step: usize, refusal: &str) -> Option<String> {
    let refusal = normalise(refusal);
    let wrong = ["incorrect", "wrong", "invalid", "does not match", "not correct"]
        .iter()
        .any(|w| refusal.contains(w));
    if !wrong || !refusal.contains("password") {
        return None;
    }
    // A secret the run was given and typed, still refused: nothing more to ask for.
    if known_password(ctx.task).is_some() {
        return None;
    }
    let field = ctx
        .observation
        .elements
        .iter()
        .find(|e| e.role == Role::Textbox && asks_current_password(&e.name))?;
    let given = documented_value(ctx, step, &field.name).is_some()
        || ctx.steps.iter().flat_map(|s| &s.values).any(|v| {
            v.label
                .as_deref()
                .is_some_and(|l| match_label(l, &field.name) == Some(LabelMatch::Exact))
        });
    (!given).then(|| format!("the {} of the account it changes", normalise(&field.name)))
}

/// Whether a field asks for the password in force ("Old Password", "Current Password").
fn asks_current_password(label: &str) -> bool {
    let name = normalise(label);
    name.contains("password") && (name.starts_with("old ") || name.starts_with("current "))
}

/// The password the run made for the resource it provisioned, if it made one.
fn known_password(task: &crate::task::Task) -> Option<&aca_core::SecretRef> {
    task.resource_report
        .as_ref()?
        .secrets
        .iter()
        .find(|s| s.kind == aca_core::SecretKind::Password)
}

/// Whether a step points at a list of settings ("configure the following parameters") that the
/// page does not hold: no parameter table or bullet list belongs to the step, and its sub-steps
/// name none.
fn promises_missing_list(ctx: &Context<'_>, step: &aca_core::Step) -> bool {
    let text = step.text.to_lowercase();
    let promises = ["parameters", "settings", "configurations", "fields"]
        .iter()
        .any(|what| text.contains(&format!("the following {what}")));
    let listed = ctx
        .task
        .procedure
        .parameters
        .iter()
        .any(|t| t.step.as_deref().is_none_or(|s| s == step.number) && !t.rows.is_empty());
    promises && !listed && step.substeps.is_empty() && step.values.is_empty()
}

/// Whether a sentence selects what a field holds: "select the corresponding ECS instance" for the
/// field "Select an instance to associate", by the head noun of what it selects.
fn selects_what_it_names(sentence: &str, field: &str) -> bool {
    let field = normalise(field);
    let field_words: Vec<&str> = field.split_whitespace().map(crate::label::singular).collect();
    intent::selected_objects(sentence).any(|object| {
        normalise(object)
            .split_whitespace()
            .last()
            .map(|noun| crate::label::singular(noun).to_owned())
            .is_some_and(|noun| noun.len() > 2 && field_words.contains(&noun.as_str()))
    })
}

/// A value for a required field no step documents, shaped by its label.
pub(super) fn invented_value(task: &crate::task::Task, label: &str) -> String {
    let suffix = task.bindings.get("suffix").cloned().unwrap_or_else(|| "verify".into());
    // The current password of what the run provisioned: the run knows it, by placeholder.
    if asks_current_password(label)
        && let Some(secret) = known_password(task)
    {
        return secret.placeholder.clone();
    }
    let label = normalise(label);
    if label.contains("password") {
        format!("Aca#{suffix}2026x")
    } else if label.contains("cidr") {
        // A /24 of the private range the run's networks are made from that its other subnets
        // leave free; the same one for a network and the subnet created with it.
        let n = 200 + suffix.bytes().map(u32::from).sum::<u32>() % 50;
        format!("192.168.{n}.0/24")
    } else if label.contains("ip address") {
        // An address list (a whitelist's): one private address of the run's range.
        let n = 200 + suffix.bytes().map(u32::from).sum::<u32>() % 50;
        format!("192.168.{n}.1")
    } else if label.contains("port") {
        "80".into()
    } else if ["day", "days", "hours", "number", "count", "quantity", "size", "period"]
        .iter()
        .any(|w| label.split(' ').any(|word| word == *w))
    {
        "30".into()
    } else if label.contains("description") {
        "Created while verifying documentation".into()
    } else if label.contains("domain") {
        format!("aca-{suffix}.com")
    } else if label.contains("email") {
        format!("aca-{suffix}@example.com")
    } else if label.contains("webhook") || label.split(' ').any(|word| word == "url") {
        // A reserved domain (RFC 2606): nothing is ever sent anywhere.
        format!("https://aca-{suffix}.example.com/hook")
    } else {
        format!("aca-{suffix}")
    }
}

/// Of fields sharing a label, the first one still empty and editable, else the first: the others
/// already hold what they need (the Create vSwitch dialog's VPC block, shown, and its own, typed).
fn first_empty<'o>(fields: &[&'o Element]) -> Option<&'o Element> {
    fields
        .iter()
        .find(|e| e.value.as_deref().is_none_or(|v| v.trim().is_empty()) && !e.state.readonly)
        .or(fields.first())
        .copied()
}

/// The radio buttons of the group headed `label`.
fn radio_group<'o>(observation: &'o aca_core::Observation, label: &str) -> Vec<&'o Element> {
    observation
        .elements
        .iter()
        .filter(|e| e.role == Role::Radio)
        .filter(|e| {
            e.places
                .iter()
                .any(|p| p.kind == PlaceKind::RadioGroup && match_label(label, &p.name) == Some(LabelMatch::Exact))
        })
        .collect()
}

/// Whether the page shows a field named `label` that is not a box to type in: a check box or a
/// switch of that name, or a group of options (radio buttons) headed by it.
fn shown_as_a_choice(observation: &aca_core::Observation, label: &str) -> bool {
    !labelled(observation, label, &[Role::Checkbox, Role::Switch], |m| m == LabelMatch::Exact).is_empty()
        || !radio_group(observation, label).is_empty()
}


#[cfg(test)]
mod tests {
    use super::selects_what_it_names;

    #[test]
    fn a_sentence_selecting_an_object_documents_the_field_that_holds_it() {
        let step = "Click Bind Resource in the Actions column of the target EIP, select ECS Instance, and then select the \
                    corresponding ECS instance.";
        assert!(selects_what_it_names(step, "Select an instance to associate"));
        assert!(selects_what_it_names("Select a zone from the drop-down list.", "Zone"));
        assert!(!selects_what_it_names(step, "Resource Group"));
        assert!(!selects_what_it_names("Click OK.", "Select an instance to associate"));
    }

    #[test]
    fn an_invented_value_has_the_shape_its_label_asks_for() {
        let task = crate::task::Task::default();
        assert!(super::invented_value(&task, "Domain Name").ends_with(".com"));
        assert!(super::invented_value(&task, "Email").contains('@'));
        assert!(super::invented_value(&task, "WebHook").starts_with("https://"));
        assert!(super::invented_value(&task, "Port").chars().all(|c| c.is_ascii_digit()));
        let subnet = super::invented_value(&task, "IPv4 CIDR Block");
        assert!(subnet.starts_with("192.168.") && subnet.ends_with(".0/24"), "{subnet}");
        assert!(
            super::invented_value(&task, "Expiration (Days)")
                .chars()
                .all(|c| c.is_ascii_digit())
        );
    }
}
