// CPU reference for sum_squares: the sum of a[i]^2 over the height x width array,
// accumulated in double and rounded to float once at the end.
void sum_squares_atomic_ref(const float* a, float* total, int width, int height)
{
    const long long n = static_cast<long long>(width) * height;
    double sum = 0.0;
    for (long long i = 0; i < n; ++i) {
        const double v = a[i];
        sum += v * v;
    }
    total[0] = static_cast<float>(sum);
}
