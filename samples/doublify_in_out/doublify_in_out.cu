// doublify with a separate input and output: out = 2 * in, for n elements.
// The input is only read (const), the output only written.
extern "C" __global__ void doublify_copy(float *out, const float *in, int n)
{
    const int idx = threadIdx.x + threadIdx.y * blockDim.x;
    if (idx >= n) return;
    out[idx] = 2 * in[idx];
}
