mul(8)          g2<1>UD         g1<8,8,1>UD     0x0010UW        { align1 1Q };
mul(8)          g3<1>UD         g1<8,8,1>UD     0x0020UW        { align1 1Q };
send(8)         g4<1>UD         g2<8,8,1>UD     0x02106e00
                            hdc1 MsgDesc: (untyped surface read, Surface = 0, SIMD8, Mask = 0xe)  mlen 1 rlen 1 { align1 1Q };
add(8)          g5<1>UD         g2<8,8,1>UD     0x00000008UD    { align1 1Q };
send(8)         g2<1>UD         g5<8,8,1>UD     0x02106e00
                            hdc1 MsgDesc: (untyped surface read, Surface = 0, SIMD8, Mask = 0xe)  mlen 1 rlen 1 { align1 1Q };
mov(8)          g5<1>UD         0x00000000UD                    { align1 1Q };
mov(8)          g6<1>UD         0x00000000UD                    { align1 1Q };
mov(8)          g7<1>UD         0x00000000UD                    { align1 1Q };
LABEL0:
add(8)          g10<1>D         g5<8,8,1>D      1D              { align1 1Q };
and(8)          g11<1>UD        g10<8,8,1>UD    0x00000001UD    { align1 1Q };
cmp.z.f0.1(8)   null<1>D        g11<8,8,1>D     1D              { align1 1Q };
(+f0.1) if(8)   JIP:  LABEL4          UIP:  LABEL7              { align1 1Q };
add(8)          g11<1>D         g6<8,8,1>D      g10<8,8,1>D     { align1 1Q };
add(8)          g12<1>D         g7<8,8,1>D      1D              { align1 1Q };
cmp.l.f0.1(8)   null<1>D        g4<8,8,1>D      g11<8,8,1>D     { align1 1Q };
(+f0.1) if(8)   JIP:  LABEL2          UIP:  LABEL2              { align1 1Q };
mov(8)          g9<1>UD         g11<8,8,1>UD                    { align1 1Q };
break(8)        JIP:  LABEL1          UIP:  LABEL8              { align1 1Q };
LABEL1:
else(8)         JIP:  LABEL2          UIP:  LABEL2              { align1 1Q };
LABEL2:
endif(8)        JIP:  LABEL3                                    { align1 1Q };
mov(8)          g5<1>UD         g10<8,8,1>UD                    { align1 1Q };
mov(8)          g6<1>UD         g11<8,8,1>UD                    { align1 1Q };
mov(8)          g7<1>UD         g12<8,8,1>UD                    { align1 1Q };
cont(8)         JIP:  LABEL3          UIP:  LABEL8              { align1 1Q };
LABEL3:
else(8)         JIP:  LABEL7          UIP:  LABEL7              { align1 1Q };
LABEL4:
add(8)          g8<1>D          g6<8,8,1>D      10D             { align1 1Q };
add(8)          g11<1>UD        g3<8,8,1>UD     0x00000010UD    { align1 1Q };
sends(8)        nullUD          g11UD           g10UD           0x02026e02                0x0000004c
                            hdc1 MsgDesc: (untyped surface write, Surface = 2, SIMD8, Mask = 0xe)  mlen 1 ex_mlen 1 rlen 0 { align1 1Q };
cmp.ge.f0.1(8)  null<1>D        g10<8,8,1>D     g2<8,8,1>D      { align1 1Q };
(+f0.1) if(8)   JIP:  LABEL6          UIP:  LABEL6              { align1 1Q };
mov(8)          g9<1>UD         g8<8,8,1>UD                     { align1 1Q };
break(8)        JIP:  LABEL5          UIP:  LABEL8              { align1 1Q };
LABEL5:
else(8)         JIP:  LABEL6          UIP:  LABEL6              { align1 1Q };
LABEL6:
endif(8)        JIP:  LABEL7                                    { align1 1Q };
LABEL7:
endif(8)        JIP:  LABEL8                                    { align1 1Q };
mov(8)          g5<1>UD         g10<8,8,1>UD                    { align1 1Q };
mov(8)          g6<1>UD         g8<8,8,1>UD                     { align1 1Q };
LABEL8:
while(8)        JIP:  LABEL0                                    { align1 1Q };
sends(8)        nullUD          g3UD            g9UD            0x02026e02                0x0000004c
                            hdc1 MsgDesc: (untyped surface write, Surface = 2, SIMD8, Mask = 0xe)  mlen 1 ex_mlen 1 rlen 0 { align1 1Q };
add(8)          g2<1>UD         g3<8,8,1>UD     0x00000008UD    { align1 1Q };
sends(8)        nullUD          g2UD            g10UD           0x02026e02                0x0000004c
                            hdc1 MsgDesc: (untyped surface write, Surface = 2, SIMD8, Mask = 0xe)  mlen 1 ex_mlen 1 rlen 0 { align1 1Q };
add(8)          g2<1>UD         g3<8,8,1>UD     0x00000018UD    { align1 1Q };
sends(8)        nullUD          g2UD            g7UD            0x02026e02                0x0000004c
                            hdc1 MsgDesc: (untyped surface write, Surface = 2, SIMD8, Mask = 0xe)  mlen 1 ex_mlen 1 rlen 0 { align1 1Q };
send(8)         null<1>UW       g0<8,8,1>UD     0x02000010
                            ts/btd MsgDesc:  mlen 1 rlen 0                  { align1 1Q EOT };
