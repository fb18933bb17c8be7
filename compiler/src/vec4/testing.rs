//! Shared scaffolding of the vec4 passes' tests.

use crate::vir::VProgram;

/// Loads input slot 0 of each invocation into g3 (every component).
pub const HEAD: &str = "mul(8) g2<1>UD g1<8,8,1>UD 0x0008UW\nsend(8) g3 g2 ld.b32\n";
/// Stores g6 (every component) to output slot 0 and ends.
pub const TAIL: &str =
    "mul(8) g7<1>UD g1<8,8,1>UD 0x0008UW\nsend(8) null g7 g6 st.b32 { align1 1Q EOT };";
/// The vgrfs g2..g7, one GRF each.
const VGRFS: &[(u32, u32)] = &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)];

/// A vec4 program: HEAD, `body`, TAIL.
pub fn prog(body: &str) -> VProgram {
    crate::brw::testutil::vprog4(&format!("{HEAD}{body}\n{TAIL}"), VGRFS)
}

/// The canonical text of the whole program around `body` (HEAD, body,
/// TAIL), to compare with a pass's result.
pub fn whole(body: &str) -> String {
    crate::brw::testutil::canon(&format!("{HEAD}{body}\n{TAIL}"))
}
