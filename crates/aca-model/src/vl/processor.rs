//! The Qwen3-VL image processor: decodes an image, resizes it to a multiple of patch × merge pixels within
//! the configured pixel limits, normalises it and lays it out as flattened patches in the order the vision
//! encoder reads them, as `transformers`' `Qwen2VLImageProcessor` does.

use std::path::Path;

use image::{DynamicImage, RgbImage};
use serde_json::{Map, Value};

use crate::error::ModelError;
use crate::vl::resample::resize_bicubic;

/// The processor's configuration file in a checkpoint directory.
pub const PREPROCESSOR_FILE: &str = "preprocessor_config.json";

/// `max(height, width) / min(height, width)` above this is refused, as the reference refuses it.
const MAX_ASPECT_RATIO: f64 = 200.0;

/// An image's size in patches: `t` frames (1 for a still image) of `h × w` patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageGrid {
    pub t: usize,
    pub h: usize,
    pub w: usize,
}

impl ImageGrid {
    /// Number of patches (rows of [`ProcessedImage::pixel_values`]).
    pub fn patches(&self) -> usize {
        self.t * self.h * self.w
    }
}

/// An image ready for the vision encoder.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessedImage {
    /// `[grid.patches(), channels · temporal_patch_size · patch_size²]`, row-major. Rows run over
    /// merge blocks (block row, block column, then the patches inside a block row by row); each row
    /// holds channel, frame, patch row, patch column, in that order.
    pub pixel_values: Vec<f32>,
    pub grid: ImageGrid,
}

/// The processor's settings (`preprocessor_config.json`); fields the file leaves out take the defaults
/// of `transformers`' `Qwen2VLImageProcessor`.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageProcessorConfig {
    pub do_resize: bool,
    /// Fewest pixels after resizing (`size.shortest_edge`, or `min_pixels`).
    pub min_pixels: usize,
    /// Most pixels after resizing (`size.longest_edge`, or `max_pixels`).
    pub max_pixels: usize,
    pub do_rescale: bool,
    pub rescale_factor: f64,
    pub do_normalize: bool,
    pub image_mean: [f32; 3],
    pub image_std: [f32; 3],
    pub patch_size: usize,
    pub temporal_patch_size: usize,
    pub merge_size: usize,
}

impl Default for ImageProcessorConfig {
    fn default() -> Self {
        Self {
            do_resize: true,
            min_pixels: 56 * 56,
            max_pixels: 28 * 28 * 1280,
            do_rescale: true,
            rescale_factor: 1.0 / 255.0,
            do_normalize: true,
            image_mean: [0.481_454_66, 0.457_827_5, 0.408_210_73],
            image_std: [0.268_629_54, 0.261_302_6, 0.275_777_1],
            patch_size: 14,
            temporal_patch_size: 2,
            merge_size: 2,
        }
    }
}

impl ImageProcessorConfig {
    /// Reads `preprocessor_config.json` at `path`.
    pub fn from_file(path: &Path) -> Result<Self, ModelError> {
        let text = std::fs::read_to_string(path).map_err(|source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_json_str(&text).map_err(|error| match error {
            ModelError::Config { problems, .. } => ModelError::Config {
                path: Some(path.to_path_buf()),
                problems,
            },
            other => other,
        })
    }

    /// Parses a `preprocessor_config.json` document; every problem found is reported at once.
    pub fn from_json_str(text: &str) -> Result<Self, ModelError> {
        let root: Map<String, Value> = match serde_json::from_str(text) {
            Ok(Value::Object(root)) => root,
            Ok(_) => return Err(config_error(vec!["the top level is not a JSON object".to_string()])),
            Err(error) => return Err(config_error(vec![format!("not valid JSON: {error}")])),
        };
        let mut problems = Vec::new();
        let mut config = Self::default();
        let mut flag = |field: &str, target: &mut bool| match root.get(field) {
            None | Some(Value::Null) => {}
            Some(Value::Bool(value)) => *target = *value,
            Some(other) => problems.push(format!("`{field}` must be true or false, found {other}")),
        };
        flag("do_resize", &mut config.do_resize);
        flag("do_rescale", &mut config.do_rescale);
        flag("do_normalize", &mut config.do_normalize);
        let mut count = |field: &str, value: Option<&Value>, target: &mut usize| match value {
            None | Some(Value::Null) => {}
            Some(value) => match value.as_u64().and_then(|number| usize::try_from(number).ok()) {
                Some(number) if number > 0 => *target = number,
                _ => problems.push(format!("`{field}` must be a positive integer, found {value}")),
            },
        };
        let size = root.get("size").and_then(Value::as_object);
        count("min_pixels", root.get("min_pixels"), &mut config.min_pixels);
        count("max_pixels", root.get("max_pixels"), &mut config.max_pixels);
        count(
            "size.shortest_edge",
            size.and_then(|size| size.get("shortest_edge")),
            &mut config.min_pixels,
        );
        count(
            "size.longest_edge",
            size.and_then(|size| size.get("longest_edge")),
            &mut config.max_pixels,
        );
        count("patch_size", root.get("patch_size"), &mut config.patch_size);
        count(
            "temporal_patch_size",
            root.get("temporal_patch_size"),
            &mut config.temporal_patch_size,
        );
        count("merge_size", root.get("merge_size"), &mut config.merge_size);
        match root.get("rescale_factor") {
            None | Some(Value::Null) => {}
            Some(value) => match value.as_f64() {
                Some(factor) if factor > 0.0 && factor.is_finite() => config.rescale_factor = factor,
                _ => problems.push(format!("`rescale_factor` must be a positive number, found {value}")),
            },
        }
        for (field, target) in [
            ("image_mean", &mut config.image_mean),
            ("image_std", &mut config.image_std),
        ] {
            match root.get(field) {
                None | Some(Value::Null) => {}
                Some(value) => match channel_values(value) {
                    Some(values) => *target = values,
                    None => problems.push(format!("`{field}` must be one number or three, found {value}")),
                },
            }
        }
        if config.image_std.iter().any(|&std| std <= 0.0 || !std.is_finite()) {
            problems.push(format!("`image_std` must be positive, found {:?}", config.image_std));
        }
        if config.min_pixels > config.max_pixels {
            problems.push(format!(
                "the fewest pixels ({}) exceed the most ({})",
                config.min_pixels, config.max_pixels
            ));
        }
        if let Some(resample) = root.get("resample")
            && resample.as_u64() != Some(3)
        {
            problems.push(format!("`resample` is {resample}; only bicubic (3) is implemented"));
        }
        if problems.is_empty() {
            Ok(config)
        } else {
            Err(config_error(problems))
        }
    }

    /// Side, in pixels, that resized images are a multiple of: patch × merge.
    pub fn factor(&self) -> usize {
        self.patch_size * self.merge_size
    }

    /// Values in one flattened patch (three colour channels).
    pub fn patch_values(&self) -> usize {
        3 * self.temporal_patch_size * self.patch_size * self.patch_size
    }
}

fn channel_values(value: &Value) -> Option<[f32; 3]> {
    match value {
        Value::Array(items) if items.len() == 3 => {
            let values: Option<Vec<f32>> = items.iter().map(|item| item.as_f64().map(|v| v as f32)).collect();
            values.map(|values| [values[0], values[1], values[2]])
        }
        other => other.as_f64().map(|value| [value as f32; 3]),
    }
}

fn config_error(problems: Vec<String>) -> ModelError {
    ModelError::Config { path: None, problems }
}

fn image_error(problem: String) -> ModelError {
    ModelError::Image { problem }
}

/// The target `(height, width)` for an image of `height × width` pixels: both multiples of `factor`,
/// the pixel count within `[min_pixels, max_pixels]`, the aspect ratio kept as closely as possible.
///
/// Rounding follows the reference exactly (Python's `round` breaks ties to even). An empty image, one
/// more than 200 times longer than wide, or one that would be resized to nothing is refused.
pub fn smart_resize(
    height: usize,
    width: usize,
    factor: usize,
    min_pixels: usize,
    max_pixels: usize,
) -> Result<(usize, usize), ModelError> {
    if height == 0 || width == 0 {
        return Err(image_error(format!("the image is empty ({width}×{height} pixels)")));
    }
    let (h, w, f) = (height as f64, width as f64, factor as f64);
    let ratio = h.max(w) / h.min(w);
    if ratio > MAX_ASPECT_RATIO {
        return Err(image_error(format!(
            "the image's aspect ratio {ratio:.1} ({width}×{height} pixels) exceeds {MAX_ASPECT_RATIO}"
        )));
    }
    let mut h_bar = (h / f).round_ties_even() * f;
    let mut w_bar = (w / f).round_ties_even() * f;
    if h_bar * w_bar > max_pixels as f64 {
        let beta = ((h * w) / max_pixels as f64).sqrt();
        h_bar = f.max((h / beta / f).floor() * f);
        w_bar = f.max((w / beta / f).floor() * f);
    } else if h_bar * w_bar < min_pixels as f64 {
        let beta = (min_pixels as f64 / (h * w)).sqrt();
        h_bar = (h * beta / f).ceil() * f;
        w_bar = (w * beta / f).ceil() * f;
    }
    if h_bar < f || w_bar < f {
        return Err(image_error(format!(
            "the image ({width}×{height} pixels) resizes to {w_bar}×{h_bar}, smaller than one {factor}-pixel block"
        )));
    }
    Ok((h_bar as usize, w_bar as usize))
}

/// Turns images into the vision encoder's input.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageProcessor {
    config: ImageProcessorConfig,
}

impl ImageProcessor {
    pub fn new(config: ImageProcessorConfig) -> Self {
        Self { config }
    }

    pub fn config(&self) -> &ImageProcessorConfig {
        &self.config
    }

    /// Decodes and processes a PNG or JPEG file.
    pub fn process_file(&self, path: &Path) -> Result<ProcessedImage, ModelError> {
        let bytes = std::fs::read(path).map_err(|source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        self.process_encoded(&bytes).map_err(|error| match error {
            ModelError::Image { problem } => image_error(format!("{}: {problem}", path.display())),
            other => other,
        })
    }

    /// Decodes and processes an encoded image (PNG or JPEG, recognised by its content).
    pub fn process_encoded(&self, bytes: &[u8]) -> Result<ProcessedImage, ModelError> {
        let decoded = image::load_from_memory(bytes).map_err(|error| image_error(format!("cannot decode: {error}")))?;
        self.process(&decoded)
    }

    /// Processes a decoded image. Transparency is composited onto white and grey becomes RGB, as the
    /// reference converts images to RGB.
    pub fn process(&self, image: &DynamicImage) -> Result<ProcessedImage, ModelError> {
        let rgb = to_rgb(image);
        let config = &self.config;
        let (height, width) = (rgb.height() as usize, rgb.width() as usize);
        let (height, width) = if config.do_resize {
            smart_resize(height, width, config.factor(), config.min_pixels, config.max_pixels)?
        } else {
            (height, width)
        };
        if !height.is_multiple_of(config.factor()) || !width.is_multiple_of(config.factor()) {
            return Err(image_error(format!(
                "without resizing, the image ({width}×{height} pixels) must be a multiple of {} pixels on each side",
                config.factor()
            )));
        }
        let resized = if (height, width) == (rgb.height() as usize, rgb.width() as usize) {
            rgb
        } else {
            let (Ok(new_width), Ok(new_height)) = (u32::try_from(width), u32::try_from(height)) else {
                return Err(image_error(format!("cannot resize to {width}×{height} pixels")));
            };
            resize_bicubic(&rgb, new_width, new_height)
        };
        Ok(self.patchify(&self.normalise(&resized)))
    }

    /// Per channel planes of normalised values: `[3][height · width]`.
    fn normalise(&self, image: &RgbImage) -> NormalisedImage {
        let config = &self.config;
        // The reference folds rescaling into the mean and standard deviation (both divided by the
        // rescale factor) and normalises in f32; so does this.
        let (scale, mean, std): (f32, [f32; 3], [f32; 3]) = match (config.do_rescale, config.do_normalize) {
            (true, true) => {
                let inverse = (1.0 / config.rescale_factor) as f32;
                (
                    1.0,
                    config.image_mean.map(|m| m * inverse),
                    config.image_std.map(|s| s * inverse),
                )
            }
            (false, true) => (1.0, config.image_mean, config.image_std),
            (true, false) => (config.rescale_factor as f32, [0.0; 3], [1.0; 3]),
            (false, false) => (1.0, [0.0; 3], [1.0; 3]),
        };
        let planes = std::array::from_fn(|channel| {
            image
                .pixels()
                .map(|pixel| {
                    let value = f32::from(pixel.0[channel]);
                    if config.do_normalize {
                        (value - mean[channel]) / std[channel]
                    } else {
                        value * scale
                    }
                })
                .collect()
        });
        NormalisedImage {
            planes,
            height: image.height() as usize,
            width: image.width() as usize,
        }
    }

    /// Cuts the image into patches, ordered merge block by merge block, each repeated over the frames.
    fn patchify(&self, image: &NormalisedImage) -> ProcessedImage {
        let config = &self.config;
        let (patch, merge, frames) = (config.patch_size, config.merge_size, config.temporal_patch_size);
        let grid = ImageGrid {
            t: 1,
            h: image.height / patch,
            w: image.width / patch,
        };
        let mut values = Vec::with_capacity(grid.patches() * config.patch_values());
        for block_row in 0..grid.h / merge {
            for block_column in 0..grid.w / merge {
                for inner_row in 0..merge {
                    for inner_column in 0..merge {
                        let top = (block_row * merge + inner_row) * patch;
                        let left = (block_column * merge + inner_column) * patch;
                        for plane in &image.planes {
                            for _ in 0..frames {
                                for row in top..top + patch {
                                    let start = row * image.width + left;
                                    values.extend_from_slice(&plane[start..start + patch]);
                                }
                            }
                        }
                    }
                }
            }
        }
        ProcessedImage {
            pixel_values: values,
            grid,
        }
    }
}

struct NormalisedImage {
    planes: [Vec<f32>; 3],
    height: usize,
    width: usize,
}

/// RGB with transparency composited onto white, as `transformers` converts a PIL image with alpha
/// (PIL's integer `alpha_composite` over an opaque white background).
fn to_rgb(image: &DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    let mut rgb = RgbImage::new(rgba.width(), rgba.height());
    for (target, source) in rgb.pixels_mut().zip(rgba.pixels()) {
        let [red, green, blue, alpha] = source.0;
        target.0 = [red, green, blue].map(|channel| over_white(channel, alpha));
    }
    rgb
}

/// One channel of PIL's `alpha_composite(white, pixel)`: fixed point with 7 fractional bits and its
/// division by 255 as `((x >> 8) + x) >> 8`.
fn over_white(channel: u8, alpha: u8) -> u8 {
    const PRECISION_BITS: u32 = 7;
    let (channel, alpha) = (u32::from(channel), u32::from(alpha));
    let coefficient_source = alpha << PRECISION_BITS;
    let coefficient_white = (255 - alpha) << PRECISION_BITS;
    let blended = channel * coefficient_source + 255 * coefficient_white + (0x80 << PRECISION_BITS);
    let divided = ((blended >> 8) + blended) >> 8;
    (divided >> PRECISION_BITS).min(255) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_resize_breaks_ties_to_even_and_keeps_limits() {
        // 48 / 32 = 1.5 rounds to 2, 80 / 32 = 2.5 rounds to 2.
        assert_eq!(smart_resize(48, 80, 32, 1, 1 << 30).unwrap(), (64, 64));
        assert_eq!(smart_resize(64, 96, 32, 4096, 16384).unwrap(), (64, 96));
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert!(matches!(
            smart_resize(0, 10, 32, 4096, 16384),
            Err(ModelError::Image { .. })
        ));
        let long = smart_resize(10, 2010, 32, 4096, 16384).unwrap_err().to_string();
        assert!(long.contains("aspect ratio"), "{long}");
        let none = smart_resize(10, 10, 32, 0, 16384).unwrap_err().to_string();
        assert!(none.contains("smaller than one 32-pixel block"), "{none}");
    }

    #[test]
    fn compositing_over_white_matches_the_closed_form() {
        assert_eq!(over_white(10, 255), 10);
        assert_eq!(over_white(10, 0), 255);
        for (channel, alpha) in [(0u8, 128u8), (200, 64), (77, 1), (255, 254)] {
            let exact = (f64::from(channel) * f64::from(alpha) + 255.0 * (255.0 - f64::from(alpha))) / 255.0;
            assert!((f64::from(over_white(channel, alpha)) - exact).abs() <= 0.5 + 1e-9);
        }
    }

    #[test]
    fn reads_the_qwen3_vl_processor_file_and_refuses_bad_fields() {
        let config = ImageProcessorConfig::from_json_str(
            r#"{"size": {"longest_edge": 16777216, "shortest_edge": 65536}, "patch_size": 16,
                "image_mean": [0.5, 0.5, 0.5], "image_std": 0.5, "resample": 3}"#,
        )
        .unwrap();
        assert_eq!(
            (config.min_pixels, config.max_pixels, config.factor()),
            (65536, 16777216, 32)
        );
        assert_eq!(config.image_std, [0.5; 3]);
        let error = ImageProcessorConfig::from_json_str(r#"{"patch_size": 0, "image_mean": [1, 2], "resample": 2}"#)
            .unwrap_err()
            .to_string();
        for expected in ["`patch_size`", "`image_mean`", "only bicubic"] {
            assert!(error.contains(expected), "{expected} not in {error}");
        }
    }

    #[test]
    fn patches_follow_merge_blocks_and_repeat_over_frames() {
        let processor = ImageProcessor::new(ImageProcessorConfig {
            do_resize: false,
            do_normalize: false,
            do_rescale: false,
            patch_size: 1,
            merge_size: 2,
            temporal_patch_size: 2,
            ..ImageProcessorConfig::default()
        });
        // A 2×4 image whose red channel numbers the pixels row by row.
        let image = RgbImage::from_fn(4, 2, |x, y| image::Rgb([(y * 4 + x) as u8, 0, 100]));
        let processed = processor.process(&DynamicImage::ImageRgb8(image)).unwrap();
        assert_eq!(processed.grid, ImageGrid { t: 1, h: 2, w: 4 });
        let reds: Vec<f32> = processed.pixel_values.chunks(6).map(|patch| patch[0]).collect();
        assert_eq!(reds, vec![0.0, 1.0, 4.0, 5.0, 2.0, 3.0, 6.0, 7.0]);
        assert_eq!(&processed.pixel_values[..6], &[0.0, 0.0, 0.0, 0.0, 100.0, 100.0]);
    }
}
