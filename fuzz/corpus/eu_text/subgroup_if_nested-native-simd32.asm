and(16) g5<1>UD g1<8,8,1>UD 0x0000001fUD
and(16) g7<1>UD g3<8,8,1>UD 0x0000001fUD { align1 2H };
mul(16) g9<1>UD g1<8,8,1>UD 0x0008UW
mul(16) g11<1>UD g3<8,8,1>UD 0x0008UW { align1 2H };
mul(16) g13<1>UD g1<8,8,1>UD 0x0038UW
mul(16) g15<1>UD g3<8,8,1>UD 0x0038UW { align1 2H };
send(32) g17 g9 ld.b32
cmp.l.f0.0(16) g9<1>D g17<8,8,1>D 10D
cmp.l.f0.0(16) g11<1>D g19<8,8,1>D 10D { align1 2H };
mov(1) f0.0<1>UD 0x00000000UD { align1 WE_all 1N };
mov.nz.f0.0(16) null<1>D g9<8,8,1>D
mov.nz.f0.0(16) null<1>D g11<8,8,1>D { align1 2H };
mov(1) g21<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
mov(16) g22<1>UD g21<0,1,0>UD
mov(16) g24<1>UD g21<0,1,0>UD { align1 2H };
send(32) null g13 g22 st.b32
and.z.f0.0(16) null<1>UD g17<8,8,1>UD 0x00000001UD
and.z.f0.0(16) null<1>UD g19<8,8,1>UD 0x00000001UD { align1 2H };
(+f0.0) if(32) JIP: LABEL2 UIP: LABEL2
mov(1) f0.0<1>UD 0x00000000UD { align1 WE_all 1N };
mov.nz.f0.0(16) null<1>D g9<8,8,1>D
mov.nz.f0.0(16) null<1>D g11<8,8,1>D { align1 2H };
mov(1) g21<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
mov(16) g22<1>UD g21<0,1,0>UD
mov(16) g24<1>UD g21<0,1,0>UD { align1 2H };
mov(1) f0.0<1>UD 0x00000000UD { align1 WE_all 1N };
mov.z.f0.0(16) null<1>D g9<8,8,1>D
mov.z.f0.0(16) null<1>D g11<8,8,1>D { align1 2H };
mov(1) g21<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
cmp.z.f0.0(16) g26<1>UD g21<0,1,0>UD 0x00000000UD
cmp.z.f0.0(16) g28<1>UD g21<0,1,0>UD 0x00000000UD { align1 2H };
mov(1) f0.0<1>UD 0x00000000UD { align1 WE_all 1N };
mov.nz.f0.0(32) null<1>UD 0x00000001UD
mov(1) g21<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
fbl(1) g30<1>UD g21<0,1,0>UD { align1 WE_all 1N };
mov(16) g31<1>UD 0x00000000UD { align1 WE_all 1H };
mov(16) g33<1>UD 0x00000000UD { align1 WE_all 2H };
cmp.z.f0.0(16) null<1>UD g5<8,8,1>UD g30<0,1,0>UD
cmp.z.f0.0(16) null<1>UD g7<8,8,1>UD g30<0,1,0>UD { align1 2H };
(+f0.0) mov(16) g31<1>UD g17<8,8,1>UD
(+f0.0) mov(16) g33<1>UD g19<8,8,1>UD { align1 2H };
or(16) g31<1>UD g31<8,8,1>UD g33<8,8,1>UD { align1 WE_all 1H };
or(8) g31<1>UD g31<8,8,1>UD g32<8,8,1>UD { align1 WE_all 1Q };
or(4) g31<1>UD g31<4,4,1>UD g31.4<4,4,1>UD { align1 WE_all 1N };
or(2) g31<1>UD g31<2,2,1>UD g31.2<2,2,1>UD { align1 WE_all 1N };
or(1) g31<1>UD g31<0,1,0>UD g31.1<0,1,0>UD { align1 WE_all 1N };
mov(16) g35<1>UD g31<0,1,0>UD
mov(16) g37<1>UD g31<0,1,0>UD { align1 2H };
add(16) g30<1>UD g13<8,8,1>UD 0x00000008UD
add(16) g32<1>UD g15<8,8,1>UD 0x00000008UD { align1 2H };
send(32) null g30 g22 st.b32
add(16) g21<1>UD g13<8,8,1>UD 0x00000010UD
add(16) g23<1>UD g15<8,8,1>UD 0x00000010UD { align1 2H };
mov(16) g30<1>D -g26<8,8,1>D
mov(16) g32<1>D -g28<8,8,1>D { align1 2H };
send(32) null g21 g30 st.b8
add(16) g21<1>UD g13<8,8,1>UD 0x00000020UD
add(16) g23<1>UD g15<8,8,1>UD 0x00000020UD { align1 2H };
send(32) null g21 g35 st.b32
cmp.l.f0.0(16) null<1>D g17<8,8,1>D 6D
cmp.l.f0.0(16) null<1>D g19<8,8,1>D 6D { align1 2H };
(+f0.0) if(32) JIP: LABEL0 UIP: LABEL0
mov(1) f0.0<1>UD 0x00000000UD { align1 WE_all 1N };
mov.nz.f0.0(32) null<1>UD 0x00000001UD
mov(1) g17<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
fbl(1) g18<1>UD g17<0,1,0>UD { align1 WE_all 1N };
cmp.z.f0.0(16) g19<1>UD g5<8,8,1>UD g18<0,1,0>UD
cmp.z.f0.0(16) g21<1>UD g7<8,8,1>UD g18<0,1,0>UD { align1 2H };
mov(1) f0.0<1>UD 0x00000000UD { align1 WE_all 1N };
mov.nz.f0.0(32) null<1>D -1D
mov(1) g5<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
mov(16) g23<1>UD g5<0,1,0>UD
mov(16) g25<1>UD g5<0,1,0>UD { align1 2H };
add(16) g5<1>UD g13<8,8,1>UD 0x00000028UD
add(16) g7<1>UD g15<8,8,1>UD 0x00000028UD { align1 2H };
mov(16) g27<1>D -g19<8,8,1>D
mov(16) g29<1>D -g21<8,8,1>D { align1 2H };
send(32) null g5 g27 st.b8
add(16) g5<1>UD g13<8,8,1>UD 0x00000030UD
add(16) g7<1>UD g15<8,8,1>UD 0x00000030UD { align1 2H };
send(32) null g5 g23 st.b32
else(32) JIP: LABEL0 UIP: LABEL0
LABEL0:
endif(32) JIP: LABEL1
LABEL1:
else(32) JIP: LABEL2 UIP: LABEL2
LABEL2:
endif(32) JIP: LABEL3
LABEL3:
mov(1) f0.0<1>UD 0x00000000UD { align1 WE_all 1N };
mov.z.f0.0(16) null<1>D g9<8,8,1>D
mov.z.f0.0(16) null<1>D g11<8,8,1>D { align1 2H };
mov(1) g5<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
cmp.z.f0.0(16) g6<1>UD g5<0,1,0>UD 0x00000000UD
cmp.z.f0.0(16) g8<1>UD g5<0,1,0>UD 0x00000000UD { align1 2H };
add(16) g17<1>UD g13<8,8,1>UD 0x00000018UD
add(16) g19<1>UD g15<8,8,1>UD 0x00000018UD { align1 2H };
mov(16) g10<1>D -g6<8,8,1>D
mov(16) g12<1>D -g8<8,8,1>D { align1 2H };
send(32) null g17 g10 st.b8
send(8) null g0 end { align1 1Q EOT };
