// CPU reference for elementwise_multiply: z[i] = x[i] * y[i] for n elements.
void elementwise_multiply_ref(float* z, const float* x, const float* y, int n)
{
    for (int i = 0; i < n; ++i) {
        z[i] = x[i] * y[i];
    }
}
