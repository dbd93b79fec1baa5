// CPU reference for mandelbrot: the same float operations in the same order, so that (with the kernel
// compiled with --fmad=false) every pixel's count is exactly the GPU's.
void mandelbrot_ref(int* out, int rows, int cols, float x_min, float y_min, float step, int max_iter)
{
    for (int row = 0; row < rows; ++row) {
        for (int col = 0; col < cols; ++col) {
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
    }
}
