//! The account pool: isolated accounts lent one task at a time, with leases persisted in SQLite
//! ([`store`]), health checks and cleanup of leftovers before an account goes back ([`health`]).

pub mod health;
pub mod store;

pub use health::{Health, Leftover, Returned, check, clean, return_account};
pub use store::{AccountPool, AccountState, AccountStatus, Lease, PoolAccount, PoolError};
