// The CPU reference: the kernel's parameter list, one loop.
void multiply_ref(float* dest, const float* a, const float* b, int n)
{
    for (int i = 0; i < n; ++i) dest[i] = a[i] * b[i];
}
