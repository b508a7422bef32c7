//! The Rust image processor against `transformers`' Qwen2VLImageProcessor (the Qwen3-VL processor's image
//! part): resize targets, grids and pixel values for PNG and JPEG images of four sizes.

mod vl_support;

use aca_model::ModelError;
use aca_model::vl::{ImageProcessor, ImageProcessorConfig, smart_resize};
use serde::Deserialize;
use vl_support::{ReferenceTensors, fixture_dir, max_abs_diff};

#[derive(Debug, Deserialize)]
struct ProcessorReference {
    images: Vec<ImageReference>,
    smart_resize: Vec<ResizeCase>,
}

#[derive(Debug, Deserialize)]
struct ImageReference {
    file: String,
    height: usize,
    width: usize,
    resized: [usize; 2],
    grid_thw: [usize; 3],
}

#[derive(Debug, Deserialize)]
struct ResizeCase {
    height: usize,
    width: usize,
    min_pixels: usize,
    max_pixels: usize,
    factor: usize,
    resized: Option<[usize; 2]>,
}

fn reference() -> ProcessorReference {
    let text = std::fs::read_to_string(fixture_dir("vl_processor").join("reference.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn processor() -> ImageProcessor {
    let config =
        ImageProcessorConfig::from_file(&fixture_dir("vl_processor").join("preprocessor_config.json")).unwrap();
    ImageProcessor::new(config)
}

#[test]
fn smart_resize_matches_the_reference_for_every_size() {
    for case in reference().smart_resize {
        let actual = smart_resize(case.height, case.width, case.factor, case.min_pixels, case.max_pixels);
        let what = format!(
            "{}×{} within [{}, {}]",
            case.height, case.width, case.min_pixels, case.max_pixels
        );
        match (actual, case.resized) {
            (Ok((height, width)), Some(expected)) => assert_eq!([height, width], expected, "{what}"),
            (Err(ModelError::Image { .. }), None) => {}
            (actual, expected) => panic!("{what}: got {actual:?}, the reference {expected:?}"),
        }
    }
}

/// One 8-bit level of the reference's pixel values (normalised to [-1, 1] by mean and std 0.5).
const ONE_LEVEL: f32 = 1.0 / 127.5;

/// How far apart two JPEG decoders may put a pixel: the reference decodes with libjpeg (through PIL), the
/// `image` crate with zune-jpeg, and their IDCT and chroma upsampling round differently.
const JPEG_DECODER_LEVELS: f32 = 6.0;

struct Comparison {
    largest: f32,
    identical: f64,
}

fn compare(actual: &[f32], expected: &[f32]) -> Comparison {
    let same = actual
        .iter()
        .zip(expected)
        .filter(|(a, b)| (*a - *b).abs() <= 1e-6)
        .count();
    Comparison {
        largest: max_abs_diff(actual, expected),
        identical: same as f64 / expected.len() as f64,
    }
}

#[test]
fn pixel_values_and_grids_match_the_reference() {
    let processor = processor();
    let tensors = ReferenceTensors::open("vl_processor");
    for image in reference().images {
        let processed = processor
            .process_file(&fixture_dir("vl_processor").join(&image.file))
            .unwrap();
        let grid = processed.grid;
        assert_eq!([grid.t, grid.h, grid.w], image.grid_thw, "{}", image.file);
        assert_eq!([grid.h * 16, grid.w * 16], image.resized, "{}", image.file);
        let expected = tensors.get(&format!("pixel_values.{}", image.file));
        assert_eq!(expected.shape, vec![grid.patches(), 1536], "{}", image.file);
        let comparison = compare(&processed.pixel_values, &expected.values);
        eprintln!(
            "{} ({}×{} → {}×{}): max difference {:e} ({:.2} levels), {:.2}% identical",
            image.file,
            image.height,
            image.width,
            image.resized[0],
            image.resized[1],
            comparison.largest,
            comparison.largest / ONE_LEVEL,
            comparison.identical * 100.0
        );
        if image.file.ends_with(".jpg") {
            assert!(
                comparison.largest <= JPEG_DECODER_LEVELS * ONE_LEVEL,
                "{}: off by {:e}",
                image.file,
                comparison.largest
            );
            // The reference decoder's own pixels, stored losslessly, must give exactly its values.
            let decoded = fixture_dir("vl_processor").join(image.file.replace(".jpg", ".decoded.png"));
            let exact = processor.process_file(&decoded).unwrap();
            let comparison = compare(&exact.pixel_values, &expected.values);
            assert!(
                comparison.largest <= 1e-6,
                "{}: decoded by the reference, off by {:e}",
                image.file,
                comparison.largest
            );
        } else {
            assert!(
                comparison.largest <= 1e-6,
                "{}: off by {:e}",
                image.file,
                comparison.largest
            );
        }
    }
}

#[test]
fn undecodable_and_degenerate_images_are_errors() {
    let processor = processor();
    let garbage = processor.process_encoded(b"not an image").unwrap_err();
    assert!(matches!(garbage, ModelError::Image { .. }), "{garbage}");
    let thin = image::DynamicImage::ImageRgb8(image::RgbImage::new(1, 300));
    let error = processor.process(&thin).unwrap_err().to_string();
    assert!(error.contains("aspect ratio"), "{error}");
    let empty = image::DynamicImage::ImageRgb8(image::RgbImage::new(0, 0));
    assert!(matches!(processor.process(&empty), Err(ModelError::Image { .. })));
}
