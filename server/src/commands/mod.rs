//! One module per `aca` subcommand.

pub mod api;
pub mod console;
pub mod demo;
pub mod docs;
<<<<<<< HEAD
pub mod observe;
pub mod verify;
=======
pub mod provision;
>>>>>>> provision
