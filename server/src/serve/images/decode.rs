//! Encoded image bytes to pixels, safely: the format is read from the bytes (PNG or JPEG) and must be
//! the one declared, and the size is read from the header and held to the pixel limit before anything
//! is decoded, so a small file that unpacks to a huge image costs nothing.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, ImageReader, Limits};

use super::ImageProblem;
use super::source::MediaType;

/// Decodes `bytes`, which `declared` (when known) says are PNG or JPEG, holding the image to
/// `max_pixels` (width × height).
pub fn decode(bytes: &[u8], declared: Option<MediaType>, max_pixels: u64) -> Result<DynamicImage, ImageProblem> {
    let actual = match image::guess_format(bytes) {
        Ok(ImageFormat::Png) => MediaType::Png,
        Ok(ImageFormat::Jpeg) => MediaType::Jpeg,
        Ok(other) => {
            return Err(ImageProblem::NotAnImage {
                reason: format!("{other:?} images are not read here; send PNG or JPEG"),
            });
        }
        Err(_) => {
            return Err(ImageProblem::NotAnImage {
                reason: "the bytes are neither PNG nor JPEG".to_owned(),
            });
        }
    };
    if let Some(declared) = declared
        && declared != actual
    {
        return Err(ImageProblem::WrongMediaType { declared, actual });
    }
    let format = match actual {
        MediaType::Png => ImageFormat::Png,
        MediaType::Jpeg => ImageFormat::Jpeg,
    };
    let not_an_image = |error: image::ImageError| ImageProblem::NotAnImage {
        reason: error.to_string(),
    };
    // Only the header is read here, so no allocation limit is needed yet.
    let mut header = ImageReader::with_format(Cursor::new(bytes), format);
    header.no_limits();
    let (width, height) = header.into_dimensions().map_err(not_an_image)?;
    let pixels = u64::from(width) * u64::from(height);
    if pixels > max_pixels {
        return Err(ImageProblem::TooManyPixels {
            width,
            height,
            limit: max_pixels,
        });
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(width);
    limits.max_image_height = Some(height);
    reader.limits(limits);
    reader.decode().map_err(not_an_image)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        DynamicImage::new_rgb8(width, height)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .unwrap();
        bytes
    }

    #[test]
    fn a_png_within_the_limit_decodes() {
        let image = decode(&png(40, 30), Some(MediaType::Png), 1200).unwrap();
        assert_eq!((image.width(), image.height()), (40, 30));
    }

    #[test]
    fn bad_bytes_are_typed_problems() {
        assert!(matches!(
            decode(&png(40, 30), None, 1199),
            Err(ImageProblem::TooManyPixels {
                width: 40,
                height: 30,
                limit: 1199
            })
        ));
        assert!(matches!(
            decode(&png(4, 4), Some(MediaType::Jpeg), 100),
            Err(ImageProblem::WrongMediaType {
                declared: MediaType::Jpeg,
                actual: MediaType::Png
            })
        ));
        assert!(matches!(
            decode(b"plain text, not an image", None, 100),
            Err(ImageProblem::NotAnImage { .. })
        ));
        assert!(matches!(
            decode(b"GIF89a\x01\x00\x01\x00", None, 100),
            Err(ImageProblem::NotAnImage { reason }) if reason.contains("Gif")
        ));
        // A PNG cut short after its header: the size is read, the pixels are not there.
        let truncated = &png(16, 16)[..40];
        assert!(matches!(
            decode(truncated, Some(MediaType::Png), 1000),
            Err(ImageProblem::NotAnImage { .. })
        ));
    }
}
