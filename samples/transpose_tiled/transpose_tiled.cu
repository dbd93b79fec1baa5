// Tiled matrix transpose: each block moves a 32x32 tile of in through shared memory, so that both
// the reads from in and the writes to out are coalesced. blockDim.x must be 32; each thread moves
// 32 / blockDim.y elements (4 with the 32x8 block).
#define TILE 32

extern "C" __global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    // The +1 column of padding puts the 32 elements of a tile column in 32 different banks.
    __shared__ float tile[TILE][TILE + 1];

    // Read tile (blockIdx.y, blockIdx.x) of in, row by row: a warp reads 32 consecutive floats.
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += blockDim.y) {
        if (row + k < rows && col < cols) {
            tile[threadIdx.y + k][threadIdx.x] = in[(row + k) * cols + col];
        }
    }
    __syncthreads();

    // Write it as tile (blockIdx.x, blockIdx.y) of out, again row by row, reading the tile by column.
    col = blockIdx.y * TILE + threadIdx.x;
    row = blockIdx.x * TILE + threadIdx.y;
    for (int k = 0; k < TILE; k += blockDim.y) {
        if (row + k < cols && col < rows) {
            out[(row + k) * rows + col] = tile[threadIdx.x][threadIdx.y + k];
        }
    }
}
