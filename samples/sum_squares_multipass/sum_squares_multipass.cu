// Sum of squares finished on the GPU. One kernel, launched pass after pass: each block adds up
// 2 * BLOCK values into one partial sum, so every pass divides the count by 2 * BLOCK, and the
// playground's steps (the host code a notebook would write) run passes until one value is left.
// The first pass squares what it reads; the later ones add the partial sums as they are.
template <unsigned BLOCK>
__global__ void reduce_pass(const float* in, float* out, unsigned n, int square)
{
    __shared__ float partial[BLOCK];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * (2 * BLOCK) + t;

    // Two elements a thread, BLOCK apart: the loads of a warp stay side by side (coalesced).
    float sum = 0.0f;
    if (i < n) {
        const float v = in[i];
        sum += square ? v * v : v;
    }
    if (i + BLOCK < n) {
        const float v = in[i + BLOCK];
        sum += square ? v * v : v;
    }
    partial[t] = sum;
    __syncthreads();

    // The block's tree: half the threads add the other half's values, until one is left.
    for (unsigned active = BLOCK / 2; active > 0; active /= 2) {
        if (t < active) {
            partial[t] += partial[t + active];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = partial[0];
    }
}
