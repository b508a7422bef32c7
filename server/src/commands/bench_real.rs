//! `aca bench real-pages`: verifies the real-page corpus on today's console and prints how the
//! verifier does on documentation as it is really written (`verify::real_bench`).

use std::path::PathBuf;
use std::process::ExitCode;

use aca_console::profile::ProfileId;
use aca_docs::real_pages::read_corpus;
use anyhow::Context;
use clap::Args;

use super::bench::{PageRunArgs, exit_status, in_page_order, one_line, print_figures, run_once, short, write_figures};
use crate::verify::page;
use crate::verify::real_bench::{Miss, RealPageResult, score};
use crate::verify::target::{ConsoleTarget, emulator_lacks, product_of};

/// Verify the real-page corpus and score the runs against the targets for real documentation.
///
/// Every page of DIR (one folder per product, each with its sources.toml) is verified once with the
/// scripted policy on the bundled console's current (2026) release, as a writer's page arrives: no
/// sidecar. The figures:
///   - current pages that pass;
///   - current pages called doc_defect (each one a false alarm);
///   - old-flow pages reported as doc_defect with the first defect at a step where sources.toml
///     says the flow differs;
///   - pages whose own text sources.toml calls defective (a live page's copy-and-paste slip, a
///     stored copy cut off before a required field) reported at that defect;
///   - pages of products the bundled console lacks that end environment_failure.
///
/// With --without-bold every page is read as an HTML scrape without bold comes: the same figures
/// on wording alone.
///
/// Prints a table and the figures with their targets; writes OUT/bench.json and every run's report
/// under OUT/<product>/<page>/.
///
/// Exit status: 0 when every target is met, 1 when one is not, 2 on an error.
///
/// Examples:
///   aca bench real-pages
///   aca bench real-pages --product vpc --product ecs
///   aca bench real-pages --pages 10 --jobs 2 --out out/bench-real
///   aca bench real-pages --without-bold --out out/bench-real-plain
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct RealPagesArgs {
    /// The real-page corpus: one folder per product, each with a sources.toml.
    #[arg(default_value = "tests/real-pages")]
    dir: PathBuf,
    /// Only the pages of this product folder (repeatable).
    #[arg(long, value_name = "FOLDER")]
    product: Vec<String>,
    /// Read every page as a copy scraped from HTML comes, its bold marks removed: the labels must
    /// be found from the wording alone.
    #[arg(long)]
    without_bold: bool,
    #[command(flatten)]
    runs: PageRunArgs,
    /// Where the figures (bench.json) and the runs' reports are written.
    #[arg(long, default_value = "out/bench-real")]
    out: PathBuf,
}

/// A page to run, read and placed.
struct Planned {
    input: page::PageInput,
    product: String,
    flow: String,
    differences: Vec<String>,
    defects: Vec<String>,
    not_emulated: Option<String>,
}

pub async fn run(args: RealPagesArgs) -> anyhow::Result<ExitCode> {
    let mut corpus =
        read_corpus(&args.dir).with_context(|| format!("reading the real-page corpus {}", args.dir.display()))?;
    if !args.product.is_empty() {
        let unknown: Vec<&String> = args
            .product
            .iter()
            .filter(|p| !corpus.iter().any(|page| &page.product == *p))
            .collect();
        anyhow::ensure!(
            unknown.is_empty(),
            "{} has no product folder {unknown:?}",
            args.dir.display()
        );
        corpus.retain(|page| args.product.contains(&page.product));
    }
    if let Some(n) = args.runs.pages {
        corpus.truncate(n);
    }
    anyhow::ensure!(!corpus.is_empty(), "{} holds no real pages", args.dir.display());

    let mut planned = Vec::new();
    for real in corpus {
        let mut input = page::load(&real.path.display().to_string()).await?;
        if args.without_bold {
            let text = std::fs::read_to_string(&real.path).with_context(|| format!("reading {}", real.path.display()))?;
            input.procedure = aca_docs::parse_markdown(&without_bold(&text))
                .with_context(|| format!("{} without its bold is not a procedure page", real.path.display()))?;
        }
        let not_emulated = match product_of(&input) {
            Ok(product) => emulator_lacks(product, ProfileId::Y2026),
            Err(why) => Some(why),
        };
        planned.push(Planned {
            input,
            product: real.product,
            flow: real.source.flow.clone(),
            differences: real.source.differences.clone(),
            defects: real.source.defects.clone(),
            not_emulated,
        });
    }

    let target = ConsoleTarget::bundled().await?;
    eprintln!(
        "bench: {} real pages{} on {} ({} at a time)",
        planned.len(),
        if args.without_bold { ", bold removed," } else { "" },
        target.url(),
        args.runs.jobs
    );
    let started = std::time::Instant::now();
    let results = in_page_order(
        &planned,
        args.runs.jobs,
        |p| async {
            let settings = args
                .runs
                .scripted_settings(ProfileId::Y2026, &args.out.join(&p.product));
            let (run, _, _) = run_once(&target, &p.input, &settings).await;
            RealPageResult {
                page: p.input.source.clone(),
                flow: p.flow.clone(),
                not_emulated: p.not_emulated.clone(),
                differences: p.differences.clone(),
                defects: p.defects.clone(),
                run,
            }
        },
        |r: &RealPageResult| {
            format!(
                "{}: {} ({} page, {:.1} s)",
                r.page,
                r.run.verdict_label(),
                r.flow,
                r.run.total_ms as f64 / 1000.0
            )
        },
    )
    .await;
    let scored = score(&results);

    println!("{:<56} {:<8} {:<20} first problem", "page", "flow", "verdict");
    for r in &results {
        let problem = if r.run.passed() {
            String::new()
        } else {
            r.run.first_problem()
        };
        println!(
            "{:<56} {:<8} {:<20} {}",
            short(&r.page, 56),
            r.flow,
            r.run.verdict_label(),
            one_line(&problem).chars().take(120).collect::<String>()
        );
    }
    let misses = |title: &str, list: &[Miss]| {
        if !list.is_empty() {
            println!("\n{title}:");
            for m in list {
                println!("  {} [{}]: {}", m.page, m.verdict, one_line(&m.problem));
            }
        }
    };
    misses("current pages not passing", &scored.current_not_passing);
    misses(
        "old-flow pages not flagged at a step where they differ",
        &scored.old_not_flagged,
    );
    misses(
        "pages with a known defect not flagged at it",
        &scored.defective_not_flagged,
    );
    misses(
        "pages of products the console lacks, not ended environment_failure",
        &scored.not_emulated_misreported,
    );
    println!(
        "\ncurrent pages: {}\nold-flow pages: {}\npages with a known defect: {}\nunemulated products: {}",
        scored.current.describe(),
        scored.old.describe(),
        scored.defective.describe(),
        scored.not_emulated.describe()
    );
    print_figures(&scored.figures);
    let json = serde_json::json!({
        "corpus": args.dir,
        "profile": "2026",
        "withoutBold": args.without_bold,
        "jobs": args.runs.jobs,
        "wallSeconds": started.elapsed().as_secs_f64(),
        "score": scored,
        "pages": results,
    });
    write_figures(&args.out.join("bench.json"), &json)?;
    Ok(exit_status(&scored.figures))
}

/// `text` with its bold marks removed, as a copy scraped from HTML comes: `**Create VPC**` becomes
/// `Create VPC`. Asterisks that mark no bold span on their line (a masked `100******0719`) stay.
fn without_bold(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let mut out = String::with_capacity(line.len());
            let mut rest = line;
            while let Some(open) = rest.find("**") {
                let after = &rest[open + 2..];
                let Some(close) = after.find("**") else { break };
                let inner = &after[..close];
                if inner.is_empty() || inner.contains('*') || inner.starts_with(' ') || inner.ends_with(' ') {
                    out.push_str(&rest[..open + 2]);
                    rest = after;
                    continue;
                }
                out.push_str(&rest[..open]);
                out.push_str(inner);
                rest = &after[close + 2..];
            }
            out.push_str(rest);
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::without_bold;

    #[test]
    fn bold_marks_go_and_other_asterisks_stay() {
        assert_eq!(
            without_bold("3. On the **Users** page, click **Create User**.\n"),
            "3. On the Users page, click Create User.\n"
        );
        assert_eq!(without_bold("account 100******0719 and **OK**"), "account 100******0719 and OK");
        assert_eq!(without_bold("a * b ** c"), "a * b ** c");
        assert_eq!(without_bold("> **Note** Keep it."), "> Note Keep it.");
    }
}
