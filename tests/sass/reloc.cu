// reloc.cu — a relocatable template (nvcc -rdc=true -cubin): reading a __device__ variable and
// calling an external function leave relocations in .rela.text.uses_reloc that the patcher
// must refuse to touch.
__device__ float g_table[16];
extern __device__ float ext_scale(float);

extern "C" __global__ void uses_reloc(float *out)
{
	out[threadIdx.x] = g_table[threadIdx.x & 15] + ext_scale(out[0]);
}
