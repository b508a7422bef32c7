//! Where a running episode stands, as the side panel and `aca verify`'s progress lines show it.

use aca_agent::{Episode, StepState};
use aca_core::Thought;
use serde::{Deserialize, Serialize};

/// Where a running episode stands, as the panel shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// 1-based position of the current step among the procedure's steps (sub-steps included).
    pub step: Option<usize>,
    pub steps: usize,
    /// The current step's number and sentence as the page writes them.
    pub step_number: Option<String>,
    pub step_text: Option<String>,
    /// Actions taken so far.
    pub turns: usize,
    /// The Thought behind the latest action, and the action in call syntax.
    pub thought: Option<Thought>,
    pub action: Option<String>,
    /// Every documented step and where it stands, in the page's order.
    #[serde(default)]
    pub live: Vec<LiveStep>,
}

/// One documented step as a running verification sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveStep {
    /// The step's number as the page writes it.
    pub number: String,
    pub text: String,
    pub status: LiveStatus,
    /// Ways tried that did not work as written.
    pub attempts: u32,
}

/// Where one step stands while the run goes on; the report's grade replaces it at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LiveStatus {
    Waiting,
    Running,
    /// Done as written.
    Pass,
    /// Done another way than written, or passed over with nothing acted on.
    Warning,
    Fail,
    /// Not to be done (the page's own choice, or the person's in step mode).
    Skipped,
}

impl LiveStatus {
    /// The word the side panel shows.
    pub fn label(self) -> &'static str {
        match self {
            LiveStatus::Waiting => "waiting",
            LiveStatus::Running => "running",
            LiveStatus::Pass => "PASS",
            LiveStatus::Warning => "WARNING",
            LiveStatus::Fail => "FAIL",
            LiveStatus::Skipped => "SKIPPED",
        }
    }
}

impl Progress {
    pub fn of(episode: &Episode) -> Progress {
        let current = episode.current_step();
        let steps = episode.steps();
        let position = current.and_then(|c| steps.iter().position(|s| s.number == c.number).map(|i| i + 1));
        let last = episode.trajectory().turns.last();
        Progress {
            step: position,
            steps: steps.len(),
            step_number: current.map(|s| s.number.clone()),
            step_text: current.map(|s| s.text.clone()),
            turns: episode.trajectory().turns.len(),
            thought: last.map(|t| t.thought.clone()),
            action: last.map(|t| t.action.call_syntax()),
            live: steps
                .iter()
                .zip(episode.records())
                .map(|(step, record)| LiveStep {
                    number: step.number.clone(),
                    text: step.text.clone(),
                    status: match record.state {
                        StepState::NotReached => LiveStatus::Waiting,
                        StepState::Working => LiveStatus::Running,
                        StepState::Done if record.as_written && record.findings.is_empty() => LiveStatus::Pass,
                        StepState::Done | StepState::Unverified => LiveStatus::Warning,
                        StepState::Skipped => LiveStatus::Skipped,
                        StepState::Failed => LiveStatus::Fail,
                    },
                    attempts: record.attempts,
                })
                .collect(),
        }
    }

    /// `step 4 of 7` (or `starting` before the first step).
    pub fn headline(&self) -> String {
        match (self.step, &self.step_number) {
            (Some(at), Some(number)) => format!("Step {at} of {} (step {number} of the page)", self.steps),
            _ => format!("Starting: {} step(s) to run", self.steps),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_agent::{Limits, ScriptedPolicy, Task};
    use aca_core::Observation;

    #[test]
    fn progress_counts_steps_before_the_first() {
        let page = "# Create a VPC\n\n## Procedure\n\n1. Log on to the **VPC console**.\n\
            2. On the **VPCs** page, click **Create VPC**.\n3. Click **OK**.\n";
        let mut task = Task::new(aca_docs::parse_markdown(page).unwrap());
        task.limits = Limits {
            max_turns: 0,
            ..Limits::default()
        };
        let mut episode = Episode::new(task, Box::new(ScriptedPolicy::new()));
        episode.next(Observation::default()).unwrap();
        let progress = Progress::of(&episode);
        assert_eq!(progress.steps, 3);
        let statuses: Vec<LiveStatus> = progress.live.iter().map(|s| s.status).collect();
        assert_eq!(statuses.len(), 3, "{:?}", progress.live);
        assert!(statuses[1..].iter().all(|s| *s == LiveStatus::Waiting), "{statuses:?}");
        assert_eq!(progress.turns, 0);
        assert_eq!(progress.headline(), "Starting: 3 step(s) to run");
        let later = Progress {
            step: Some(2),
            step_number: Some("2".into()),
            ..progress
        };
        assert_eq!(later.headline(), "Step 2 of 3 (step 2 of the page)");
    }
}
