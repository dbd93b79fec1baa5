// CPU reference for vector_add: the same sum, one loop.
void vector_add_ref(float* c, const float* a, const float* b, int n)
{
    for (int i = 0; i < n; ++i) {
        c[i] = a[i] + b[i];
    }
}
