%
(kdop nc example: a facing pass over the part, then three mistakes)
(setup.json: 100 x 60 x 20 stock, top at Z0; the part's top at Z-5; a clamp, a stop, a jaw)
N10 G21 G90 G17 G54
N20 T1 M6
N30 G43 H1
N40 G0 X50 Y30 Z30
N50 G0 Z2
N60 G1 Z-2 F300
N70 G1 X85 F800
N80 G1 Y15
N90 G1 X40
N100 G0 Z30
(mistake 1: a rapid down into uncut stock)
N110 G0 X70 Y45
N120 G0 Z-1
N130 G0 Z30
(mistake 2: a plunge 0.5 mm into the finished part)
N140 G0 X30 Y20
N150 G1 Z-5.5 F200
N160 G0 Z30
(mistake 3: cutting along the back edge, the holder runs into the jaw)
N170 G0 X20 Y52
N180 G1 Z-2 F300
N190 G1 X80 F800
N200 G0 Z30
N210 M30
%
