mul(16) g3<1>UD g1<8,8,1>UD 0x0010UW
mul(16) g5<1>UD g1<8,8,1>UD 0x0018UW
send(16) g7 g3 ld.b16
add(16) g9<1>UD g3<8,8,1>UD 0x00000008UD
send(16) g3 g9 ld.b16
add(16) g9<2>HF g7<16,8,2>HF g3<16,8,2>HF
add(16) g11<2>HF g7<16,8,2>HF -g3<16,8,2>HF
mul(16) g13<2>HF g7<16,8,2>HF g3<16,8,2>HF
send(16) null g5 g9 st.b16
add(16) g3<1>UD g5<8,8,1>UD 0x00000008UD
send(16) null g3 g11 st.b16
add(16) g3<1>UD g5<8,8,1>UD 0x00000010UD
send(16) null g3 g13 st.b16
send(8) null g0 end { align1 1Q EOT };
