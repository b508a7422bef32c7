//! The RPC-style products, one module each, and the registry that routes a request's API version to
//! its product. OSS and SLS speak their own REST protocols and live in [`crate::rest`].

use crate::catalog::Product;

pub mod kvstore;
pub mod rds;
pub mod regions;
pub mod slb;
pub mod vpc;

/// Every RPC product the emulator serves.
pub static PRODUCTS: &[&Product] = &[&vpc::PRODUCT, &rds::PRODUCT, &slb::PRODUCT, &kvstore::PRODUCT];

/// The product whose API version this is.
pub fn by_version(version: &str) -> Option<&'static Product> {
    PRODUCTS.iter().copied().find(|p| p.version == version)
}

/// The product with this short code (`ecs`, `vpc`, …).
pub fn by_code(code: &str) -> Option<&'static Product> {
    PRODUCTS.iter().copied().find(|p| p.code == code)
}
