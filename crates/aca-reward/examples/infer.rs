//! Prints the success rule inferred for a documentation page, and why.
//!
//! `cargo run -p aca-reward --example infer -- crates/aca-docs/tests/pages/vpc-create-vpc.md`

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: infer PAGE (a Markdown or HTML procedure page)");
        return ExitCode::from(2);
    };
    let procedure = match aca_docs::parse(&path, aca_docs::Format::Auto) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let inference = aca_reward::infer_rule(&procedure);
    println!("{}\n", inference.explanation);
    match inference.rule.map(|rule| serde_json::to_string_pretty(&rule)) {
        Some(Ok(json)) => println!("{json}"),
        Some(Err(e)) => eprintln!("the rule could not be written as JSON: {e}"),
        None => return ExitCode::from(1),
    }
    ExitCode::SUCCESS
}
