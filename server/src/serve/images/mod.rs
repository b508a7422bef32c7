//! Images in requests (chat `image_url` parts, `/v1/generate`'s `images`) turned into the vision
//! encoder's input within the server's limits; every bad image is a typed 400 that says where it was.
//!
//! `source` reads the URL (`data:` or http(s)), `fetch` gets a remote one when the server allows it,
//! `decode` checks format and size before decoding; the checkpoint's processor does the rest.

mod decode;
mod fetch;
mod source;

use aca_model::{ImageProcessor, ModelError, ProcessedImage};

use self::source::{MediaType, Source};
use super::error::ApiError;

/// What the server accepts, from its flags.
#[derive(Debug, Clone, Copy)]
pub struct ImageLimits {
    /// Images in one request.
    pub max_images: usize,
    /// Width × height of one image as sent (before the processor resizes it).
    pub max_pixels: u64,
    /// Fetch http(s) image URLs; when false they are refused.
    pub allow_remote: bool,
    /// Bytes of one remote image.
    pub max_remote_bytes: usize,
}

/// Why one image cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageProblem {
    #[error(
        "remote image URLs are not fetched by this server; send the image inline as a base64 data: URL (data:image/png;base64,…), or start the server with --allow-remote-images"
    )]
    RemoteRefused,
    #[error("`{start}…` is not an image URL this server reads; send a base64 data: URL (data:image/png;base64,…)")]
    UnsupportedUrl { start: String },
    #[error("the data: URL is not base64-encoded; write it as data:image/png;base64,…")]
    NotBase64,
    #[error("the data: URL's base64 is corrupt: {reason}")]
    BadBase64 { reason: String },
    #[error("the media type `{declared}` is not one this server reads; send image/png or image/jpeg")]
    MediaType { declared: String },
    #[error("declared as {} but the bytes are {}", declared.name(), actual.name())]
    WrongMediaType { declared: MediaType, actual: MediaType },
    #[error("not a usable image: {reason}")]
    NotAnImage { reason: String },
    #[error(
        "the image is {width}×{height} = {} pixels; this server takes at most {limit} pixels per image (--max-image-pixels)",
        u64::from(*width) * u64::from(*height)
    )]
    TooManyPixels { width: u32, height: u32, limit: u64 },
    #[error("the image is larger than {limit} bytes")]
    TooManyBytes { limit: usize },
    #[error("fetching {url} failed: {reason}")]
    Fetch { url: String, reason: String },
    #[error("the model's image processor refused it: {problem}")]
    Unprocessable { problem: String },
}

impl ImageProblem {
    /// The error code clients can branch on.
    fn code(&self) -> &'static str {
        match self {
            ImageProblem::RemoteRefused => "remote_image_refused",
            ImageProblem::TooManyPixels { .. } | ImageProblem::TooManyBytes { .. } => "image_too_large",
            ImageProblem::Fetch { .. } => "image_fetch_failed",
            _ => "invalid_image",
        }
    }
}

/// An image problem and where in the request the image was (`messages[1].content[2]`, `images[0]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageError {
    pub at: String,
    pub problem: ImageProblem,
}

impl ImageError {
    /// As the 400 the route answers, `param` naming the request field.
    pub fn into_api(self, param: &'static str) -> ApiError {
        ApiError {
            code: Some(self.problem.code()),
            ..ApiError::invalid(format!("{}: {}", self.at, self.problem), Some(param))
        }
    }
}

/// The refusal of a request with more images than the server takes per request.
fn too_many_images(count: usize, limit: usize, param: &'static str) -> ApiError {
    ApiError {
        code: Some("too_many_images"),
        ..ApiError::invalid(
            format!(
                "the request holds {count} images; this server takes at most {limit} per request (--max-images-per-request)"
            ),
            Some(param),
        )
    }
}

/// Turns image URLs into processed images under [`ImageLimits`].
pub struct ImageInputs {
    pub limits: ImageLimits,
    /// For remote images; `None` unless they are allowed.
    client: Option<reqwest::Client>,
}

impl ImageInputs {
    pub fn new(limits: ImageLimits) -> anyhow::Result<Self> {
        let client = if limits.allow_remote {
            Some(fetch::client()?)
        } else {
            None
        };
        Ok(ImageInputs { limits, client })
    }

    /// A request's images at `urls` (each with where it is in the request), for a model with
    /// `processor` (`None`: it reads text only): refused when the model reads no images or there are
    /// more than the limit, else loaded in order. `param` names the request field in errors.
    pub async fn load_request(
        &self,
        processor: Option<&ImageProcessor>,
        urls: Vec<(String, String)>,
        param: &'static str,
    ) -> Result<Vec<ProcessedImage>, ApiError> {
        let Some((first, _)) = urls.first() else {
            return Ok(Vec::new());
        };
        let Some(processor) = processor else {
            return Err(ApiError::invalid(
                format!("{first}: this server's model reads text only, not images"),
                Some(param),
            ));
        };
        if urls.len() > self.limits.max_images {
            return Err(too_many_images(urls.len(), self.limits.max_images, param));
        }
        self.load_all(processor, urls)
            .await
            .map_err(|error| error.into_api(param))
    }

    /// Reads, fetches when allowed, decodes and processes the images at `urls` (each with where it
    /// was in the request), in order; the first bad one is the error.
    async fn load_all(
        &self,
        processor: &ImageProcessor,
        urls: Vec<(String, String)>,
    ) -> Result<Vec<ProcessedImage>, ImageError> {
        let mut images = Vec::with_capacity(urls.len());
        for (at, url) in urls {
            let image = self
                .load(processor, &url)
                .await
                .map_err(|problem| ImageError { at, problem })?;
            images.push(image);
        }
        Ok(images)
    }

    async fn load(&self, processor: &ImageProcessor, url: &str) -> Result<ProcessedImage, ImageProblem> {
        let (declared, bytes) = match source::parse(url)? {
            Source::Inline { media_type, bytes } => (Some(media_type), bytes),
            Source::Remote(address) => match &self.client {
                Some(client) => fetch::fetch(client, &address, self.limits.max_remote_bytes).await?,
                None => return Err(ImageProblem::RemoteRefused),
            },
        };
        let (processor, max_pixels) = (processor.clone(), self.limits.max_pixels);
        // Decoding and resizing are CPU work: off the async workers.
        tokio::task::spawn_blocking(move || {
            let image = decode::decode(&bytes, declared, max_pixels)?;
            processor.process(&image).map_err(|error| ImageProblem::Unprocessable {
                problem: match error {
                    ModelError::Image { problem } => problem,
                    other => other.to_string(),
                },
            })
        })
        .await
        .map_err(|error| ImageProblem::Unprocessable {
            problem: format!("processing stopped: {error}"),
        })?
    }
}
