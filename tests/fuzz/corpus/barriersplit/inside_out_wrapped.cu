__global__ void k(int* a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int low = a[i], high = 0;
        const int twice = 2 * i;
        for (int s = 1; s <= n; s += 2) {
            low += s * twice;
            if (low % 7 == 0) high += low;
        }
        if (high == 0) return;
        a[i + 48] = low + high;
    }
}
