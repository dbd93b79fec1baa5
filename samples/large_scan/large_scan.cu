// An exclusive prefix sum (scan) of an array far larger than one block can hold, in three launches:
//   1. scan_blocks scans each tile of 2 * BLOCK elements in shared memory and writes the tile's total;
//   2. scan_blocks again, as one block, scans those totals: tile t's offset is the sum of tiles before it;
//   3. add_offsets adds each tile's offset to every element of the tile.
// The scan inside a tile is the work-efficient one (Blelloch): an up-sweep builds a tree of sums in place,
// a down-sweep turns it into the exclusive scan, 2 * BLOCK - 1 additions each way. BLOCK, the threads of
// a block, is a template argument: the playground's variable "block" sets it and the launches' size.
template <int BLOCK>
__global__ void scan_blocks(const int* in, int* out, int* tile_totals, int n)
{
    __shared__ int tile[2 * BLOCK];
    const int t = threadIdx.x;
    const int first = blockIdx.x * 2 * BLOCK;

    // Two elements a thread, the missing end of the last tile as zeros.
    tile[t] = first + t < n ? in[first + t] : 0;
    tile[t + BLOCK] = first + t + BLOCK < n ? in[first + t + BLOCK] : 0;

    // Up-sweep: after the pass with `stride`, tile[k * 2 * stride - 1] holds the sum of its 2 * stride
    // elements.
    int stride = 1;
    for (int active = BLOCK; active > 0; active /= 2) {
        __syncthreads();
        if (t < active) {
            const int right = stride * (2 * t + 2) - 1;
            tile[right] += tile[right - stride];
        }
        stride *= 2;
    }

    // The root holds the tile's total: keep it, and start the down-sweep from zero.
    if (t == 0) {
        tile_totals[blockIdx.x] = tile[2 * BLOCK - 1];
        tile[2 * BLOCK - 1] = 0;
    }

    // Down-sweep: each node passes its value to its left child and the sum of both to its right child.
    for (int active = 1; active <= BLOCK; active *= 2) {
        stride /= 2;
        __syncthreads();
        if (t < active) {
            const int right = stride * (2 * t + 2) - 1;
            const int left = right - stride;
            const int value = tile[left];
            tile[left] = tile[right];
            tile[right] += value;
        }
    }
    __syncthreads();

    if (first + t < n) out[first + t] = tile[t];
    if (first + t + BLOCK < n) out[first + t + BLOCK] = tile[t + BLOCK];
}

template <int BLOCK>
__global__ void add_offsets(int* out, const int* tile_offsets, int n)
{
    const int i = blockIdx.x * 2 * BLOCK + threadIdx.x;
    const int offset = tile_offsets[blockIdx.x];
    if (i < n) out[i] += offset;
    if (i + BLOCK < n) out[i + BLOCK] += offset;
}
