//! A documentation page as the agent reads it: a [`Procedure`] of ordered [`Step`]s.
//!
//! `aca-docs` builds these from Markdown or HTML pages; the agent turns them into tasks and the
//! report grades them step by step. Everything a step names is kept as the page wrote it (labels,
//! menu paths, values), so that drift can be reported in the page's own words. Fields the page does
//! not state stay empty: nothing here is guessed.

use serde::{Deserialize, Serialize};

/// One procedure page: title `Product:Task`, its sections and its numbered steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Procedure {
    /// The page title as written, e.g. `Virtual Private Cloud:Create a VPC`.
    pub title: String,
    /// The part before the colon (`Virtual Private Cloud`); `None` when the title has no colon.
    pub product: Option<String>,
    /// The part after the colon (`Create a VPC`), or the whole title.
    pub task: String,
    /// "Last Updated: Mar 14, 2026" as an ISO date, `2026-03-14`.
    pub last_updated: Option<String>,
    /// Items (or paragraphs) of the Prerequisites section.
    pub prerequisites: Vec<String>,
    /// The Background information section, paragraphs joined by blank lines.
    pub background: Option<String>,
    /// Items (or paragraphs) of a Precautions, Limits, Considerations or Usage notes section.
    pub precautions: Vec<String>,
    /// Every Note / Important / Warning / Notice on the page, in page order.
    pub notes: Vec<Callout>,
    pub steps: Vec<Step>,
    pub parameters: Vec<ParameterTable>,
    /// The Result section.
    pub expected_result: Option<String>,
    /// Items of the What to do next section.
    pub next_steps: Vec<String>,
    /// API operation names of the Related API operations section, e.g. `CreateVpc`.
    pub related_api: Vec<String>,
}

/// A labelled callout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Callout {
    pub kind: CalloutKind,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CalloutKind {
    Note,
    Important,
    Warning,
    Notice,
}

/// One numbered step (or sub-step).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// `"3"`, `"3.2"` for a sub-step, `"Step 2 › 1"` for the first step of a "Step 2: …" section.
    pub number: String,
    /// The step's own sentence(s), without its sub-steps.
    pub text: String,
    /// The "Step N: …" section the step belongs to, e.g. `Step 1: Create a VPC`.
    pub section: Option<String>,
    /// UI labels the step names: bold text, quoted labels, and labels found by phrase
    /// ("click X", "On the X page") where the page lost its bold. In text order, no duplicates.
    pub labels: Vec<String>,
    /// Labels the step names only in passing, never as a target: options it describes
    /// ("**Private**: Only the owner …"), alternatives ("You can also click **Buckets**") and results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<String>,
    /// The other ways a step offers to do the same thing ("Use one of the following methods:" and
    /// a bullet each), in their own words. The step's text and targets are the first way's; the
    /// labels of the others are [`Step::mentions`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<String>,
    /// A menu path, `A > B > C` (or `›`), or the single item of "In the left-side navigation
    /// pane, click X", or the page of a deep link ("Go to ECS console - Snapshots").
    pub menu_path: Vec<String>,
    /// A navigation path the step follows before its menu path when it names two ("Choose Log
    /// Storage > Logstores. … find the Logstore and choose ⋯ > Delete").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub navigation: Vec<String>,
    /// The first container the step names ("In the X dialog box", "On the X page").
    pub container: Option<Container>,
    /// The column a row action sits in ("in the Actions column" → `Actions`).
    pub column: Option<String>,
    /// Values the step asks to enter or select.
    pub values: Vec<FieldValue>,
    /// What the sentence asks, coarsely; in text order, no duplicates.
    pub actions: Vec<StepAction>,
    pub substeps: Vec<Step>,
    /// The console named by "Log on to the X console" / "Go to X console - …", e.g. `VPC`.
    pub opens_console: Option<String>,
    /// "(Optional) To refine the trust policy, click …": the reader may leave it out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
}

impl Step {
    /// The step as the page writes it: the way followed, then the others it offers ("Or: …").
    pub fn documented_text(&self) -> String {
        std::iter::once(self.text.clone())
            .chain(self.alternatives.iter().map(|a| format!("Or: {a}")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// This step and all its sub-steps, depth first.
    pub fn flatten(&self) -> Vec<&Step> {
        let mut out = vec![self];
        for s in &self.substeps {
            out.extend(s.flatten());
        }
        out
    }
}

/// A named UI container.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Container {
    pub kind: ContainerKind,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContainerKind {
    Dialog,
    Panel,
    Page,
    Tab,
    Wizard,
}

/// A value to enter or select, with the field it goes into when the page names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldValue {
    pub label: Option<String>,
    pub value: String,
}

/// A coarse classification of what a step's sentence asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StepAction {
    OpenConsole,
    Navigate,
    SelectRegion,
    /// "find the instance", "search for".
    Find,
    Click,
    Enter,
    Select,
    /// "configure the parameters" (usually followed by a parameter table).
    Configure,
    /// A click on OK, Confirm, Create, Save, Submit, Buy Now, Complete or Close.
    Confirm,
}

/// A `Parameter | Description` table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ParameterTable {
    /// The number of the step the table belongs to, when it sits inside or right after one.
    pub step: Option<String>,
    pub rows: Vec<Parameter>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parameter {
    pub name: String,
    pub description: String,
    /// "In this example, TCP is selected." → `TCP`; or an Example column.
    pub example: Option<String>,
    /// "Default value: …" or a Default column.
    pub default: Option<String>,
    /// A Required column, or "This parameter is required." / "Optional".
    pub required: Option<bool>,
}
