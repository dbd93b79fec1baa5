// CPU reference for warp_shuffle_reduction: the sum accumulated in double, then rounded to float once.
// (A float accumulator would be off in its own last bits: once the sum passes a million, every
// addition is rounded to a multiple of 0.125.)
void warp_shuffle_reduction_ref(float* total, const float* in, int n)
{
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        sum += in[i];
    }
    total[0] = static_cast<float>(sum);
}
