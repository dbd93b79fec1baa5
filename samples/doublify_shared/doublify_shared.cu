// doublify through shared memory: each block loads a TILE x TILE tile of the array into
// __shared__ memory, waits at a barrier, then each thread writes back the doubled value that
// its mirror image in the tile's row loaded. Launch with block (TILE, TILE, 1).
#define TILE 8

extern "C" __global__ void doublify_shared(float *a, int width, int height)
{
    __shared__ float tile[TILE * TILE];

    const int x0 = blockIdx.x * TILE; // the tile's first column in the array
    const int y0 = blockIdx.y * TILE; // the tile's first row
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const bool inside = x0 + tx < width && y0 + ty < height;

    // 1. Each thread copies its own element into the tile.
    if (inside) {
        tile[ty * TILE + tx] = a[(y0 + ty) * width + x0 + tx];
    }

    // 2. Wait for the whole block: below, a thread reads a slot that ANOTHER thread wrote,
    //    and overwrites an element of a that another thread had to read first.
    __syncthreads();

    // 3. Thread tx handles column mx, its mirror image in the tile's row (the last tile of a
    //    row may be narrower than TILE when width is not a multiple of it).
    const int tileWidth = min(TILE, width - x0);
    const int mx = tileWidth - 1 - tx;
    if (inside) {
        a[(y0 + ty) * width + x0 + mx] = 2 * tile[ty * TILE + mx];
    }
}
