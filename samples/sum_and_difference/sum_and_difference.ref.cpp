// CPU reference for sum_and_difference: both outputs, element by element.
void sum_and_difference_ref(float* sum, float* diff, const float* x, const float* y, int n)
{
    for (int i = 0; i < n; ++i) {
        sum[i] = x[i] + y[i];
        diff[i] = x[i] - y[i];
    }
}
