// Tiled matrix product C = A x B (n x n): each block stages TILE x TILE tiles of A and B in
// shared memory, so each value read from global memory is used TILE times. Launch with block
// (TILE, TILE, 1); any n works. A tile is a 1-D array: row r, column c is at r * TILE + c.
#define TILE 16

extern "C" __global__ void matmul(float *c, const float *a, const float *b, int n)
{
    __shared__ float tileA[TILE * TILE];
    __shared__ float tileB[TILE * TILE];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int col = blockIdx.x * TILE + tx;
    const int row = blockIdx.y * TILE + ty;

    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        // Each thread loads one element of each tile; outside the matrix it loads 0,
        // which adds nothing to the sum.
        tileA[ty * TILE + tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0f;
        tileB[ty * TILE + tx] = (t + ty < n && col < n) ? b[(t + ty) * n + col] : 0.0f;
        __syncthreads(); // the tiles are complete before anyone uses them

        for (int k = 0; k < TILE; ++k) {
            sum += tileA[ty * TILE + k] * tileB[k * TILE + tx];
        }
        __syncthreads(); // everyone is done with the tiles before they are overwritten
    }

    if (row < n && col < n) {
        c[row * n + col] = sum;
    }
}
