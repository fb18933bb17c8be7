// Align16 (SIMD4x2): lane c is component c % 4 (x, y, z, w) of vertex c / 4.
// g21 = the lane ids; g20 takes, for x and z only, the id of the component
// .wzyx picks in the same vertex (lanes 0 2 4 6: 3 1 7 5); y and w keep 100.
// Run with `farm asm examples/vec4_swizzle.asm --machine vec4 --lanes 8 --simd 8`.
mov(8) g21<1>UD g1<8,8,1>UD
mov(8) g20<1>UD 0x00000064UD
mov(8) g20<1>.xzUD g21<4>.wzyxUD { align16 1Q };
shl(8) g10<1>UD g1<8,8,1>UD 0x00000003UD
send(8) null g10 g20 st.b32 { align1 1Q EOT };
