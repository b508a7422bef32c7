//! One module per `aca` subcommand.

pub mod api;
pub mod bench;
pub mod console;
pub mod demo;
pub mod docs;
pub mod observe;
pub mod provision;
pub mod verify;
