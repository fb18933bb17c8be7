mul(16) g3<1>UD g1<8,8,1>UD 0x0020UW
mul(16) g5<1>UD g1<8,8,1>UD 0x0038UW
send(16) g7 g3 ld.b8
add(16) g9<1>UD g3<8,8,1>UD 0x00000008UD
send(16) g11 g9 ld.b16
add(16) g9<1>UD g3<8,8,1>UD 0x00000010UD
send(16) g13 g9 ld.b32
add(16) g9<1>UD g3<8,8,1>UD 0x00000018UD
send(16) g15 g9 ld.b64
mov(1) g3<2>B 0W { align1 WE_all 1N };
mov(1) g4<1>UQ 0x0000000000000000UQ { align1 WE_all 1N };
mov(16) g9<2>W g7<32,8,4>B
mov(16) g7<2>W g3<0,1,0>B
cmp.l.f0.0(16) g19<2>W g9<16,8,2>W g7<16,8,2>W
cmp.l.f0.0(16) g7<2>UW g11<16,8,2>UW 0x0100UW
cmp.ge.f0.0(16) g9<1>D g13<8,8,1>D 0D
cmp.nz.f0.0(8) g11<1>Q g15<4,4,1>Q g4<0,1,0>Q
cmp.nz.f0.0(8) g13<1>Q g17<4,4,1>Q g4<0,1,0>Q { align1 2Q };
and(16) g3<2>W g19<16,8,2>W g7<16,8,2>W
or(8) g15<1>D g9<8,8,1>D g11<8,4,2>D
or(8) g16<1>D g10<8,8,1>D g13<8,4,2>D { align1 2Q };
mov(8) g17<2>W g11<16,4,4>W
mov(8) g18<2>W g13<16,4,4>W { align1 2Q };
xor(16) g21<2>W g7<16,8,2>W g17<16,8,2>W
mov.nz.f0.0(16) null<1>W g19<16,8,2>W
(+f0.0) sel(8) g17<1>D g9<8,8,1>D g11<8,4,2>D
(+f0.0) sel(8) g18<1>D g10<8,8,1>D g13<8,4,2>D { align1 2Q };
xor(16) g23<2>W ~g7<16,8,2>W g9<16,8,2>W
mov(8) g25<2>W g11<16,4,4>W
mov(8) g26<2>W g13<16,4,4>W { align1 2Q };
xor(16) g11<2>W g19<16,8,2>W g25<16,8,2>W
not(16) g13<2>W g7<16,8,2>W
or(16) g7<2>W g19<16,8,2>W g9<16,8,2>W
and(16) g9<2>W g13<16,8,2>W g7<16,8,2>W
mov(16) g7<1>D -g3<16,8,2>W
send(16) null g5 g7 st.b8
add(16) g3<1>UD g5<8,8,1>UD 0x00000008UD
mov(16) g7<1>D -g15<8,8,1>D
send(16) null g3 g7 st.b8
add(16) g3<1>UD g5<8,8,1>UD 0x00000010UD
mov(16) g7<1>D -g21<16,8,2>W
send(16) null g3 g7 st.b8
add(16) g3<1>UD g5<8,8,1>UD 0x00000018UD
mov(16) g7<1>D -g17<8,8,1>D
send(16) null g3 g7 st.b8
add(16) g3<1>UD g5<8,8,1>UD 0x00000020UD
mov(16) g7<1>D -g23<16,8,2>W
send(16) null g3 g7 st.b8
add(16) g3<1>UD g5<8,8,1>UD 0x00000028UD
mov(16) g7<1>D -g11<16,8,2>W
send(16) null g3 g7 st.b8
add(16) g3<1>UD g5<8,8,1>UD 0x00000030UD
mov(16) g5<1>D -g9<16,8,2>W
send(16) null g3 g5 st.b8
send(8) null g0 end { align1 1Q EOT };
