//! A page's task file (`<page>.task.toml` beside the page) and the META it declares.

use std::path::{Path, PathBuf};

use aca_core::TaskSpec;

use crate::applier::Meta;
use crate::error::{ProvisionError, Result};
use crate::suffix::Suffix;

/// The task file of a page: the path itself when it is one, else `<page without extension>.task.toml`.
pub fn task_path(page: &Path) -> PathBuf {
    let name = page
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.ends_with(".task.toml") {
        return page.to_owned();
    }
    let stem = page
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    page.with_file_name(format!("{stem}.task.toml"))
}

/// Reads and parses a task file.
pub fn load_task(path: &Path) -> Result<TaskSpec> {
    let text = std::fs::read_to_string(path).map_err(|e| ProvisionError::File {
        path: path.to_owned(),
        message: format!("cannot read the task file: {e}"),
    })?;
    toml::from_str(&text).map_err(|e| ProvisionError::File {
        path: path.to_owned(),
        message: format!("not a task file: {e}"),
    })
}

/// The META of a page's task, ready to provision with `suffix`; `None` when the task has none.
pub fn page_meta(page: &Path, suffix: Suffix) -> Result<Option<(TaskSpec, Meta)>> {
    let path = task_path(page);
    let task = load_task(&path)?;
    let Some(meta) = &task.meta else {
        return Ok(None);
    };
    let source = path.to_string_lossy().into_owned();
    let meta = Meta::new(&source, meta, &task.region, suffix)?;
    Ok(Some((task, meta)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_task_file_beside_the_page() {
        assert_eq!(
            task_path(Path::new("corpus/ecs/start-instance.md")),
            Path::new("corpus/ecs/start-instance.task.toml")
        );
        assert_eq!(
            task_path(Path::new("corpus/ecs/start-instance.task.toml")),
            Path::new("corpus/ecs/start-instance.task.toml")
        );
    }

    #[test]
    fn reads_a_task_and_its_meta() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("create-vswitch.md");
        std::fs::write(
            dir.path().join("create-vswitch.task.toml"),
            r#"
profile = "2026"
product = "vpc"

[[rule.events]]
event_name = "CreateVSwitch"
service_name = "Vpc"

[meta]
description = "A VPC."
terraform = '''
resource "alicloud_vpc" "main" {
  vpc_name   = "doc-${var.suffix}"
  cidr_block = "192.168.0.0/16"
}
'''

[[meta.key_attributes]]
resource = "alicloud_vpc.main"
attribute = "status"
value = "Available"
"#,
        )
        .unwrap();
        let loaded = page_meta(&page, Suffix::random());
        let (task, meta) = match loaded {
            Ok(Some(found)) => found,
            Ok(None) => panic!("the META was not found"),
            Err(e) => panic!("{e}"),
        };
        assert_eq!(task.region, "cn-hangzhou");
        assert_eq!(meta.key_attributes.len(), 1);
        assert_eq!(meta.config.resources().count(), 1);
        assert!(meta.config.source.ends_with("create-vswitch.task.toml"));
        let missing = page_meta(&dir.path().join("none.md"), Suffix::random()).unwrap_err();
        assert!(missing.to_string().contains("none.task.toml"), "{missing}");
    }
}
