// CPU reference for cooperative_groups_reduction: one loop. Integers add exactly in any order, so the
// GPU's tree and this loop agree to the last bit.
void cooperative_groups_reduction_ref(long long* total, const int* values, int n)
{
    long long sum = 0;
    for (int i = 0; i < n; ++i) {
        sum += values[i];
    }
    total[0] = sum;
}
