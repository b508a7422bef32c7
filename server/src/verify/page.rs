//! The page to verify: its procedure, and whatever sits beside it (a task sidecar, a saved rule).

use std::path::{Path, PathBuf};

use aca_core::{Procedure, SuccessRule, TaskSpec};
use aca_docs::corpus::{read_sidecar, sidecar_path};
use anyhow::{Context, bail};

/// A page as read for one verification.
#[derive(Debug, Clone)]
pub struct PageInput {
    /// The path or URL as given.
    pub source: String,
    /// A file-system friendly name for the report folder.
    pub slug: String,
    pub procedure: Procedure,
    /// The `<page>.task.toml` sidecar of an example page.
    pub task: Option<TaskSpec>,
    /// A rule a writer confirmed or corrected, saved beside the page as `<page>.rule.json`.
    pub saved_rule: Option<SuccessRule>,
    /// SHA-256 of the page's text as read: runs of an unchanged page carry the same digest.
    pub digest: String,
}

/// Reads a page from a file (`.md`, `.markdown`, `.html`, `.htm`) or an `http(s)://` URL.
pub async fn load(source: &str) -> anyhow::Result<PageInput> {
    if source.starts_with("http://") || source.starts_with("https://") {
        let response = reqwest::get(source)
            .await
            .with_context(|| format!("cannot fetch {source}"))?;
        if !response.status().is_success() {
            bail!("fetching {source} answered HTTP {}", response.status());
        }
        let html = response.text().await.with_context(|| format!("cannot read {source}"))?;
        let procedure = aca_docs::parse_html(&html).with_context(|| format!("{source} is not a procedure page"))?;
        return Ok(PageInput {
            source: source.to_owned(),
            slug: slug_of(source),
            procedure,
            task: None,
            saved_rule: None,
            digest: digest(&html),
        });
    }
    load_file(Path::new(source))
}

fn load_file(path: &Path) -> anyhow::Result<PageInput> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let procedure = match extension.as_str() {
        "md" | "markdown" => aca_docs::parse_markdown(&text),
        "html" | "htm" => aca_docs::parse_html(&text),
        other => bail!(
            "{} is neither Markdown (.md) nor HTML (.html): cannot tell how to read a .{other} file",
            path.display()
        ),
    }
    .with_context(|| format!("{} is not a procedure page", path.display()))?;
    let sidecar = sidecar_path(path);
    let task = if sidecar.exists() {
        Some(read_sidecar(&sidecar)?.0)
    } else {
        None
    };
    let rule_path = path.with_extension("rule.json");
    let saved_rule = if rule_path.exists() {
        let text =
            std::fs::read_to_string(&rule_path).with_context(|| format!("cannot read {}", rule_path.display()))?;
        Some(serde_json::from_str(&text).with_context(|| format!("{} is not a success rule", rule_path.display()))?)
    } else {
        None
    };
    Ok(PageInput {
        source: path.display().to_string(),
        slug: slug_of(&path.display().to_string()),
        procedure,
        task,
        saved_rule,
        digest: digest(&text),
    })
}

fn digest(text: &str) -> String {
    use sha2::Digest as _;
    hex::encode(sha2::Sha256::digest(text.as_bytes()))
}

/// The pages of a folder, recursively: every `.md`/`.html` file, sorted.
pub fn pages_in(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))?;
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("md" | "markdown" | "html" | "htm")
            ) && !is_folder_readme(&path)
            {
                out.push(path);
            }
        }
    }
    out.sort();
    if out.is_empty() {
        bail!("{} holds no .md or .html pages", dir.display());
    }
    Ok(out)
}

/// A folder's README says what the folder holds; it is no documentation page.
fn is_folder_readme(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.eq_ignore_ascii_case("readme"))
}

/// The name of a page's report folder: a URL's last segment, a file's folder and name
/// (`ecs/stop-instance.md` → `ecs-stop-instance`).
pub fn slug_of(source: &str) -> String {
    if source.starts_with("http://") || source.starts_with("https://") {
        return slugify(source.rsplit('/').find(|s| !s.is_empty()).unwrap_or("page"));
    }
    let path = Path::new(source);
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("page");
    let folder = path.parent().and_then(|p| p.file_name()).and_then(|s| s.to_str());
    match folder {
        Some(folder) if !folder.is_empty() && folder != "." => format!("{}-{}", slugify(folder), slugify(stem)),
        _ => slugify(stem),
    }
}

/// Pages whose reports would go to one folder, each pair as `(first, second, folder)`.
pub fn sharing_a_report_folder(sources: &[String]) -> Vec<(String, String, String)> {
    let mut seen: std::collections::HashMap<String, &String> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for source in sources {
        let slug = slug_of(source);
        match seen.get(&slug) {
            Some(first) if *first != source => out.push(((*first).clone(), source.clone(), slug)),
            Some(_) => {}
            None => {
                seen.insert(slug, source);
            }
        }
    }
    out
}

fn slugify(text: &str) -> String {
    let stem = text.trim_end_matches(".html").trim_end_matches(".md");
    let mut out: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while out.contains("--") {
        out = out.replace("--", "-");
    }
    out.trim_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_of_one_folder_name_in_two_trees_would_share_a_report_folder() {
        let pages = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(slug_of("tests/real-pages/ecs/stop-instance.md"), "ecs-stop-instance");
        assert_eq!(
            slug_of("https://example.com/help/en/stop-an-instance/"),
            "stop-an-instance"
        );
        assert_eq!(
            sharing_a_report_folder(&pages(&[
                "tests/corpus/actiontrail/create-trail.md",
                "tests/real-pages/actiontrail/create-trail-old.md",
                "tests/real-pages/actiontrail/create-trail.md",
            ])),
            vec![(
                "tests/corpus/actiontrail/create-trail.md".to_string(),
                "tests/real-pages/actiontrail/create-trail.md".to_string(),
                "actiontrail-create-trail".to_string()
            )]
        );
        assert!(sharing_a_report_folder(&pages(&["ecs/a.md", "ecs/a.md", "vpc/a.md"])).is_empty());
    }

    #[test]
    fn a_folders_readme_is_no_page() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("ecs")).unwrap();
        for file in ["README.md", "ecs/stop-instance.md", "ecs/readme.md", "ecs/sources.toml"] {
            std::fs::write(dir.path().join(file), "# t").unwrap();
        }
        let pages = pages_in(dir.path()).unwrap();
        assert_eq!(pages, vec![dir.path().join("ecs/stop-instance.md")]);
    }
}
