//! The account pool: isolated accounts lent one task at a time, with leases persisted in SQLite
//! ([`store`]), health checks and cleanup of leftovers before an account goes back ([`health`]),
//! AccessKey rotation through RAM ([`rotation`]).

pub mod health;
pub mod rotation;
pub mod store;

pub use health::{Health, Leftover, Quota, Returned, check, clean, return_account};
pub use rotation::{Rotated, RotationError, rotate, rotate_due};
pub use store::{AccountPool, AccountState, AccountStatus, Lease, PoolAccount, PoolError};
