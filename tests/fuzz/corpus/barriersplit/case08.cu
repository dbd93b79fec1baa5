
__global__ void k(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i % 7 == 0) return;
    for (int r = 0; r < 3; ++r) { if (r == 1) continue; a[i] += r; }
}