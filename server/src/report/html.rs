//! The report as one HTML page a writer reads from top to bottom: verdict, defects, steps, audit
//! evidence, then the agent's turns.

use aca_core::{DefectKind, Report, StepStatus, Verdict};
use base64::Engine as _;
use maud::{DOCTYPE, Markup, PreEscaped, html};

const STYLE: &str = "
body{font:14px/1.5 system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222;padding:0 1em}
h1{font-size:1.4em;margin-bottom:.2em} h2{font-size:1.1em;margin-top:2em;border-bottom:1px solid #ddd}
.verdict{display:inline-block;padding:.2em .7em;border-radius:3px;color:#fff;font-weight:600}
.pass{background:#1a7f37}.doc_defect{background:#cf222e}.environment_failure{background:#9a6700}
.agent_failure{background:#8250df}.unverified{background:#6e7781}
table{border-collapse:collapse;width:100%} td,th{border:1px solid #ddd;padding:.3em .5em;vertical-align:top;text-align:left}
.s-pass{color:#1a7f37;font-weight:600}.s-warning{color:#9a6700;font-weight:600}.s-fail{color:#cf222e;font-weight:600}
.s-skipped{color:#6e7781} code,pre{font:12px/1.4 ui-monospace,monospace;background:#f6f8fa}
pre{padding:.5em;overflow:auto;max-height:25em} .meta{color:#57606a} img{max-width:100%;border:1px solid #ddd}
details{margin:.3em 0}";

/// Renders the report; `screenshot` returns the bytes of a screenshot by its relative path.
pub fn render(report: &Report, screenshot: impl Fn(&str) -> Option<Vec<u8>>) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { "Verification: " (report.title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                h1 { (report.title) }
                p {
                    span class={"verdict " (verdict_class(report.verdict))} { (verdict_label(report.verdict)) }
                    " " (report.summary)
                }
                p class="meta" {
                    "Page: " code { (report.page) }
                    @if let Some(profile) = &report.written_for { " · written for profile " (profile) }
                    " · console " code { (report.console.url) }
                    @if let Some(profile) = &report.console.profile { " (profile " (profile) ")" }
                    " · region " (report.console.region)
                    " · policy " (report.policy)
                    " · " (report.started_at) " · " (format!("{:.1}", report.duration_ms as f64 / 1000.0)) " s"
                }
                @if let Some(failure) = &report.failure {
                    p { strong { "Stopped: " } (failure) }
                }
                @if !report.defects.is_empty() {
                    h2 { "Defects" }
                    table {
                        tr { th { "Step" } th { "Kind" } th { "Confidence" } th { "The page says" } th { "The console shows" } th { "Evidence" } }
                        @for defect in &report.defects {
                            tr {
                                td { (defect.step) }
                                td { (defect_label(defect.kind)) }
                                td { (defect.confidence.label()) }
                                td { (defect.documented) }
                                td { @if defect.observed.is_empty() { em { "nothing in its place" } } @else { (defect.observed) } }
                                td {
                                    @for line in &defect.evidence.elements { code { (line) } br; }
                                    @for event in &defect.evidence.events { "event " code { (event) } br; }
                                    @if let Some(turn) = defect.evidence.turn { "seen at turn " (turn) br; }
                                    @if let Some(path) = report.screenshot_of(defect) {
                                        (image(path, &screenshot))
                                    }
                                }
                            }
                        }
                    }
                }
                h2 { "Steps" }
                table {
                    tr { th { "Step" } th { "Status" } th { "The page says" } th { "What the agent did" } }
                    @for step in &report.steps {
                        tr {
                            td { (step.grade.step) }
                            td class=(status_class(step.grade.status)) {
                                (status_label(step.grade.status))
                                @if step.grade.alternative_path { br; small { "another path" } }
                            }
                            td { (step.text) @if let Some(note) = &step.grade.note { br; small { (note) } } }
                            td { @for action in &step.grade.actions { code { (action) } br; } }
                        }
                    }
                }
                h2 { "Audit log" }
                @match &report.rule {
                    None if report.judges.is_some() => p { "No success rule applies to this page: the judges decided instead (below)." },
                    None => p { "No success rule applies to this page: nothing in the audit log proves or disproves it." },
                    Some(rule) => {
                        @if let Some(explanation) = &rule.explanation {
                            p { strong { "Inferred rule" } " (confirm or correct it: save it beside the page as "
                                code { "<page>.rule.json" } "): " (explanation) }
                        }
                        p class="rule" { "The audit log must show " (rule_in_words(&rule.rule)) "." }
                        details {
                            summary { "The rule as JSON" }
                            pre { (serde_json::to_string_pretty(&rule.rule).unwrap_or_default()) }
                        }
                        p {
                            @match rule.matched {
                                Some(true) => strong class="s-pass" { "Matched" },
                                Some(false) => strong class="s-fail" { "Not matched" },
                                None => strong class="s-skipped" { "Not checked" },
                            }
                            " after waiting " (format!("{:.1}", rule.waited_ms as f64 / 1000.0)) " s for delivery."
                            @if let Some(error) = &rule.error { " " (error) }
                        }
                        @if !rule.matched_events.is_empty() {
                            table {
                                tr { th { "Event" } th { "Service" } th { "Type" } th { "Time" } th { "eventId" } }
                                @for e in &rule.matched_events {
                                    tr { td { (e.event_name) } td { (e.service_name) } td { (e.event_type) } td { (e.event_time) } td { code { (e.event_id) } } }
                                }
                            }
                        }
                        @if !rule.near_misses.is_empty() {
                            p { "Close, but not matching:" }
                            ul { @for miss in &rule.near_misses { li { (miss) } } }
                        }
                    }
                }
                @if let Some(judges) = &report.judges {
                    h2 { "Judges" }
                    p { "Why judges: " (judges.why_judges) }
                    p class="rule" { (judges.sentence()) }
                    table {
                        tr { th { "Judge" } th { "Answer" } th { "Reason" } th { "Tokens in / out" } th { "Cost (USD)" } }
                        @for answer in &judges.answers {
                            tr {
                                td { (answer.model) br; small { (answer.endpoint) } }
                                td { @match answer.success {
                                    Some(true) => strong class="s-pass" { "success" },
                                    Some(false) => strong class="s-fail" { "failure" },
                                    None => strong class="s-skipped" { "no answer" },
                                } }
                                td { (answer.reason) @if let Some(error) = &answer.error { (error) } }
                                td { (answer.prompt_tokens) " / " (answer.completion_tokens) }
                                td { @if let Some(cost) = answer.cost_usd { (format!("{cost:.6}")) } }
                            }
                        }
                    }
                }
                @if !report.decisions.is_empty() {
                    h2 { "Step mode" }
                    p class="meta" { "What the person decided about each action the agent proposed, and what became of it." }
                    ol {
                        @for record in &report.decisions {
                            li {
                                code { (record.action.call_syntax()) } " "
                                @if !record.reason.is_empty() { "(" (record.reason) ") " }
                                "— " (record.decision.in_words())
                            }
                        }
                    }
                }
                @if let Some(resources) = &report.resources {
                    h2 { "Resources provided for the run" }
                    pre { (resources) }
                }
                @if report.usage.calls > 0 {
                    p class="meta" {
                        "Model: " (report.usage.calls) " calls, " (report.usage.prompt_tokens) " prompt + "
                        (report.usage.completion_tokens) " completion tokens"
                        @if report.usage.images > 0 {
                            " (" (report.usage.images) " screenshots, " (report.usage.image_tokens) " image tokens)"
                        }
                        @if let Some(cost) = report.usage.cost_usd { ", $" (format!("{cost:.4}")) }
                    }
                }
                h2 { "Turns" }
                @for (i, turn) in report.turns.iter().enumerate() {
                    details {
                        summary {
                            (i + 1) ". "
                            @if let Some(step) = &turn.step { "step " (step) ": " }
                            (turn.action_in_words()) " "
                            code { (turn.action.call_syntax()) }
                            @if let Some(outcome) = &turn.outcome { " → " (serde_json::to_string(outcome).unwrap_or_default()) }
                        }
                        @if !turn.thought.next_goal.is_empty() || !turn.thought.progress.is_empty() {
                            p { "Progress: " (turn.thought.progress) br; "Sees: " (turn.thought.observation) br; "Next: " (turn.thought.next_goal) }
                        }
                        @for shot in report.screenshots.iter().filter(|s| s.turn == i) { (image(&shot.path, &screenshot)) }
                        pre { (turn.observation) }
                    }
                }
            }
        }
    }
}

fn image(path: &str, screenshot: &impl Fn(&str) -> Option<Vec<u8>>) -> Markup {
    match screenshot(path) {
        Some(bytes) => {
            let data = base64::engine::general_purpose::STANDARD.encode(bytes);
            html! { img alt=(path) src={"data:image/png;base64," (data)}; }
        }
        None => html! { p class="meta" { "(screenshot " code { (path) } " is missing)" } },
    }
}

fn verdict_class(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::DocDefect => "doc_defect",
        Verdict::EnvironmentFailure => "environment_failure",
        Verdict::AgentFailure => "agent_failure",
        Verdict::Unverified => "unverified",
    }
}

pub fn verdict_label(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "PASS",
        Verdict::DocDefect => "DOC DEFECT",
        Verdict::EnvironmentFailure => "ENVIRONMENT FAILURE",
        Verdict::AgentFailure => "AGENT FAILURE",
        Verdict::Unverified => "UNVERIFIED",
    }
}

fn status_class(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Pass => "s-pass",
        StepStatus::Warning => "s-warning",
        StepStatus::Fail => "s-fail",
        StepStatus::Skipped => "s-skipped",
    }
}

pub fn status_label(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Pass => "PASS",
        StepStatus::Warning => "WARNING",
        StepStatus::Fail => "FAIL",
        StepStatus::Skipped => "SKIPPED",
    }
}

fn defect_label(kind: DefectKind) -> &'static str {
    match kind {
        DefectKind::RenamedLabel => "renamed label",
        DefectKind::MovedControl => "moved control",
        DefectKind::MissingStep => "missing step",
        DefectKind::ObsoleteStep => "obsolete step",
        DefectKind::ChangedValue => "changed value or default",
        DefectKind::UndocumentedPrerequisite => "undocumented prerequisite",
        DefectKind::RemovedFeature => "removed feature",
        DefectKind::ChangedOutcome => "changed outcome",
    }
}

/// The rule's events in words: `CreateVpc on Vpc (ApiCall) where VpcName = "web-vpc", and …`.
fn rule_in_words(rule: &aca_core::SuccessRule) -> String {
    let events: Vec<String> = rule.events.iter().map(aca_run::report::describe_matcher).collect();
    match events.as_slice() {
        [] => "nothing (the rule names no event)".into(),
        [one] => one.clone(),
        [first @ .., last] => format!("{}, and {last}", first.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use aca_core::*;

    use super::*;

    fn report() -> Report {
        Report {
            page: "vpc/create-vpc.md".into(),
            title: "Virtual Private Cloud:Create a VPC".into(),
            written_for: Some("2026".into()),
            console: ConsoleRun {
                url: "http://127.0.0.1:1".into(),
                profile: Some("2024".into()),
                account: None,
                region: "cn-hangzhou".into(),
            },
            policy: "scripted".into(),
            verdict: Verdict::DocDefect,
            summary: "Step 5 names a button the console no longer shows.".into(),
            steps: vec![StepReport {
                text: "Click <b>OK</b>.".into(),
                grade: StepGrade {
                    step: "5".into(),
                    status: StepStatus::Warning,
                    alternative_path: true,
                    actions: vec!["click(7)".into()],
                    note: None,
                    verified: true,
                },
                model: None,
            }],
            defects: vec![Defect {
                kind: DefectKind::RenamedLabel,
                step: "5".into(),
                documented: "OK".into(),
                observed: "Confirm".into(),
                confidence: aca_core::Confidence::Confirmed,
                evidence: Evidence {
                    screenshot: Some("shots/1.png".into()),
                    ..Default::default()
                },
            }],
            rule: None,
            judges: None,
            resources: None,
            turns: vec![],
            decisions: Vec::new(),
            screenshots: vec![],
            usage: ModelUsage::default(),
            started_at: "2026-11-30T16:00:00Z".into(),
            duration_ms: 1234,
            failure: None,
        }
    }

    #[test]
    fn page_text_is_escaped_and_screenshots_are_embedded() {
        let html = render(&report(), |path| {
            (path == "shots/1.png").then(|| vec![0x89, b'P', b'N', b'G'])
        })
        .into_string();
        assert!(html.contains("Click &lt;b&gt;OK&lt;/b&gt;."));
        assert!(html.contains("data:image/png;base64,iVBORw=="));
        assert!(html.contains("renamed label"));
        assert!(html.contains("No success rule applies"));
    }

    #[test]
    fn a_defect_shows_the_marked_screenshot_of_the_page_its_turn_acted_on() {
        let mut report = report();
        report.defects[0].evidence = Evidence {
            turn: Some(3),
            ..Default::default()
        };
        report.screenshots = ["shots/001.png", "shots/002.png", "shots/003.png"]
            .iter()
            .enumerate()
            .map(|(turn, path)| Screenshot {
                turn,
                step: None,
                path: (*path).into(),
            })
            .collect();
        let html = render(&report, |path| (path == "shots/002.png").then(|| vec![1, 2, 3])).into_string();
        assert!(html.contains("seen at turn 3"), "{html}");
        assert!(html.contains("data:image/png;base64,AQID"), "the page turn 3 acted on is the one after turn 2");
        report.defects[0].evidence.turn = Some(0);
        render(&report, |_| None);
    }

    #[test]
    fn the_judges_answers_are_shown_when_they_decided() {
        let mut report = report();
        report.judges = Some(JudgesReport {
            why_judges: "the task has no ActionTrail-verifiable event".into(),
            answers: ["judge-a", "judge-b"]
                .map(|model| JudgeAnswer {
                    model: model.into(),
                    endpoint: "http://127.0.0.1:1/v1".into(),
                    success: Some(model == "judge-a"),
                    reason: format!("{model} looked at the list"),
                    error: None,
                    prompt_tokens: 900,
                    completion_tokens: 20,
                    cost_usd: None,
                })
                .to_vec(),
        });
        let html = render(&report, |_| None).into_string();
        assert!(html.contains("the judges decided instead"), "{html}");
        assert!(html.contains("judge-b looked at the list") && html.contains("invalid"), "{html}");
    }

    #[test]
    fn what_the_person_decided_in_step_mode_is_listed() {
        let mut report = report();
        assert!(!render(&report, |_| None).into_string().contains("Step mode"));
        report.decisions = vec![aca_core::step_mode::StepRecord {
            action: aca_core::Action::Gui(aca_core::GuiAction::Click { index: 4 }),
            reason: "click \"Create VPC\"".into(),
            decision: aca_core::step_mode::Decided::TakenOver {
                before: None,
                clicked: Vec::new(),
                after: None,
                events: vec![aca_core::EventSummary {
                    event_id: "e-1".into(),
                    event_name: "CreateVpc".into(),
                    service_name: "Vpc".into(),
                    event_type: "ApiCall".into(),
                    event_time: "2026-12-06T10:00:30Z".into(),
                }],
            },
        }];
        let html = render(&report, |_| None).into_string();
        assert!(html.contains("Step mode"), "{html}");
        assert!(html.contains("taken over by hand; the audit log recorded CreateVpc"), "{html}");
        assert!(html.contains("click(4)") && html.contains("(click &quot;Create VPC&quot;)"), "{html}");
    }

    #[test]
    fn the_rule_and_the_actions_are_said_in_words() {
        let mut report = report();
        let rule: SuccessRule = serde_json::from_str(
            r#"{"events":[{"event_name":"CreateVpc","service_name":"Vpc","parameters":[{"name":"VpcName","equals":"web-vpc"}]},{"event_name":"CreateVSwitch"}]}"#,
        )
        .unwrap();
        report.rule = Some(RuleReport {
            rule,
            matched: Some(true),
            matched_events: Vec::new(),
            near_misses: Vec::new(),
            explanation: None,
            error: None,
            waited_ms: 10,
        });
        report.turns = vec![Turn {
            step: Some("5".into()),
            observation: "URL: u\n[7] button \"Confirm\"\n".into(),
            thought: Thought::default(),
            action: Action::Gui(GuiAction::Click { index: 7 }),
            outcome: None,
            reply: None,
        }];
        let html = render(&report, |_| None).into_string();
        assert!(
            html.contains(
                "The audit log must show CreateVpc on Vpc where VpcName = &quot;web-vpc&quot;, and CreateVSwitch."
            ),
            "{html}"
        );
        assert!(html.contains("Click the button “Confirm” <code>click(7)</code>"), "{html}");
    }

    #[test]
    fn a_missing_screenshot_is_said_not_hidden() {
        let html = render(&report(), |_| None).into_string();
        assert!(html.contains("(screenshot <code>shots/1.png</code> is missing)"));
    }
}
