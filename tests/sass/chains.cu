// chains.cu — patchable templates for tests/test_sass.c: straight-line dependent chains whose
// SASS the source pins down. Each chain is N copies of one asm volatile instruction on one
// register, so ptxas can neither fold nor reorder it; operands come from memory so they are
// registers, not constant-bank operands. The test asserts the instruction count and registers.
#define REP4(x) x x x x
#define REP16(x) REP4(x) REP4(x) REP4(x) REP4(x)
#define REP64(x) REP16(x) REP16(x) REP16(x) REP16(x)

// 64 FFMA R, R, R, R with x as destination and first source.
extern "C" __global__ void ffma_chain(float *out, const float *in)
{
	float x = in[threadIdx.x], a = in[32], b = in[33];
	REP64(asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));)
	out[threadIdx.x] = x;
}

// 16 FFMA with an immediate multiplier (Rb immediate) and 16 with an immediate addend.
extern "C" __global__ void ffma_imm(float *out, const float *in)
{
	float x = in[threadIdx.x], a = in[32];
	REP16(asm volatile("fma.rn.f32 %0, %0, 0f3F800001, %1;" : "+f"(x) : "f"(a));)
	REP16(asm volatile("fma.rn.f32 %0, %0, %1, 0f3F800001;" : "+f"(x) : "f"(a));)
	out[threadIdx.x] = x;
}

// 16 FMUL and 16 FADD, register forms.
extern "C" __global__ void fmul_fadd(float *out, const float *in)
{
	float x = in[threadIdx.x], a = in[32];
	REP16(asm volatile("mul.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(a));)
	REP16(asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(a));)
	out[threadIdx.x] = x;
}

// 16 three-input integer adds.
extern "C" __global__ void iadd3_chain(int *out, const int *in)
{
	int x = in[threadIdx.x], a = in[32], b = in[33];
	REP16(asm volatile("{ .reg .s32 t; add.s32 t, %0, %1; add.s32 %0, t, %2; }" : "+r"(x) : "r"(a), "r"(b));)
	out[threadIdx.x] = x;
}
