// CPU reference for multiply_them: dest[i] = a[i] * b[i], one loop on one core, as numpy's a*b.
void multiply_them_ref(float* dest, const float* a, const float* b, int n)
{
    for (int i = 0; i < n; ++i) {
        dest[i] = a[i] * b[i];
    }
}
