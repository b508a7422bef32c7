//! The page's documented steps with where each stands: waiting before the run, live while it runs
//! (waiting, running, PASS, WARNING, FAIL), and the report's grade once it has ended; and the run's
//! elapsed time.

use aca_core::StepStatus;
use aca_run::LiveStatus;
use leptos::prelude::*;

use crate::messages::RunView;

/// One row of the list.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    number: String,
    text: String,
    /// `waiting`, `running`, `PASS`, `WARNING`, `FAIL`, `SKIPPED`.
    status: &'static str,
    /// Why a step is not PASS, when the report says.
    note: Option<String>,
}

/// The rows `run` shows: the report's grades, else the live statuses, else the captured steps.
fn rows(run: &RunView) -> Vec<Row> {
    if let Some(verification) = &run.verification {
        if let Some(report) = &verification.report {
            return report
                .steps
                .iter()
                .map(|step| Row {
                    number: step.grade.step.clone(),
                    text: step.text.clone(),
                    status: match step.grade.status {
                        StepStatus::Pass if step.grade.verified => "PASS",
                        StepStatus::Pass | StepStatus::Warning => "WARNING",
                        StepStatus::Fail => "FAIL",
                        StepStatus::Skipped => "SKIPPED",
                    },
                    note: step.grade.note.clone().filter(|n| !n.is_empty()),
                })
                .collect();
        }
        if !verification.progress.live.is_empty() {
            return verification
                .progress
                .live
                .iter()
                .map(|step| Row {
                    number: step.number.clone(),
                    text: step.text.clone(),
                    status: step.status.label(),
                    note: (step.attempts > 0 && step.status == LiveStatus::Running)
                        .then(|| format!("{} way(s) tried so far", step.attempts)),
                })
                .collect();
        }
    }
    let Some(Ok(procedure)) = run.captured.as_ref().map(|c| &c.procedure) else {
        return Vec::new();
    };
    procedure
        .steps
        .iter()
        .flat_map(|s| s.flatten())
        .map(|step| Row {
            number: step.number.clone(),
            text: step.text.clone(),
            status: "waiting",
            note: None,
        })
        .collect()
}

/// The documented steps with their statuses.
#[component]
pub fn StepList(run: RwSignal<RunView>) -> impl IntoView {
    view! {
        <ol id="doc-steps" class="steps">
            {move || {
                rows(&run.get())
                    .into_iter()
                    .map(|row| {
                        let class = format!("status {}", row.status.to_ascii_lowercase());
                        let step = row.number.clone();
                        view! {
                            <li data-step=step data-status=row.status>
                                <span class=class>{row.status}</span>
                                " "
                                <b>{row.number}</b>
                                " "
                                {row.text}
                                {row.note.map(|n| view! { <div class="muted note">{n}</div> })}
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ol>
    }
}

/// `m:ss` (or `h:mm:ss`).
pub fn clock(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

/// How long the run has taken: ticking while it runs, the report's duration once it has ended.
#[component]
pub fn Elapsed(run: RwSignal<RunView>) -> impl IntoView {
    let now = RwSignal::new(js_sys::Date::now() as i64);
    let ticking = set_interval_with_handle(
        move || now.set(js_sys::Date::now() as i64),
        std::time::Duration::from_secs(1),
    );
    on_cleanup(move || {
        if let Ok(handle) = ticking {
            handle.clear();
        }
    });
    move || {
        let run = run.get();
        let verification = run.verification?;
        let ms = match &verification.report {
            Some(report) => report.duration_ms as i64,
            None if verification.started_ms > 0 => now.get() - verification.started_ms,
            None => return None,
        };
        Some(view! { <p id="elapsed">"Elapsed " {clock(ms)}</p> })
    }
}
