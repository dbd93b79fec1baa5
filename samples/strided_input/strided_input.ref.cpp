// CPU reference for strided_scale: dest[i] = 2 * src[i * stride] for n elements of dest.
void strided_input_ref(float* dest, const float* src, int stride, int n)
{
    for (int i = 0; i < n; ++i) {
        dest[i] = 2 * src[static_cast<long long>(i) * stride];
    }
}
