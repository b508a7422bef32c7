//! Documentation pages (Markdown or HTML) → [`Procedure`].
//!
//! Both formats are first read into the same few blocks (headings, paragraphs, lists, tables,
//! quotes); one builder then walks the sections of the house style (Prerequisites, Background
//! information, Precautions, Procedure or "Step N: …" sections, Result, What to do next, Related
//! API operations) and reads each numbered step's sentence for its labels, menu path, container,
//! values and actions. Pages that lost their bold (scraped copies) are read by phrase instead.
//! The crate does no I/O except [`parse`] reading a file it is handed and, natively, [`corpus`]
//! loading the example corpus and [`real_pages`] the real-page corpus's sources; it builds for wasm32.

mod blocks;
mod build;
#[cfg(not(target_arch = "wasm32"))]
pub mod corpus;
pub mod fix;
mod html;
mod markdown;
#[cfg(not(target_arch = "wasm32"))]
pub mod real_pages;
pub mod split;
mod sentence;

pub use aca_core::procedure::*;

/// Why a page could not be read as a procedure.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum DocError {
    #[error("the page is empty")]
    EmptyPage,
    #[error("not a procedure page: {0}")]
    NotAProcedurePage(String),
    #[error("the page has no Procedure section and no numbered steps")]
    NoSteps,
    #[error("the {0} section has no numbered steps")]
    EmptyProcedure(String),
    #[error("unreadable HTML: {0}")]
    UnreadableHtml(String),
    #[error("unreadable date in \"{0}\" (expected \"Last Updated: Mon DD, YYYY\")")]
    BadDate(String),
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
}

/// The format of a page handed to [`parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Html,
    /// By file extension (`.html`/`.htm` → HTML, else Markdown), or for text, by whether it starts
    /// with a tag.
    Auto,
}

/// Reads a Markdown page.
pub fn parse_markdown(src: &str) -> Result<Procedure, DocError> {
    if src.trim().is_empty() {
        return Err(DocError::EmptyPage);
    }
    build::procedure(markdown::blocks(src))
}

/// Reads an HTML page (a help page as served, or a scraped copy).
pub fn parse_html(src: &str) -> Result<Procedure, DocError> {
    if src.trim().is_empty() {
        return Err(DocError::EmptyPage);
    }
    build::procedure(html::blocks(src)?)
}

/// Reads `path_or_text`: a file when such a file exists (not on wasm32), the page's text otherwise.
pub fn parse(path_or_text: &str, format: Format) -> Result<Procedure, DocError> {
    let (text, is_html_path) = read(path_or_text)?;
    let html = match format {
        Format::Markdown => false,
        Format::Html => true,
        Format::Auto => is_html_path.unwrap_or_else(|| text.trim_start().starts_with('<')),
    };
    if html { parse_html(&text) } else { parse_markdown(&text) }
}

#[cfg(not(target_arch = "wasm32"))]
fn read(path_or_text: &str) -> Result<(String, Option<bool>), DocError> {
    let looks_like_path = !path_or_text.contains('\n') && path_or_text.len() < 4096;
    let path = std::path::Path::new(path_or_text);
    if looks_like_path && path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| DocError::Io {
            path: path_or_text.to_string(),
            message: e.to_string(),
        })?;
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        return Ok((text, Some(ext == "html" || ext == "htm")));
    }
    Ok((path_or_text.to_string(), None))
}

#[cfg(target_arch = "wasm32")]
fn read(text: &str) -> Result<(String, Option<bool>), DocError> {
    Ok((text.to_string(), None))
}
