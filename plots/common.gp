# common.gp — loaded by every chart after it sets OUT = ARG2: the terminal follows the
# output's extension (.svg or .png), CSV input with a header row, one look for all charts.
if (strlen(OUT) > 4 && OUT[strlen(OUT)-2:] eq "png") {
	set terminal pngcairo size 960,600 font "sans,11" noenhanced
} else {
	set terminal svg size 960,600 dynamic font "sans,11" noenhanced
}
set output OUT
set datafile separator comma
set datafile columnheaders
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
set key top left box opaque
