// A reference that disagrees with the kernel on purpose: every element is off by one.
void multiply_ref(float* dest, const float* a, const float* b, int n)
{
    for (int i = 0; i < n; ++i) dest[i] = a[i] * b[i] + 1.0f;
}
