// Bitonic sort of 2^20 keys, more than shared memory holds, the way NVIDIA's sortingNetworks sample
// does it. A bitonic network sorts n keys in log2(n) stages; stage k (k = 2, 4, ..., n) merges runs of k
// keys with compare-and-swaps at strides k/2, k/4, ..., 1, and pair (i, i + j) is put in ascending order
// when bit k of i is 0, descending otherwise, so that every stage leaves runs the next stage can merge.
// Strides below TILE stay inside one tile of TILE keys and run in shared memory, all of them in one
// launch; each larger stride is a launch of its own over the whole array, from the host's loop.
__device__ void compare_and_swap(unsigned int& a, unsigned int& b, bool ascending)
{
    if ((a > b) == ascending) {
        const unsigned int t = a;
        a = b;
        b = t;
    }
}

// Stages 2 .. TILE inside each tile: a block of TILE / 2 threads, a pair each.
template <unsigned int TILE>
__global__ void sort_tiles(unsigned int* keys)
{
    __shared__ unsigned int tile[TILE];
    const unsigned int t = threadIdx.x;
    const unsigned int first = blockIdx.x * TILE;
    tile[t] = keys[first + t];
    tile[t + TILE / 2] = keys[first + t + TILE / 2];
    for (unsigned int k = 2; k <= TILE; k *= 2) {
        for (unsigned int j = k / 2; j > 0; j /= 2) {
            __syncthreads();
            const unsigned int i = 2 * t - (t & (j - 1)); // the pair's lower index
            compare_and_swap(tile[i], tile[i + j], ((first + i) & k) == 0);
        }
    }
    __syncthreads();
    keys[first + t] = tile[t];
    keys[first + t + TILE / 2] = tile[t + TILE / 2];
}

// One stride j >= TILE of stage k over the whole array: a thread a pair.
__global__ void merge_global(unsigned int* keys, unsigned int j, unsigned int k)
{
    const unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int i = 2 * t - (t & (j - 1));
    compare_and_swap(keys[i], keys[i + j], (i & k) == 0);
}

// The strides TILE / 2 .. 1 of stage k, inside each tile.
template <unsigned int TILE>
__global__ void merge_tiles(unsigned int* keys, unsigned int k)
{
    __shared__ unsigned int tile[TILE];
    const unsigned int t = threadIdx.x;
    const unsigned int first = blockIdx.x * TILE;
    tile[t] = keys[first + t];
    tile[t + TILE / 2] = keys[first + t + TILE / 2];
    for (unsigned int j = TILE / 2; j > 0; j /= 2) {
        __syncthreads();
        const unsigned int i = 2 * t - (t & (j - 1));
        compare_and_swap(tile[i], tile[i + j], ((first + i) & k) == 0);
    }
    __syncthreads();
    keys[first + t] = tile[t];
    keys[first + t + TILE / 2] = tile[t + TILE / 2];
}
