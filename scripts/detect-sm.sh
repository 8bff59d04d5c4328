#!/bin/sh
# detect-sm.sh NVCC SM... — the sm list the default `make` builds kernels for: the compute
# capabilities of the GPUs in this machine (nvidia-smi, else nvcc's __nvcc_device_query; neither
# needs a GPU library at build time) that NVCC can target, else every SM given (no GPU, no
# driver, a tool that hangs or prints something unexpected). Prints one space-separated line
# and never fails: a build machine without a GPU simply builds everything.
nvcc=$1
shift
all="$*"
caps=""
if command -v nvidia-smi >/dev/null 2>&1; then
	caps=$(timeout 20 nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d '.\r ')
fi
if [ -z "$caps" ]; then
	q="$(dirname "$nvcc")/__nvcc_device_query"
	[ -x "$q" ] && caps=$(timeout 20 "$q" 2>/dev/null | tr ',' '\n')
fi
# Keep only plain numbers nvcc knows as sm_NN, once each; anything else means "no answer".
known=$("$nvcc" --list-gpu-code 2>/dev/null | tr -s ' \n' '\n')
sms=""
for c in $(printf '%s\n' "$caps" | sort -un); do
	case $c in
	*[!0-9]*) continue ;;
	esac
	printf '%s\n' "$known" | grep -qx "sm_$c" && sms="$sms $c"
done
if [ -n "$sms" ]; then
	echo $sms
else
	echo "$all"
fi
