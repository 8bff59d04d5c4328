#!/bin/bash
# dev: build sm_90, run the TMA FFMA kernel against 48/29/cuBLAS; odd sizes; memcheck; SASS.
set -u
OUT=${OUT:-out}; mkdir -p $OUT
exec > >(tee "$OUT/log.txt") 2>&1
t0=$(date +%s)
make -j16 all SM=90 DEPS=.deps/root Q= > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader
cuobjdump -sass build/kernels/bench/sgemm_tmaffma_90a.sm_90a.cubin > $OUT/tf.sass 2>&1
for s in tf tf_odd; do
  bin/gpuprobe run --suite inv/$s.csv --out /tmp/r_$s; echo "rc $s=$?"
  d=$(ls -d /tmp/r_$s/*/* | tail -1); cp -r $d $OUT/$s
  python3 - $OUT/$s/sgemm.csv <<'PY'
import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['kernel'][:34], r['m'], r['n'], r['k'], r.get('gflops'), r.get('ratio_to_cublas',''), r.get('regs_per_thread'), r.get('local_bytes'), r.get('clock_MHz'), r.get('rel_err', r.get('error','')), r['status'][:80])
PY
done
timeout 200 compute-sanitizer --tool memcheck bin/gpuprobe run --no-isolate --reps 1 --suite inv/tf_san.csv --out /tmp/r_san > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -5 $OUT/memcheck.txt
