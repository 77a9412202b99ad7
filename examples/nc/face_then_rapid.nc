(kdop nc example: face a band 2 deep, then rapid down into it to 1 above the faced top)
G21 G90 G54
T1 M6
G43 H1
G0 X30 Y20 Z30
G0 Z2
G1 Z-2 F300
G1 X70
G1 Y26
G1 X30
G1 Y32
G1 X70
G1 Y38
G1 X30
G0 Z30
(a rapid down into the faced area, 1 mm above it: clear of the stock as it is cut)
G0 X50 Y29
G0 Z-1
G0 Z30
M30
