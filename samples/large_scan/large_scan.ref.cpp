// CPU reference: the exclusive prefix sum of `in` and the total of all its elements, in one loop.
void large_scan_ref(const int* in, int* out, int* total, int n)
{
    int sum = 0;
    for (int i = 0; i < n; ++i) {
        out[i] = sum;
        sum += in[i];
    }
    total[0] = sum;
}
