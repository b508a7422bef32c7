//! `aca api`: call any product's OpenAPI with a signed request, like the cloud's own CLI.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;

use aca_openapi::{AccessKeyPair, ClientError, RpcClient};

/// Call a product's OpenAPI operation with an AccessKey-signed request and print the JSON answer.
///
/// PRODUCT is the short code (vpc, ecs, ram, rds, slb, kms, alidns, cms, kvstore, actiontrail…) or
/// an API version (2016-04-28). Parameters are Key=Value pairs, exactly as the API names them.
/// Exit status: 0 success, 1 the API returned an error, 2 the call could not be made.
///
/// Example:
///   aca api --credentials creds.json vpc CreateVpc RegionId=cn-hangzhou VpcName=demo CidrBlock=192.168.0.0/16
///   aca api --credentials creds.json actiontrail LookupEvents LookupAttribute.1.Key=EventName LookupAttribute.1.Value=CreateVpc
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ApiArgs {
    /// The OpenAPI endpoint: the emulator's URL, or a product endpoint of the real cloud.
    #[arg(long, default_value = "http://127.0.0.1:8080", env = "ACA_ENDPOINT")]
    endpoint: String,
    /// A JSON file with accessKeyId and accessKeySecret (as `aca console --credentials` writes).
    #[arg(long, env = "ACA_CREDENTIALS")]
    credentials: PathBuf,
    /// Product code or API version.
    product: String,
    /// The operation, e.g. DescribeVpcs.
    action: String,
    /// Request parameters as Key=Value.
    params: Vec<String>,
}

pub async fn run(args: ApiArgs) -> anyhow::Result<ExitCode> {
    let version = match aca_console::products::by_code(&args.product) {
        Some(product) => product.version.to_owned(),
        None if args.product.chars().next().is_some_and(|c| c.is_ascii_digit()) => args.product.clone(),
        None => {
            let known: Vec<&str> = aca_console::products::PRODUCTS.iter().map(|p| p.code).collect();
            bail!("unknown product {:?}; known: {}", args.product, known.join(", "));
        }
    };
    let mut params = BTreeMap::new();
    for pair in &args.params {
        let (k, v) = pair
            .split_once('=')
            .with_context(|| format!("parameter {pair:?} is not Key=Value"))?;
        params.insert(k.to_owned(), v.to_owned());
    }
    let client = RpcClient::new(&args.endpoint, AccessKeyPair::from_file(&args.credentials)?)?;
    match client.call(&version, &args.action, &params).await {
        Ok(body) => {
            println!("{}", serde_json::to_string_pretty(&body)?);
            Ok(ExitCode::SUCCESS)
        }
        Err(ClientError::Api(failure)) => {
            eprintln!("{failure}");
            Ok(ExitCode::from(1))
        }
        Err(other) => Err(other.into()),
    }
}
