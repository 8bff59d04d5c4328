# common.gp — loaded by every chart after it sets OUT = ARG2: the terminal follows the
# output's extension (.svg or .png), CSV input with a header row, one look for all charts.
# A script with many panels sets W and H (pixels) before loading this file.
if (!exists("W")) W = 960
if (!exists("H")) H = 600
if (strlen(OUT) > 4 && OUT[strlen(OUT)-2:] eq "png") {
	set terminal pngcairo size W,H font "sans,11" noenhanced
} else {
	set terminal svg size W,H dynamic font "sans,11" noenhanced
}
set output OUT
set datafile separator comma
set datafile columnheaders
# The charts select rows with (condition ? x : NaN): NaN counts as missing, so a selected curve
# stays one line instead of breaking at every row of another series.
set datafile missing NaN
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
set key top left box opaque
