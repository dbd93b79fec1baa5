__global__ void k(int* a, int n) {
    __shared__ int temp[64];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * 2 * blockDim.x;
    temp[tid] = a[base + tid];
    temp[tid + blockDim.x] = a[base + tid + blockDim.x];
    int offset = 1;
    for (int d = blockDim.x; d > 0; d /= 2) {
        __syncthreads();
        if (tid < d) {
            const int right = offset * (2 * tid + 2) - 1;
            temp[right] += temp[right - offset];
        }
        offset *= 2;
    }
    if (tid == 0) temp[2 * blockDim.x - 1] = 0;
    for (int d = 1; d <= blockDim.x; d *= 2) {
        offset /= 2;
        __syncthreads();
        if (tid < d) {
            const int right = offset * (2 * tid + 2) - 1;
            const int left = right - offset;
            const int value = temp[left];
            temp[left] = temp[right];
            temp[right] += value;
        }
    }
    __syncthreads();
    a[base + tid] = temp[tid];
    a[base + tid + blockDim.x] = temp[tid + blockDim.x];
}