// Box blur, a 2-D stencil: each output pixel is the mean of the (2*radius+1)^2 input pixels around
// it (5x5 for radius 2). Neighbours outside the image are clamped to the nearest edge pixel.
extern "C" __global__ void blur(float *out, const float *in, int rows, int cols, int radius)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) {
        return;
    }

    float sum = 0.0f;
    for (int dy = -radius; dy <= radius; ++dy) {
        const int r = min(max(row + dy, 0), rows - 1);
        for (int dx = -radius; dx <= radius; ++dx) {
            const int c = min(max(col + dx, 0), cols - 1);
            sum += in[r * cols + c];
        }
    }
    const int width = 2 * radius + 1;
    out[row * cols + col] = sum / (width * width);
}
