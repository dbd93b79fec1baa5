// CPU reference for half_precision_axpy: each y[i] = a*x[i] + y[i] worked out in double from the half
// inputs (a rounded to half first, as the kernel converts it) and rounded to half once at the end, as
// a fused multiply-add rounds its exact result once.
void half_precision_axpy_ref(const __half* x, __half* y, float a, int n)
{
    const double ah = __half2float(__float2half(a));
    for (int i = 0; i < n; ++i) {
        const double exact = ah * __half2float(x[i]) + __half2float(y[i]);
        y[i] = __float2half(static_cast<float>(exact));
    }
}
