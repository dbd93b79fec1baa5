
__global__ void k(int* a, int n) {
    int t = threadIdx.x, left = t % 5, done = 0;
    while (left > 0) {
        done += left;
        __syncthreads();
        --left;
    }
    int j = 0;
    do { j += 2; __syncthreads(); } while (j < t % 3);
    a[blockIdx.x * blockDim.x + t] = done * 100 + j;
}