//! Remote images, for servers started with `--allow-remote-images`: one GET with a deadline, read no
//! further than the size limit.

use std::time::Duration;

use super::ImageProblem;
use super::source::MediaType;

/// How long one remote image may take, connection to last byte.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The HTTP client remote images are fetched with.
pub fn client() -> anyhow::Result<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(FETCH_TIMEOUT)
        .redirect(reqwest::redirect::Policy::limited(3))
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the HTTP client for remote images: {e}"))
}

/// The body at `url` (at most `max_bytes`), with the media type the server declared when it is one
/// the server reads.
pub async fn fetch(
    client: &reqwest::Client,
    url: &str,
    max_bytes: usize,
) -> Result<(Option<MediaType>, Vec<u8>), ImageProblem> {
    let failed = |reason: String| ImageProblem::Fetch {
        url: url.chars().take(200).collect(),
        reason,
    };
    let too_big = || ImageProblem::TooManyBytes { limit: max_bytes };
    let mut response = client.get(url).send().await.map_err(|e| failed(e.to_string()))?;
    if !response.status().is_success() {
        return Err(failed(format!("the server answered {}", response.status())));
    }
    if response
        .content_length()
        .is_some_and(|length| length > max_bytes as u64)
    {
        return Err(too_big());
    }
    let declared = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(MediaType::parse);
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| failed(e.to_string()))? {
        if body.len() + chunk.len() > max_bytes {
            return Err(too_big());
        }
        body.extend_from_slice(&chunk);
    }
    Ok((declared, body))
}
