// CPU reference for reduction: a plain sequential sum. Integer addition is associative, so any order
// of additions (the GPU's tree and atomics included) gives exactly this total.
void reduction_ref(int* total, const int* in, int n)
{
    int sum = 0;
    for (int i = 0; i < n; ++i) {
        sum += in[i];
    }
    total[0] = sum;
}
