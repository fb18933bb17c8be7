//! Text assembly in Mesa's disassembler syntax: printer and parser.

mod cursor;
mod parse;
mod print;

pub use parse::{parse_instruction, parse_program, parse_program_named, ParseError};
pub use print::{print_instruction, print_program};

#[cfg(test)]
mod tests;
