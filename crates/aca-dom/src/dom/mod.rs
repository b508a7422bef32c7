//! Everything that touches the DOM (wasm32 only): the walk, names and places read from elements,
//! hit tests, the overlay, settling, and the actions.

pub mod act;
pub mod clicked;
pub mod describe;
pub mod js;
pub mod marks;
pub mod name;
pub mod observe;
pub mod pick;
pub mod places;
pub mod settle;
pub mod states;
pub mod visibility;
pub mod walk;
