//! Validated METAs kept where METAs live: the `[meta]` table of the page's `<page>.task.toml`.
//! A sidecar that has a META keeps it; a page without a sidecar gets one.

use std::path::Path;

use aca_core::{ResourceMeta, TaskSpec};

use super::render::meta_table;
use crate::error::{ProvisionError, Result};

/// What [`store_meta`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// The META was added to the existing sidecar.
    Added,
    /// A new sidecar was written (the given task and the META).
    Created,
}

/// Writes `meta` into the sidecar at `path`. An existing sidecar with a META is left alone
/// (an error says so); a missing sidecar is created from `task` (its `meta` ignored).
pub fn store_meta(path: &Path, meta: &ResourceMeta, task: Option<&TaskSpec>) -> Result<Stored> {
    let file_error = |message: String| ProvisionError::File {
        path: path.to_owned(),
        message,
    };
    let (text, stored) = if path.exists() {
        let existing = crate::task::load_task(path)?;
        if existing.meta.is_some() {
            return Err(file_error(
                "has a Resource META already; it is not overwritten (remove its [meta] to replace it)".into(),
            ));
        }
        let old = std::fs::read_to_string(path).map_err(|e| file_error(e.to_string()))?;
        (format!("{}\n{}", old.trim_end(), meta_table(meta)), Stored::Added)
    } else {
        let Some(task) = task else {
            return Err(file_error(
                "does not exist, and no success rule is known to write a new one with".into(),
            ));
        };
        let mut task = task.clone();
        task.meta = None;
        let head = toml::to_string(&task).map_err(|e| file_error(format!("cannot write the task: {e}")))?;
        (format!("{}\n\n{}", head.trim_end(), meta_table(meta)), Stored::Created)
    };
    let parsed: TaskSpec = toml::from_str(&text).map_err(|e| file_error(format!("the result would not parse: {e}")))?;
    if parsed.meta.as_ref() != Some(meta) {
        return Err(file_error("the META would not read back as written".into()));
    }
    std::fs::write(path, text).map_err(|e| file_error(e.to_string()))?;
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> ResourceMeta {
        ResourceMeta {
            description: "A VPC \"quoted\".".into(),
            key_attributes: Vec::new(),
            terraform: "resource \"alicloud_vpc\" \"vpc\" {\n  vpc_name = \"v-${var.suffix}\"\n}\n".into(),
        }
    }

    const SIDECAR: &str =
        "# written by hand\nprofile = \"2026\"\nproduct = \"vpc\"\n\n[[rule.events]]\nevent_name = \"CreateVSwitch\"\n";

    #[test]
    fn a_meta_is_added_to_a_sidecar_once_and_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("create-vswitch.task.toml");
        std::fs::write(&path, SIDECAR).unwrap();
        assert_eq!(store_meta(&path, &meta(), None).unwrap(), Stored::Added);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# written by hand\n"),
            "the sidecar keeps its text: {text}"
        );
        assert_eq!(crate::task::load_task(&path).unwrap().meta, Some(meta()));
        let again = store_meta(&path, &meta(), None).unwrap_err();
        assert!(again.to_string().contains("not overwritten"), "{again}");
    }

    #[test]
    fn a_missing_sidecar_is_written_from_the_task_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.task.toml");
        assert!(store_meta(&path, &meta(), None).is_err());
        let task: TaskSpec = toml::from_str(SIDECAR).unwrap();
        assert_eq!(store_meta(&path, &meta(), Some(&task)).unwrap(), Stored::Created);
        let back = crate::task::load_task(&path).unwrap();
        assert_eq!(back.rule, task.rule);
        assert_eq!(back.meta, Some(meta()));
    }
}
