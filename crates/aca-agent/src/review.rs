//! The trajectory grader: reads a finished trajectory (the documented steps, each turn's page, the
//! action performed and its outcome, the model's Thoughts and its `Doc check:` claims) and says,
//! step by step, where the page and the console differ, with evidence, whoever acted: the scripted
//! policy, a model, or a person who took over in step mode.
//!
//! A policy's own findings are hints: kept (as before, only after a failed attempt) unless the
//! trajectory contradicts them. A step no policy grounded (a model's, a person's) is read from the
//! trajectory alone: the documented label that was not on the page and the similar control used
//! instead, a control found only in an overflow menu the page never names (or clicked where the
//! menu the page names was missing), a required field no step mentions, a taken-over step whose
//! labels were nowhere. A model's claim is kept only when the pages it saw support it.

use aca_core::{Action, ActionOutcome, GuiAction, Step, Turn};

use crate::episode::StepRecord;
use crate::label::{LabelMatch, is_confirm_label, is_more_label, match_label, normalise, same_name};
use crate::policy::{Finding, FindingKind};

/// The prefix of a model's claim about the documentation, on a line of its reply.
pub const DOC_CHECK: &str = "Doc check:";

/// One difference the grader stands behind.
#[derive(Debug, Clone, PartialEq)]
pub struct Reviewed {
    pub finding: Finding,
    /// The turn (1-based) whose page shows it.
    pub turn: Option<usize>,
    /// Where it came from, for the report's evidence.
    pub source: Source,
    /// Whether it may become a defect: a policy's hint only after a failed attempt at the step.
    pub counts: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The policy's own finding, confirmed by the trajectory.
    Policy,
    /// Read from the trajectory where no policy grounded the step.
    Trajectory,
    /// A model's `Doc check:` claim the trajectory supports.
    Claim,
}

/// What the grader found at one documented step (aligned with the episode's records).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepReview {
    pub findings: Vec<Reviewed>,
    /// How the step was done when nobody's grounding says (a person took it over).
    pub note: Option<String>,
}

/// Reviews every step of `steps` (with their `records`, in the same order) against `turns`.
pub fn review(steps: &[Step], records: &[StepRecord], turns: &[Turn]) -> Vec<StepReview> {
    let mut reviews: Vec<StepReview> = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        let step = steps.get(i);
        let at_step = turns_at(turns, &record.number);
        let mut review = StepReview::default();
        for finding in &record.findings {
            if !contradicted(finding, &at_step) {
                review.findings.push(Reviewed {
                    finding: finding.clone(),
                    turn: turn_showing(&finding.observed, &at_step),
                    source: Source::Policy,
                    counts: record.attempts > 0,
                });
            }
        }
        if let Some(step) = step {
            let mut found = taken_over(step, &at_step, turns);
            if !record.grounded {
                found.extend(discovered(step, steps, &at_step));
            }
            for found in found {
                push_new(&mut review, found);
            }
            review.note = taken_over_note(&at_step);
        }
        reviews.push(review);
    }
    for (i, claim) in claims(turns) {
        let Some(index) = records.iter().position(|r| r.number == claim.step) else {
            continue;
        };
        if let Some(found) = supported(&claim, &turns_at(turns, &claim.step), turns, i) {
            push_new(&mut reviews[index], found);
        }
    }
    for (review, step) in reviews.iter_mut().zip(steps) {
        review.findings.retain(|r| !written_in_full(&r.finding, step));
    }
    reviews
}

/// The turns (with their 0-based index) that worked on step `number`.
fn turns_at<'a>(turns: &'a [Turn], number: &str) -> Vec<(usize, &'a Turn)> {
    turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.step.as_deref() == Some(number))
        .collect()
}

/// A finding not already there (the same kind and labels at the same step is one difference).
fn push_new(review: &mut StepReview, found: Reviewed) {
    let known = review.findings.iter().any(|r| {
        r.finding.kind == found.finding.kind
            && same_name(&r.finding.documented, &found.finding.documented)
            && (r.finding.observed.is_empty() || same_name(&r.finding.observed, &found.finding.observed))
    });
    if !known {
        review.findings.push(found);
    }
}

/// A hint the trajectory contradicts: a control said to be renamed or gone was used under its
/// documented name in that very step.
fn contradicted(finding: &Finding, at_step: &[(usize, &Turn)]) -> bool {
    matches!(finding.kind, FindingKind::Renamed | FindingKind::Absent)
        && !finding.documented.is_empty()
        && at_step.iter().any(|(_, turn)| {
            turn.outcome.as_ref().is_some_and(took_effect)
                && target(turn).is_some_and(|(_, name)| match_label(&finding.documented, &name) == Some(LabelMatch::Exact))
        })
}

/// A "renamed" label that the step writes in full: the label read from the page is the start of
/// the console's, and the step's text goes on with the rest of it. Without bold, where a label ends
/// is guessed ("click Go to RAM console to go to …" gives "Go to RAM"); the page itself is right.
fn written_in_full(finding: &Finding, step: &Step) -> bool {
    let (documented, observed) = (normalise(&finding.documented), normalise(&finding.observed));
    finding.kind == FindingKind::Renamed
        && !documented.is_empty()
        && observed.len() > documented.len()
        && observed.starts_with(&format!("{documented} "))
        && format!(" {} ", normalise(&step.text)).contains(&format!(" {observed} "))
}

fn took_effect(outcome: &ActionOutcome) -> bool {
    matches!(outcome, ActionOutcome::Done { .. } | ActionOutcome::Navigated { .. })
}

/// The role and name of the element a turn acted on, as its page showed it.
fn target(turn: &Turn) -> Option<(String, String)> {
    match &turn.action {
        Action::Gui(gui) => gui
            .index()
            .and_then(|index| aca_core::observation::named_in_text(&turn.observation, index)),
        Action::Control(_) => None,
    }
}

/// Whether a page (a turn's observation text) shows an element named `label` as written.
fn shows(page: &str, label: &str) -> bool {
    elements(page).any(|(_, _, name)| match_label(label, &name) == Some(LabelMatch::Exact))
}

/// `(line, role, name)` of every indexed element of an observation's text.
fn elements(page: &str) -> impl Iterator<Item = (&str, String, String)> {
    page.lines().filter_map(|line| {
        let trimmed = line.trim_start().trim_start_matches('*');
        let index: u32 = trimmed.strip_prefix('[')?.split(']').next()?.parse().ok()?;
        let (role, name) = aca_core::observation::named_in_text(trimmed, index)?;
        Some((line.trim(), role, name))
    })
}

/// The element line of `name` on the first page of the step that shows it.
fn line_showing(name: &str, at_step: &[(usize, &Turn)]) -> Option<(usize, String)> {
    at_step.iter().find_map(|(i, turn)| {
        elements(&turn.observation)
            .find(|(_, _, n)| match_label(name, n) == Some(LabelMatch::Exact))
            .map(|(line, _, _)| (*i + 1, line.to_owned()))
    })
}

fn turn_showing(name: &str, at_step: &[(usize, &Turn)]) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    line_showing(name, at_step).map(|(turn, _)| turn)
}

/// Roles a documented label can be clicked as.
fn clickable(role: &str) -> bool {
    matches!(
        role,
        "button" | "link" | "menuitem" | "tab" | "option" | "treeitem" | "radio" | "checkbox" | "switch"
    )
}

/// What a step clicks: its labels and menu path, not the dialog or column it names as a place.
fn targets(step: &Step) -> Vec<&String> {
    let place = |label: &String| {
        step.container.as_ref().is_some_and(|c| &c.name == label) || step.column.as_ref() == Some(label)
    };
    let mut targets: Vec<&String> = Vec::new();
    for label in step.labels.iter().chain(&step.menu_path) {
        if !place(label) && !targets.contains(&label) {
            targets.push(label);
        }
    }
    targets
}

/// A step a person took over, whose documented controls the page before did not show: the page
/// names a control the console lacks there, and the person did the step another way. Where the
/// runtime saw the person's clicks, the finding names what they used: the documented control
/// reached through other controls is a moved one (`Manage > All Actions > Restart`), another
/// control is a renamed one. Otherwise the control they used is unknown.
fn taken_over(step: &Step, at_step: &[(usize, &Turn)], turns: &[Turn]) -> Vec<Reviewed> {
    let targets = targets(step);
    let mut found = Vec::new();
    for (i, turn) in at_step {
        let Some(ActionOutcome::TakenOver { clicked }) = &turn.outcome else {
            continue;
        };
        let missing: Vec<&&String> = targets.iter().filter(|l| !shows(&turn.observation, l)).collect();
        let went_on = turns.get(i + 1).is_some_and(|next| next.observation != turn.observation);
        let (Some(label), true) = (missing.first(), went_on && missing.len() == targets.len()) else {
            continue;
        };
        let mut evidence = vec![format!("turn {}: the person took over; the page showed no \"{label}\"", i + 1)];
        if !clicked.is_empty() {
            let controls: Vec<String> = clicked.iter().map(|c| format!("{} \"{}\"", c.role.as_str(), c.name)).collect();
            evidence.push(format!("the person clicked {}", controls.join(", then ")));
        }
        let reached = clicked
            .iter()
            .position(|c| match_label(label, &c.name) == Some(LabelMatch::Exact));
        // What stood in for the label: a control named like it, else the first one clicked that
        // opens no menu (what follows is the step's own later work, a dialog's OK say).
        let used = clicked
            .iter()
            .find(|c| match_label(label, &c.name).is_some())
            .or_else(|| clicked.iter().find(|c| !is_more_label(&c.name)));
        let (kind, observed) = match (reached, used) {
            (Some(at), _) if at > 0 => {
                let path: Vec<&str> = clicked[..=at].iter().map(|c| c.name.as_str()).collect();
                (FindingKind::Moved, path.join(" > "))
            }
            // Clicked as written, straight away: the page before was not the step's.
            (Some(_), _) => continue,
            (None, Some(used)) => (FindingKind::Renamed, used.name.clone()),
            (None, None) => (FindingKind::Renamed, String::new()),
        };
        found.push(Reviewed {
            finding: Finding {
                kind,
                documented: (**label).clone(),
                observed,
                evidence,
            },
            turn: Some(i + 1),
            source: Source::Trajectory,
            counts: true,
        });
    }
    found
}

/// What the trajectory shows at a step no policy grounded.
fn discovered(step: &Step, steps: &[Step], at_step: &[(usize, &Turn)]) -> Vec<Reviewed> {
    let mut found = Vec::new();
    let targets = targets(step);
    let used_as_written = |label: &str| {
        at_step.iter().any(|(_, turn)| {
            turn.outcome.as_ref().is_some_and(took_effect)
                && target(turn).is_some_and(|(_, name)| match_label(label, &name) == Some(LabelMatch::Exact))
        })
    };
    // A documented control used under another name: the last click of the step that took effect
    // named nothing the step documents, its page lacked the label, and the two names are alike.
    let clicks: Vec<&(usize, &Turn)> = at_step
        .iter()
        .filter(|(_, t)| matches!(t.action, Action::Gui(GuiAction::Click { .. })))
        .filter(|(_, t)| t.outcome.as_ref().is_some_and(took_effect))
        .collect();
    let unused: Vec<&String> = targets.iter().copied().filter(|l| !used_as_written(l)).collect();
    if let (Some((i, turn)), [label]) = (clicks.last(), unused.as_slice())
        && let Some((role, name)) = target(turn)
        && clickable(&role)
        && !targets.iter().any(|l| match_label(l, &name) == Some(LabelMatch::Exact))
        && !shows(&turn.observation, label)
        && (matches!(match_label(label, &name), Some(LabelMatch::Prefix | LabelMatch::Overlap))
            || (is_confirm_label(label) && is_confirm_label(&name))
            || says_instead(turn, label, &name))
    {
        found.push(Reviewed {
            finding: Finding {
                kind: FindingKind::Renamed,
                documented: (*label).clone(),
                observed: name.clone(),
                evidence: line_showing(&name, &[(*i, *turn)]).map(|(_, l)| l).into_iter().collect(),
            },
            turn: Some(i + 1),
            source: Source::Trajectory,
            counts: true,
        });
    }
    found.extend(moved(step, steps, &targets, at_step));
    // A required field no step mentions, filled in to go on.
    let procedure_words: Vec<&String> = steps
        .iter()
        .flat_map(|s| s.labels.iter().chain(&s.mentions).chain(s.values.iter().filter_map(|v| v.label.as_ref())))
        .collect();
    for (i, turn) in at_step {
        if !matches!(turn.action, Action::Gui(GuiAction::Type { .. } | GuiAction::Select { .. })) {
            continue;
        }
        let Some((_, name)) = target(turn) else { continue };
        let index = match &turn.action {
            Action::Gui(gui) => gui.index(),
            Action::Control(_) => None,
        };
        let required = index.is_some_and(|index| {
            let mark = format!("[{index}] ");
            turn.observation
                .lines()
                .any(|l| l.trim_start().trim_start_matches('*').starts_with(&mark) && l.contains("required"))
        });
        let documented = procedure_words.iter().any(|w| match_label(w, &name).is_some());
        if required && !documented {
            found.push(Reviewed {
                finding: Finding {
                    kind: FindingKind::Undocumented,
                    documented: String::new(),
                    observed: name.clone(),
                    evidence: line_showing(&name, &[(*i, *turn)]).map(|(_, l)| l).into_iter().collect(),
                },
                turn: Some(i + 1),
                source: Source::Trajectory,
                counts: true,
            });
        }
    }
    found
}

/// Documented controls used as written but found in another place than the page says, and only
/// where the trajectory leaves no other reading: an overflow menu (`More`, `⋯`) the step never
/// names had to be opened first; the menu the step names was not on the page and the item was
/// clicked without it; or the control was on another page (a details page, say) that a control
/// the procedure never names opened, where the step says nothing of such a page.
fn moved(step: &Step, steps: &[Step], targets: &[&String], at_step: &[(usize, &Turn)]) -> Vec<Reviewed> {
    let mut found = Vec::new();
    let clicks: Vec<(usize, &Turn, String, String)> = at_step
        .iter()
        .filter(|(_, turn)| {
            matches!(turn.action, Action::Gui(GuiAction::Click { .. }))
                && turn.outcome.as_ref().is_some_and(took_effect)
        })
        .filter_map(|&(i, turn)| target(turn).map(|(role, name)| (i, turn, role, name)))
        .collect();
    let Some((_, first)) = at_step.first() else { return found };
    for (k, (at, turn, role, name)) in clicks.iter().enumerate() {
        let Some(label) = targets
            .iter()
            .find(|l| !is_more_label(l) && match_label(l, name) == Some(LabelMatch::Exact))
        else {
            continue;
        };
        let documented_menu = targets.iter().find(|l| is_more_label(l));
        let moved_finding = |documented: String, observed: String, why: String| Reviewed {
            finding: Finding {
                kind: FindingKind::Moved,
                documented,
                observed,
                evidence: std::iter::once(why)
                    .chain(line_showing(name, &[(*at, *turn)]).map(|(_, l)| l))
                    .collect(),
            },
            turn: Some(at + 1),
            source: Source::Trajectory,
            counts: true,
        };
        // Into a menu: the step's first page lacked the label, and an undocumented overflow menu
        // was opened just before it was clicked.
        let opened = k.checked_sub(1).map(|j| &clicks[j]).filter(|(_, _, role, opener)| {
            clickable(role) && is_more_label(opener) && !targets.iter().any(|l| same_name(l, opener))
        });
        if let (None, Some((j, _, _, opener))) = (documented_menu, opened)
            && !shows(&first.observation, label)
        {
            let why = format!("turn {}: \"{label}\" appeared only in the \"{opener}\" menu", j + 1);
            found.push(moved_finding(label.to_string(), format!("{opener} > {name}"), why));
        }
        // To another page: an unnamed control opened the page that showed the label.
        let navigated = clicks[..k]
            .iter()
            .rev()
            .find(|(_, t, _, _)| matches!(t.outcome, Some(ActionOutcome::Navigated { .. })));
        if let (None, None, Some((j, _, _, opener))) = (documented_menu, opened, navigated)
            && !shows(&first.observation, label)
            && !step.text.to_lowercase().contains("detail")
            && !named_in_procedure(steps, opener)
        {
            let why = format!(
                "turn {}: \"{label}\" was not on the step's page; it was on the page \"{opener}\" opened",
                j + 1
            );
            let observed = format!("{name} (in the page that \"{opener}\" opens)");
            found.push(moved_finding(label.to_string(), observed, why));
        }
        // Out of a menu: the step names a menu that its page did not show, and the item was
        // clicked outside any menu.
        if let Some(menu) = documented_menu
            && !clicks.iter().any(|(_, _, _, n)| same_name(menu, n))
            && !shows(&turn.observation, menu)
            && role != "menuitem"
        {
            let why = format!("turn {}: the page showed no \"{menu}\" menu", at + 1);
            found.push(moved_finding(format!("{menu} > {label}"), name.clone(), why));
        }
    }
    found
}

/// Whether any step of the procedure names `name`: as a label, a menu level, a value's field, or
/// in its text.
fn named_in_procedure(steps: &[Step], name: &str) -> bool {
    let lowered = name.to_lowercase();
    steps.iter().any(|s| {
        s.labels
            .iter()
            .chain(&s.menu_path)
            .chain(&s.mentions)
            .chain(s.values.iter().filter_map(|v| v.label.as_ref()))
            .any(|w| match_label(w, name).is_some())
            || s.text.to_lowercase().contains(&lowered)
    })
}

/// The turn's Thought says it uses `name` for `label` (a model that explains its choice).
fn says_instead(turn: &Turn, label: &str, name: &str) -> bool {
    let thought = format!("{} {}", turn.thought.observation, turn.thought.next_goal).to_lowercase();
    thought.contains(&label.to_lowercase()) && thought.contains(&name.to_lowercase())
}

fn taken_over_note(at_step: &[(usize, &Turn)]) -> Option<String> {
    at_step
        .iter()
        .find(|(_, t)| matches!(t.outcome, Some(ActionOutcome::TakenOver { .. })))
        .map(|(i, _)| format!("done by the person, who took over at turn {}", i + 1))
}

/// A finding as the `Doc check:` line a model writes for it (what [`claims`] reads back).
pub fn doc_check_line(step: &str, finding: &Finding) -> String {
    let shows = if finding.observed.is_empty() {
        "nothing in its place".to_owned()
    } else {
        format!("\"{}\"", finding.observed)
    };
    format!(
        "{DOC_CHECK} step {step}: the page says \"{}\", the console shows {shows}",
        finding.documented
    )
}

/// A model's claim: `Doc check: step 4: the page says "Create Instance", the console shows "Create CLB".`
#[derive(Debug, Clone, PartialEq)]
struct Claim {
    step: String,
    documented: String,
    observed: Option<String>,
}

/// Every claim in the replies, with the (0-based) turn that made it.
fn claims(turns: &[Turn]) -> Vec<(usize, Claim)> {
    let mut out = Vec::new();
    for (i, turn) in turns.iter().enumerate() {
        let text = turn.reply.as_deref().unwrap_or_default();
        let lines = text.lines().filter_map(|l| l.trim().strip_prefix(DOC_CHECK));
        for line in lines {
            if let Some(claim) = parse_claim(line, turn.step.as_deref()) {
                out.push((i, claim));
            }
        }
    }
    out
}

fn parse_claim(line: &str, current_step: Option<&str>) -> Option<Claim> {
    let line = line.trim();
    let step = line
        .to_lowercase()
        .strip_prefix("step ")
        .and_then(|rest| rest.split([':', ',', ' ']).next().map(str::to_owned))
        .filter(|s| !s.is_empty())
        .or_else(|| current_step.map(str::to_owned))?;
    let quoted: Vec<String> = line
        .split(['"', '“', '”'])
        .skip(1)
        .step_by(2)
        .map(|q| q.trim().to_owned())
        .filter(|q| !q.is_empty())
        .collect();
    let documented = quoted.first()?.clone();
    Some(Claim {
        step,
        documented,
        observed: quoted.get(1).cloned(),
    })
}

/// A claim the pages support: the documented label was on none of the step's pages (nor on the
/// claiming turn's), and the control said to replace it was on one of them.
fn supported(claim: &Claim, at_step: &[(usize, &Turn)], turns: &[Turn], claimed_at: usize) -> Option<Reviewed> {
    let mut pages: Vec<(usize, &Turn)> = at_step.to_vec();
    if let Some(turn) = turns.get(claimed_at)
        && !pages.iter().any(|(i, _)| *i == claimed_at)
    {
        pages.push((claimed_at, turn));
    }
    if pages.is_empty() || pages.iter().any(|(_, t)| shows(&t.observation, &claim.documented)) {
        return None;
    }
    match &claim.observed {
        Some(observed) => {
            let (turn, line) = line_showing(observed, &pages)?;
            Some(Reviewed {
                finding: Finding {
                    kind: FindingKind::Renamed,
                    documented: claim.documented.clone(),
                    observed: observed.clone(),
                    evidence: vec![line],
                },
                turn: Some(turn),
                source: Source::Claim,
                counts: true,
            })
        }
        // "Nothing in its place": only when no page of the whole run showed it.
        None => (!turns.iter().any(|t| shows(&t.observation, &claim.documented))).then(|| Reviewed {
            finding: Finding {
                kind: FindingKind::Absent,
                documented: claim.documented.clone(),
                observed: String::new(),
                evidence: vec![format!("no page of the run showed \"{}\"", claim.documented)],
            },
            turn: Some(claimed_at + 1),
            source: Source::Claim,
            counts: true,
        }),
    }
}

#[cfg(test)]
mod tests {
    use aca_core::{Action, Thought};

    use super::*;
    use crate::episode::StepState;

    fn step(number: &str, labels: &[&str]) -> Step {
        let mut step: Step = serde_json::from_value(serde_json::json!({
            "number": number, "text": "", "section": null, "labels": [], "menu_path": [],
            "container": null, "column": null, "values": [], "actions": [], "substeps": [],
            "opens_console": null,
        }))
        .unwrap();
        step.labels = labels.iter().map(|l| l.to_string()).collect();
        step
    }

    fn record(number: &str, grounded: bool, findings: Vec<Finding>) -> StepRecord {
        StepRecord {
            number: number.into(),
            state: StepState::Done,
            attempts: 1,
            failures: vec![],
            actions: vec![],
            as_written: findings.is_empty(),
            findings,
            note: None,
            grounded,
        }
    }

    fn turn(step: &str, page: &[&str], click: u32, reply: Option<&str>) -> Turn {
        Turn {
            step: Some(step.into()),
            observation: page
                .iter()
                .zip(1..)
                .map(|(name, i)| format!("[{i}] button \"{name}\"\n"))
                .collect(),
            thought: Thought::default(),
            action: Action::Gui(GuiAction::Click { index: click }),
            outcome: Some(ActionOutcome::Done { reresolved: false }),
            reply: reply.map(str::to_owned),
        }
    }

    fn kinds(review: &StepReview) -> Vec<(FindingKind, String, String, Source)> {
        review
            .findings
            .iter()
            .map(|r| (r.finding.kind, r.finding.documented.clone(), r.finding.observed.clone(), r.source))
            .collect()
    }

    #[test]
    fn a_model_using_a_similar_control_where_the_label_is_gone_is_a_renamed_label() {
        let steps = [step("4", &["Release"])];
        let turns = [turn("4", &["Restart", "Release Instance"], 2, None)];
        let reviews = review(&steps, &[record("4", false, vec![])], &turns);
        assert_eq!(
            kinds(&reviews[0]),
            [(FindingKind::Renamed, "Release".into(), "Release Instance".into(), Source::Trajectory)]
        );
        assert_eq!(reviews[0].findings[0].turn, Some(1));
        assert!(reviews[0].findings[0].finding.evidence[0].contains("[2] button \"Release Instance\""));
        // The label as written on the page: nothing to report.
        let as_written = [turn("4", &["Release", "Release Instance"], 1, None)];
        assert!(review(&steps, &[record("4", false, vec![])], &as_written)[0].findings.is_empty());
        // An unrelated control is no rename by itself.
        let unrelated = [turn("4", &["Refresh"], 1, None)];
        assert!(review(&steps, &[record("4", false, vec![])], &unrelated)[0].findings.is_empty());
    }

    #[test]
    fn a_label_the_step_writes_in_full_is_no_rename() {
        // Without bold the label read was cut short; the step's own text names the console's label.
        let mut plain = step("2", &["Go to RAM"]);
        plain.text = "Click Go to RAM console to go to the Cloud Resource Access Authorization page.".into();
        let cut = Finding {
            kind: FindingKind::Renamed,
            documented: "Go to RAM".into(),
            observed: "Go to RAM console".into(),
            evidence: vec![],
        };
        let turns = [turn("2", &["Go to RAM console"], 1, None)];
        let reviews = review(std::slice::from_ref(&plain), &[record("2", true, vec![cut.clone()])], &turns);
        assert!(reviews[0].findings.is_empty(), "{:?}", reviews[0].findings);
        // A console label the step does not write stays a rename.
        let longer = Finding {
            observed: "Go to RAM Console Now".into(),
            ..cut
        };
        let reviews = review(&[plain], &[record("2", true, vec![longer])], &turns);
        assert_eq!(reviews[0].findings.len(), 1);
    }

    #[test]
    fn a_claim_is_kept_only_when_the_pages_support_it() {
        // A grounded step: only the claim can report it.
        let steps = [step("5", &["OK"])];
        let claim = "Thought: …\nDoc check: step 5: the page says \"OK\", the console shows \"Apply\"\nAction: click(1)";
        let supported = [turn("5", &["Apply", "Cancel"], 1, Some(claim))];
        let reviews = review(&steps, &[record("5", true, vec![])], &supported);
        assert_eq!(
            kinds(&reviews[0]),
            [(FindingKind::Renamed, "OK".into(), "Apply".into(), Source::Claim)]
        );
        // "OK" is on the page: the claim is dropped.
        let contradicted = [turn("5", &["Apply", "OK"], 1, Some(claim))];
        assert!(review(&steps, &[record("5", true, vec![])], &contradicted)[0].findings.is_empty());
        // "Apply" is on no page: dropped too.
        let unseen = [turn("5", &["Submit"], 1, Some(claim))];
        assert!(review(&steps, &[record("5", true, vec![])], &unseen)[0].findings.is_empty());
    }

    #[test]
    fn a_policys_hint_stands_unless_the_trajectory_contradicts_it() {
        let steps = [step("3", &["Create VPC"])];
        let hint = Finding {
            kind: FindingKind::Renamed,
            documented: "Create VPC".into(),
            observed: "New VPC".into(),
            evidence: vec![],
        };
        let kept = review(
            &steps,
            &[record("3", true, vec![hint.clone()])],
            &[turn("3", &["New VPC"], 1, None)],
        );
        assert_eq!(kept[0].findings.len(), 1);
        assert_eq!(kept[0].findings[0].source, Source::Policy);
        let used_as_written = review(
            &steps,
            &[record("3", true, vec![hint])],
            &[turn("3", &["Create VPC"], 1, None)],
        );
        assert!(used_as_written[0].findings.is_empty(), "{used_as_written:?}");
    }

    fn clicked(step: &str, page: &[(&str, &str)], click: u32) -> Turn {
        let mut turn = turn(step, &[], click, None);
        turn.observation = page
            .iter()
            .zip(1..)
            .map(|((role, name), i)| format!("[{i}] {role} \"{name}\"\n"))
            .collect();
        turn
    }

    #[test]
    fn a_control_found_only_in_an_overflow_menu_the_page_never_names_moved_there() {
        let steps = [step("3", &["Stop"])];
        let row = [("link", "i-bp1"), ("button", "Start"), ("button", "More")];
        let menu = [("link", "i-bp1"), ("button", "Start"), ("button", "More"), ("menuitem", "Stop")];
        let turns = [clicked("3", &row, 3), clicked("3", &menu, 4)];
        let reviews = review(&steps, &[record("3", false, vec![])], &turns);
        assert_eq!(
            kinds(&reviews[0]),
            [(FindingKind::Moved, "Stop".into(), "More > Stop".into(), Source::Trajectory)]
        );
        assert_eq!(reviews[0].findings[0].turn, Some(2));
        // On the row as written (the model looked in More needlessly): nothing to report.
        let on_row = [("link", "i-bp1"), ("button", "Stop"), ("button", "More")];
        let turns = [clicked("3", &on_row, 3), clicked("3", &menu, 4)];
        assert!(review(&steps, &[record("3", false, vec![])], &turns)[0].findings.is_empty());
        // Another way to the control (the instance's own page) says nothing of where it lives.
        let details = [("button", "Stop"), ("button", "Restart")];
        let turns = [clicked("3", &row, 1), clicked("3", &details, 1)];
        assert!(review(&steps, &[record("3", false, vec![])], &turns)[0].findings.is_empty());
    }

    #[test]
    fn a_control_found_only_on_a_page_an_unnamed_control_opened_moved_there() {
        let mut steps = [step("3", &["Stop"])];
        steps[0].text = "On the Instances page, find the instance and click Stop in the Actions column.".into();
        let list = [("link", "i-bp1"), ("button", "Start")];
        let details = [("button", "Stop"), ("button", "Restart")];
        let mut opened = clicked("3", &list, 1);
        opened.outcome = Some(ActionOutcome::Navigated { url: "https://ecs.console/detail/i-bp1".into() });
        let turns = [opened.clone(), clicked("3", &details, 1)];
        let reviews = review(&steps, &[record("3", false, vec![])], &turns);
        assert_eq!(
            kinds(&reviews[0]),
            [(
                FindingKind::Moved,
                "Stop".into(),
                "Stop (in the page that \"i-bp1\" opens)".into(),
                Source::Trajectory
            )]
        );
        // A page that sends the reader to the details page says where the control is.
        let mut told = steps.clone();
        told[0].text = "Click the instance ID. On the instance details page, click Stop.".into();
        assert!(review(&told, &[record("3", false, vec![])], &turns)[0].findings.is_empty());
        // So does one whose procedure names the control that opened the page.
        let mut named = steps.clone();
        named[0].labels.push("Manage".into());
        let mut manage = clicked("3", &[("link", "Manage"), ("button", "Start")], 1);
        manage.outcome = opened.outcome.clone();
        let through_manage = [manage, clicked("3", &details, 1)];
        assert!(review(&named, &[record("3", false, vec![])], &through_manage)[0].findings.is_empty());
        // And a control that only changed the page in place (no navigation) says nothing.
        let in_place = [clicked("3", &list, 1), clicked("3", &details, 1)];
        assert!(review(&steps, &[record("3", false, vec![])], &in_place)[0].findings.is_empty());
    }

    #[test]
    fn an_item_clicked_where_the_documented_menu_is_missing_moved_out_of_it() {
        let steps = [step("4", &["More", "Delete"])];
        let row = [("link", "vpc-1"), ("button", "Edit"), ("button", "Delete")];
        let reviews = review(&steps, &[record("4", false, vec![])], &[clicked("4", &row, 3)]);
        assert_eq!(
            kinds(&reviews[0]),
            [(FindingKind::Moved, "More > Delete".into(), "Delete".into(), Source::Trajectory)]
        );
        // The menu is on the page: the model's shortcut says nothing of the page.
        let with_more = [("link", "vpc-1"), ("button", "Delete"), ("button", "More")];
        assert!(review(&steps, &[record("4", false, vec![])], &[clicked("4", &with_more, 2)])[0].findings.is_empty());
        // Through the menu as written: nothing either.
        let closed = [("link", "vpc-1"), ("button", "More")];
        let open = [("link", "vpc-1"), ("button", "More"), ("menuitem", "Delete")];
        let turns = [clicked("4", &closed, 2), clicked("4", &open, 3)];
        assert!(review(&steps, &[record("4", false, vec![])], &turns)[0].findings.is_empty());
    }

    #[test]
    fn a_take_over_whose_clicks_reached_the_documented_control_another_way_is_a_moved_control() {
        use aca_core::{ClickedControl, Role};
        let steps = [step("4", &["Restart"])];
        let clicks = |names: &[(Role, &str)]| {
            names
                .iter()
                .map(|(role, name)| ClickedControl {
                    role: *role,
                    name: name.to_string(),
                })
                .collect::<Vec<_>>()
        };
        let graded = |clicked: Vec<ClickedControl>| {
            let mut taken = turn("4", &["i-bp1", "Manage"], 2, None);
            taken.outcome = Some(ActionOutcome::TakenOver { clicked });
            let after = turn("5", &["OK"], 1, None);
            kinds(&review(&steps, &[record("4", false, vec![])], &[taken, after])[0])
        };
        let through = clicks(&[(Role::Link, "Manage"), (Role::Button, "All Actions"), (Role::Button, "Restart")]);
        assert_eq!(
            graded(through),
            [(FindingKind::Moved, "Restart".into(), "Manage > All Actions > Restart".into(), Source::Trajectory)]
        );
        let other = clicks(&[(Role::Button, "More"), (Role::Menuitem, "Reboot"), (Role::Button, "OK")]);
        assert_eq!(
            graded(other),
            [(FindingKind::Renamed, "Restart".into(), "Reboot".into(), Source::Trajectory)]
        );
        let alike = clicks(&[(Role::Link, "Instances"), (Role::Button, "Restart Instance"), (Role::Button, "OK")]);
        assert_eq!(
            graded(alike),
            [(FindingKind::Renamed, "Restart".into(), "Restart Instance".into(), Source::Trajectory)]
        );
        assert_eq!(
            graded(Vec::new()),
            [(FindingKind::Renamed, "Restart".into(), String::new(), Source::Trajectory)]
        );
    }

    #[test]
    fn a_required_field_no_step_mentions_is_a_missing_step() {
        let steps = [step("2", &["Name"])];
        let mut typed = turn("2", &[], 2, None);
        typed.observation = "[1] textbox \"Name\"\n[2] textbox \"Description\" (required)\n".into();
        typed.action = Action::Gui(GuiAction::Type {
            index: 2,
            text: "x".into(),
            submit: false,
        });
        let reviews = review(&steps, &[record("2", false, vec![])], &[typed]);
        assert_eq!(
            kinds(&reviews[0]),
            [(FindingKind::Undocumented, String::new(), "Description".into(), Source::Trajectory)]
        );
    }
}
