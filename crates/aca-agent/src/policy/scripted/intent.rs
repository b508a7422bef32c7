//! What a documented step asks the scripted policy to do on the page, as a list of [`Intent`]s.

use aca_core::{ContainerKind, Step, StepAction};

use crate::label::normalise;
use crate::task::Task;

/// One thing to do for a step.
#[derive(Debug, Clone, PartialEq)]
pub enum Intent {
    /// Nothing to do on the page (the runtime opened the console; the task fixes the region; a step
    /// whose sub-steps do the work).
    Nothing { note: String },
    /// The step names nothing the policy can find or act on: it is passed over, not verified.
    NothingToAct { reason: String },
    /// The runtime opened the console the step names ("Log on to the X console"): the product the
    /// console shows should be that one.
    InConsole { name: String },
    /// Click each menu segment in the navigation pane, in order.
    Navigate { segments: Vec<String>, at: usize },
    /// Make sure the row of the task's resource is on the page.
    FindRow,
    /// Open the task's resource by the link that names it in its row ("click the name of the
    /// target bucket", "click the ID of the CLB instance").
    OpenRow,
    /// Tick the check boxes of the task's resources' rows ("select the vSwitches that you want to
    /// delete").
    SelectRows,
    /// Make sure the page the step starts on ("On the VPCs page") is the one shown.
    OnPage { name: String },
    /// Make sure the tab the step works on ("On the DNS Settings tab") is the one selected.
    OnTab { name: String },
    /// The dialog box or panel the step works in ("In the Grant Permission panel"): when one is
    /// open, its title should read so.
    InModal { name: String },
    /// Make sure the wizard shows the step the page names ("In the Backend Servers step").
    InWizardStep { name: String },
    /// Click a labelled control; `row` when it sits in a table row's Actions column, `batch` when it
    /// acts on the selected rows (a button below or above the list, never a row's own).
    Click {
        label: String,
        row: bool,
        confirm: bool,
        batch: bool,
    },
    /// Click whichever of the controls the page shows ("click Enable Console Logon or Modify
    /// Logon Settings": the one the resource's state offers), the first when it shows none.
    ClickEither { labels: Vec<String>, row: bool },
    /// Type a value into a labelled field.
    Fill {
        label: String,
        value: String,
        /// The console asked for it and no step documents it.
        undocumented: bool,
    },
    /// Give a field the step names without a value ("set the Bucket Name and Region", "enter a
    /// directory name in the Folder Name field") one: a text box gets a value shaped by its label,
    /// a field that holds one already keeps it.
    Set { label: String },
    /// A field the step names in plain words, not as a label ("In the panel that appears, enter a
    /// new password", from a page scraped without its bold): given a value when the page shows a
    /// field by that name; the words may name none, so a page without one leaves the step
    /// unverified, never failed.
    SetPlainlyNamed { label: String },
    /// A field a parameter table describes without a value to use: given one when the page shows
    /// it required and empty, left as it is otherwise (what the table says of it is no
    /// instruction).
    SetIfRequired { label: String },
    /// Type the task's resource's name (or id) where a dialog asks for it to confirm ("enter the
    /// name of the RAM role", "enter the AccessKey ID"): the dialog's empty text box.
    TypeResourceName { id: bool },
    /// Choose an option of a labelled select (`value: None`: any option; the page names none).
    Choose {
        labels: Vec<String>,
        value: Option<String>,
        undocumented: bool,
    },
}

impl Intent {
    /// A short description for thoughts and notes.
    pub fn describe(&self) -> String {
        match self {
            Intent::Nothing { note } => note.clone(),
            Intent::NothingToAct { reason } => format!("pass over the step: {reason}"),
            Intent::InConsole { name } => format!("check that the {name} console is shown"),
            Intent::Navigate { segments, .. } => format!("navigate to {}", segments.join(" > ")),
            Intent::FindRow => "find the resource's row".into(),
            Intent::OpenRow => "open the resource from the link in its row".into(),
            Intent::SelectRows => "select the resources' rows".into(),
            Intent::OnPage { name } => format!("check that the {name} page is shown"),
            Intent::OnTab { name } => format!("open the {name} tab"),
            Intent::InModal { name } => format!("check that the {name} dialog box or panel is open"),
            Intent::InWizardStep { name } => format!("check that the wizard shows the {name} step"),
            Intent::Click { label, row: true, .. } => format!("click \"{label}\" in the resource's row"),
            Intent::Click { label, .. } => format!("click \"{label}\""),
            Intent::ClickEither { labels, .. } => format!("click \"{}\"", labels.join("\" or \"")),
            Intent::Fill { label, value, .. } => format!("set \"{label}\" to \"{value}\""),
            Intent::Set { label } => format!("give \"{label}\" a value"),
            Intent::SetIfRequired { label } => format!("give \"{label}\" a value if the page requires one"),
            Intent::SetPlainlyNamed { label } => format!("give \"{label}\" a value if the page shows such a field"),
            Intent::TypeResourceName { id: false } => "type the resource's name to confirm".into(),
            Intent::TypeResourceName { id: true } => "type the resource's ID to confirm".into(),
            Intent::Choose {
                labels, value: Some(v), ..
            } => format!("choose \"{v}\" in \"{}\"", labels.join("/")),
            Intent::Choose {
                labels, value: None, ..
            } => format!("choose an option in \"{}\"", labels.join("/")),
        }
    }
}

/// Buttons that finish what a step and its sub-steps fill in.
const FINISHING: &[&str] = &["Next", "OK", "Submit", "Create", "Confirm", "Save", "Add"];

/// The intents of the step at `at` of the page's steps in order (sub-steps after their step): its
/// own, where a step with sub-steps ends on a button that finishes them ("configure the following
/// parameters. … Click Next.", then the parameters as sub-steps) that click is made after its last
/// sub-step, not before the first.
pub fn intents_at(steps: &[Step], at: usize, task: &Task) -> Vec<Intent> {
    let Some(step) = steps.get(at) else {
        return Vec::new();
    };
    let mut out = intents(step, task);
    if let Some(click) = finishing_click(step, &out) {
        out.retain(|i| *i != click);
        if out.iter().all(|i| {
            matches!(
                i,
                Intent::OnPage { .. } | Intent::OnTab { .. } | Intent::InWizardStep { .. }
            )
        }) {
            out.push(Intent::Nothing {
                note: "done through its sub-steps, whose last one is followed by the step's own click".into(),
            });
        }
    }
    // The steps this one ends (as their last sub-step), innermost first: their finishing clicks.
    for parent in steps[..at].iter().rev() {
        let last = parent.flatten().last().map(|s| s.number.clone());
        if parent.substeps.is_empty() || last.as_deref() != Some(step.number.as_str()) {
            continue;
        }
        if let Some(click) = finishing_click(parent, &intents(parent, task)) {
            out.push(click);
        }
    }
    out
}

/// The click a step with sub-steps ends on, when it is a finishing button alone in the step's
/// last sentence and something comes before it.
fn finishing_click(step: &Step, own: &[Intent]) -> Option<Intent> {
    if step.substeps.is_empty() || own.len() < 2 {
        return None;
    }
    let Some(click @ Intent::Click { label, row: false, .. }) = own.last() else {
        return None;
    };
    if !FINISHING.iter().any(|f| normalise(f) == normalise(label)) {
        return None;
    }
    let text = step.text.trim().trim_end_matches('.');
    let last_sentence = text.rsplit(". ").next().unwrap_or(text).trim().to_lowercase();
    (last_sentence != text.to_lowercase() && last_sentence == format!("click {}", label.to_lowercase()))
        .then(|| click.clone())
}

/// The intents of one step, in the order a person would carry them out.
pub fn intents(step: &Step, task: &Task) -> Vec<Intent> {
    let mut out = Vec::new();
    let opening = match step.opens_console.as_ref().filter(|n| !n.trim().is_empty()) {
        Some(name) => Some(Intent::InConsole { name: name.clone() }),
        None => step
            .actions
            .contains(&StepAction::OpenConsole)
            .then(|| Intent::Nothing {
                note: "the runtime opens the console".into(),
            }),
    };
    if let Some(opening) = opening {
        out.push(opening);
        // "Log on to the X console." alone; a step that goes on in the console it opened ("On the
        // Buckets page of the OSS console, click Create Bucket") has the rest to do as well.
        // "Visit the RDS instance list, … and then click the target instance ID": the resource too.
        let goes_on = !step.labels.is_empty()
            || !step.menu_path.is_empty()
            || !step.values.is_empty()
            || step.container.is_some()
            || step.column.is_some()
            || opens_row(&step.text.to_lowercase(), &step.labels).is_some();
        if !goes_on {
            return out;
        }
    }
    let mut used: Vec<String> = Vec::new();
    // "Tap Scan barcode in the Google Authenticator app": what the reader does in an app on
    // another device is nothing to do in the console.
    used.extend(
        step.labels
            .iter()
            .filter(|label| in_another_app(&step.text, label))
            .map(|label| normalise(label)),
    );
    // "Choose Log Storage > Logstores. On the Logstores tab, find the Logstore … choose ⋯ >
    // Delete": the page the step works on comes first.
    if !step.navigation.is_empty() {
        used.extend(step.navigation.iter().map(|s| normalise(s)));
        out.push(Intent::Navigate {
            segments: step.navigation.clone(),
            at: 0,
        });
    }
    if let Some(container) = &step.container {
        // "In the Revoke Permission dialog box, click Revoke Permission": the dialog's button
        // bears the dialog's name, and it is still to be clicked.
        let name = container.name.to_lowercase();
        let low = step.text.to_lowercase();
        let inside_at = low.find(&format!("in the {name} "));
        let clicks_its_namesake = inside_at
            .and_then(|i| low[i + name.len()..].find(&format!("click {name}")))
            .is_some();
        if !clicks_its_namesake {
            used.push(normalise(&container.name));
        }
        if container.kind == ContainerKind::Page {
            out.push(Intent::OnPage {
                name: container.name.clone(),
            });
        }
        if container.kind == ContainerKind::Tab {
            out.push(Intent::OnTab {
                name: container.name.clone(),
            });
        }
        if matches!(container.kind, ContainerKind::Dialog | ContainerKind::Panel) {
            // "Click Create Rule. In the Create Rule dialog box, …": the button opens the dialog.
            let name = container.name.to_lowercase();
            let opened_at = step.text.to_lowercase().find(&format!("click {name}"));
            let inside_at = step.text.to_lowercase().find(&format!("in the {name} "));
            if opened_at.is_some_and(|c| inside_at.is_none_or(|i| c < i)) {
                out.push(Intent::Click {
                    label: container.name.clone(),
                    row: false,
                    confirm: false,
                    batch: false,
                });
            }
            out.push(Intent::InModal {
                name: container.name.clone(),
            });
        }
    }
    // "On the Create Policy page, select the Visual Editor tab": a tab is opened, whatever the verb.
    let mut selects_a_tab = false;
    for label in &step.labels {
        let tab = format!("select the {} tab", label.to_lowercase());
        let named_as_container = step.container.as_ref().is_some_and(|c| c.name == *label);
        if step.text.to_lowercase().contains(&tab) && !named_as_container {
            used.push(normalise(label));
            out.push(Intent::OnTab { name: label.clone() });
            selects_a_tab = true;
        }
    }
    // "In the panel that appears, select the account": a dialog or panel the page does not name.
    let in_dialog = step
        .container
        .as_ref()
        .is_some_and(|c| matches!(c.kind, ContainerKind::Dialog | ContainerKind::Panel))
        || ["panel", "dialog box", "dialog"].iter().any(|kind| {
            step.text
                .to_lowercase()
                .starts_with(&format!("in the {kind} that appears"))
        });
    if in_dialog && let Some(id) = types_resource_name(&step.text) {
        out.push(Intent::TypeResourceName { id });
    }
    for label in &step.labels {
        let a_value = step.values.iter().any(|v| v.label.as_deref() == Some(label.as_str()));
        if step
            .text
            .to_lowercase()
            .contains(&format!("the {} step", label.to_lowercase()))
            && !a_value
        {
            out.push(Intent::InWizardStep { name: label.clone() });
        }
    }
    if step.actions.contains(&StepAction::SelectRegion) && step.values.is_empty() {
        out.push(Intent::Nothing {
            note: "the task fixes the region".into(),
        });
    }
    let lower = step.text.to_lowercase();
    // "search for and click Stop" (in the All Actions pane) searches for the control itself: no row.
    let finds_row =
        step.actions.contains(&StepAction::Find) && (lower.contains("find ") || !lower.contains("search for and "));
    let row = step.column.is_some() || lower.contains("actions column") || finds_row;
    if let Some(column) = &step.column {
        used.push(normalise(column));
    }
    if finds_row {
        out.push(Intent::FindRow);
    }
    // "Select one or more objects, and then select Batch operation > Delete": rows ticked, then a
    // menu of the list that acts on them.
    let ticks_rows = ["select one or more ", "select multiple "]
        .iter()
        .any(|p| lower.contains(p));
    if !step.menu_path.is_empty() {
        used.extend(step.menu_path.iter().map(|s| normalise(s)));
        if ticks_rows && !row && !lower.contains("navigation pane") {
            out.push(Intent::SelectRows);
            out.extend(step.menu_path.iter().map(|segment| Intent::Click {
                label: segment.clone(),
                row: false,
                confirm: false,
                batch: true,
            }));
        } else if row && !lower.contains("navigation pane") {
            // "choose ⋯ > Instance Status > Stop in the Actions column": a menu of the row.
            out.extend(step.menu_path.iter().map(|segment| Intent::Click {
                label: segment.clone(),
                row: true,
                confirm: false,
                batch: false,
            }));
        } else {
            out.push(Intent::Navigate {
                segments: step.menu_path.clone(),
                at: 0,
            });
        }
    }
    let selects = step.actions.contains(&StepAction::Select);
    let enters = step.actions.contains(&StepAction::Enter);
    for value in &step.values {
        // A value is written in bold too ("select **Aliyun_SM4** from …"): it is no label to find.
        used.push(normalise(&value.value));
        let Some(label) = &value.label else {
            if selects && !enters {
                // "select **Public Read**": an option named by itself (a radio button).
                out.push(Intent::Choose {
                    labels: vec![task.substitute(&value.value)],
                    value: None,
                    undocumented: false,
                });
            }
            continue;
        };
        used.push(normalise(label));
        let text = task.substitute(&value.value);
        if selects && !enters {
            out.push(Intent::Choose {
                labels: vec![label.clone()],
                value: Some(text),
                undocumented: false,
            });
        } else {
            out.push(Intent::Fill {
                label: label.clone(),
                value: text,
                undocumented: false,
            });
        }
    }
    // "Configure the following parameters" with a table under the step: each row that gives the
    // value to use ("In this example, web-vpc is used") is a field to set on this step's page.
    let table_fills_at = out.len();
    for row in own_parameters(step, task) {
        if used.contains(&normalise(&row.name)) {
            continue;
        }
        let Some(example) = &row.example else {
            used.push(normalise(&row.name));
            out.extend(fields_of_a_row(&row.name).into_iter().map(|label| Intent::SetIfRequired { label }));
            continue;
        };
        used.push(normalise(&row.name));
        out.push(Intent::Fill {
            label: row.name.clone(),
            value: task.substitute(example),
            undocumented: false,
        });
    }
    // "set the Bucket Name and Region", "enter a directory name in the Folder Name field": fields
    // the step has the reader fill in without saying with what.
    for label in &step.labels {
        if !used.contains(&normalise(label)) && set_without_value(&step.text, label, &step.labels) {
            used.push(normalise(label));
            out.push(Intent::Set { label: label.clone() });
        }
    }
    let tabled = !own_parameters(step, task).is_empty();
    // "Click Upload Object." right after a step that only fills a parameter table submits that
    // form.
    let submits_previous = {
        let steps = task.steps();
        steps
            .iter()
            .position(|s| s.number == step.number)
            .and_then(|at| at.checked_sub(1))
            .and_then(|before| steps.get(before))
            .is_some_and(|before| !own_parameters(before, task).is_empty())
    };
    let mut unused: Vec<String> = step
        .labels
        .iter()
        .filter(|l| !used.contains(&normalise(l)))
        .filter(|l| !names_a_section(&lower, l))
        .filter(|l| !step.mentions.contains(l))
        .cloned()
        .collect();
    // "keep **Enable Health Check** turned **On**": a switch and the state it is to be in.
    while let Some(at) = unused
        .iter()
        .position(|l| matches!(normalise(l).as_str(), "on" | "off"))
        .filter(|at| *at > 0)
    {
        let state = unused.remove(at);
        let switch = unused.remove(at - 1);
        out.push(Intent::Fill {
            label: switch,
            value: state,
            undocumented: false,
        });
    }
    let clicks = step.actions.contains(&StepAction::Click) || step.actions.contains(&StepAction::Confirm);
    // "select a VPC and a vSwitch, and then click Buy Now": the confirmation is a click even in a
    // step that also selects.
    let mut confirmations = Vec::new();
    let mut clicked_first = Vec::new();
    // "Enter the two consecutive verification codes …. Then, click Enable": what is entered, where
    // the page names neither the field nor the value, is submitted by the click, as a selection is.
    let enters_unnamed = enters && step.values.is_empty() && step.labels.len() == 1;
    if (selects || enters_unnamed) && clicks {
        // What the sentence clicks after it selects confirms the selection; a confirmation label
        // anywhere is one. "Click Bind Resource …, select ECS Instance" clicks before it selects.
        let (first_click, last_click) = (lower.find("click "), lower.rfind("click "));
        let select_at = lower.find("select ");
        let clicked_after = |label: &String| {
            crate::label::is_confirm_label(label)
                || last_click.is_some_and(|c| {
                    select_at.is_none_or(|s| c > s) && lower.rfind(&label.to_lowercase()).is_some_and(|p| p > c)
                })
        };
        let clicked_before = |label: &String| match (first_click, lower.find(&label.to_lowercase()), select_at) {
            (Some(c), Some(p), Some(s)) => c < p && p < s,
            _ => false,
        };
        confirmations = unused.iter().filter(|l| clicked_after(l)).cloned().collect();
        unused.retain(|l| !clicked_after(l));
        clicked_first = unused.iter().filter(|l| clicked_before(l)).cloned().collect();
        unused.retain(|l| !clicked_before(l));
    }
    let batch = !row
        && [
            "below the list",
            "above the list",
            "selected",
            "at the bottom of the list",
        ]
        .iter()
        .any(|p| lower.contains(p));
    // "In the Add User to Group panel, select the RAM user group": inside a dialog or panel the
    // choice is the form's, never the list's rows behind it.
    // "select the appropriate metric type from the drop-down menu": a menu's or a list's option.
    let from_drop_down = lower.contains("from the drop-down");
    if selects
        && step.values.is_empty()
        && unused.is_empty()
        && confirmations.is_empty()
        && lower.contains("select the")
        && !selects_a_tab
        && !in_dialog
        && !from_drop_down
        && !step.actions.contains(&StepAction::SelectRegion)
    {
        // "On the vSwitches page, select the vSwitches that you want to delete."
        out.push(Intent::SelectRows);
    } else if selects
        && !selects_a_tab
        && (in_dialog || from_drop_down)
        && step.values.is_empty()
        && unused.is_empty()
        && lower.contains("select the")
    {
        // "In the Add User to Group panel, select the RAM user group": the panel's list that
        // holds what the sentence selects, any of its options.
        out.push(Intent::Choose {
            labels: selected_objects(&step.text).take(1).map(str::to_owned).collect(),
            value: None,
            undocumented: false,
        });
    } else if selects && (enters || step.values.is_empty()) && !unused.is_empty() {
        // "select a zone from the Zone drop-down list", "from the vSwitch and Security Group
        // drop-down lists": an option in each. "…from the Instance ID drop-down list, and then
        // click Create Secret": the labels no list is named by are clicked after.
        let lists: Vec<&String> = unused.iter().filter(|l| names_a_list(&lower, l, &unused)).collect();
        let (chosen, clicked): (Vec<&String>, Vec<&String>) = if lists.is_empty() {
            (unused.iter().collect(), Vec::new())
        } else {
            unused.iter().partition(|l| lists.contains(l))
        };
        out.extend(chosen.into_iter().map(|label| Intent::Choose {
            labels: vec![label.clone()],
            value: None,
            undocumented: false,
        }));
        out.extend(clicked.into_iter().map(|label| Intent::Click {
            label: label.clone(),
            row: false,
            confirm: crate::label::is_confirm_label(label),
            batch: false,
        }));
    } else if step.actions.contains(&StepAction::Click) || step.actions.contains(&StepAction::Confirm) {
        let last = unused.len().saturating_sub(1);
        // "Click Configure in the Static Pages section. Configure the parameters listed in the
        // following table.": a click the sentence gives before the table opens the form it fills.
        let table_at = lower.find("following").filter(|_| tabled);
        let mut before_table = 0;
        let mut either_of_previous = false;
        for (i, label) in unused.iter().enumerate() {
            if std::mem::take(&mut either_of_previous) {
                continue;
            }
            // "click Enable Console Logon or Modify Logon Settings": one of two, as the page offers.
            if let Some(other) = unused.get(i + 1)
                && offered_either(&lower, label, other)
            {
                either_of_previous = true;
                out.push(Intent::ClickEither {
                    labels: vec![label.clone(), other.clone()],
                    row,
                });
                continue;
            }
            let opens_form = table_at.is_some_and(|t| lower.find(&label.to_lowercase()).is_some_and(|p| p < t));
            let click = Intent::Click {
                label: label.clone(),
                // "click Enable in the Actions column, …, and then click OK": the OK is the
                // dialog's, not the row's.
                row: row && !(i > 0 && crate::label::is_confirm_label(label)),
                // The click that ends a step with a parameter table (`Next`) submits its form as a
                // confirmation does: required fields first, field errors answered after.
                // The last click of a step in a dialog submits the dialog ("enter the name of the
                // RAM role and click Delete Role").
                confirm: crate::label::is_confirm_label(label)
                    || ((tabled || submits_previous || in_dialog) && i == last && !row && !opens_form),
                batch,
            };
            if opens_form {
                out.insert(table_fills_at + before_table, click);
                before_table += 1;
            } else {
                out.push(click);
            }
        }
    }
    if !clicked_first.is_empty() {
        // Before what the step selects or fills, after where it starts (page, tab, row).
        let at = out
            .iter()
            .position(|i| matches!(i, Intent::Choose { .. } | Intent::Fill { .. }))
            .unwrap_or(out.len());
        let first = clicked_first.into_iter().map(|label| Intent::Click {
            label,
            row,
            confirm: false,
            batch: false,
        });
        out.splice(at..at, first);
    }
    out.extend(confirmations.into_iter().map(|label| Intent::Click {
        label,
        row: false,
        // Submits what the step selected: field errors are answered after.
        confirm: true,
        batch: false,
    }));
    // "You can set one of the following ACLs for a bucket: - Private: … - Public Read: …": one of
    // the options described; the one already chosen does.
    let options: Vec<String> = step
        .mentions
        .iter()
        .filter(|l| !used.contains(&normalise(l)))
        .cloned()
        .collect();
    if lower.contains("one of the following") && step.alternatives.is_empty() && !options.is_empty() {
        // Chosen before the step's confirming click, wherever the sentence describes the options
        // ("Configure the trusted account and click OK. For Principal Name, choose one of …").
        let confirm_at = out
            .iter()
            .position(|i| matches!(i, Intent::Click { label, confirm, .. } if *confirm || crate::label::is_confirm_label(label)))
            .unwrap_or(out.len());
        out.insert(
            confirm_at,
            Intent::Choose {
                labels: options,
                value: None,
                undocumented: false,
            },
        );
    }
    if let Some(open_at) = opens_row(&lower, &step.labels) {
        // In the order the sentence gives: "click Buckets, and then click the name of the bucket".
        let later = |label: &str| lower.find(&label.to_lowercase()).is_some_and(|p| p > open_at);
        let at = out
            .iter()
            .position(|i| match i {
                Intent::Click { label, .. } | Intent::Fill { label, .. } => later(label),
                Intent::Choose { labels, .. } => labels.iter().any(|l| later(l)),
                _ => false,
            })
            .unwrap_or(out.len());
        out.insert(at, Intent::OpenRow);
        // "Click the ID of the target instance to visit the Basic Information page": the page is
        // where the click leads, checked once there.
        let destination = out
            .iter()
            .position(|i| matches!(i, Intent::OnPage { name } if sends_to_page(&lower, name, true).is_some()));
        if let (Some(page), Some(row)) = (destination, out.iter().position(|i| *i == Intent::OpenRow))
            && page < row
        {
            let on_page = out.remove(page);
            out.insert(row, on_page);
        }
    }
    in_sentence_order(&mut out, &lower);
    page_after_the_click_that_opens_it(&mut out, &lower);
    // "click the Files tab", "select the Visual Editor tab": opening the tab is what the step does.
    let opens_tab = |name: &str| {
        let name = name.to_lowercase();
        ["click", "select", "open"]
            .iter()
            .any(|verb| lower.contains(&format!("{verb} the {name} tab")))
    };
    let clicks_its_tab = step
        .container
        .as_ref()
        .is_some_and(|c| c.kind == ContainerKind::Tab && opens_tab(&c.name))
        || out.iter().any(|i| matches!(i, Intent::OnTab { name } if opens_tab(name)));
    // "In the panel that appears, enter a new password", "In the **Set Alert Contact** panel, enter
    // the name, email address, and webhook URL": fields named without bold. Words that hold a bold
    // label ("specify its **Region**") are that label's, already an intent of their own.
    if step.values.is_empty() && !tabled && out.iter().all(|i| !matches!(i, Intent::TypeResourceName { .. })) {
        let bold: Vec<String> = step.labels.iter().map(|l| l.to_lowercase()).collect();
        let plain = plainly_named_fields(&step.text)
            .into_iter()
            .filter(|name| !bold.iter().any(|b| name.contains(b.as_str()) || b.contains(name.as_str())));
        out.extend(plain.map(|label| Intent::SetPlainlyNamed { label }));
    }
    // "Go to the Renewal page": reaching the page is what the step does.
    let goes_to_its_page = out
        .iter()
        .any(|i| matches!(i, Intent::OnPage { name } if sends_to_page(&lower, name, false).is_some()));
    if !clicks_its_tab
        && !goes_to_its_page
        && out.iter().all(|i| {
            matches!(
                i,
                Intent::OnPage { .. } | Intent::OnTab { .. } | Intent::InWizardStep { .. }
            )
        })
    {
        out.push(match &step.container {
            Some(c) if c.kind == ContainerKind::Page && !step.substeps.is_empty() => Intent::Nothing {
                note: format!("done through its sub-steps on the {} page", c.name),
            },
            _ if !step.substeps.is_empty() => Intent::Nothing {
                note: "done through its sub-steps".into(),
            },
            _ if lower.contains("choose .") || lower.trim_end().ends_with("choose") => Intent::NothingToAct {
                reason: "the step's menu path is missing from its text (\"choose .\"): nothing to follow".into(),
            },
            _ if done_in_an_app(&lower) => Intent::NothingToAct {
                reason: "the step is done in an app on another device, not in the console".into(),
            },
            _ => Intent::NothingToAct {
                reason: "the step names no control, field or menu the agent could act on".into(),
            },
        });
    }
    out
}

/// The words that send the reader to a page: "Go to the Renewal page", "open the … buy page".
const TO_A_PAGE: &[&str] = &["go to the", "open the", "navigate to the", "visit the"];

/// Where `lower` sends the reader to the page `name` ("go to the renewal page"); with `by_a_click`,
/// only as where a click leads ("click X to go to the … page").
pub(super) fn sends_to_page(lower: &str, name: &str, by_a_click: bool) -> Option<usize> {
    let name = name.to_lowercase();
    let lead = if by_a_click { "to " } else { "" };
    TO_A_PAGE
        .iter()
        .filter_map(|verb| lower.find(&format!("{lead}{verb} {name} page")))
        .min()
}

/// "Click Go to RAM console to go to the Cloud Resource Access Authorization page": the page is
/// where the click leads, checked once there.
fn page_after_the_click_that_opens_it(out: &mut Vec<Intent>, lower: &str) {
    let Some((page_at, lead_at)) = out.iter().enumerate().find_map(|(i, intent)| match intent {
        Intent::OnPage { name } => sends_to_page(lower, name, true).map(|at| (i, at)),
        _ => None,
    }) else {
        return;
    };
    let click_at = out.iter().rposition(|intent| {
        matches!(intent, Intent::Click { label, .. }
            if lower[..lead_at].trim_end().ends_with(&label.to_lowercase()))
    });
    if let Some(click_at) = click_at.filter(|c| *c > page_at) {
        let on_page = out.remove(page_at);
        out.insert(click_at, on_page);
    }
}

/// Whether a step is carried out in an app on a phone ("Download and install the Google
/// Authenticator app on your mobile phone", "Open the Google Authenticator app and tap BEGIN
/// SETUP") rather than in a console.
fn done_in_an_app(lower_text: &str) -> bool {
    let names_an_app = lower_text.contains(" app ")
        || lower_text.contains(" app.")
        || lower_text.ends_with(" app")
        || lower_text.contains("mobile phone")
        || lower_text.contains("mobile device");
    names_an_app && !lower_text.contains("console")
}

/// Whether the sentence that names `label` places it in an app rather than the console: the first
/// place it names after the label ("in the Google Authenticator app", "on your mobile phone") is
/// not a console ("tab in the RAM console").
pub(super) fn in_another_app(text: &str, label: &str) -> bool {
    let lower = text.to_lowercase();
    let Some(at) = lower.find(&label.to_lowercase()) else {
        return false;
    };
    let rest = &lower[at + label.len()..];
    // The sentence ends at a full stop before a capital letter ("Scan the code. tab" goes on).
    let end = rest
        .char_indices()
        .find(|&(i, c)| c == '.' && text[at + label.len() + i + 1..].starts_with(' ') && {
            let after = text[at + label.len() + i + 1..].trim_start();
            after.is_empty() || after.starts_with(char::is_uppercase)
        })
        .map_or(rest.len(), |(i, _)| i);
    let sentence = &rest[..end];
    let app = ["app", "application", "mobile phone", "mobile device"]
        .iter()
        .filter_map(|thing| {
            sentence
                .match_indices(thing)
                .find(|(i, _)| {
                    // The app's name ends there: "Application Service console" is a console.
                    let after = &sentence[i + thing.len()..];
                    let ends = ["", ".", ",", ";", " and ", " to ", " on ", " then "]
                        .iter()
                        .any(|e| if e.is_empty() { after.is_empty() } else { after.starts_with(e) });
                    let before = &sentence[..*i];
                    ends && (before.contains(" in ") || before.contains(" on "))
                })
                .map(|(i, _)| i)
        })
        .min();
    let console = sentence.find(" console");
    app.is_some_and(|a| console.is_none_or(|c| a < c))
}

/// The fields a parameter table's row names: "**New Password** and **Confirm Password**" two, each
/// of several words; "Source and Destination Port" one.
fn fields_of_a_row(name: &str) -> Vec<String> {
    let parts: Vec<&str> = name.split(" and ").map(str::trim).collect();
    if parts.len() > 1 && parts.iter().all(|p| p.split_whitespace().count() >= 2) {
        parts.into_iter().map(str::to_owned).collect()
    } else {
        vec![name.to_owned()]
    }
}

/// What a step has the reader enter, where it names no field in bold: "enter the current password
/// and a new password" names "current password" and "new password". A sentence that says not to
/// ("You do not need to enter the old password") names nothing.
fn plainly_named_fields(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for sentence in lower.split(". ") {
        if sentence.contains(" not ") || sentence.contains("n't ") {
            continue;
        }
        let Some(at) = ["enter ", "specify "]
            .iter()
            .filter_map(|verb| {
                sentence
                    .match_indices(verb)
                    .find(|(i, _)| *i == 0 || sentence[..*i].ends_with([' ', ',']))
                    .map(|(i, _)| i + verb.len())
            })
            .min()
        else {
            continue;
        };
        let object = &sentence[at..];
        // "press Enter to confirm": the key, not a field. "Reset Custom Password: Enter a new
        // password": what an option does, not what to do. "enter the username and key, and then tap
        // the √ icon in the Google Authenticator app": a field of the app.
        if object.starts_with("to ") || sentence[..at].contains(':') || done_in_an_app(sentence) {
            continue;
        }
        let end = [".", ";", ":", "(", " for ", " in ", " to ", " that ", " which ", " of ", " on ", " from "]
            .iter()
            .filter_map(|stop| object.find(stop))
            .min()
            .unwrap_or(object.len());
        let named = |item: &str| -> Option<String> {
            let item = item.trim();
            let item = ["a ", "an ", "the ", "your ", "its "]
                .iter()
                .find_map(|article| item.strip_prefix(article))
                .unwrap_or(item);
            let words = item.split_whitespace().count();
            let plain = item.chars().all(|c| c.is_alphabetic() || c == ' ');
            // "then click OK": what follows the comma is the next thing to do, not a name.
            let first = item.split_whitespace().next().unwrap_or_default();
            let acts = ["then", "click", "select", "choose", "set", "enter", "specify", "configure", "turn", "open"];
            ((1..=3).contains(&words) && plain && !acts.contains(&first)).then(|| item.to_owned())
        };
        // "the name, email address, and webhook URL": a list of names when every item is one;
        // otherwise the comma ends the object ("enter a name, and then click OK").
        let object = &object[..end];
        fn parts(text: &str) -> Vec<&str> {
            text.split(" and ").flat_map(|i| i.split(" or ")).filter(|i| !i.trim().is_empty()).collect()
        }
        let listed: Option<Vec<String>> = object.split(',').flat_map(parts).map(named).collect();
        let items = listed
            .unwrap_or_else(|| parts(object.split(',').next().unwrap_or_default()).into_iter().filter_map(named).collect());
        for item in items {
            if !out.contains(&item) {
                out.push(item);
            }
        }
    }
    out
}

/// Whether a step has the reader type the resource's own name or id to confirm: `Some(false)` for
/// "enter the name of the RAM role", `Some(true)` for "enter the AccessKey ID".
fn types_resource_name(text: &str) -> Option<bool> {
    let lower = text.to_lowercase();
    if lower.contains("enter the name of the ") {
        return Some(false);
    }
    let at = lower.find("enter the ")? + "enter the ".len();
    let words: Vec<&str> = lower[at..]
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(4)
        .collect();
    words.iter().skip(1).any(|w| *w == "id").then_some(true)
}

/// "On the user details page, click the Authentication tab. In the AccessKey section, find the
/// target AccessKey pair and click Disable": a tab the sentence clicks is opened as a tab (never
/// looked for in the row), and the row is looked for where the sentence says "find", after what
/// comes before it.
fn in_sentence_order(out: &mut Vec<Intent>, lower: &str) {
    for intent in out.iter_mut() {
        if let Intent::Click { label, .. } = intent
            && lower.contains(&format!("the {} tab", label.to_lowercase()))
        {
            *intent = Intent::OnTab { name: label.clone() };
        }
    }
    let (Some(find_at), Some(row_at)) = (lower.find("find "), out.iter().position(|i| *i == Intent::FindRow)) else {
        return;
    };
    // Only a tab: a label clicked after the row is often named before it too ("Configure the
    // release. To release only one instance, find the instance … choose More > … > Release").
    let before_find = |i: &Intent| match i {
        Intent::OnTab { name } => lower
            .find(&format!("the {} tab", name.to_lowercase()))
            .is_some_and(|at| at < find_at),
        _ => false,
    };
    if let Some(last) = out.iter().rposition(before_find).filter(|last| *last > row_at) {
        let row = out.remove(row_at);
        out.insert(last, row);
    }
}

/// Where the step clicks the task's resource itself to open it ("click the name of the target
/// bucket", "click the ID of the CLB instance", "click the target instance ID", "find and click the
/// desired bucket"), if it does: the position of that "click" in `lower`.
fn opens_row(lower: &str, labels: &[String]) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = lower[from..].find("click ").map(|p| p + from) {
        from = p + "click ".len();
        let object = lower[from..].split(['.', ',', ';', '(', ':']).next().unwrap_or("");
        let end = [
            " to ", " and ", " in ", " on ", " that ", " which ", " whose ", " where ", " from ", " for ",
        ]
        .iter()
        .filter_map(|w| object.find(w))
        .min()
        .unwrap_or(object.len());
        // "click the project in which you want to query logs", "click the Logstore where logs are
        // stored": a resource told by what it is for.
        let described = [" in which ", " that you ", " which you ", " where ", " whose "]
            .iter()
            .any(|w| object[end..].starts_with(w));
        let object = object[..end].trim();
        if labels.iter().any(|l| object.contains(&l.to_lowercase())) {
            continue;
        }
        let words: Vec<&str> = object.split_whitespace().collect();
        let Some((first, rest)) = words.split_first() else {
            continue;
        };
        if !matches!(*first, "the" | "its") || rest.is_empty() {
            continue;
        }
        // "the username of the specific RAM user": whatever follows, the name of a resource.
        let name_of = matches!(rest[0], "name" | "id" | "username") && rest.get(1) == Some(&"of");
        let names_it = name_of
            || (described && rest.len() <= 2)
            || rest.len() <= 5
                && (matches!(rest.last(), Some(&("id" | "name" | "ids" | "names" | "username")))
                    || matches!(rest[0], "target" | "desired") && rest.len() <= 3);
        if names_it {
            return Some(p);
        }
    }
    None
}

/// What each "select …" of a sentence selects, in the page's words and without its article:
/// "select the RAM user group to which …" → `RAM user group`.
pub(super) fn selected_objects(sentence: &str) -> impl Iterator<Item = &str> {
    let lower = sentence.to_ascii_lowercase();
    let starts: Vec<usize> = lower
        .match_indices("select ")
        .map(|(at, verb)| at + verb.len())
        .collect();
    starts.into_iter().filter_map(move |at| {
        let rest = &sentence[at..];
        let clause = rest.split([',', '.', ';', ':', '(', ')']).next().unwrap_or("");
        let lower = clause.to_ascii_lowercase();
        let end = [" from ", " and ", " in ", " on ", " to ", " that ", " for "]
            .iter()
            .filter_map(|cut| lower.find(cut))
            .min()
            .unwrap_or(clause.len());
        let object = clause[..end].trim();
        let object = ["the ", "a ", "an "]
            .iter()
            .find_map(|article| {
                object
                    .get(..article.len())
                    .filter(|head| head.eq_ignore_ascii_case(article))
                    .map(|_| &object[article.len()..])
            })
            .unwrap_or(object);
        (!object.is_empty()).then_some(object)
    })
}

/// Whether the step has the reader fill in the field `label` without giving the value: it lies in
/// a clause that sets, specifies or enters ("set the Bucket Name and Region, and then click
/// Create", "enter a directory name in the Folder Name field").
fn set_without_value(text: &str, label: &str, labels: &[String]) -> bool {
    let lower = text.to_lowercase();
    let lower_text = lower.as_str();
    let written = label;
    let label = label.to_lowercase();
    let Some(at) = lower_text.find(&label) else {
        return false;
    };
    if field_then_verb(lower_text, at, &label) {
        return true;
    }
    let clause_start = list_start(lower_text, at, labels);
    let clause = &lower_text[clause_start..at];
    let verb = [
        "set the ",
        "specify the ",
        "configure the ",
        "enter ",
        "set a ",
        "specify a ",
        "specify ",
    ]
    .iter()
    .filter_map(|v| clause.rfind(v).map(|p| (p, v)))
    .filter(|(p, _)| *p == 0 || clause[..*p].ends_with(' '))
    .max_by_key(|(p, _)| *p);
    let Some((p, verb)) = verb else { return false };
    // "configure the listener": a thing the step works on, unless written as the label is.
    if *verb == "configure the " && text.get(at..at + label.len()) != Some(written) {
        return false;
    }
    let between = &clause[p + verb.len()..];
    // Another verb between ("enter the console, click Folder Name") or a value given ("set X to").
    let interrupted = ["click ", "select ", "choose ", "keep ", " to "]
        .iter()
        .any(|w| between.contains(w));
    let after = lower_text[at + label.len()..].trim_start();
    // "configure the Basic Settings section": a place, not a field.
    let a_place = ["to ", "page", "section", "tab", "step", "dialog", "panel", "wizard", "area"]
        .iter()
        .any(|place| after.starts_with(place));
    !interrupted && !a_place
}

/// Where the clause that names the label at `at` starts: after the last `.`, `;` or `,` before
/// it, reaching back over a list of the step's labels ("configure the Group Name, Display Name,
/// and Note parameters") to the item that holds the verb in front of the list.
fn list_start(lower_text: &str, at: usize, labels: &[String]) -> usize {
    let mut end = at;
    loop {
        let Some(separator) = lower_text[..end].rfind(['.', ';', ',']) else {
            return 0;
        };
        if lower_text.as_bytes()[separator] != b',' {
            return separator + 1;
        }
        let item_start = lower_text[..separator].rfind(['.', ';', ',']).map_or(0, |p| p + 1);
        let item = lower_text[item_start..separator].trim();
        let item = item.strip_prefix("and ").or_else(|| item.strip_prefix("or ")).unwrap_or(item);
        let names = |l: &String| item == l.to_lowercase();
        let ends_with = |l: &String| item.ends_with(&format!("the {}", l.to_lowercase()));
        if labels.iter().any(names) {
            end = item_start;
        } else if labels.iter().any(ends_with) {
            return item_start;
        } else {
            return separator + 1;
        }
    }
}

/// Whether the sentence names the field first and then has the reader fill it, with nothing given
/// to fill it with: "In the vServer Group Name field, enter a name for the vServer group."
fn field_then_verb(lower_text: &str, at: usize, label: &str) -> bool {
    if !lower_text[..at].ends_with("in the ") {
        return false;
    }
    let after = lower_text[at + label.len()..].trim_start();
    let Some(rest) = ["field", "box", "text box"].iter().find_map(|kind| after.strip_prefix(kind)) else {
        return false;
    };
    let rest = rest.trim_start_matches([',', ' ']);
    let clause = rest.split(['.', ';', ',']).next().unwrap_or_default();
    let verb = ["enter ", "specify ", "set "].iter().find_map(|v| clause.strip_prefix(v));
    // "enter web-01": a value of its own, which the parser gives as one.
    verb.is_some_and(|object| ["a ", "an ", "the "].iter().any(|a| object.starts_with(a)))
}

/// Whether the step's text uses `label` as the name of where it works ("in the **Basic
/// Configurations** step", "in the **VPC** section", "of the **Alert Rules** page") or of a field
/// it leaves as it is ("keep the default value in the **Deletion Period** field"), not as a
/// control to click.
fn names_a_section(lower_text: &str, label: &str) -> bool {
    let label = label.to_lowercase();
    let section = ["step", "section", "area", "field", "column"]
        .iter()
        .any(|place| lower_text.contains(&format!("the {label} {place}")));
    // "On the Threshold Value Alert tab of the Alert Rules page": where the step is, unless the
    // step clicks it ("click the Alert Contact Group tab").
    let clicked = ["click ", "click the ", "choose ", "open the ", "go to the "]
        .iter()
        .any(|verb| lower_text.contains(&format!("{verb}{label}")));
    let place = ["page", "tab", "message", "dialog box"]
        .iter()
        .any(|place| lower_text.contains(&format!("the {label} {place}")));
    section || (place && !clicked)
}

/// The rows of the parameter tables that belong to `step` (inside it or right after it).
pub fn own_parameters<'t>(step: &Step, task: &'t Task) -> Vec<&'t aca_core::Parameter> {
    task.procedure
        .parameters
        .iter()
        .filter(|t| t.step.as_deref() == Some(step.number.as_str()))
        .flat_map(|t| &t.rows)
        .collect()
}

/// The section names a step mentions besides its targets (`In the vSwitch section, set Name …`):
/// fields inside a place named like one of them are preferred.
pub fn sections(step: &Step) -> Vec<String> {
    let targets: Vec<String> = step
        .values
        .iter()
        .filter_map(|v| v.label.as_deref())
        .map(normalise)
        .collect();
    step.labels
        .iter()
        .filter(|l| !targets.contains(&normalise(l)))
        .cloned()
        .collect()
}

/// Whether the sentence names `label` as a drop-down list: "the Zone drop-down list", "the vSwitch
/// and Security Group drop-down lists".
fn names_a_list(lower: &str, label: &str, labels: &[String]) -> bool {
    let label = label.to_lowercase();
    lower.match_indices(&label).any(|(at, _)| {
        let rest = lower[at + label.len()..].trim_start();
        rest.starts_with("drop-down list")
            || rest.strip_prefix("and ").is_some_and(|rest| {
                labels.iter().any(|other| {
                    rest.strip_prefix(&other.to_lowercase())
                        .is_some_and(|r| r.trim_start().starts_with("drop-down list"))
                })
            })
    })
}

/// Whether the step offers `a` or `b` as a choice: "A or B", "A, or B", or each with what it is
/// for ("click Edit Auto Renewal to change the cycle, or Enable Manual Renewal to disable
/// auto-renewal"), within one sentence. `lower` is the step's text in lower case.
fn offered_either(lower: &str, a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let Some(start) = lower.find(&a) else {
        return false;
    };
    let after = &lower[start + a.len()..];
    let Some(end) = after.find(&b) else {
        return false;
    };
    let gap = after[..end].trim();
    if gap.contains('.') {
        return false;
    }
    gap == "or" || gap == ", or" || (gap.starts_with("to ") && gap.ends_with(", or"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aca_core::{Container, FieldValue};

    fn step(text: &str, labels: &[&str], actions: Vec<StepAction>) -> Step {
        Step {
            number: "1".into(),
            text: text.into(),
            labels: labels.iter().map(|l| l.to_string()).collect(),
            actions,
            ..Step::default()
        }
    }

    #[test]
    fn two_controls_with_what_each_is_for_are_a_choice() {
        let s = step(
            "In the Actions column, click Edit Auto Renewal to change the cycle, or Enable Manual Renewal to disable auto-renewal.",
            &["Actions", "Edit Auto Renewal", "Enable Manual Renewal"],
            vec![StepAction::Click],
        );
        let found = intents(&s, &Task::default());
        assert!(
            found.iter().any(|i| matches!(i, Intent::ClickEither { labels, .. }
                if labels == &["Edit Auto Renewal".to_owned(), "Enable Manual Renewal".to_owned()])),
            "{found:?}"
        );
        let lower = "click a to start. then click b.";
        assert!(!offered_either(lower, "a", "b"));
        assert!(offered_either("click a, or b.", "a", "b"));
        assert!(!offered_either("click a and b.", "a", "b"));
    }

    #[test]
    fn a_click_on_a_page_targets_the_label_that_is_not_the_page() {
        let mut s = step(
            "On the VPCs page, click Create VPC.",
            &["VPCs", "Create VPC"],
            vec![StepAction::Click],
        );
        s.container = Some(Container {
            kind: ContainerKind::Page,
            name: "VPCs".into(),
        });
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::OnPage { name: "VPCs".into() },
                Intent::Click {
                    label: "Create VPC".into(),
                    row: false,
                    confirm: false,
                    batch: false
                }
            ]
        );
    }

    #[test]
    fn a_step_that_names_nothing_to_act_on_is_passed_over_unverified() {
        let vague = step("Check the settings and continue.", &[], vec![]);
        assert!(matches!(
            intents(&vague, &Task::default()).as_slice(),
            [Intent::NothingToAct { .. }]
        ));
        let mut parent = step("Configure the listener.", &[], vec![]);
        parent.substeps = vec![step("Click Next.", &["Next"], vec![StepAction::Click])];
        assert!(matches!(
            intents(&parent, &Task::default()).as_slice(),
            [Intent::Nothing { .. }]
        ));
    }

    #[test]
    fn a_steps_closing_click_comes_after_its_sub_steps() {
        let p = aca_docs::parse_markdown(
            "# CLB:Configure a CLB instance\n\n## Procedure\n\n\
             1. In the **Protocol and Listener** step, configure the following parameters. Use the default settings for other parameters. Click **Next**.\n   \
             1. **Listener Name**: Enter a name for the listener.\n   \
             2. **Advanced**: Click **Modify** to configure the advanced settings.\n\
             2. On the **VPCs** page, click **Create VPC**.\n   \
             1. Enter a name.\n",
        )
        .unwrap();
        let task = Task::new(p.clone());
        let steps: Vec<Step> = task.steps().into_iter().cloned().collect();
        let next = Intent::Click {
            label: "Next".into(),
            row: false,
            confirm: false,
            batch: false,
        };
        let clicks_next = |at: usize| intents_at(&steps, at, &task).iter().filter(|i| **i == next).count();
        assert_eq!(steps[0].number, "1");
        assert_eq!(intents(&steps[0], &task).last(), Some(&next), "the step itself ends on Next");
        assert_eq!((clicks_next(0), clicks_next(1), clicks_next(2)), (0, 0, 1));
        assert_eq!(intents_at(&steps, 2, &task).last(), Some(&next), "after the last sub-step's own work");
        // A step that opens what its sub-steps fill keeps its click first.
        let create = intents_at(&steps, 3, &task);
        assert!(create.iter().any(|i| matches!(i, Intent::Click { label, .. } if label == "Create VPC")), "{create:?}");
        assert!(!intents_at(&steps, 4, &task).iter().any(|i| matches!(i, Intent::Click { label, .. } if label == "Create VPC")));
    }

    #[test]
    fn a_resource_told_by_what_it_is_for_is_opened_from_its_row() {
        for text in [
            "In the Projects section, click the project in which you want to query and analyze logs.",
            "On the Logstores tab, click the Logstore where logs are stored.",
            "Click the instance that you want to manage.",
        ] {
            assert!(opens_row(&text.to_lowercase(), &[]).is_some(), "{text}");
        }
        assert!(opens_row("click the button in the dialog box.", &[]).is_none());
    }

    #[test]
    fn a_tab_the_sentence_clicks_comes_before_the_row_it_then_finds() {
        let p = aca_docs::parse_markdown(
            "# RAM:Disable an AccessKey pair\n\n## Procedure\n\n\
             1. On the user details page, click the **Authentication** tab. In the **AccessKey** section, find the target AccessKey pair and click **Disable** in the **Actions** column.\n",
        )
        .unwrap();
        let got = intents(&p.steps[0], &Task::new(p.clone()));
        let at = |wanted: &Intent| got.iter().position(|i| i == wanted).unwrap_or(usize::MAX);
        let tab = at(&Intent::OnTab {
            name: "Authentication".into(),
        });
        assert!(tab < at(&Intent::FindRow), "{got:?}");
        assert!(
            !got.iter()
                .any(|i| matches!(i, Intent::Click { label, .. } if label == "Authentication"))
        );
        // A label named before "find" but clicked after the row keeps its place.
        let p = aca_docs::parse_markdown(
            "# ECS:Release an instance\n\n## Procedure\n\n\
             1. Configure the release. Find the instance that you want to release and choose **More** > **Instance Status** > **Release** in the **Actions** column.\n",
        )
        .unwrap();
        let got = intents(&p.steps[0], &Task::new(p.clone()));
        assert_eq!(got.first(), Some(&Intent::FindRow), "{got:?}");
    }

    #[test]
    fn a_step_that_opens_a_console_and_then_the_resource_does_both() {
        let visit = step(
            "Visit the RDS instance list, select a region at the top, and then click the target instance ID.",
            &[],
            vec![StepAction::OpenConsole, StepAction::SelectRegion, StepAction::Click],
        );
        let got = intents(&visit, &Task::default());
        assert!(got.contains(&Intent::OpenRow), "{got:?}");
    }

    #[test]
    fn a_step_that_opens_a_console_and_goes_on_there_does_both() {
        let mut alone = step("Log on to the OSS console.", &[], vec![StepAction::OpenConsole]);
        alone.opens_console = Some("OSS".into());
        assert_eq!(
            intents(&alone, &Task::default()),
            vec![Intent::InConsole { name: "OSS".into() }]
        );
        let mut on = step(
            "On the Buckets page of the OSS console, click Create Bucket.",
            &["Buckets", "Create Bucket"],
            vec![StepAction::OpenConsole, StepAction::Click],
        );
        on.opens_console = Some("OSS".into());
        on.container = Some(Container {
            kind: ContainerKind::Page,
            name: "Buckets".into(),
        });
        assert_eq!(
            intents(&on, &Task::default()),
            vec![
                Intent::InConsole { name: "OSS".into() },
                Intent::OnPage { name: "Buckets".into() },
                Intent::Click {
                    label: "Create Bucket".into(),
                    row: false,
                    confirm: false,
                    batch: false
                }
            ]
        );
    }

    #[test]
    fn values_become_fills_and_an_unnamed_select_chooses_among_the_other_labels() {
        let mut s = step(
            "In the vSwitch section, set Name to web-vsw-1 and select a zone from the Zone drop-down list.",
            &["vSwitch", "Name", "Zone"],
            vec![StepAction::Enter, StepAction::Select],
        );
        s.values = vec![FieldValue {
            label: Some("Name".into()),
            value: "web-vsw-${suffix}".into(),
        }];
        let mut task = Task::default();
        task.bindings.insert("suffix".into(), "1".into());
        assert_eq!(
            intents(&s, &task),
            vec![
                Intent::Fill {
                    label: "Name".into(),
                    value: "web-vsw-1".into(),
                    undocumented: false
                },
                // "the vSwitch section" is where the select is, not a select of its own.
                Intent::Choose {
                    labels: vec!["Zone".into()],
                    value: None,
                    undocumented: false
                }
            ]
        );
        assert_eq!(sections(&s), vec!["vSwitch".to_string(), "Zone".to_string()]);
    }

    #[test]
    fn fields_the_step_sets_without_a_value_are_given_one() {
        let mut s = step(
            "In the Create Bucket panel, set the Bucket Name and Region, and then click Create.",
            &["Create Bucket", "Bucket Name", "Region", "Create"],
            vec![StepAction::Configure, StepAction::Click],
        );
        s.container = Some(Container {
            kind: ContainerKind::Panel,
            name: "Create Bucket".into(),
        });
        let set = |label: &str| Intent::Set { label: label.into() };
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::InModal {
                    name: "Create Bucket".into()
                },
                set("Bucket Name"),
                set("Region"),
                Intent::Click {
                    label: "Create".into(),
                    row: false,
                    confirm: true,
                    batch: false
                }
            ]
        );
        let folder = step(
            "In the Create Folder panel, enter a directory name in the Folder Name field.",
            &["Create Folder", "Folder Name"],
            vec![StepAction::Enter],
        );
        assert!(intents(&folder, &Task::default()).contains(&set("Folder Name")));
        let kept = step(
            "Keep the default value in the Deletion Period field and click OK.",
            &["Deletion Period", "OK"],
            vec![StepAction::Click],
        );
        assert!(!intents(&kept, &Task::default()).contains(&set("Deletion Period")));
    }

    #[test]
    fn each_field_of_a_list_the_step_configures_is_given_a_value() {
        // create-user-group.md (2024-05-06), step 4; grant-permissions-to-user.md, step 4.1.
        let set = |label: &str| Intent::Set { label: label.into() };
        let mut group = step(
            "On the Create Group page, configure the Group Name, Display Name, and Note parameters.",
            &["Create Group", "Group Name", "Display Name", "Note"],
            vec![StepAction::Configure],
        );
        group.container = Some(Container {
            kind: ContainerKind::Page,
            name: "Create Group".into(),
        });
        let got = intents(&group, &Task::default());
        assert_eq!(
            got,
            vec![
                Intent::OnPage {
                    name: "Create Group".into()
                },
                set("Group Name"),
                set("Display Name"),
                set("Note"),
            ]
        );
        let scope = step(
            "Configure the Resource Scope parameter.",
            &["Resource Scope"],
            vec![StepAction::Configure],
        );
        assert_eq!(intents(&scope, &Task::default()), vec![set("Resource Scope")]);
        // A list that no verb heads, and a section the step configures, set nothing.
        let listed = step(
            "The Group Name, Display Name, and Note parameters are shown.",
            &["Group Name", "Display Name", "Note"],
            vec![],
        );
        assert!(!intents(&listed, &Task::default()).iter().any(|i| matches!(i, Intent::Set { .. })));
        let listener = step(
            "Find the target instance and choose one of the following methods to configure the listener: click Configure Listener.",
            &["Listener", "Configure Listener"],
            vec![StepAction::Click],
        );
        assert!(!intents(&listener, &Task::default()).contains(&set("Listener")));
        let section = step(
            "Configure the Basic Settings section.",
            &["Basic Settings"],
            vec![StepAction::Configure],
        );
        assert!(!intents(&section, &Task::default()).contains(&set("Basic Settings")));
    }

    #[test]
    fn fields_a_step_names_without_bold_are_set_where_the_page_shows_them() {
        // change-password.md (tair, 2026-03-11), "Reset the password", step 4.
        let reset = step(
            "In the panel that appears, enter a new password. You do not need to enter the old password.",
            &[],
            vec![StepAction::Enter],
        );
        assert_eq!(
            intents(&reset, &Task::default()),
            vec![Intent::SetPlainlyNamed {
                label: "new password".into()
            }]
        );
        assert_eq!(
            plainly_named_fields(
                "In the panel that appears, select the account for which you want to change the password \
                 and enter the current password and a new password."
            ),
            vec!["current password".to_string(), "new password".to_string()]
        );
        assert!(plainly_named_fields("Enter 192.168.0.1/24 in the box.").is_empty());
        assert!(plainly_named_fields("Read the prompt and click nothing.").is_empty());
        assert!(plainly_named_fields("Press Enter to confirm the search.").is_empty());
        // create-alert-contact.md (CloudMonitor), step 4: a list in plain words beside bold labels.
        let contact = step(
            "In the Set Alert Contact panel, enter the name, email address, and webhook URL of the alert contact. \
             Make sure that the Language of Alert Notifications parameter is set to the default value Automatic.",
            &["Set Alert Contact", "Language of Alert Notifications"],
            vec![StepAction::Enter],
        );
        let plain: Vec<Intent> = intents(&contact, &Task::default())
            .into_iter()
            .filter(|i| matches!(i, Intent::SetPlainlyNamed { .. }))
            .collect();
        let named = |label: &str| Intent::SetPlainlyNamed { label: label.into() };
        assert_eq!(plain, vec![named("name"), named("email address"), named("webhook url")]);
        // reset-user-password.md (RAM), step 5: an option's description; enable-mfa.md, step 8: the app's fields.
        assert!(plainly_named_fields("Reset Custom Password: Enter a new password.").is_empty());
        assert!(
            plainly_named_fields("Tap Manual entry, enter the username and key, and then tap the √ icon in the Google Authenticator app.")
                .is_empty()
        );
        // A comma that ends the object rather than listing names.
        assert_eq!(plainly_named_fields("Enter a name, and then click OK."), vec!["name".to_string()]);
        // Words that hold a bold label are that label's.
        let region = step(
            "From the list, select the desired SSL certificate and specify its Region.",
            &["Region"],
            vec![StepAction::Select],
        );
        assert!(!intents(&region, &Task::default()).iter().any(|i| matches!(i, Intent::SetPlainlyNamed { .. })));
    }

    #[test]
    fn a_step_done_in_an_app_on_the_phone_says_so() {
        // enable-mfa.md (RAM), steps 6 and 7.
        for text in [
            "Download and install the Google Authenticator app on your mobile phone.",
            "Open the Google Authenticator app and tap BEGIN SETUP.",
        ] {
            let got = intents(&step(text, &[], vec![]), &Task::default());
            assert_eq!(
                got,
                vec![Intent::NothingToAct {
                    reason: "the step is done in an app on another device, not in the console".into()
                }],
                "{text}"
            );
        }
        let lost = step("In the left-side navigation pane, choose .", &[], vec![]);
        assert!(matches!(
            &intents(&lost, &Task::default())[..],
            [Intent::NothingToAct { reason }] if reason.contains("menu path is missing")
        ));
        let console = step("Open the Application Service console.", &[], vec![]);
        assert!(matches!(
            &intents(&console, &Task::default())[..],
            [Intent::NothingToAct { reason }] if reason.contains("names no control")
        ));
    }

    #[test]
    fn the_page_a_click_goes_to_is_checked_after_the_click() {
        // first-use-authorization.md (ACK), Step 2 › 2.
        let mut s = step(
            "Click Go to RAM console to go to the Cloud Resource Access Authorization page. Then, click Confirm Authorization Policy.",
            &["Go to RAM console", "Cloud Resource Access Authorization", "Confirm Authorization Policy"],
            vec![StepAction::Click],
        );
        s.container = Some(Container {
            kind: ContainerKind::Page,
            name: "Cloud Resource Access Authorization".into(),
        });
        let click = |label: &str| Intent::Click {
            label: label.into(),
            row: false,
            confirm: false,
            batch: false,
        };
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                click("Go to RAM console"),
                Intent::OnPage {
                    name: "Cloud Resource Access Authorization".into()
                },
                click("Confirm Authorization Policy"),
            ]
        );
    }

    #[test]
    fn a_table_row_that_names_two_fields_describes_both() {
        assert_eq!(
            fields_of_a_row("New Password and Confirm Password"),
            vec!["New Password".to_string(), "Confirm Password".to_string()]
        );
        assert_eq!(
            fields_of_a_row("Source and Destination Port"),
            vec!["Source and Destination Port".to_string()]
        );
        assert_eq!(fields_of_a_row("Logon Username"), vec!["Logon Username".to_string()]);
    }

    #[test]
    fn a_step_that_goes_to_a_page_is_done_by_reaching_it() {
        // enable-auto-renewal.md (tair), "Adjust the auto-renewal cycle", step 1.
        let mut go = step("Go to the Renewal page.", &["Renewal"], vec![]);
        go.container = Some(Container {
            kind: ContainerKind::Page,
            name: "Renewal".into(),
        });
        assert_eq!(
            intents(&go, &Task::default()),
            vec![Intent::OnPage {
                name: "Renewal".into()
            }]
        );
        let mut on = step("The Renewal page lists the instances.", &["Renewal"], vec![]);
        on.container = go.container.clone();
        assert!(intents(&on, &Task::default()).iter().any(|i| matches!(i, Intent::NothingToAct { .. })));
    }

    #[test]
    fn a_field_named_before_the_verb_that_fills_it_is_given_a_value() {
        // create-vserver-group.md (2023-09-26), step 5.1, as the parser reads it.
        let procedure = aca_docs::parse_markdown(
            "# Create and manage a vServer group\n\n## Procedure\n\n\
             1. On the **Create vServer Group** page, configure the following parameters:\n   \
             1. In the **vServer Group Name** field, enter a name for the vServer group.\n",
        )
        .expect("the page parses");
        let s = procedure.steps[0]
            .flatten()
            .into_iter()
            .find(|s| s.text.starts_with("In the vServer Group Name field"))
            .expect("the sub-step parses")
            .clone();
        let got = intents(&s, &Task::default());
        assert!(got.contains(&Intent::Set { label: "vServer Group Name".into() }), "{got:?}");
        let kept = step(
            "In the Deletion Period field, keep the default value.",
            &["Deletion Period"],
            vec![StepAction::Configure],
        );
        assert!(!intents(&kept, &Task::default()).contains(&Intent::Set { label: "Deletion Period".into() }));
    }

    #[test]
    fn a_click_given_before_the_parameter_table_opens_the_form_it_fills() {
        let mut s = step(
            "Click Configure in the Static Pages section. Configure the parameters listed in the following table.",
            &["Configure", "Static Pages"],
            vec![StepAction::Click, StepAction::Configure],
        );
        s.number = "3".into();
        let mut task = Task::default();
        task.procedure.parameters = vec![aca_core::ParameterTable {
            step: Some("3".into()),
            rows: vec![aca_core::Parameter {
                name: "Default Homepage".into(),
                example: Some("index.html".into()),
                ..aca_core::Parameter::default()
            }],
        }];
        assert_eq!(
            intents(&s, &task),
            vec![
                Intent::Click {
                    label: "Configure".into(),
                    row: false,
                    confirm: false,
                    batch: false
                },
                Intent::Fill {
                    label: "Default Homepage".into(),
                    value: "index.html".into(),
                    undocumented: false
                }
            ]
        );
    }

    #[test]
    fn a_page_a_click_leads_to_is_checked_after_the_click() {
        let mut s = step(
            "Click the ID of the target instance to visit the Basic Information page.",
            &["Basic Information"],
            vec![StepAction::Click],
        );
        s.container = Some(Container {
            kind: ContainerKind::Page,
            name: "Basic Information".into(),
        });
        assert_eq!(
            intents(&s, &Task::default()),
            [
                Intent::OpenRow,
                Intent::OnPage {
                    name: "Basic Information".into()
                }
            ]
        );
    }

    #[test]
    fn the_ok_after_a_row_action_is_the_dialogs() {
        let mut s = step(
            "Find the required key, click Enable in the Actions column, configure the parameters, and then click OK.",
            &["Enable", "OK"],
            vec![StepAction::Find, StepAction::Click],
        );
        s.column = Some("Actions".into());
        let clicks: Vec<(String, bool)> = intents(&s, &Task::default())
            .into_iter()
            .filter_map(|i| match i {
                Intent::Click { label, row, .. } => Some((label, row)),
                _ => None,
            })
            .collect();
        assert_eq!(clicks, [("Enable".to_owned(), true), ("OK".to_owned(), false)]);
    }

    #[test]
    fn selecting_inside_a_panel_is_the_forms_choice_not_the_lists_rows() {
        let mut s = step(
            "In the Add User to Group panel, select the RAM user group to which you want to add the RAM user.",
            &["Add User to Group"],
            vec![StepAction::Select],
        );
        s.container = Some(Container {
            kind: ContainerKind::Panel,
            name: "Add User to Group".into(),
        });
        assert_eq!(
            intents(&s, &Task::default()).last(),
            Some(&Intent::Choose {
                labels: vec!["RAM user group".into()],
                value: None,
                undocumented: false
            })
        );
        let list = step(
            "Select the RAM user groups that you want to delete.",
            &[],
            vec![StepAction::Select],
        );
        assert!(intents(&list, &Task::default()).contains(&Intent::SelectRows));
        // An option of a drop-down menu is the menu's, not a list's row.
        let menu = step(
            "Click Add Rule and select the appropriate metric type from the drop-down menu.",
            &["Add Rule"],
            vec![StepAction::Click, StepAction::Select],
        );
        let got = intents(&menu, &Task::default());
        assert!(!got.contains(&Intent::SelectRows), "{got:?}");
        assert!(matches!(got.last(), Some(Intent::Choose { .. })), "{got:?}");
        // "select the X tab" opens the tab.
        let tab = step(
            "On the Create Policy page, select the Visual Editor tab.",
            &["Create Policy", "Visual Editor"],
            vec![StepAction::Select],
        );
        let got = intents(&tab, &Task::default());
        assert!(got.contains(&Intent::OnTab { name: "Visual Editor".into() }), "{got:?}");
        assert!(!got.contains(&Intent::SelectRows), "{got:?}");
        // Opening the tab is what the step does: something to act on.
        assert!(!got.iter().any(|i| matches!(i, Intent::NothingToAct { .. })), "{got:?}");
        // A panel the page does not name is a panel too.
        let unnamed = step(
            "In the panel that appears, select the account for which you want to change the password.",
            &[],
            vec![StepAction::Select],
        );
        assert_eq!(
            intents(&unnamed, &Task::default()).last(),
            Some(&Intent::Choose {
                labels: vec!["account".into()],
                value: None,
                undocumented: false
            })
        );
    }

    #[test]
    fn a_menu_chosen_after_ticking_rows_acts_on_them() {
        let mut s = step(
            "Select one or more objects, and then select Batch operation > Delete.",
            &["Batch operation", "Delete"],
            vec![StepAction::Select],
        );
        s.menu_path = vec!["Batch operation".into(), "Delete".into()];
        let batch = |label: &str| Intent::Click {
            label: label.into(),
            row: false,
            confirm: false,
            batch: true,
        };
        assert_eq!(
            intents(&s, &Task::default()),
            vec![Intent::SelectRows, batch("Batch operation"), batch("Delete")]
        );
    }

    #[test]
    fn the_button_that_opens_the_dialog_a_step_works_in_is_clicked_first() {
        let mut s = step(
            "Click Create Rule. In the Create Rule dialog box, configure the following parameters.",
            &["Create Rule", "Create Rule"],
            vec![StepAction::Click, StepAction::Configure],
        );
        s.container = Some(Container {
            kind: ContainerKind::Dialog,
            name: "Create Rule".into(),
        });
        assert_eq!(
            intents(&s, &Task::default())[..2],
            [
                Intent::Click {
                    label: "Create Rule".into(),
                    row: false,
                    confirm: false,
                    batch: false
                },
                Intent::InModal {
                    name: "Create Rule".into()
                }
            ]
        );
    }

    #[test]
    fn a_wizard_step_named_by_the_step_is_no_click_target() {
        let mut s = step(
            "On the buy page, configure the parameters in the Basic Configurations step and click Next.",
            &["Basic Configurations", "Next"],
            vec![StepAction::Click],
        );
        s.number = "5".into();
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::InWizardStep {
                    name: "Basic Configurations".into()
                },
                Intent::Click {
                    label: "Next".into(),
                    row: false,
                    confirm: false,
                    batch: false
                }
            ]
        );
    }

    #[test]
    fn a_confirmation_in_a_step_that_also_selects_is_clicked() {
        let s = step(
            "In the Network step, select a VPC and a vSwitch, and then click Buy Now.",
            &["Network", "Buy Now"],
            vec![StepAction::Select, StepAction::Click],
        );
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::InWizardStep { name: "Network".into() },
                Intent::Click {
                    label: "Buy Now".into(),
                    row: false,
                    confirm: true,
                    batch: false
                }
            ]
        );
    }

    #[test]
    fn a_step_on_a_tab_opens_the_tab_first() {
        let mut s = step(
            "On the DNS Settings tab, find the record and click Delete in the Actions column.",
            &["DNS Settings", "Delete", "Actions"],
            vec![StepAction::Find, StepAction::Click],
        );
        s.container = Some(Container {
            kind: ContainerKind::Tab,
            name: "DNS Settings".into(),
        });
        s.column = Some("Actions".into());
        let derived = intents(&s, &Task::default());
        assert_eq!(
            derived[..2],
            [
                Intent::OnTab {
                    name: "DNS Settings".into()
                },
                Intent::FindRow
            ]
        );
    }

    #[test]
    fn searching_a_pane_for_a_control_looks_for_no_row() {
        let s = step(
            "Click All Actions in the upper-right corner, then search for and click Stop.",
            &["All Actions", "Stop"],
            vec![StepAction::Click, StepAction::Find],
        );
        let derived = intents(&s, &Task::default());
        assert!(!derived.contains(&Intent::FindRow), "{derived:?}");
        assert!(
            derived.iter().all(|i| !matches!(i, Intent::Click { row: true, .. })),
            "{derived:?}"
        );
        assert!(
            derived
                .iter()
                .any(|i| matches!(i, Intent::Click { label, .. } if label == "Stop"))
        );
    }

    #[test]
    fn each_drop_down_list_named_gets_an_option_before_the_click() {
        let s = step(
            "In the Networking step, select the vSwitch and the security group from the vSwitch and Security Group drop-down lists, and click Next.",
            &["Networking", "vSwitch", "Security Group", "Next"],
            vec![StepAction::Select, StepAction::Click],
        );
        let choose = |label: &str| Intent::Choose {
            labels: vec![label.into()],
            value: None,
            undocumented: false,
        };
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::InWizardStep {
                    name: "Networking".into()
                },
                choose("vSwitch"),
                choose("Security Group"),
                Intent::Click {
                    label: "Next".into(),
                    row: false,
                    confirm: true,
                    batch: false
                }
            ]
        );
    }

    #[test]
    fn a_switch_and_its_state_are_one_setting() {
        let s = step(
            "In the Health Check step, keep Enable Health Check turned On and click Next.",
            &["Health Check", "Enable Health Check", "On", "Next"],
            vec![StepAction::Click],
        );
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::InWizardStep {
                    name: "Health Check".into()
                },
                Intent::Fill {
                    label: "Enable Health Check".into(),
                    value: "On".into(),
                    undocumented: false
                },
                Intent::Click {
                    label: "Next".into(),
                    row: false,
                    confirm: false,
                    batch: false
                }
            ]
        );
    }

    #[test]
    fn clicking_the_resource_itself_opens_it_from_its_row() {
        let opens = |text: &str, labels: &[&str]| {
            let labels: Vec<String> = labels.iter().map(|l| l.to_string()).collect();
            opens_row(&text.to_lowercase(), &labels).is_some()
        };
        assert!(opens(
            "Click Buckets, and then click the name of the target bucket.",
            &["Buckets"]
        ));
        assert!(opens(
            "On the Buckets page, click the name of the bucket in which you want to create a directory.",
            &["Buckets"]
        ));
        assert!(opens(
            "On the Instances page, click the ID of the CLB instance.",
            &["Instances"]
        ));
        assert!(opens("Find the target instance and click the instance ID.", &[]));
        assert!(opens(
            "On the Users page, click the username of the specific RAM user whose information you want to modify.",
            &["Users"]
        ));
        assert!(opens(
            "Visit the RDS instance list, select a region at the top, and then click the target instance ID.",
            &[]
        ));
        assert!(opens(
            "On the Buckets page, find and click the desired bucket.",
            &["Buckets"]
        ));
        assert!(!opens(
            "Click the Generic Secrets tab, and then click Create Secret.",
            &["Generic Secrets", "Create Secret"]
        ));
        assert!(!opens("Click Create Bucket.", &["Create Bucket"]));
        assert!(!opens(
            "Select the required instance ID from the Instance ID drop-down list.",
            &["Instance ID"]
        ));
        assert!(!opens("In the upper-right corner of the page, click the icon.", &[]));
    }

    #[test]
    fn a_list_named_in_the_step_is_chosen_and_its_other_labels_clicked() {
        // create-secret.md (2025-03-18), step 2, as the parser reads it.
        let procedure = aca_docs::parse_markdown(
            "# Manage secrets\n\n## Procedure\n\n\
             1. Click the **Generic Secrets** tab, select the required instance ID from the **Instance ID** \
             drop-down list, and then click **Create Secret**. In the panel that appears, configure \
             parameters based on your business requirements and click **OK**.\n",
        )
        .expect("the page parses");
        let s = procedure.steps[0].clone();
        let got = intents(&s, &Task::default());
        assert!(
            got.contains(&Intent::Choose {
                labels: vec!["Instance ID".into()],
                value: None,
                undocumented: false
            }),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|i| matches!(i, Intent::Click { label, .. } if label == "Create Secret")),
            "{got:?}"
        );
        // The button is no list to choose from.
        assert!(
            !got.iter()
                .any(|i| matches!(i, Intent::Choose { labels, .. } if labels.iter().any(|l| l == "Create Secret"))),
            "{got:?}"
        );
    }

    #[test]
    fn row_actions_and_menu_paths_are_recognised() {
        let mut s = step(
            "Find the instance and click Stop in the Actions column.",
            &["Stop"],
            vec![StepAction::Find, StepAction::Click],
        );
        s.column = Some("Actions".into());
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::FindRow,
                Intent::Click {
                    label: "Stop".into(),
                    row: true,
                    confirm: false,
                    batch: false
                }
            ]
        );
        let mut nav = step(
            "In the left-side navigation pane, choose Instances & Images > Instances.",
            &["Instances & Images", "Instances"],
            vec![StepAction::Navigate],
        );
        nav.menu_path = vec!["Instances & Images".into(), "Instances".into()];
        assert_eq!(
            intents(&nav, &Task::default()),
            vec![Intent::Navigate {
                segments: nav.menu_path.clone(),
                at: 0
            }]
        );
    }

    #[test]
    fn a_row_action_clicked_before_a_selection_comes_first() {
        let mut s = step(
            "Click Bind Resource in the Actions column of the target EIP, select ECS Instance, and then select the corresponding ECS instance.",
            &["Bind Resource", "Actions", "ECS Instance"],
            vec![StepAction::Click, StepAction::Select],
        );
        s.values = vec![FieldValue {
            label: None,
            value: "ECS Instance".into(),
        }];
        assert_eq!(
            intents(&s, &Task::default()),
            vec![
                Intent::Click {
                    label: "Bind Resource".into(),
                    row: true,
                    confirm: false,
                    batch: false
                },
                Intent::Choose {
                    labels: vec!["ECS Instance".into()],
                    value: None,
                    undocumented: false
                },
            ]
        );
        let mut after = step(
            "Select a VPC and a vSwitch, and then click Buy Now.",
            &["VPC", "vSwitch", "Buy Now"],
            vec![StepAction::Select, StepAction::Click],
        );
        after.values.clear();
        let got = intents(&after, &Task::default());
        assert!(
            matches!(got.last(), Some(Intent::Click { label, confirm: true, .. }) if label == "Buy Now"),
            "{got:?}"
        );
    }

    #[test]
    fn a_field_the_step_asks_to_specify_is_set_even_without_a_value() {
        let text = "in the schedule key deletion dialog box, specify delete in (7-30 days).";
        assert!(set_without_value(text, "Delete In (7-30 days)", &[]));
        assert!(!set_without_value("specify the port range to 22/22.", "port range", &[]));
        // schedule-key-deletion-old.md, step 5, as the parser reads it.
        let procedure = aca_docs::parse_markdown(
            "# Schedule a key deletion task\n\n## Procedure\n\n\
             1. In the **Schedule Key Deletion** dialog box, specify **Delete In (7-30 days)**. The value \
             ranges from 7 to 30. Unit: days. Default value: 30.\n",
        )
        .expect("the page parses");
        let got = intents(&procedure.steps[0], &Task::default());
        assert!(got.contains(&Intent::Set { label: "Delete In (7-30 days)".into() }), "{got:?}");
    }
}
