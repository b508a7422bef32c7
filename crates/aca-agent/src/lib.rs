//! The ReAct episode of AliyunConsoleAgent as a sans-I/O state machine.
pub mod parse;
