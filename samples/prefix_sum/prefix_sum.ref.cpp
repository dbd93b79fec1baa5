// CPU reference for the segmented exclusive scan: a running sum that restarts at every segment.
void prefix_sum_ref(int* out, int* block_sums, const int* in, int n, int segment)
{
    for (int base = 0; base < n; base += segment) {
        int sum = 0;
        for (int i = base; i < base + segment && i < n; ++i) {
            out[i] = sum;
            sum += in[i];
        }
        block_sums[base / segment] = sum;
    }
}
