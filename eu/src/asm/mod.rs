//! Text assembly in Mesa's disassembler syntax: printer and parser.

mod cursor;
mod parse;
mod parse_send;
mod print;
mod print_compact;
mod send;

pub use parse::{
    parse_instruction, parse_program, parse_program_named, ParseError, VGRF_BASE, VGRF_SPAN,
};
pub use print::{print_program, print_program_named, RegNames};
pub use print_compact::{print_instruction, print_program_compact};

#[cfg(test)]
mod tests;
