//! Where an image URL points: the bytes of a base64 `data:` URL with the media type it declares, or a
//! remote http(s) address; anything else is refused.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use super::ImageProblem;

/// The image formats the server decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    Png,
    Jpeg,
}

impl MediaType {
    /// `image/png`, `image/jpeg` (or the common `image/jpg`), in any case; parameters after `;` ignored.
    pub fn parse(text: &str) -> Option<Self> {
        let essence = text.split(';').next().unwrap_or_default().trim();
        if essence.eq_ignore_ascii_case("image/png") {
            Some(MediaType::Png)
        } else if essence.eq_ignore_ascii_case("image/jpeg") || essence.eq_ignore_ascii_case("image/jpg") {
            Some(MediaType::Jpeg)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MediaType::Png => "image/png",
            MediaType::Jpeg => "image/jpeg",
        }
    }
}

/// An image URL, read.
#[derive(Debug, PartialEq, Eq)]
pub enum Source {
    /// A `data:` URL's decoded bytes and the media type it declares.
    Inline { media_type: MediaType, bytes: Vec<u8> },
    /// An `http://` or `https://` address.
    Remote(String),
}

/// Standard base64, with or without padding.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Reads `url`: `data:image/png;base64,…` or `data:image/jpeg;base64,…` (line breaks in the base64 are
/// allowed), or an http(s) address.
pub fn parse(url: &str) -> Result<Source, ImageProblem> {
    let trimmed = url.trim();
    let scheme = trimmed.split_once(':').map(|(scheme, _)| scheme.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("data") => parse_data_url(&trimmed[5..]),
        Some("http" | "https") => Ok(Source::Remote(trimmed.to_owned())),
        _ => Err(ImageProblem::UnsupportedUrl {
            start: trimmed.chars().take(24).collect(),
        }),
    }
}

/// The part of a `data:` URL after `data:`: `<media type>[;parameters];base64,<data>`.
fn parse_data_url(rest: &str) -> Result<Source, ImageProblem> {
    let (header, data) = rest.split_once(',').ok_or(ImageProblem::NotBase64)?;
    let mut fields = header.split(';');
    let declared = fields.next().unwrap_or_default().trim();
    if !fields.any(|field| field.trim().eq_ignore_ascii_case("base64")) {
        return Err(ImageProblem::NotBase64);
    }
    let media_type = MediaType::parse(declared).ok_or_else(|| ImageProblem::MediaType {
        declared: if declared.is_empty() {
            "none".to_owned()
        } else {
            declared.chars().take(64).collect()
        },
    })?;
    let compact: Vec<u8> = data.bytes().filter(|byte| !byte.is_ascii_whitespace()).collect();
    let bytes = BASE64.decode(&compact).map_err(|error| ImageProblem::BadBase64 {
        reason: error.to_string(),
    })?;
    Ok(Source::Inline { media_type, bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_urls_give_their_bytes_and_media_type() {
        assert_eq!(
            parse("data:image/png;base64,AAEC").unwrap(),
            Source::Inline {
                media_type: MediaType::Png,
                bytes: vec![0, 1, 2]
            }
        );
        // Case, a parameter, missing padding and line breaks are all tolerated.
        assert_eq!(
            parse("DATA:Image/JPG;name=x.jpg;base64,AAE\n").unwrap(),
            Source::Inline {
                media_type: MediaType::Jpeg,
                bytes: vec![0, 1]
            }
        );
        assert_eq!(
            parse("https://example.com/a.png").unwrap(),
            Source::Remote("https://example.com/a.png".into())
        );
    }

    #[test]
    fn what_is_not_an_inline_png_or_jpeg_is_a_typed_problem() {
        assert!(matches!(parse("data:image/png,rawbytes"), Err(ImageProblem::NotBase64)));
        assert!(matches!(parse("data:image/png;base64"), Err(ImageProblem::NotBase64)));
        assert!(matches!(
            parse("data:image/png;base64,@@@@"),
            Err(ImageProblem::BadBase64 { .. })
        ));
        assert!(matches!(
            parse("data:image/gif;base64,R0lGOD"),
            Err(ImageProblem::MediaType { declared }) if declared == "image/gif"
        ));
        assert!(matches!(
            parse("data:;base64,AAAA"),
            Err(ImageProblem::MediaType { declared }) if declared == "none"
        ));
        assert!(matches!(
            parse("file:///etc/passwd"),
            Err(ImageProblem::UnsupportedUrl { start }) if start == "file:///etc/passwd"
        ));
        assert!(matches!(parse("no scheme"), Err(ImageProblem::UnsupportedUrl { .. })));
    }
}
