//! The report of a verification in the panel: the verdict and its sentence, each documented step
//! with its status, the defects first (what the page says and what the console shows, with the marked
//! screenshot of the page that shows it when the run took one), the success rule
//! (and whether it was inferred), the audit events that matched it or the judges that decided instead,
//! the duration, and a download of `report.json` in the format `aca verify` writes.

use aca_core::{Report, StepStatus, Verdict};
use leptos::prelude::*;

use aca_run::report::{describe_matcher, quoted};

use crate::messages::KeptShot;

fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::DocDefect => "doc_defect",
        Verdict::EnvironmentFailure => "environment_failure",
        Verdict::AgentFailure => "agent_failure",
        Verdict::Unverified => "unverified",
    }
}

fn status_word(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Pass => "PASS",
        StepStatus::Warning => "WARNING",
        StepStatus::Fail => "FAIL",
        StepStatus::Skipped => "SKIPPED",
    }
}

/// `report.json` as a `data:` URL for the download link.
fn download_href(report: &Report) -> String {
    let json = serde_json::to_string_pretty(report).unwrap_or_default();
    format!(
        "data:application/json;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(&json))
    )
}

pub fn report_view(report: Report, shots: Vec<KeptShot>) -> impl IntoView {
    let verdict = verdict_word(report.verdict);
    let verdict_class = if report.verdict == Verdict::Pass { "ok" } else { "error" };
    let duration = format!("{:.1} s", report.duration_ms as f64 / 1_000.0);
    let href = download_href(&report);
    let steps = report
        .steps
        .iter()
        .map(|step| {
            let status = status_word(step.grade.status);
            let mut detail = String::new();
            if step.grade.alternative_path {
                detail.push_str(" (through an alternative path)");
            }
            if let Some(note) = &step.grade.note {
                detail.push_str(&format!(" — {note}"));
            }
            view! {
                <tr data-step=step.grade.step.clone() class=status.to_lowercase()>
                    <td>{step.grade.step.clone()}</td>
                    <td class="status">{status}</td>
                    <td>{step.text.clone()}<span class="muted">{detail}</span></td>
                </tr>
            }
        })
        .collect_view();
    let defects = report
        .defects
        .iter()
        .map(|d| {
            let kind = serde_json::to_value(d.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let observed = if d.observed.is_empty() {
                "nothing in its place".to_owned()
            } else {
                quoted(&d.observed)
            };
            let documented = quoted(&d.documented);
            let seen = d.evidence.turn.map(|turn| format!(" (seen at turn {turn})"));
            let shot = report
                .screenshot_of(d)
                .and_then(|path| shots.iter().find(|s| s.path == path))
                .map(|shot| {
                    let alt = format!("the console at step {}, with its elements' marks", d.step);
                    view! { <img class="defect-shot" src=shot.image.clone() alt=alt /> }
                });
            view! {
                <li data-step=d.step.clone() data-kind=kind.clone() data-confidence=d.confidence.label()>
                    "Step " <b>{d.step.clone()}</b> ", " {kind.clone()} " (" {d.confidence.label()} "): the page says " {documented}
                    ", the console shows " {observed} <span class="muted">{seen}</span> {shot}
                </li>
            }
        })
        .collect_view();
    let rule = report.rule.clone().map(|rule| {
        let origin = match &rule.explanation {
            Some(why) => view! { <p id="rule-origin">"Inferred from the page: " {why.clone()}</p> }.into_any(),
            None => view! { <p id="rule-origin">"Written for the page."</p> }.into_any(),
        };
        let matchers = rule
            .rule
            .events
            .iter()
            .map(|m| view! { <li>{describe_matcher(m)}</li> })
            .collect_view();
        let result = match (rule.matched, &rule.error) {
            (Some(true), _) => format!("matched after {:.1} s", rule.waited_ms as f64 / 1_000.0),
            (Some(false), _) => format!("not matched within {:.1} s", rule.waited_ms as f64 / 1_000.0),
            (None, Some(error)) => format!("not read: {error}"),
            (None, None) => "not read".to_owned(),
        };
        let events = rule
            .matched_events
            .iter()
            .map(|e| {
                view! {
                    <li data-event=e.event_name.clone()>
                        <b>{e.event_name.clone()}</b> " on " {e.service_name.clone()} " (" {e.event_type.clone()}
                        ") at " {e.event_time.clone()} " " <code>{e.event_id.clone()}</code>
                    </li>
                }
            })
            .collect_view();
        let none = rule
            .matched_events
            .is_empty()
            .then(|| view! { <li class="muted">"none"</li> });
        let misses = (!rule.near_misses.is_empty()).then(|| {
            let items = rule
                .near_misses
                .iter()
                .map(|m| view! { <li>{m.clone()}</li> })
                .collect_view();
            view! {
                <h3>"Near misses"</h3>
                <ul id="near-misses" class="muted">{items}</ul>
            }
        });
        view! {
            <h3>"Success rule"</h3>
            {origin}
            <ul id="rule-matchers">{matchers}</ul>
            <p id="rule-result">{result}</p>
            <h3>"Matched audit events"</h3>
            <ul id="matched-events">{events}{none}</ul>
            {misses}
        }
    });
    // Where no audit event decides the page, the judges' answers are the evidence.
    let judges = report.judges.clone().map(|judges| {
        view! {
            <h3>"Judges"</h3>
            <p id="judges">{judges.sentence()}</p>
        }
    });
    let failure = report
        .failure
        .clone()
        .map(|f| view! { <p id="report-failure" class="muted">{f}</p> });
    view! {
        <div id="report" class="card">
            <p>
                "Verdict: " <b id="verdict" class=verdict_class>{verdict}</b> " in "
                <span id="duration">{duration}</span> " (" {report.policy.clone()} ")"
            </p>
            <p id="summary">{report.summary.clone()}</p>
            {failure}
            <h3>"Defects"</h3>
            <ul id="defects">{defects}</ul>
            <h3>"Steps"</h3>
            <table id="report-steps">
                <tbody>{steps}</tbody>
            </table>
            {rule}
            {judges}
            <a id="download" class="button" download="report.json" href=href>
                "Download report.json"
            </a>
        </div>
    }
}
