mul(8) g2<1>UD g1<8,8,1>UD 0x0018UW
mul(8) g3<1>UD g1<8,8,1>UD 0x0030UW
send(8) g4 g2 ld.b64
add(8) g6<1>UD g2<8,8,1>UD 0x00000008UD
send(8) g7 g6 ld.b32
add(8) g6<1>UD g2<8,8,1>UD 0x00000010UD
send(8) g2 g6 ld.b32
shl(8) g8<1>Q g4<4,4,1>Q g2<8,8,1>UD
asr(8) g10<1>Q g4<4,4,1>Q g2<8,8,1>UD
shr(8) g12<1>UQ g4<4,4,1>UQ g2<8,8,1>UD
shl(8) g4<1>D g7<8,8,1>D g2<8,8,1>UD
asr(8) g5<1>D g7<8,8,1>D g2<8,8,1>UD
shr(8) g6<1>UD g7<8,8,1>UD g2<8,8,1>UD
send(8) null g3 g8 st.b64
add(8) g2<1>UD g3<8,8,1>UD 0x00000008UD
send(8) null g2 g10 st.b64
add(8) g2<1>UD g3<8,8,1>UD 0x00000010UD
send(8) null g2 g12 st.b64
add(8) g2<1>UD g3<8,8,1>UD 0x00000018UD
send(8) null g2 g4 st.b32
add(8) g2<1>UD g3<8,8,1>UD 0x00000020UD
send(8) null g2 g5 st.b32
add(8) g2<1>UD g3<8,8,1>UD 0x00000028UD
send(8) null g2 g6 st.b32
send(8) null g0 end { align1 1Q EOT };
