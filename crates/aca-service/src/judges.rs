//! The two judges of the judge channel, listed in a TOML file: each an OpenAI-compatible endpoint
//! with its model, an optional key file (readable by its owner only) and its price.
//!
//! ```toml
//! [[judge]]
//! url = "https://dashscope.aliyuncs.com/compatible-mode/v1"
//! model = "qwen-max"
//! key_file = "keys/judge-a.key"   # the API key alone, mode 0600; relative to this file
//! input_per_mtok = 2.4            # US dollars per million tokens
//! output_per_mtok = 9.6
//!
//! [[judge]]
//! url = "http://127.0.0.1:8000/v1"
//! model = "qwen3-vl-32b"
//! images = true                   # also shown the final page's marked screenshot
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use aca_chat::{ChatConfig, Price};
use aca_reward::Judges;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgesFile {
    #[serde(default)]
    judge: Vec<JudgeEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgeEntry {
    url: String,
    model: String,
    #[serde(default)]
    key_file: Option<PathBuf>,
    #[serde(default)]
    input_per_mtok: Option<f64>,
    #[serde(default)]
    output_per_mtok: Option<f64>,
    /// Seconds one answer may take.
    #[serde(default)]
    timeout_s: Option<u64>,
    /// The model takes images: it is shown the final page's marked screenshot too.
    #[serde(default)]
    images: bool,
}

/// Reads the judges of `path`; an error says which entry is wrong and how, and never quotes a key.
pub fn load(path: &Path) -> Result<Judges, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file: JudgesFile =
        toml::from_str(&text).map_err(|e| format!("{} is not a judges file: {e}", path.display()))?;
    if file.judge.len() != 2 {
        return Err(format!(
            "{} lists {} judge(s): the judge channel needs exactly two independent ones",
            path.display(),
            file.judge.len()
        ));
    }
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut configs = Vec::new();
    let images: Vec<bool> = file.judge.iter().map(|j| j.images).collect();
    for (i, entry) in file.judge.into_iter().enumerate() {
        let what = format!("{}: judge {} ({})", path.display(), i + 1, entry.model);
        let Some(authority) = entry
            .url
            .strip_prefix("https://")
            .or_else(|| entry.url.strip_prefix("http://"))
            .map(|rest| rest.split('/').next().unwrap_or_default())
        else {
            return Err(format!("{what}: url must be an http(s) API base such as https://host/v1"));
        };
        // The URL is shown in reports and logs; a key belongs in key_file.
        if authority.contains('@') || entry.url.contains('?') {
            return Err(format!(
                "{what}: the url carries credentials or a query; give the key in key_file instead"
            ));
        }
        let mut config = ChatConfig::new(entry.url.trim_end_matches('/'), entry.model.clone());
        if let Some(key_file) = entry.key_file {
            let key_path = folder.join(key_file);
            aca_openapi::private_file::check_private(&key_path).map_err(|e| format!("{what}: {e}"))?;
            let key = std::fs::read_to_string(&key_path)
                .map_err(|e| format!("{what}: cannot read {}: {e}", key_path.display()))?;
            let key = key.trim();
            if key.is_empty() {
                return Err(format!("{what}: {} is empty", key_path.display()));
            }
            config.api_key = Some(key.to_owned());
        }
        config.price = match (entry.input_per_mtok, entry.output_per_mtok) {
            (None, None) => None,
            (input, output) => Some(Price {
                input_per_mtok: input.unwrap_or(0.0),
                output_per_mtok: output.unwrap_or(0.0),
            }),
        };
        if let Some(seconds) = entry.timeout_s {
            config.timeout = Duration::from_secs(seconds.max(1));
        }
        configs.push(config);
    }
    let second = configs.pop().expect("two judges");
    let first = configs.pop().expect("two judges");
    Judges::new(first, second)
        .map(|judges| judges.with_images(images[0], images[1]))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str, mode: u32) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        path
    }

    const TWO: &str = "[[judge]]\nurl = \"http://127.0.0.1:1/v1\"\nmodel = \"a\"\nkey_file = \"a.key\"\n\
        input_per_mtok = 1.0\n\n[[judge]]\nurl = \"http://127.0.0.1:2/v1\"\nmodel = \"b\"\n";

    #[test]
    fn two_judges_load_with_their_keys_from_owner_only_files() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.key", "sk-judge-secret\n", 0o600);
        let path = write(dir.path(), "judges.toml", TWO, 0o644);
        let judges = load(&path).unwrap();
        assert_eq!(judges.describe(), "a at http://127.0.0.1:1/v1 and b at http://127.0.0.1:2/v1");
        let shown = format!("{judges:?}");
        assert!(shown.contains("<redacted>") && !shown.contains("sk-judge-secret"), "{shown}");
    }

    #[test]
    fn one_judge_a_readable_key_or_a_bad_url_is_refused_saying_how() {
        let dir = tempfile::tempdir().unwrap();
        let one = write(
            dir.path(),
            "one.toml",
            "[[judge]]\nurl = \"http://x/v1\"\nmodel = \"a\"\n",
            0o644,
        );
        assert!(load(&one).unwrap_err().contains("exactly two"));
        write(dir.path(), "a.key", "sk-judge-secret", 0o644);
        let path = write(dir.path(), "judges.toml", TWO, 0o644);
        let refused = load(&path).unwrap_err();
        assert!(refused.contains("chmod 600"), "{refused}");
        assert!(!refused.contains("sk-judge-secret"));
        write(dir.path(), "a.key", "sk-judge-secret", 0o600);
        let bad = write(
            dir.path(),
            "bad.toml",
            &TWO.replace("http://127.0.0.1:2/v1", "127.0.0.1:2"),
            0o644,
        );
        assert!(load(&bad).unwrap_err().contains("judge 2 (b)"));
        let keyed = write(
            dir.path(),
            "keyed.toml",
            &TWO.replace("http://127.0.0.1:2/v1", "https://user:sk-in-url@127.0.0.1:2/v1"),
            0o644,
        );
        let refused = load(&keyed).unwrap_err();
        assert!(refused.contains("key_file") && !refused.contains("sk-in-url"), "{refused}");
    }
}
