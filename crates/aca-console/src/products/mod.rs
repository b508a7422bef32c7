//! The RPC-style products, one module each, and the registry that routes a request's API version to
//! its product. OSS and SLS speak their own REST protocols and live in [`crate::rest`].

use crate::catalog::Product;

pub mod actiontrail;
pub mod alb;
pub mod bss;
pub mod cas;
pub mod cms;
pub mod cs;
pub mod dns;
pub mod ecs;
pub mod kms;
pub mod kvstore;
mod pem;
mod provisioning;
pub mod ram;
pub mod rds;
pub mod regions;
pub mod slb;
pub(crate) mod tags;
#[cfg(test)]
pub(crate) mod testkit;
pub mod vpc;
mod whitelist;

/// Every RPC product the emulator serves.
pub static PRODUCTS: &[&Product] = &[
    &ecs::PRODUCT,
    &vpc::PRODUCT,
    &ram::PRODUCT,
    &kms::PRODUCT,
    &dns::PRODUCT,
    &cms::PRODUCT,
    &rds::PRODUCT,
    &slb::PRODUCT,
    &alb::PRODUCT,
    &kvstore::PRODUCT,
    &actiontrail::PRODUCT,
    &bss::PRODUCT,
    &cs::PRODUCT,
    &cas::PRODUCT,
];

/// The product whose API version this is.
pub fn by_version(version: &str) -> Option<&'static Product> {
    PRODUCTS.iter().copied().find(|p| p.version == version)
}

/// The product with this short code (`ecs`, `vpc`, …).
pub fn by_code(code: &str) -> Option<&'static Product> {
    PRODUCTS.iter().copied().find(|p| p.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_codes_route_to_one_product_each() {
        for product in PRODUCTS {
            assert!(
                std::ptr::eq(by_version(product.version).unwrap(), *product),
                "{} shares its version",
                product.code
            );
            assert!(
                std::ptr::eq(by_code(product.code).unwrap(), *product),
                "{} shares its code",
                product.code
            );
        }
        assert_eq!(by_version("2015-05-01").map(|p| p.service_name), Some("Ram"));
        assert_eq!(
            by_version("2019-01-01").map(|p| p.endpoint),
            Some("metrics.aliyuncs.com")
        );
    }
}
