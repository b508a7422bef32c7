//! The RPC-style products, one module each, and the registry that routes a request's API version to
//! its product. OSS and SLS speak their own REST protocols and live in [`crate::rest`].

use crate::catalog::Product;

pub mod ecs;
pub mod regions;
#[cfg(test)]
pub(crate) mod testkit;
pub mod vpc;

/// Every RPC product the emulator serves.
pub static PRODUCTS: &[&Product] = &[&ecs::PRODUCT, &vpc::PRODUCT];

/// The product whose API version this is.
pub fn by_version(version: &str) -> Option<&'static Product> {
    PRODUCTS.iter().copied().find(|p| p.version == version)
}

/// The product with this short code (`ecs`, `vpc`, …).
pub fn by_code(code: &str) -> Option<&'static Product> {
    PRODUCTS.iter().copied().find(|p| p.code == code)
}
