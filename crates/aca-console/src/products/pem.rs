//! The PEM checks of the products that take certificates and their private keys (CLB server
//! certificates, Certificate Management Service), and the fingerprint both show.

use sha1::{Digest, Sha1};

use crate::error::ApiError;

/// The private key kinds the services take: PKCS#8, and RSA and EC keys of their own.
const PRIVATE_KEY_KINDS: &[&str] = &["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"];

/// Whether `text` is one PEM block of one of `kinds`, with something between its lines.
fn is_block(text: &str, kinds: &[&str]) -> bool {
    let text = text.trim();
    kinds.iter().any(|kind| {
        let (begin, end) = (format!("-----BEGIN {kind}-----"), format!("-----END {kind}-----"));
        text.starts_with(&begin) && text.ends_with(&end) && text.len() > begin.len() + end.len()
    })
}

/// `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----`, as the APIs take a certificate.
pub fn check_certificate(param: &str, text: &str) -> Result<(), ApiError> {
    if is_block(text, &["CERTIFICATE"]) {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(
            param,
            "not a PEM block from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----",
        ))
    }
}

/// A private key in PEM. The error never quotes the value.
pub fn check_private_key(param: &str, text: &str) -> Result<(), ApiError> {
    if is_block(text, PRIVATE_KEY_KINDS) {
        Ok(())
    } else {
        Err(ApiError::invalid_parameter(param, "not a PEM private key"))
    }
}

/// The certificate's SHA-1 digest, which the services show as its fingerprint.
pub fn sha1(certificate: &str) -> Vec<u8> {
    Sha1::digest(certificate.trim().as_bytes()).to_vec()
}
