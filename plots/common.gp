# common.gp — loaded by every chart after it sets OUT = ARG2: the terminal follows the
# output's extension (.svg or .png), CSV input with a header row, one look for all charts.
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
set datafile separator comma
set datafile columnheaders
# The charts select rows with (condition ? x : NaN): NaN counts as missing, so a selected curve
# stays one line instead of breaking at every row of another series.
set datafile missing NaN
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
# A row the harness marked ok (failed and n/a rows carry no numbers worth drawing).
isok(x) = strcol("status") eq "ok"
# The folder of a path, with its slash ("" for none). (A loaded file does not see ARG1: the
# macros below are evaluated by the chart, where it does.)
dirname(s, i) = i < 1 ? "" : s[i:i] eq "/" ? s[1:i] : dirname(s, i - 1)
# eval PROF_GET: the value of key PK in profile.csv, beside the chart's CSV, into PV (NaN when the
# run has no such key or no profile.csv: gnuplot only warns then). It clears STATS_*.
PROF_GET = 'undefine STATS_*; stats dirname(ARG1, strlen(ARG1)) . "profile.csv" using ((strcol(1) eq PK) ? column(2) : NaN) nooutput; PV = exists("STATS_max") ? STATS_max : NaN'
# eval DISTINCT: the distinct values of column DC over ok rows, ascending, as words of DV. It
# clears STATS_*.
DISTINCT = 'DV = ""; DP = -1e300; while (1) { undefine STATS_*; stats ARG1 using ((isok(0) && column(DC) > DP) ? column(DC) : NaN) nooutput; if (!exists("STATS_min")) { break }; DP = STATS_min; DV = DV . sprintf(" %.15g", DP) }'
# eval HAS_COL: HCOL = 1 when the CSV's header names column CN (runs made before a column existed
# lack it).
HAS_COL = 'HCOL = 0; stats ARG1 every ::0::0 using (HCOL = sum [i = 1:256] (columnhead(i) eq CN), 1) nooutput'
# eval KS_PRESENT: HAS[j] = 1 where kernel word(KS, j) has an ok row (a key lists only those). It
# clears STATS_*.
KS_PRESENT = 'array HAS[words(KS)]; do for [j = 1:words(KS)] { undefine STATS_*; stats ARG1 using ((isok(0) && strcol("kernel") eq word(KS, j)) ? 1 : NaN) nooutput; HAS[j] = exists("STATS_records") ? STATS_records > 0 : 0 }'
# Bytes with binary prefixes, for labels (the axes use set format "%.0b%B").
bytes(b) = b >= 2**30 ? sprintf("%.3g GiB", b / 2**30) : b >= 2**20 ? sprintf("%.3g MiB", b / 2**20) : b >= 1024 ? sprintf("%.3g KiB", b / 1024) : sprintf("%.0f B", b)
