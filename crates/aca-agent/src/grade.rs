//! Grading: each documented step's [`StepGrade`] and the typed [`Defect`]s, from the episode's step
//! records, how it ended and what the rule channel found.
//!
//! The findings come from the trajectory grader ([`crate::review`]): a policy's own finding
//! becomes a defect only on a step with at least one failed attempt (a step that was not found as
//! written is always looked for again before the page is blamed), and only if the trajectory does
//! not contradict it; what the grader reads from the trajectory itself counts as it stands.

use aca_core::{Confidence, Defect, DefectKind, Evidence, StepGrade, StepStatus, Verdict};
use serde::{Deserialize, Serialize};

use crate::episode::{EndReason, Episode, EpisodeEnd, StepRecord, StepState};
use crate::review::StepReview;
use crate::model::ModelCall;
use crate::verdict::decide;

/// What the rule channel (ActionTrail matching) found, handed in by the runtime.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleResult {
    /// `Some(true)`: the success rule matched; `Some(false)`: it did not; `None`: no rule applies.
    pub matched: Option<bool>,
    /// `eventId`s of the audit events involved.
    #[serde(default)]
    pub events: Vec<String>,
}

/// Grades and defects of one episode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grading {
    pub grades: Vec<StepGrade>,
    pub defects: Vec<Defect>,
}

/// The verdict of one episode with everything it rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub verdict: Verdict,
    pub grades: Vec<StepGrade>,
    pub defects: Vec<Defect>,
    pub end: Option<EpisodeEnd>,
    pub model_calls: Vec<ModelCall>,
    pub cost: f64,
}

impl Report {
    /// Grades a finished (or stopped) episode against the rule channel's result.
    pub fn of(episode: &Episode, rule: &RuleResult) -> Report {
        let end = episode.end().cloned();
        let reason = end.as_ref().map(|e| e.reason.clone()).unwrap_or(EndReason::Agent {
            failure: crate::episode::AgentFailure::TurnLimit {
                turns: episode.trajectory().turns.len() as u32,
            },
        });
        let reviews = crate::review::review(episode.steps(), episode.records(), &episode.trajectory().turns);
        let grading = grade(
            episode.records(),
            &reviews,
            &reason,
            episode.task().procedure.expected_result.as_deref(),
            rule,
        );
        let verdict = decide(&grading.grades, &grading.defects, &reason, rule);
        let model_calls = episode.model_calls();
        Report {
            verdict,
            cost: model_calls.iter().map(|c| c.cost).sum(),
            grades: grading.grades,
            defects: grading.defects,
            end,
            model_calls,
        }
    }
}

/// Grades every step and types every finding the trajectory grader stands behind (`reviews`,
/// aligned with `records`).
pub fn grade(
    records: &[StepRecord],
    reviews: &[StepReview],
    end: &EndReason,
    expected_result: Option<&str>,
    rule: &RuleResult,
) -> Grading {
    let completed = matches!(end, EndReason::Completed { .. });
    let succeeded = completed && rule.matched != Some(false);
    // Only the audit log showing the operation done proves the page's own way is gone.
    let confirmed = completed && rule.matched == Some(true);
    let mut grades = Vec::new();
    let mut defects = Vec::new();
    let none = StepReview::default();
    for (i, record) in records.iter().enumerate() {
        let review = reviews.get(i).unwrap_or(&none);
        let drifted = !record.as_written || !review.findings.is_empty();
        let (status, note) = match record.state {
            StepState::NotReached => (StepStatus::Skipped, Some("not reached".to_owned())),
            StepState::Working if !completed => (StepStatus::Fail, Some("the run stopped on this step".to_owned())),
            StepState::Done | StepState::Working => (
                if drifted { StepStatus::Warning } else { StepStatus::Pass },
                record.note.clone().or_else(|| review.note.clone()).or_else(|| {
                    // Done with no action: what it names was checked on the page and already so.
                    (record.state == StepState::Done && record.actions.is_empty())
                        .then(|| "nothing to change: the page already showed what the step asks".to_owned())
                }),
            ),
            StepState::Unverified => (
                StepStatus::Warning,
                Some(format!(
                    "not verified: {}",
                    record.note.as_deref().unwrap_or("nothing in it was acted on")
                )),
            ),
            StepState::Skipped if succeeded => (
                StepStatus::Warning,
                Some("left out: its control is gone and the procedure succeeded without it".to_owned()),
            ),
            StepState::Skipped => (StepStatus::Fail, Some("its control is gone".to_owned())),
            StepState::Failed => (StepStatus::Fail, record.note.clone()),
        };
        grades.push(StepGrade {
            step: record.number.clone(),
            status,
            alternative_path: !record.as_written,
            actions: record.actions.clone(),
            note,
            verified: record.state != StepState::Unverified,
        });
        for reviewed in review.findings.iter().filter(|r| r.counts) {
            let finding = &reviewed.finding;
            let kind = finding.kind.defect_kind(succeeded);
            let repeated = defects.iter().any(|d: &Defect| {
                d.kind == kind
                    && d.step == record.number
                    && d.documented == finding.documented
                    && d.observed == finding.observed
            });
            if repeated {
                // The same difference met again (a confirmation clicked twice) is one defect.
                continue;
            }
            defects.push(Defect {
                kind,
                step: record.number.clone(),
                documented: finding.documented.clone(),
                observed: finding.observed.clone(),
                confidence: if confirmed {
                    Confidence::Confirmed
                } else {
                    Confidence::Suspected
                },
                evidence: Evidence {
                    elements: finding.evidence.clone(),
                    screenshot: None,
                    events: rule.events.clone(),
                    turn: reviewed.turn.map(|t| t as u32),
                },
            });
        }
    }
    let all_done_as_written = grades.iter().all(|g| g.status == StepStatus::Pass);
    if completed && rule.matched == Some(false) && all_done_as_written && !grades.is_empty() {
        defects.push(Defect {
            kind: DefectKind::ChangedOutcome,
            step: grades.last().map(|g| g.step.clone()).unwrap_or_default(),
            documented: expected_result.unwrap_or("the documented operation").to_owned(),
            observed: "every step ran as written, but the audit log shows no matching operation".into(),
            confidence: Confidence::Confirmed,
            evidence: Evidence {
                events: rule.events.clone(),
                ..Evidence::default()
            },
        });
    }
    Grading { grades, defects }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Finding, FindingKind};

    /// Grades records whose findings are the policy's, with no trajectory to read.
    fn graded_records(records: &[StepRecord], end: &EndReason, expected: Option<&str>, rule: &RuleResult) -> Grading {
        let reviews = crate::review::review(&[], records, &[]);
        grade(records, &reviews, end, expected, rule)
    }

    fn record(number: &str, state: StepState, attempts: u32, findings: Vec<Finding>) -> StepRecord {
        StepRecord {
            number: number.into(),
            state,
            attempts,
            failures: vec![],
            actions: vec![],
            as_written: findings.is_empty(),
            findings,
            note: None,
            grounded: true,
        }
    }

    fn renamed() -> Finding {
        Finding {
            kind: FindingKind::Renamed,
            documented: "OK".into(),
            observed: "Confirm".into(),
            evidence: vec!["[3] button \"Confirm\"".into()],
        }
    }

    #[test]
    fn a_step_passed_over_with_nothing_acted_on_is_never_a_pass() {
        let completed = EndReason::Completed { summary: String::new() };
        let matched = RuleResult {
            matched: Some(true),
            events: vec!["e1".into()],
        };
        let mut passed_over = record("2", StepState::Unverified, 0, vec![]);
        passed_over.note = Some("the step names no control".into());
        let graded = graded_records(
            &[record("1", StepState::Done, 0, vec![]), passed_over],
            &completed,
            None,
            &matched,
        );
        assert_eq!(graded.grades[0].status, StepStatus::Pass);
        assert!(graded.grades[0].verified);
        // A pass with no action says why: nothing was left to change.
        assert_eq!(
            graded.grades[0].note.as_deref(),
            Some("nothing to change: the page already showed what the step asks")
        );
        assert_eq!(graded.grades[1].status, StepStatus::Warning);
        assert!(!graded.grades[1].verified);
        assert_eq!(
            graded.grades[1].note.as_deref(),
            Some("not verified: the step names no control")
        );
    }

    #[test]
    fn a_finding_without_a_failed_attempt_is_no_defect() {
        let completed = EndReason::Completed { summary: String::new() };
        let matched = RuleResult {
            matched: Some(true),
            events: vec!["e1".into()],
        };
        let first_try = graded_records(
            &[record("6", StepState::Done, 0, vec![renamed()])],
            &completed,
            None,
            &matched,
        );
        assert!(first_try.defects.is_empty());
        assert_eq!(first_try.grades[0].status, StepStatus::Warning);
        let retried = graded_records(
            &[record("6", StepState::Done, 1, vec![renamed()])],
            &completed,
            None,
            &matched,
        );
        assert_eq!(retried.defects.len(), 1);
        assert_eq!(retried.defects[0].kind, DefectKind::RenamedLabel);
        assert_eq!(retried.defects[0].evidence.events, vec!["e1".to_string()]);
    }

    #[test]
    fn steps_done_as_written_without_the_operation_are_a_changed_outcome() {
        let completed = EndReason::Completed { summary: String::new() };
        let records = [
            record("1", StepState::Done, 0, vec![]),
            record("2", StepState::Done, 0, vec![]),
        ];
        let grading = graded_records(
            &records,
            &completed,
            Some("The VPC appears."),
            &RuleResult {
                matched: Some(false),
                events: vec![],
            },
        );
        assert_eq!(grading.defects.len(), 1);
        assert_eq!(grading.defects[0].kind, DefectKind::ChangedOutcome);
        assert_eq!(grading.defects[0].step, "2");
        assert_eq!(grading.defects[0].documented, "The VPC appears.");
    }

    #[test]
    fn unreached_steps_are_skipped_and_the_stopping_step_fails() {
        let stopped = EndReason::Unachievable { reason: "x".into() };
        let records = [
            record("1", StepState::Done, 0, vec![]),
            record("2", StepState::Working, 2, vec![]),
            record("3", StepState::NotReached, 0, vec![]),
        ];
        let grading = graded_records(&records, &stopped, None, &RuleResult::default());
        let statuses: Vec<_> = grading.grades.iter().map(|g| g.status).collect();
        assert_eq!(statuses, vec![StepStatus::Pass, StepStatus::Fail, StepStatus::Skipped]);
    }
}
