# data.gp — how every chart reads a run: CSV with a header row, rows selected by status, and the
# macros that turn a column into a list (DISTINCT), test for a column (HAS_COL), read a derived
# key of the run (PROF_GET) or list the kernels a run has (KS_PRESENT). common.gp loads it; a
# chart whose size depends on the data loads it first, sets W and H, then loads common.gp. The
# macros are strings run with eval in the chart, where ARG1 is the CSV (a loaded file sees none).
set datafile separator comma
set datafile columnheaders
# The charts select rows with (condition ? x : NaN): NaN counts as missing, so a selected curve
# stays one line instead of breaking at every row of another series.
set datafile missing NaN
# A row the harness marked ok (failed and n/a rows carry no numbers worth drawing).
isok(x) = strcol("status") eq "ok"
# The folder of a path, with its slash ("" for none).
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
