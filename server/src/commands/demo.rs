//! `aca demo`: start the emulator, build sample resources through the signed OpenAPI, and show
//! what ActionTrail recorded. It is the main job until documentation verification arrives.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use serde_json::Value;

use crate::commands::console::{ServeArgs, start};
use aca_openapi::{AccessKeyPair, RpcClient};

/// Start the console emulator, create sample resources through the signed OpenAPI (a VPC and a
/// vSwitch, waiting out their Pending state, and whatever other products the emulator serves), then
/// print the console URL and the ActionTrail events the calls produced.
///
/// Example:
///   aca demo --out out/demo            # prints the events and writes out/demo/events.json
///   aca demo --serve --listen 127.0.0.1:8080   # keep the console running afterwards
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct DemoArgs {
    #[command(flatten)]
    serve: ServeArgs,
    /// Where to write events.json and credentials.json.
    #[arg(long, default_value = "out/demo")]
    out: PathBuf,
    /// Keep serving the console after the demo (Ctrl-C stops it).
    #[arg(long = "serve")]
    keep_serving: bool,
}

pub async fn run(mut args: DemoArgs) -> anyhow::Result<ExitCode> {
    if args.serve.listen.port() == 8080 && !args.keep_serving {
        args.serve.listen.set_port(0);
    }
    args.serve.transition_delay_ms = args.serve.transition_delay_ms.min(500);
    args.serve.lookup_qps = args.serve.lookup_qps.max(20.0);
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let started = start(&args.serve).await?;
    let creds = &started.credentials;
    aca_openapi::private_file::write(
        &args.out.join("credentials.json"),
        (serde_json::to_string_pretty(creds)? + "\n").as_bytes(),
    )?;
    println!("console emulator at {}", started.url);
    println!("  console login: {} / {}", creds.login, creds.password);

    let keys = AccessKeyPair {
        access_key_id: creds.access_key_id.clone(),
        access_key_secret: creds.access_key_secret.clone(),
    };
    let client = RpcClient::new(&started.url, keys)?;
    let vpc_version = version("vpc")?;
    let region = "cn-hangzhou";

    step("CreateVpc");
    let vpc = call(
        &client,
        &vpc_version,
        "CreateVpc",
        &[
            ("RegionId", region),
            ("VpcName", "demo-vpc"),
            ("CidrBlock", "192.168.0.0/16"),
        ],
    )
    .await?;
    let vpc_id = field(&vpc, "VpcId")?;
    wait_for(
        &client,
        &vpc_version,
        "DescribeVpcs",
        &[("RegionId", region), ("VpcId", &vpc_id)],
        "/Vpcs/Vpc/0/Status",
        "Available",
    )
    .await?;
    step("CreateVSwitch");
    let vsw = call(
        &client,
        &vpc_version,
        "CreateVSwitch",
        &[
            ("RegionId", region),
            ("VpcId", &vpc_id),
            ("ZoneId", "cn-hangzhou-h"),
            ("CidrBlock", "192.168.1.0/24"),
            ("VSwitchName", "demo-vsw"),
        ],
    )
    .await?;
    let vsw_id = field(&vsw, "VSwitchId")?;
    wait_for(
        &client,
        &vpc_version,
        "DescribeVSwitches",
        &[("RegionId", region), ("VSwitchId", &vsw_id)],
        "/VSwitches/VSwitch/0/Status",
        "Available",
    )
    .await?;
    if let Ok(ecs) = version("ecs") {
        step("CreateSecurityGroup");
        let sg = call(
            &client,
            &ecs,
            "CreateSecurityGroup",
            &[
                ("RegionId", region),
                ("VpcId", &vpc_id),
                ("SecurityGroupName", "demo-sg"),
            ],
        )
        .await?;
        let sg_id = field(&sg, "SecurityGroupId")?;
        step("RunInstances");
        call(
            &client,
            &ecs,
            "RunInstances",
            &[
                ("RegionId", region),
                ("ZoneId", "cn-hangzhou-h"),
                ("VSwitchId", &vsw_id),
                ("SecurityGroupId", &sg_id),
                ("InstanceType", "ecs.g7.large"),
                ("ImageId", "aliyun_3_x64_20G_alibase_20240528.vhd"),
                ("InstanceName", "demo-instance"),
            ],
        )
        .await?;
    }
    if let Ok(ram) = version("ram") {
        step("CreateUser");
        call(
            &client,
            &ram,
            "CreateUser",
            &[("UserName", "demo-user"), ("DisplayName", "Demo user")],
        )
        .await?;
    }

    step("LookupEvents");
    let events = call(
        &client,
        &version("actiontrail")?,
        "LookupEvents",
        &[("EventRW", "Write"), ("MaxResults", "50")],
    )
    .await?;
    let list = events
        .get("Events")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    println!("\nActionTrail events of account {} (newest first):", creds.account_id);
    println!(
        "  {:<20} {:<8} {:<22} {:<32} userAgent",
        "eventTime", "service", "eventName", "resource"
    );
    for e in &list {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let resources: Vec<&str> = e
            .get("referencedResources")
            .and_then(Value::as_object)
            .map(|m| {
                m.values()
                    .filter_map(Value::as_array)
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect()
            })
            .unwrap_or_default();
        let resource = resources.join(",");
        println!(
            "  {:<20} {:<8} {:<22} {:<32} {}",
            s("eventTime"),
            s("serviceName"),
            s("eventName"),
            resource,
            s("userAgent")
        );
    }
    let path = args.out.join("events.json");
    std::fs::write(&path, serde_json::to_string_pretty(&list)? + "\n")?;
    println!("\n{} events written to {}", list.len(), path.display());
    if list.is_empty() {
        bail!("ActionTrail recorded no events: the emulator is not auditing calls");
    }
    if args.keep_serving {
        println!("serving the console at {}/console until Ctrl-C", started.url);
        tokio::select! {
            result = started.server.wait() => { result.context("the server stopped")?; }
            _ = tokio::signal::ctrl_c() => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn version(code: &str) -> anyhow::Result<String> {
    aca_console::products::by_code(code)
        .map(|p| p.version.to_owned())
        .with_context(|| format!("the emulator does not serve the {code} product"))
}

fn step(action: &str) {
    println!("  → {action}");
}

async fn call(client: &RpcClient, version: &str, action: &str, params: &[(&str, &str)]) -> anyhow::Result<Value> {
    let params: BTreeMap<String, String> = params.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    client
        .call(version, action, &params)
        .await
        .with_context(|| format!("{action} failed"))
}

fn field(body: &Value, key: &str) -> anyhow::Result<String> {
    body.get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .with_context(|| format!("the response has no {key}: {body}"))
}

/// Polls a Describe call until the JSON pointer shows `want` (asynchronous states), for at most 10 s.
async fn wait_for(
    client: &RpcClient,
    version: &str,
    action: &str,
    params: &[(&str, &str)],
    pointer: &str,
    want: &str,
) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let body = call(client, version, action, params).await?;
        let status = body.pointer(pointer).and_then(Value::as_str).unwrap_or("").to_owned();
        if status == want {
            println!("    {pointer} = {status}");
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            bail!("{action}: {pointer} is still {status:?} after 10 s (wanted {want})");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
