//! The aca-dom page side: where its built package lies, and the script that loads it into a frame's
//! isolated world from inlined bytes (no network fetch, so the page's CSP and origin do not matter).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use base64::Engine as _;

use crate::error::RunnerError;

/// The isolated world the page side lives in, apart from the page's own scripts.
pub const WORLD_NAME: &str = "aca-dom";

/// The glue script `scripts/build-wasm` writes (`wasm-bindgen --target no-modules`).
pub const GLUE_FILE: &str = "aca_dom.js";
/// The WebAssembly module next to it.
pub const WASM_FILE: &str = "aca_dom_bg.wasm";

/// The loaded package, ready to be injected into any number of frames.
#[derive(Clone)]
pub struct PageSide {
    dir: PathBuf,
    script: Arc<str>,
}

impl std::fmt::Debug for PageSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageSide")
            .field("dir", &self.dir)
            .field("script_bytes", &self.script.len())
            .finish()
    }
}

impl PageSide {
    /// Where the package is looked for: `ACA_DOM_PKG`, then `$CARGO_TARGET_DIR/web/aca-dom`, then
    /// `~/.cache/aliyun-console-agent/target/web/aca-dom`; the first folder that holds the glue script
    /// wins, or the first candidate when none does (so the error names a sensible place).
    pub fn default_dir() -> PathBuf {
        let mut candidates = Vec::new();
        if let Some(dir) = std::env::var_os("ACA_DOM_PKG") {
            candidates.push(PathBuf::from(dir));
        }
        if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
            candidates.push(PathBuf::from(target).join("web").join("aca-dom"));
        }
        if let Some(home) = std::env::var_os("HOME") {
            candidates.push(PathBuf::from(home).join(".cache/aliyun-console-agent/target/web/aca-dom"));
        }
        candidates
            .iter()
            .find(|dir| dir.join(GLUE_FILE).is_file())
            .or(candidates.first())
            .cloned()
            .unwrap_or_else(|| PathBuf::from("target/web/aca-dom"))
    }

    /// Reads the glue and the module from `dir`.
    pub fn load(dir: &Path) -> Result<Self, RunnerError> {
        let missing = || RunnerError::PageSideMissing { path: dir.to_owned() };
        let glue = std::fs::read_to_string(dir.join(GLUE_FILE)).map_err(|_| missing())?;
        let wasm = std::fs::read(dir.join(WASM_FILE)).map_err(|_| missing())?;
        Ok(Self {
            dir: dir.to_owned(),
            script: injection_script(&glue, &wasm).into(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The classic script that loads the page side into the world it runs in, once: it sets
    /// `globalThis.__acaDom` to a promise of the initialised `wasm_bindgen` exports.
    pub fn script(&self) -> &str {
        &self.script
    }
}

/// Wraps the no-modules glue so that its `wasm_bindgen` stays local, and initialises it from the
/// module's bytes decoded from base64.
fn injection_script(glue: &str, wasm: &[u8]) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(wasm);
    format!(
        "(() => {{\n\
         if (globalThis.__acaDom) return;\n\
         globalThis.__acaDom = (async () => {{\n\
         const exports = (() => {{\n{glue}\n;return wasm_bindgen; }})();\n\
         const text = atob(\"{encoded}\");\n\
         const bytes = new Uint8Array(text.length);\n\
         for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);\n\
         await exports({{ module_or_path: bytes }});\n\
         return exports;\n\
         }})();\n\
         globalThis.__acaDom.catch(e => {{ globalThis.__acaDomError = String(e && e.stack || e); }});\n\
         }})();\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_package_names_its_folder_and_the_build_script() {
        let dir = tempfile::tempdir().unwrap();
        let error = PageSide::load(dir.path()).unwrap_err();
        let message = error.to_string();
        assert!(matches!(error, RunnerError::PageSideMissing { ref path } if path == dir.path()));
        assert!(message.contains("scripts/build-wasm"), "{message}");
    }

    #[test]
    fn the_script_inlines_the_module_and_keeps_the_glue_local() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(GLUE_FILE), "let wasm_bindgen = async () => {};").unwrap();
        std::fs::write(dir.path().join(WASM_FILE), [0u8, 97, 115, 109]).unwrap();
        let side = PageSide::load(dir.path()).unwrap();
        assert!(side.script().contains("atob(\"AGFzbQ==\")"));
        assert!(side.script().starts_with("(() => {"));
    }
}
