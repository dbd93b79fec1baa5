// CPU reference for the grid-stride SAXPY: y = a*x + y, one plain loop over the n elements.
void grid_stride_saxpy_ref(int n, float a, const float* x, float* y)
{
    for (int i = 0; i < n; ++i) {
        y[i] = a * x[i] + y[i];
    }
}
