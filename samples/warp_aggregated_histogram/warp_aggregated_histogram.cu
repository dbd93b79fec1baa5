// Histogram of n bytes in [0, 16) with warp-aggregated atomics: the lanes of a warp that hold the same
// value find each other with __match_any_sync, and only the lowest of them adds the group's count to
// the bin. Fewer atomics on the same address, the same counts.
extern "C" __global__ void warp_aggregated_histogram(unsigned int *bins, const unsigned char *data, int n)
{
    const int lane = threadIdx.x % 32;
    const int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        // The lanes still in the loop: in the last round, those of the tail may be fewer than 32.
        const unsigned int active = __activemask();
        const unsigned int value = data[i];
        // Bit k is set where lane k holds the same value as this lane.
        const unsigned int peers = __match_any_sync(active, value);
        const int leader = __ffs(peers) - 1;
        if (lane == leader) {
            atomicAdd(&bins[value], __popc(peers));
        }
    }
}
