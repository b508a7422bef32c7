//! Suggested corrections of a Markdown page: a label the console shows under another name is
//! rewritten in the step that names it, so a writer can review and apply the change as a patch.

/// One label to rewrite: in step `step` (as the page numbers it: `4`, `3.2`), `documented` becomes
/// `observed`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    pub step: String,
    pub documented: String,
    pub observed: String,
}

/// What came of the corrections: the corrected source, and the ones that could not be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrected {
    pub source: String,
    /// Corrections whose step or label is not in the source, with why.
    pub unplaced: Vec<(Correction, String)>,
}

/// Applies `corrections` to a Markdown `source`: in each step's own lines (its list item and what
/// is indented under it), the first `**label**`, else the first plain occurrence of the label,
/// becomes the observed one. Everything else is left byte for byte.
pub fn correct(source: &str, corrections: &[Correction]) -> Corrected {
    let mut lines: Vec<String> = source.split_inclusive('\n').map(str::to_owned).collect();
    let mut unplaced = Vec::new();
    for correction in corrections {
        if correction.documented.trim().is_empty() || correction.observed.trim().is_empty() {
            unplaced.push((correction.clone(), "nothing to rewrite it to".to_owned()));
            continue;
        }
        let Some(range) = step_lines(&lines, &correction.step) else {
            unplaced.push((correction.clone(), format!("no step {} in the page", correction.step)));
            continue;
        };
        let bold = format!("**{}**", correction.documented);
        let bold_new = format!("**{}**", correction.observed);
        let placed = [(&bold, &bold_new), (&correction.documented, &correction.observed)]
            .into_iter()
            .find_map(|(old, new)| {
                let at = range.clone().find(|&i| lines[i].contains(old.as_str()))?;
                lines[at] = lines[at].replacen(old.as_str(), new, 1);
                Some(())
            });
        if placed.is_none() {
            unplaced.push((
                correction.clone(),
                format!("\"{}\" is not in step {}", correction.documented, correction.step),
            ));
        }
    }
    Corrected {
        source: lines.concat(),
        unplaced,
    }
}

/// The lines of step `number` (`4`, or `3.2` for the second item under step 3): its list item and
/// the lines indented under it, up to the next item at its depth or shallower.
fn step_lines(lines: &[String], number: &str) -> Option<std::ops::Range<usize>> {
    // Steps are numbered under the Procedure heading when the page has one.
    let procedure = lines
        .iter()
        .position(|l| l.starts_with('#') && l.to_ascii_lowercase().contains("procedure"))
        .unwrap_or(0);
    let mut start = procedure;
    let mut indent = 0;
    for (depth, part) in number.split('.').enumerate() {
        let wanted: u32 = part.trim().parse().ok()?;
        let end = if depth == 0 { lines.len() } else { block_end(lines, start, indent) };
        let mut ordinal = 0;
        let mut found = None;
        for (i, line) in lines.iter().enumerate().take(end).skip(if depth == 0 { procedure } else { start + 1 }) {
            let Some((item_indent, written)) = list_item(line) else {
                continue;
            };
            if depth > 0 && item_indent <= indent {
                break;
            }
            let expected_indent = if depth == 0 { item_indent == 0 } else { item_indent > indent };
            if !expected_indent {
                continue;
            }
            ordinal += 1;
            if written.unwrap_or(ordinal) == wanted {
                found = Some((i, item_indent));
                break;
            }
        }
        let (line, item_indent) = found?;
        start = line;
        indent = item_indent;
    }
    Some(start..block_end(lines, start, indent))
}

/// Where the item at `start` (indented `indent`) ends: the next list item or unindented text at its
/// depth or shallower.
fn block_end(lines: &[String], start: usize, indent: usize) -> usize {
    for (i, line) in lines.iter().enumerate().skip(start + 1) {
        if line.trim().is_empty() {
            continue;
        }
        let own_indent = line.len() - line.trim_start().len();
        if own_indent <= indent {
            return i;
        }
    }
    lines.len()
}

/// A list item's indentation and its written number (`None` for a bullet, counted by position).
fn list_item(line: &str) -> Option<(usize, Option<u32>)> {
    let indent = line.len() - line.trim_start().len();
    let rest = line.trim_start();
    if rest.starts_with("- ") || rest.starts_with("* ") {
        return Some((indent, None));
    }
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = &rest[digits.len()..];
    (!digits.is_empty() && (after.starts_with(". ") || after.starts_with(") ")))
        .then(|| (indent, digits.parse().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# Create a VPC\n\nClick **OK** to close any notice.\n\n## Prerequisites\n\n\
        4. Click **OK** in the prerequisites' own list.\n\n## Procedure\n\n\
        1. Log on to the **VPC console**.\n\
        2. On the **VPCs** page, click **Create VPC**.\n\
        3. Configure the VPC.\n   1. Enter a name.\n   2. Click **OK** in the section.\n\
        4. Click **OK**.\n\n   > **Note** Click OK only once.\n";

    fn fix(step: &str, documented: &str, observed: &str) -> Correction {
        Correction {
            step: step.into(),
            documented: documented.into(),
            observed: observed.into(),
        }
    }

    #[test]
    fn a_label_is_rewritten_in_its_own_step_and_nowhere_else() {
        let corrected = correct(PAGE, &[fix("4", "OK", "Confirm"), fix("3.2", "OK", "Save")]);
        assert!(corrected.unplaced.is_empty(), "{:?}", corrected.unplaced);
        let expected = PAGE
            .replace("4. Click **OK**.", "4. Click **Confirm**.")
            .replace("2. Click **OK** in the section.", "2. Click **Save** in the section.");
        assert_eq!(corrected.source, expected);
        assert!(corrected.source.contains("Click **OK** to close any notice."));
        assert!(corrected.source.contains("Click OK only once."), "only the first occurrence changes");
    }

    #[test]
    fn a_step_or_label_that_is_not_there_is_said_not_guessed() {
        let corrected = correct(PAGE, &[fix("9", "OK", "Confirm"), fix("1", "Create VPC", "New VPC"), fix("2", "", "x")]);
        assert_eq!(corrected.source, PAGE);
        let why: Vec<&str> = corrected.unplaced.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(
            why,
            ["no step 9 in the page", "\"Create VPC\" is not in step 1", "nothing to rewrite it to"]
        );
    }
}
