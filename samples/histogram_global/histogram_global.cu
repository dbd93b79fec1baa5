// 256-bin histogram of bytes, the simplest way: one thread per byte, one atomicAdd on the bin in
// global memory. Many threads hit the same few bins at once, so the atomics queue up.
extern "C" __global__ void histogram_global(const unsigned char *data, unsigned int *bins, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[data[i]], 1u);
    }
}
