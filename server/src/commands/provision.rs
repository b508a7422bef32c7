//! `aca provision plan|apply|verify|destroy <page>`: the Resource META of a page's task, created,
//! checked and removed through the emulator's signed OpenAPI (or a real `terraform`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use aca_provision::{
    AccessKey, Applier, EmulatorApplier, Meta, Progress, ProvisionError, ProvisionState, ResourceReport, Suffix,
    TerraformApplier, bindings, task,
};
use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};

use crate::commands::console::{ServeArgs, start};
use aca_openapi::client::AccessKeyPair;

/// Provision the resources a page's procedure needs (the `[meta]` of `<page>.task.toml`).
///
/// Without --console, the bundled emulator runs in-process (keep it between commands with
/// --emulator-db FILE); `apply` writes a state file under --state so that `verify` and `destroy`
/// work in a later invocation.
///
/// Examples:
///   aca provision plan tests/corpus/ecs/start-instance.md
///   aca provision apply tests/corpus/ecs/start-instance.md --emulator-db out/emu.db
///   aca provision destroy tests/corpus/ecs/start-instance.md --emulator-db out/emu.db
///   aca provision apply PAGE --console http://127.0.0.1:8080 --credentials creds.json
///   aca provision generate PAGE --write
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ProvisionArgs {
    #[command(subcommand)]
    command: ProvisionCommand,
}

#[derive(Debug, Subcommand)]
enum ProvisionCommand {
    /// Show what apply would create, in order.
    Plan(Target),
    /// Create the resources, wait for their states, verify them, print the resource report.
    Apply(Target),
    /// Check that the resources of an earlier apply exist with their key attributes.
    Verify(Target),
    /// Destroy the resources of an earlier apply, in reverse dependency order.
    Destroy(Target),
    /// Write the META of a page that has none, validated in a scratch account (--write stores it).
    Generate(super::provision_generate::GenerateArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Engine {
    /// Interpret the configuration against the OpenAPI (the emulator's, by default).
    Emulator,
    /// Run a real `terraform` or `tofu` binary.
    Terraform,
}

#[derive(Debug, Args)]
struct Target {
    /// The documentation page (its `.task.toml` is found beside it) or the task file itself.
    page: PathBuf,
    /// The console emulator (or OpenAPI endpoint) to provision in; default: start one in-process.
    #[arg(long)]
    console: Option<String>,
    /// SQLite file for the in-process emulator, so that later commands see the same resources.
    #[arg(long, default_value = "memory")]
    emulator_db: String,
    /// The account's AccessKey id (with --console).
    #[arg(long, env = "ALIBABA_CLOUD_ACCESS_KEY_ID", hide_env_values = true)]
    access_key_id: Option<String>,
    /// The account's AccessKey secret (with --console).
    #[arg(long, env = "ALIBABA_CLOUD_ACCESS_KEY_SECRET", hide_env_values = true)]
    access_key_secret: Option<String>,
    /// A credentials JSON file (as `aca console --credentials` writes) instead of the two keys.
    #[arg(long)]
    credentials: Option<PathBuf>,
    /// Where apply keeps its state file (`<page>.state.json`).
    #[arg(long, default_value = "out/provision")]
    state: PathBuf,
    /// The name suffix (`var.suffix`); default: a random one.
    #[arg(long)]
    suffix: Option<String>,
    /// Who applies the configuration.
    #[arg(long, value_enum, default_value = "emulator")]
    applier: Engine,
}

pub async fn run(args: ProvisionArgs) -> anyhow::Result<ExitCode> {
    let (verb, target) = match &args.command {
        ProvisionCommand::Plan(t) => ("plan", t),
        ProvisionCommand::Apply(t) => ("apply", t),
        ProvisionCommand::Verify(t) => ("verify", t),
        ProvisionCommand::Destroy(t) => ("destroy", t),
        ProvisionCommand::Generate(generate) => return super::provision_generate::run(generate).await,
    };
    let state_path = state_path(target);
    let suffix = match (&target.suffix, verb) {
        (Some(s), _) => {
            Suffix::parse(s).with_context(|| format!("--suffix {s:?}: use 1 to 16 lower-case letters and digits"))?
        }
        (None, "verify" | "destroy") if state_path.exists() => {
            let state = ProvisionState::load(&state_path)?;
            Suffix::parse(&state.suffix).with_context(|| format!("{}: bad suffix", state_path.display()))?
        }
        (None, _) => Suffix::random(),
    };
    let Some((task, meta)) = task::page_meta(&target.page, suffix)? else {
        println!(
            "{} declares no [meta]: the procedure starts from an empty account, nothing to provision",
            task::task_path(&target.page).display()
        );
        return Ok(ExitCode::SUCCESS);
    };
    println!(
        "{}: {} ({} product, region {}, suffix {})",
        task::task_path(&target.page).display(),
        meta.description,
        task.product,
        meta.region,
        meta.suffix
    );
    match target.applier {
        Engine::Terraform => {
            let applier = TerraformApplier::new(&target.state.join("terraform"));
            let applier = match (&target.access_key_id, &target.access_key_secret) {
                (Some(id), Some(secret)) => applier.with_key(&AccessKey {
                    access_key_id: id.clone(),
                    access_key_secret: secret.clone(),
                }),
                _ => applier,
            };
            act(&applier, verb, &meta, &state_path).await
        }
        Engine::Emulator => {
            let (endpoint, key, _server) = endpoint(target).await?;
            let applier = EmulatorApplier::new(&endpoint, key)?.with_progress(std::sync::Arc::new(show_progress));
            act(&applier, verb, &meta, &state_path).await
        }
    }
}

/// One line per step, as the emulator applier works.
fn show_progress(event: &Progress) {
    match event {
        Progress::Creating { address, operation } => println!("  → {operation} {address}"),
        Progress::Waiting {
            address,
            attribute,
            states,
        } => println!("    waiting for {address} {attribute} {}", states.join(" or ")),
        Progress::Created { address, id } => println!("    {address} = {id}"),
        Progress::Read { address } => println!("  → read {address}"),
        // Destroys are listed once they are all done.
        Progress::Destroyed { .. } => {}
    }
}

fn state_path(target: &Target) -> PathBuf {
    let name = target
        .page
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".task.toml")
        .or_else(|| name.rsplit_once('.').map(|(stem, _)| stem))
        .unwrap_or(&name)
        .to_owned();
    target.state.join(format!("{stem}.state.json"))
}

/// The endpoint and key to provision with; starts the in-process emulator when no --console is given
/// (the returned handle keeps it serving).
async fn endpoint(target: &Target) -> anyhow::Result<(String, AccessKey, Option<aca_console::Serving>)> {
    let given_key = match (&target.credentials, &target.access_key_id, &target.access_key_secret) {
        (Some(path), _, _) => {
            let pair = AccessKeyPair::from_file(path)?;
            Some(AccessKey {
                access_key_id: pair.access_key_id,
                access_key_secret: pair.access_key_secret,
            })
        }
        (None, Some(id), Some(secret)) => Some(AccessKey {
            access_key_id: id.clone(),
            access_key_secret: secret.clone(),
        }),
        (None, Some(_), None) | (None, None, Some(_)) => {
            bail!("give both --access-key-id and --access-key-secret (or --credentials FILE)")
        }
        (None, None, None) => None,
    };
    if let Some(console) = &target.console {
        let key = given_key.context(
            "--console needs the account's AccessKey: --access-key-id and --access-key-secret, or --credentials FILE",
        )?;
        return Ok((console.clone(), key, None));
    }
    let serve = ServeArgs {
        listen: "127.0.0.1:0".parse()?,
        db: target.emulator_db.clone(),
        profile: aca_console::ProfileId::Y2026,
        admin_token: None,
        credentials: None,
        delivery_delay_ms: 0,
        lookup_qps: 20.0,
        transition_delay_ms: 300,
        judges: None,
    };
    let started = start(&serve).await?;
    println!(
        "console emulator started in-process at {} (database: {})",
        started.url, target.emulator_db
    );
    let key = given_key.unwrap_or(AccessKey {
        access_key_id: started.credentials.access_key_id.clone(),
        access_key_secret: started.credentials.access_key_secret.clone(),
    });
    Ok((started.url, key, Some(started.server)))
}

async fn act<A: Applier>(applier: &A, verb: &str, meta: &Meta, state_path: &Path) -> anyhow::Result<ExitCode> {
    match verb {
        "plan" => {
            let plan = applier.plan(meta).await?;
            print!("{}", plan.to_text());
            Ok(ExitCode::SUCCESS)
        }
        "apply" => apply(applier, meta, state_path).await,
        "verify" => {
            let state = ProvisionState::load(state_path)
                .context("no state of an earlier apply (run `aca provision apply` first)")?;
            match applier.verify(meta, &state).await {
                Ok(report) => {
                    println!("verified: {} resources exist", report.resources.len());
                    for (resource, attribute, value) in &report.checked {
                        println!("  ✓ {resource} {attribute} = {value}");
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Err(ProvisionError::Verify { failures }) => {
                    println!("verification failed:");
                    for failure in &failures {
                        println!("  ✗ {failure}");
                    }
                    Ok(ExitCode::from(1))
                }
                Err(e) => Err(e.into()),
            }
        }
        _ => {
            let mut state =
                ProvisionState::load(state_path).context("no state of an earlier apply: nothing to destroy")?;
            let report = applier.destroy(&mut state).await;
            for address in &report.destroyed {
                println!("  destroyed {address}");
            }
            for address in &report.already_gone {
                println!("  already gone {address}");
            }
            if report.failures.is_empty() {
                std::fs::remove_file(state_path).with_context(|| format!("removing {}", state_path.display()))?;
                println!("destroyed {} resources", report.destroyed.len());
                Ok(ExitCode::SUCCESS)
            } else {
                state.save(state_path)?;
                for failure in &report.failures {
                    println!("  ✗ {failure}");
                }
                bail!(
                    "{} resources could not be destroyed; they stay in {} for another destroy",
                    report.failures.len(),
                    state_path.display()
                )
            }
        }
    }
}

async fn apply<A: Applier>(applier: &A, meta: &Meta, state_path: &Path) -> anyhow::Result<ExitCode> {
    if state_path.exists() {
        bail!(
            "{} holds an earlier apply: destroy it first (aca provision destroy)",
            state_path.display()
        );
    }
    let plan = applier.plan(meta).await?;
    print!("{}", plan.to_text());
    let state = applier.apply(meta).await?;
    state.save(state_path)?;
    for record in state.created() {
        println!("  created {} {}", record.address, record.id);
    }
    let verified = applier.verify(meta, &state).await;
    let report = ResourceReport::new(&meta.description, &state, &meta.key_attributes);
    println!();
    print!("{}", report.to_text());
    println!("\nbindings:");
    let b: BTreeMap<String, String> = bindings(&state);
    for (name, value) in &b {
        println!("  {name} = {value}");
    }
    println!("\nstate: {}", state_path.display());
    match verified {
        Ok(v) => {
            println!("verified: {} key attributes hold", v.checked.len());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            println!("{e}");
            Ok(ExitCode::from(1))
        }
    }
}
