
#define TILE 8
__global__ void k(int* a, int n) {
    const int size = TILE;
    __shared__ int tile[size][size];
    int x = threadIdx.x, y = threadIdx.y;
    int total = 0;
    for (int step = 0; step < n; ++step) {
        tile[y][x] = a[blockIdx.x * size * size + (y * size + x + step) % (size * size)];
        __syncthreads();
        total += tile[x][y];
        __syncthreads();
    }
    a[blockIdx.x * size * size + y * size + x] = total;
}