// CPU reference for doublify_copy: out[i] = 2 * in[i] for the first n elements.
void doublify_in_out_ref(float* out, const float* in, int n)
{
    for (int i = 0; i < n; ++i) {
        out[i] = 2 * in[i];
    }
}
