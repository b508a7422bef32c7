//! Where a documentation tree's pages come from: a folder (every page under it), a page (a file or
//! an http(s) URL), or a sitemap (`…/sitemap.xml`, its `<loc>` entries).

use std::path::Path;

use anyhow::{Context, bail};

use crate::verify::page;

/// The pages of one source, in a stable order. Sidecars and saved rules are not pages.
pub async fn expand(source: &str) -> anyhow::Result<Vec<String>> {
    let pages = if is_sitemap(source) {
        sitemap(source).await?
    } else if source.starts_with("http://") || source.starts_with("https://") {
        vec![source.to_owned()]
    } else if Path::new(source).is_dir() {
        page::pages_in(Path::new(source))?
            .iter()
            .map(|p| p.display().to_string())
            .collect()
    } else if Path::new(source).is_file() {
        vec![source.to_owned()]
    } else {
        bail!("{source} is neither a folder, a page nor a sitemap URL")
    };
    Ok(pages
        .into_iter()
        .filter(|s| !s.ends_with(".task.toml") && !s.ends_with(".rule.json"))
        .collect())
}

fn is_sitemap(source: &str) -> bool {
    (source.starts_with("http://") || source.starts_with("https://"))
        && source
            .split(['?', '#'])
            .next()
            .is_some_and(|path| path.ends_with(".xml"))
}

/// A sitemap's pages; a sitemap index's sitemaps are read in turn (one level, as the protocol has).
async fn sitemap(url: &str) -> anyhow::Result<Vec<String>> {
    let mut pages = Vec::new();
    for loc in sitemap_locations(url).await? {
        if is_sitemap(&loc) {
            pages.extend(sitemap_locations(&loc).await?.into_iter().filter(|l| !is_sitemap(l)));
        } else {
            pages.push(loc);
        }
    }
    if pages.is_empty() {
        bail!("the sitemap {url} lists no pages (<loc> entries)");
    }
    Ok(pages)
}

async fn sitemap_locations(url: &str) -> anyhow::Result<Vec<String>> {
    let response = reqwest::get(url)
        .await
        .with_context(|| format!("cannot fetch the sitemap {url}"))?;
    if !response.status().is_success() {
        bail!("fetching the sitemap {url} answered HTTP {}", response.status());
    }
    let xml = response
        .text()
        .await
        .with_context(|| format!("cannot read the sitemap {url}"))?;
    locations(&xml).with_context(|| format!("reading the sitemap {url}"))
}

/// The `<loc>` entries of a sitemap (a `urlset`, or a `sitemapindex` of further sitemaps).
fn locations(xml: &str) -> anyhow::Result<Vec<String>> {
    let document = roxmltree::Document::parse(xml).context("the sitemap is not XML")?;
    Ok(document
        .descendants()
        .filter(|node| node.has_tag_name("loc"))
        .filter_map(|node| node.text())
        .map(|text| text.trim().to_owned())
        .filter(|loc| !loc.is_empty())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sitemap_lists_its_locations() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://help.aliyun.com/zh/vpc/user-guide/create-and-manage-a-vpc</loc><lastmod>2026-11-02</lastmod></url>
  <url><loc> https://help.aliyun.com/document_detail/65430.html?spm=a&amp;b=1 </loc></url>
</urlset>"#;
        assert_eq!(
            locations(xml).unwrap(),
            vec![
                "https://help.aliyun.com/zh/vpc/user-guide/create-and-manage-a-vpc".to_owned(),
                "https://help.aliyun.com/document_detail/65430.html?spm=a&b=1".to_owned(),
            ]
        );
        assert!(locations("<urlset><url>").is_err());
        assert!(is_sitemap("https://help.aliyun.com/sitemap.xml"));
        assert!(!is_sitemap("https://help.aliyun.com/zh/vpc/page.html"));
    }
}
