// Jacobi iteration for Laplace's equation: the boundary stays, each inner point becomes the mean of its
// four neighbours; the host swaps the two grids after every sweep.
__global__ void jacobi(const float* u, float* next, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny) return;
    int i = y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        next[i] = u[i];
        return;
    }
    next[i] = (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx]) * 0.25f;
}
