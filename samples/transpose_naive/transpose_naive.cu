// Naive matrix transpose: out[col][row] = in[row][col], one thread per element of in.
// Reads along a row of in are coalesced; writes go down a column of out, one row apart (strided).
extern "C" __global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < rows && col < cols) {
        out[col * rows + row] = in[row * cols + col];
    }
}
