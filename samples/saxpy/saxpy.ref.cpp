// CPU reference for saxpy: y = a*x + y, one loop. The host compiler does not fuse the multiply and
// the add, while NVRTC does by default (an FMA), so the check allows a few units in the last place.
void saxpy_ref(float* y, const float* x, float a, int n)
{
    for (int i = 0; i < n; ++i) {
        y[i] = a * x[i] + y[i];
    }
}
