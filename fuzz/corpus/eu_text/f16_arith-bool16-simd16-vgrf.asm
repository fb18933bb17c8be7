and(16)         vgrf0<1>UD      g1<8,8,1>UD     0x0000000fUD    { align1 1H };
mul(16)         vgrf1<1>UD      g1<8,8,1>UD     0x0010UW        { align1 1H };
mul(16)         vgrf2<1>UD      g1<8,8,1>UD     0x0018UW        { align1 1H };
send(16)        vgrf3<1>UD      vgrf1<8,8,1>UD  0x04210500
                            hdc0 MsgDesc: (DC byte scattered read, bti 0, 5)  mlen 2 rlen 2 { align1 1H };
add(16)         vgrf4<1>UD      vgrf1<8,8,1>UD  0x00000008UD    { align1 1H };
send(16)        vgrf5<1>UD      vgrf4<8,8,1>UD  0x04210500
                            hdc0 MsgDesc: (DC byte scattered read, bti 0, 5)  mlen 2 rlen 2 { align1 1H };
add(16)         vgrf6<2>HF      vgrf3<16,8,2>HF vgrf5<16,8,2>HF { align1 1H };
add(16)         vgrf7<2>HF      vgrf3<16,8,2>HF -vgrf5<16,8,2>HF { align1 1H };
mul(16)         vgrf8<2>HF      vgrf3<16,8,2>HF vgrf5<16,8,2>HF { align1 1H };
sends(16)       nullUD          vgrf2UD         vgrf6UD         0x04030502                0x0000008a
                            hdc0 MsgDesc: (DC byte scattered write, bti 2, 5)  mlen 2 ex_mlen 2 rlen 0 { align1 1H };
add(16)         vgrf9<1>UD      vgrf2<8,8,1>UD  0x00000008UD    { align1 1H };
sends(16)       nullUD          vgrf9UD         vgrf7UD         0x04030502                0x0000008a
                            hdc0 MsgDesc: (DC byte scattered write, bti 2, 5)  mlen 2 ex_mlen 2 rlen 0 { align1 1H };
add(16)         vgrf10<1>UD     vgrf2<8,8,1>UD  0x00000010UD    { align1 1H };
sends(16)       nullUD          vgrf10UD        vgrf8UD         0x04030502                0x0000008a
                            hdc0 MsgDesc: (DC byte scattered write, bti 2, 5)  mlen 2 ex_mlen 2 rlen 0 { align1 1H };
send(8)         null<1>UW       g0<8,8,1>UD     0x02000010
                            ts/btd MsgDesc:  mlen 1 rlen 0                  { align1 1Q EOT };

