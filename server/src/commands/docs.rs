//! `aca docs`: read documentation pages the way the agent will.

use std::path::PathBuf;
use std::process::ExitCode;

use aca_core::Procedure;
use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};

/// Read documentation pages the way the agent does.
#[derive(Debug, Args)]
pub struct DocsArgs {
    #[command(subcommand)]
    command: DocsCommand,
}

#[derive(Debug, Subcommand)]
enum DocsCommand {
    /// Parse a procedure page (Markdown or HTML) and print what the agent will execute.
    ///
    /// Prints the steps with their UI labels, menu paths, containers and values, or the whole
    /// procedure as JSON with --json. Exit status: 0 parsed, 2 the page is not a readable procedure.
    ///
    /// Example:
    ///   aca docs parse crates/aca-docs/tests/pages/vpc-create-vpc.md
    ///   aca docs parse --json page.html
    #[command(verbatim_doc_comment)]
    Parse {
        /// The page: a .md, .html or .htm file.
        page: PathBuf,
        /// How to read it; by default from the file extension.
        #[arg(long, value_enum, default_value_t = PageFormat::Auto)]
        format: PageFormat,
        /// Print the whole procedure as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum PageFormat {
    Auto,
    Markdown,
    Html,
}

pub async fn run(args: DocsArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        DocsCommand::Parse { page, format, json } => {
            let text = std::fs::read_to_string(&page).with_context(|| format!("cannot read {}", page.display()))?;
            let is_html = match format {
                PageFormat::Markdown => false,
                PageFormat::Html => true,
                PageFormat::Auto => page
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm")),
            };
            let parsed = if is_html {
                aca_docs::parse_html(&text)
            } else {
                aca_docs::parse_markdown(&text)
            };
            let procedure = parsed.with_context(|| format!("{} is not a readable procedure page", page.display()))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&procedure)?);
            } else {
                print_summary(&procedure);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn print_summary(procedure: &Procedure) {
    println!("{}", procedure.title);
    for prerequisite in &procedure.prerequisites {
        println!("  prerequisite: {prerequisite}");
    }
    let mut stack: Vec<(&aca_core::Step, usize)> = procedure.steps.iter().rev().map(|s| (s, 1)).collect();
    while let Some((step, depth)) = stack.pop() {
        let indent = "  ".repeat(depth);
        println!("{indent}{}. {}", step.number, step.text);
        if !step.menu_path.is_empty() {
            println!("{indent}   menu: {}", step.menu_path.join(" > "));
        }
        if let Some(container) = &step.container {
            println!("{indent}   in: {:?} \"{}\"", container.kind, container.name);
        }
        if !step.labels.is_empty() {
            println!("{indent}   labels: {}", step.labels.join(", "));
        }
        for value in &step.values {
            println!(
                "{indent}   value: {} = {}",
                value.label.as_deref().unwrap_or("?"),
                value.value
            );
        }
        stack.extend(step.substeps.iter().rev().map(|s| (s, depth + 1)));
    }
    if let Some(result) = &procedure.expected_result {
        println!("  result: {result}");
    }
}
