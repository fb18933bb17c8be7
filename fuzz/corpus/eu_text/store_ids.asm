shl(8) g10<1>UD g1<8,8,1>UD 0x00000003UD
add(8) g11<1>UD g1<8,8,1>UD 0x00000064UD
send(8) null g10 g11 st.b32 { align1 1Q EOT };
