//! Golden lowering of seed 004's quad ops and derivatives at SIMD8 (no
//! passes). Derived by hand from brw's Gfx11 generator: ddx over `<2;2,0>`
//! (fine) with the right lane first; ddy_fine as one `add(4)` per quad
//! (channel groups 1N, 2N) over `<0;2,1>` with the negated top row first;
//! the horizontal swap as two NoMask half-width MOVs with stride 2 into a
//! temporary, the diagonal as brw's QUAD_SWIZZLE (four NoMask MOVs of
//! exec 8/4 = 2, destination stride 4, source `<4;1,0>` at lanes 3 2 1 0),
//! each followed by a masked copy into the result; a constant-index
//! broadcast as one MOV over `<4;4,0>`. The prologue and stores follow the
//! ABI: one input slot (address = invocation * 8), five output slots
//! (address = invocation * 40, slot k at + 8k).

mod common;

use compiler::Strategy;

const QUADS: &str = "shader: quads\ndecl_input 0 f32\ndecl_output 0 f32\ndecl_output 1 f32\ndecl_output 2 i32\ndecl_output 3 i32\ndecl_output 4 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @ddx_fine (%0)\n\t32 %2 = @ddy_fine (%0)\n\t32 %3 = @quad_swap_horizontal (%0)\n\t32 %4 = @quad_swap_diagonal (%0)\n\t32 %5 = load_const (0x00000002)\n\t32 %6 = @quad_broadcast (%0, %5)\n\t@store_output (%1) (slot=0)\n\t@store_output (%2) (slot=1)\n\t@store_output (%3) (slot=2)\n\t@store_output (%4) (slot=3)\n\t@store_output (%6) (slot=4)\n}\n";

#[test]
fn quad_ops_and_derivatives_read_their_quads_through_regions() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0008UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0028UW\n\
send(8) g5 g3 ld.b32\n\
add(8) g6<1>F g5.1<2,2,0>F -g5<2,2,0>F\n\
add(4) g7<1>F -g5<0,2,1>F g5.2<0,2,1>F\n\
add(4) g7.4<1>F -g5.4<0,2,1>F g5.6<0,2,1>F { align1 2N };\n\
mov(4) g9<2>UD g5.1<2,1,0>UD { align1 WE_all 1N };\n\
mov(4) g9.1<2>UD g5<2,1,0>UD { align1 WE_all 1N };\n\
mov(8) g8<1>UD g9<8,8,1>UD\n\
mov(2) g11<4>UD g5.3<4,1,0>UD { align1 WE_all 1N };\n\
mov(2) g11.1<4>UD g5.2<4,1,0>UD { align1 WE_all 1N };\n\
mov(2) g11.2<4>UD g5.1<4,1,0>UD { align1 WE_all 1N };\n\
mov(2) g11.3<4>UD g5<4,1,0>UD { align1 WE_all 1N };\n\
mov(8) g10<1>UD g11<8,8,1>UD\n\
mov(1) g12<1>UD 0x00000002UD { align1 WE_all 1N };\n\
mov(8) g13<1>UD g5.2<4,4,0>UD\n\
send(8) null g4 g6 st.b32\n\
add(8) g14<1>UD g4<8,8,1>UD 0x00000008UD\n\
send(8) null g14 g7 st.b32\n\
add(8) g15<1>UD g4<8,8,1>UD 0x00000010UD\n\
send(8) null g15 g8 st.b32\n\
add(8) g16<1>UD g4<8,8,1>UD 0x00000018UD\n\
send(8) null g16 g10 st.b32\n\
add(8) g17<1>UD g4<8,8,1>UD 0x00000020UD\n\
send(8) null g17 g13 st.b32\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(common::lowered(QUADS, Strategy::Bool32, 8), want);
}
