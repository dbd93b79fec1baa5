// CPU reference for multiply_them: dest[i] = a[i] * b[i].
// The kernel hard-codes its size (one block of 400 threads, no n), so the reference does too.
void multiply_them_ref(float* dest, const float* a, const float* b)
{
    const int n = 400; // hard-coded, like the kernel's launch: block (400, 1, 1)
    for (int i = 0; i < n; ++i) {
        dest[i] = a[i] * b[i];
    }
}
