# common.gp — loaded by every chart after it sets OUT = ARG2: the terminal follows the
# output's extension (.svg or .png), one look for all charts, and data.gp's way of reading a run.
# A script with many panels sets W and H (pixels) before loading this file. Charts are shown
# about 900 pixels wide (REPORT.md on a code host), so they are laid out for W = 960 and grow
# in height, not width, when they need room.
if (!exists("W")) W = 960
if (!exists("H")) H = 600
if (strlen(OUT) > 4 && OUT[strlen(OUT)-2:] eq "png") {
	set terminal pngcairo size W,H font "sans,11" noenhanced
} else {
	set terminal svg size W,H dynamic font "sans,11" noenhanced
}
set output OUT
load ARG0[1:strlen(ARG0) - strlen("common.gp")] . "data.gp"
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
set key top left box opaque
# eval KEY_OUT: the key beside the plot, where it cannot cover data (where the data lands depends
# on the GPU, so a key inside may cover it on the next run). The charts whose key sits inside
# (the default above) place it where their data cannot be.
KEY_OUT = 'set key outside right top vertical Left reverse nobox noopaque samplen 2.5'
# Twenty distinguishable series: ten colours (no yellow: it vanishes on white), solid with filled
# points, then the same colours dashed with open points.
array PAL[10] = ["#4477aa", "#cc3311", "#228833", "#aa3377", "#66ccee", "#ee7733", "#000000", "#999933", "#882255", "#44aa99"]
array PTF[10] = [7, 5, 9, 11, 13, 15, 7, 5, 9, 11]
array PTO[10] = [6, 4, 8, 10, 12, 14, 6, 4, 8, 10]
do for [i = 1:10] {
	set linetype i lc rgb PAL[i] lw 1.5 pt PTF[i] ps 0.8 dt 1
	set linetype i + 10 lc rgb PAL[i] lw 1.5 pt PTO[i] ps 0.8 dt 2
}
set linetype cycle 20
# The GEMM charts draw cuBLAS in bold green: their kernels take every style but the two greens.
ks_lt(j) = j < 3 ? j : j < 12 ? j + 1 : j + 2
# Panels in NC columns above a key strip of KH pixels (PH pixels a row, H the figure): eval
# PANEL_AT places panel i; eval KEY_STRIP readies the strip, an empty plot across the whole width
# whose only content is the key (a key per panel would take each panel's room).
PANEL_AT = 'set origin 1.0 * ((i - 1) % NC) / NC, 1.0 * (KH + PH * (NR - 1 - (i - 1) / NC)) / H; set size 1.0 / NC, 1.0 * PH / H'
KEY_STRIP = 'set origin 0, 0; set size 1, 1.0 * KH / H; unset title; unset border; unset tics; unset xlabel; unset ylabel; unset grid; unset logscale; set xrange [0:1]; set yrange [0:1]; set key inside center center horizontal reverse Left nobox maxrows 3 width 2 font ",10"'
