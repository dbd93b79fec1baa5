// Reading a strided (non-contiguous) input, like numpy's src[::stride]:
// dest[i] = 2 * src[i * stride]. The writes are contiguous, the reads are not.
extern "C" __global__ void strided_scale(float *dest, const float *src, int stride, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dest[i] = 2 * src[i * stride];
    }
}
