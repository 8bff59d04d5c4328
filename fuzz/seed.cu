// seed.cu — source of the real cubins in fuzz/corpus/cubin (make fuzz-corpus rebuilds them with
// nvcc -cubin for sm_75 and sm_90, plain and -rdc=true). Small on purpose: a seed should carry
// every structure the reader walks (.text.<k>, .nv.info.<k> with EXIT offsets and KPARAM_INFO,
// the global .nv.info with REGCOUNT/FRAME_SIZE, symbols, and with -rdc relocations) in as few
// bytes as possible, so the fuzzer spends its time on the structure, not on instruction words.
__device__ float g_scale[4];

extern "C" __global__ void seed_ffma(float *out, const float *in, int n)
{
	float x = in[threadIdx.x], a = in[32];
	asm volatile("fma.rn.f32 %0, %0, %1, %0;" : "+f"(x) : "f"(a));
	if (threadIdx.x < n)
		out[threadIdx.x] = x * g_scale[threadIdx.x & 3];
}

extern "C" __global__ void seed_exit(int *out)
{
	if (threadIdx.x == 0)
		return;
	out[threadIdx.x] = threadIdx.x;
}
