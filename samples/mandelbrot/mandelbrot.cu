// The Mandelbrot set: for each pixel c, iterate z = z*z + c from z = 0 and store how many steps z
// stays within |z| <= 2 (max_iter for points in the set). One thread per pixel.
extern "C" __global__ void mandelbrot(int *out, int rows, int cols, float x_min, float y_min, float step,
                                      int max_iter)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) {
        return;
    }

    const float cx = x_min + col * step;
    const float cy = y_min + row * step;
    float x = 0.0f;
    float y = 0.0f;
    int iter = 0;
    while (iter < max_iter && x * x + y * y <= 4.0f) {
        const float x_next = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = x_next;
        ++iter;
    }
    out[row * cols + col] = iter;
}
