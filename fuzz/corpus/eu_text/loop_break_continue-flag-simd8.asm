mul(8) g2<1>UD g1<8,8,1>UD 0x0010UW
mul(8) g3<1>UD g1<8,8,1>UD 0x0020UW
send(8) g4 g2 ld.b32
add(8) g5<1>UD g2<8,8,1>UD 0x00000008UD
send(8) g2 g5 ld.b32
mov(8) g5<1>UD 0x00000000UD
mov(8) g6<1>UD 0x00000000UD
mov(8) g7<1>UD 0x00000000UD
LABEL0:
add(8) g10<1>D g5<8,8,1>D 1D
and(8) g11<1>UD g10<8,8,1>UD 0x00000001UD
cmp.z.f0.1(8) null<1>D g11<8,8,1>D 1D
(+f0.1) if(8) JIP: LABEL4 UIP: LABEL7
add(8) g11<1>D g6<8,8,1>D g10<8,8,1>D
add(8) g12<1>D g7<8,8,1>D 1D
cmp.l.f0.1(8) null<1>D g4<8,8,1>D g11<8,8,1>D
(+f0.1) if(8) JIP: LABEL2 UIP: LABEL2
mov(8) g9<1>UD g11<8,8,1>UD
break(8) JIP: LABEL1 UIP: LABEL8
LABEL1:
else(8) JIP: LABEL2 UIP: LABEL2
LABEL2:
endif(8) JIP: LABEL3
mov(8) g5<1>UD g10<8,8,1>UD
mov(8) g6<1>UD g11<8,8,1>UD
mov(8) g7<1>UD g12<8,8,1>UD
cont(8) JIP: LABEL3 UIP: LABEL8
LABEL3:
else(8) JIP: LABEL7 UIP: LABEL7
LABEL4:
add(8) g8<1>D g6<8,8,1>D 10D
add(8) g11<1>UD g3<8,8,1>UD 0x00000010UD
send(8) null g11 g10 st.b32
cmp.ge.f0.1(8) null<1>D g10<8,8,1>D g2<8,8,1>D
(+f0.1) if(8) JIP: LABEL6 UIP: LABEL6
mov(8) g9<1>UD g8<8,8,1>UD
break(8) JIP: LABEL5 UIP: LABEL8
LABEL5:
else(8) JIP: LABEL6 UIP: LABEL6
LABEL6:
endif(8) JIP: LABEL7
LABEL7:
endif(8) JIP: LABEL8
mov(8) g5<1>UD g10<8,8,1>UD
mov(8) g6<1>UD g8<8,8,1>UD
LABEL8:
while(8) JIP: LABEL0
send(8) null g3 g9 st.b32
add(8) g2<1>UD g3<8,8,1>UD 0x00000008UD
send(8) null g2 g10 st.b32
add(8) g2<1>UD g3<8,8,1>UD 0x00000018UD
send(8) null g2 g7 st.b32
send(8) null g0 end { align1 1Q EOT };
