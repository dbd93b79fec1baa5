// CPU reference for the program: the sum of a[i]^2 over all n elements, accumulated in double and
// rounded to float once at the end. It takes the program's arguments, in their order.
void sum_squares_ref(const float* a, float* total, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        const double v = a[i];
        sum += v * v;
    }
    total[0] = static_cast<float>(sum);
}
