// Does not compile: the error is on line 4 of this file.
void multiply_ref(float* dest, const float* a, const float* b, int n)
{
    for (int i = 0; i < n; ++i) dest[i] = a[i] * c[i];
}
