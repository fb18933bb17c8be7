mov(1) f0.0<1>UD 0x00000044UD { align1 WE_all 1N };
cmp.ge.f0.0(8)  null<1>.xyD     g21<4>D         2D              { align16 1Q };
(+f0.0.x) add(8) g5<1>.xzF      -g4<4>.wzyxF    g6.4<0>.yF      { align16 1Q };
(-f0.0.all4h) mov(8) g20<1>UD   g21<4,4,1>.xxxxUD               { align16 1Q };
send(8) null g0 end { align1 1Q EOT };
