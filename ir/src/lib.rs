//! The shaderfarm shader IR.
//!
//! NIR-like: SSA values that are untyped bit vectors (1, 8, 16, 32, 64 bits),
//! ops that say how they read them (one table, [`op::OPS`], documents each op's
//! exact semantics and undefined inputs), and structured control flow (if,
//! loop, break, continue) with phis. The text format is NIR's, exactly as
//! Mesa's `nir_print.c` prints it (`con 32    %5 = iadd %3, %4`), and
//! round-trips exactly; the parser also reads real NIR dumps within the
//! modelled subset.

pub mod builder;
pub mod cfg;
pub mod dispatch;
pub mod eval;
pub mod float;
pub mod map;
pub mod nir;
pub mod op;
pub mod parse;
pub mod print;
pub mod print_compact;
pub mod program;
pub mod quad;
pub mod types;
pub mod uniformity;
pub mod validate;
pub mod value;

pub use builder::{Builder, PhiHandle};
pub use dispatch::{Case, Dispatch};
pub use map::{BlockMap, ValueMap};
pub use op::{Kinds, Op, OpClass, OpInfo, Sig, ValueKind};
pub use parse::{parse_case, parse_program, ParseError};
pub use print::{print_case, print_program};
pub use print_compact::{print_case_compact, print_program_compact};
pub use program::{Block, BlockId, CfNode, Def, If, Instr, Jump, Loop, Phi, Program, ValueId};
pub use types::{SizeSet, SlotType};
pub use validate::{validate, validate_all, ValidationError};
