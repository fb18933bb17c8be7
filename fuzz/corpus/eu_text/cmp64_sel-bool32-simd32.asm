mul(16) g5<1>UD g1<8,8,1>UD 0x0010UW
mul(16) g7<1>UD g3<8,8,1>UD 0x0010UW { align1 2H };
mul(16) g9<1>UD g1<8,8,1>UD 0x0038UW
mul(16) g11<1>UD g3<8,8,1>UD 0x0038UW { align1 2H };
send(32) g13 g5 ld.b64
add(16) g21<1>UD g5<8,8,1>UD 0x00000008UD
add(16) g23<1>UD g7<8,8,1>UD 0x00000008UD { align1 2H };
send(32) g25 g21 ld.b64
cmp.l.f0.0(8) g33<1>Q g13<4,4,1>Q g25<4,4,1>Q
cmp.l.f0.0(8) g35<1>Q g15<4,4,1>Q g27<4,4,1>Q { align1 2Q };
cmp.l.f0.0(8) g37<1>Q g17<4,4,1>Q g29<4,4,1>Q { align1 3Q };
cmp.l.f0.0(8) g39<1>Q g19<4,4,1>Q g31<4,4,1>Q { align1 4Q };
mov(8) g5<1>D g33<8,4,2>D
mov(8) g6<1>D g35<8,4,2>D { align1 2Q };
mov(8) g7<1>D g37<8,4,2>D { align1 3Q };
mov(8) g8<1>D g39<8,4,2>D { align1 4Q };
cmp.l.f0.0(8) g33<1>UQ g13<4,4,1>UQ g25<4,4,1>UQ
cmp.l.f0.0(8) g35<1>UQ g15<4,4,1>UQ g27<4,4,1>UQ { align1 2Q };
cmp.l.f0.0(8) g37<1>UQ g17<4,4,1>UQ g29<4,4,1>UQ { align1 3Q };
cmp.l.f0.0(8) g39<1>UQ g19<4,4,1>UQ g31<4,4,1>UQ { align1 4Q };
mov(8) g21<1>D g33<8,4,2>D
mov(8) g22<1>D g35<8,4,2>D { align1 2Q };
mov(8) g23<1>D g37<8,4,2>D { align1 3Q };
mov(8) g24<1>D g39<8,4,2>D { align1 4Q };
mov(1) g33<1>UD 0x00000022UD { align1 WE_all 1N };
mov(1) g34<1>UD 0x00000044UD { align1 WE_all 1N };
mov.nz.f0.0(16) null<1>D g5<8,8,1>D
mov.nz.f0.0(16) null<1>D g7<8,8,1>D { align1 2H };
(-f0.0) sel(16) g35<1>UD g33<0,1,0>UD 0x00000011UD
(-f0.0) sel(16) g37<1>UD g33<0,1,0>UD 0x00000011UD { align1 2H };
mov.nz.f0.0(16) null<1>D g21<8,8,1>D
mov.nz.f0.0(16) null<1>D g23<8,8,1>D { align1 2H };
(-f0.0) sel(16) g39<1>UD g34<0,1,0>UD 0x00000033UD
(-f0.0) sel(16) g41<1>UD g34<0,1,0>UD 0x00000033UD { align1 2H };
mov.nz.f0.0(16) null<1>D g5<8,8,1>D
mov.nz.f0.0(16) null<1>D g7<8,8,1>D { align1 2H };
(+f0.0) sel(8) g43<1>UQ g13<4,4,1>UQ g25<4,4,1>UQ
(+f0.0) sel(8) g45<1>UQ g15<4,4,1>UQ g27<4,4,1>UQ { align1 2Q };
(+f0.0) sel(8) g47<1>UQ g17<4,4,1>UQ g29<4,4,1>UQ { align1 3Q };
(+f0.0) sel(8) g49<1>UQ g19<4,4,1>UQ g31<4,4,1>UQ { align1 4Q };
mov.nz.f0.0(16) null<1>D g21<8,8,1>D
mov.nz.f0.0(16) null<1>D g23<8,8,1>D { align1 2H };
(+f0.0) sel(8) g51<1>UQ g25<4,4,1>UQ g13<4,4,1>UQ
(+f0.0) sel(8) g53<1>UQ g27<4,4,1>UQ g15<4,4,1>UQ { align1 2Q };
(+f0.0) sel(8) g55<1>UQ g29<4,4,1>UQ g17<4,4,1>UQ { align1 3Q };
(+f0.0) sel(8) g57<1>UQ g31<4,4,1>UQ g19<4,4,1>UQ { align1 4Q };
cmp.z.f0.0(8) g59<1>Q g13<4,4,1>Q g25<4,4,1>Q
cmp.z.f0.0(8) g61<1>Q g15<4,4,1>Q g27<4,4,1>Q { align1 2Q };
cmp.z.f0.0(8) g63<1>Q g17<4,4,1>Q g29<4,4,1>Q { align1 3Q };
cmp.z.f0.0(8) g65<1>Q g19<4,4,1>Q g31<4,4,1>Q { align1 4Q };
mov(8) g5<1>D g59<8,4,2>D
mov(8) g6<1>D g61<8,4,2>D { align1 2Q };
mov(8) g7<1>D g63<8,4,2>D { align1 3Q };
mov(8) g8<1>D g65<8,4,2>D { align1 4Q };
cmp.ge.f0.0(8) g59<1>Q g13<4,4,1>Q g25<4,4,1>Q
cmp.ge.f0.0(8) g61<1>Q g15<4,4,1>Q g27<4,4,1>Q { align1 2Q };
cmp.ge.f0.0(8) g63<1>Q g17<4,4,1>Q g29<4,4,1>Q { align1 3Q };
cmp.ge.f0.0(8) g65<1>Q g19<4,4,1>Q g31<4,4,1>Q { align1 4Q };
mov(8) g21<1>D g59<8,4,2>D
mov(8) g22<1>D g61<8,4,2>D { align1 2Q };
mov(8) g23<1>D g63<8,4,2>D { align1 3Q };
mov(8) g24<1>D g65<8,4,2>D { align1 4Q };
cmp.ge.f0.0(8) g59<1>UQ g13<4,4,1>UQ g25<4,4,1>UQ
cmp.ge.f0.0(8) g61<1>UQ g15<4,4,1>UQ g27<4,4,1>UQ { align1 2Q };
cmp.ge.f0.0(8) g63<1>UQ g17<4,4,1>UQ g29<4,4,1>UQ { align1 3Q };
cmp.ge.f0.0(8) g65<1>UQ g19<4,4,1>UQ g31<4,4,1>UQ { align1 4Q };
mov(8) g13<1>D g59<8,4,2>D
mov(8) g14<1>D g61<8,4,2>D { align1 2Q };
mov(8) g15<1>D g63<8,4,2>D { align1 3Q };
mov(8) g16<1>D g65<8,4,2>D { align1 4Q };
send(32) null g9 g35 st.b32
add(16) g17<1>UD g9<8,8,1>UD 0x00000008UD
add(16) g19<1>UD g11<8,8,1>UD 0x00000008UD { align1 2H };
send(32) null g17 g39 st.b32
add(16) g17<1>UD g9<8,8,1>UD 0x00000010UD
add(16) g19<1>UD g11<8,8,1>UD 0x00000010UD { align1 2H };
send(32) null g17 g43 st.b64
add(16) g17<1>UD g9<8,8,1>UD 0x00000018UD
add(16) g19<1>UD g11<8,8,1>UD 0x00000018UD { align1 2H };
send(32) null g17 g51 st.b64
add(16) g17<1>UD g9<8,8,1>UD 0x00000020UD
add(16) g19<1>UD g11<8,8,1>UD 0x00000020UD { align1 2H };
mov(16) g25<1>D -g5<8,8,1>D
mov(16) g27<1>D -g7<8,8,1>D { align1 2H };
send(32) null g17 g25 st.b8
add(16) g5<1>UD g9<8,8,1>UD 0x00000028UD
add(16) g7<1>UD g11<8,8,1>UD 0x00000028UD { align1 2H };
mov(16) g17<1>D -g21<8,8,1>D
mov(16) g19<1>D -g23<8,8,1>D { align1 2H };
send(32) null g5 g17 st.b8
add(16) g5<1>UD g9<8,8,1>UD 0x00000030UD
add(16) g7<1>UD g11<8,8,1>UD 0x00000030UD { align1 2H };
mov(16) g9<1>D -g13<8,8,1>D
mov(16) g11<1>D -g15<8,8,1>D { align1 2H };
send(32) null g5 g9 st.b8
send(8) null g0 end { align1 1Q EOT };
