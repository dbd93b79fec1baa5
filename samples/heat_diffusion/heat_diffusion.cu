// Heat spreading over a square plate, one time step a launch. Each point moves towards the mean of its
// four neighbours by `alpha` (the explicit finite-difference scheme for the heat equation); the plate's
// edge is held at its temperature. The host code launches the step again and again and swaps the two
// grids in between: `u` is always the latest temperature, `next` the one being written.
__global__ void heat_step(const float* u, float* next, int width, int height, float alpha)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        next[i] = u[i]; // the edge keeps its temperature
        return;
    }
    const float laplacian = u[i - 1] + u[i + 1] + u[i - width] + u[i + width] - 4.0f * u[i];
    next[i] = u[i] + alpha * laplacian;
}
