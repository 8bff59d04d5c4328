#!/bin/sh
# sass-fixtures.sh cubins SM DIR | listings SM DIR — the SASS fixtures of one sm (tests/solver/smNN/).
#
#   cubins    (any machine with nvcc, no GPU) our kernels for sm_SM as the build makes them: cicc
#             at the source's PTX level (scripts/ptx-levels.sh), ptxas for the sm, without line
#             info (smaller; the code is the same), into DIR/*.cubin; then the solver's input,
#             every single-bit flip of the first instruction of each distinct opcode of
#             regbank's bank_ffma (what the sm_90 map was solved from), into DIR/flips.bin
#             (`gpuprobe sass solve --emit`; GPUPROBE names the binary, default bin/gpuprobe).
#   listings  (the GPU machine, which has nvdisasm; no GPU is used) nvdisasm's listing of every
#             cubin in DIR (DIR/NAME.nvdisasm.txt, code sections only) and the solver run on the
#             flips (`gpuprobe sass solve --save-listing`: one batch, else word by word),
#             DIR/flips.nvdisasm.txt and the map it derives, DIR/field_map.csv, with
#             nvdisasm --version in DIR/nvdisasm.version.
# The committed fixtures came from these two steps; tests/test_solver_blackwell.c re-derives
# the maps offline and checks the codec on every instruction of the listings.
set -eu
mode=$1 sm=$2 dir=$3
nvcc=${NVCC:-nvcc}
gpuprobe=${GPUPROBE:-bin/gpuprobe}
# Sources: the regbank template (the solver's input), the codec's chains, and two probes whose
# kernels span loads, stores, shared memory, atomics, branches and clock reads.
srcs="probes/patch/regbank.cu tests/sass/chains.cu probes/l2map.cu probes/clockcheck.cu"
mkdir -p "$dir"
case $mode in
cubins)
	for f in $srcs; do
		n=$(basename "$f" .cu)
		level=$(scripts/ptx-levels.sh "$sm" "$f" | cut -d: -f3)
		"$nvcc" -O3 -std=c++17 -Iprobes -Ibench -Iharness -ptx -arch=compute_"$level" -o "$dir/$n.ptx" "$f"
		"$nvcc" -cubin -arch=sm_"$sm" -o "$dir/$n.cubin" "$dir/$n.ptx"
		rm -f "$dir/$n.ptx"
	done
	"$gpuprobe" sass solve "$dir/regbank.cubin" --kernel bank_ffma --emit "$dir/flips.bin"
	;;
listings)
	nvdisasm --version | tail -2 >"$dir/nvdisasm.version"
	for c in "$dir"/*.cubin; do
		nvdisasm -c "$c" >"${c%.cubin}.nvdisasm.txt"
	done
	"$gpuprobe" sass solve "$dir/regbank.cubin" --kernel bank_ffma -o "$dir/field_map.csv" \
		--save-listing "$dir/flips.nvdisasm.txt" --max-seconds "${SOLVE_LIMIT_S:-100}" || true
	;;
*)
	echo "sass-fixtures.sh: unknown step '$mode' (cubins, listings)" >&2
	exit 2
	;;
esac
