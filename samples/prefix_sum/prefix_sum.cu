// Work-efficient exclusive scan (Blelloch: up-sweep, then down-sweep) in shared memory, one segment
// per block: out gets the exclusive prefix sums of each segment, block_sums[b] the total of segment b.
#define MAX_SEGMENT 2048

extern "C" __global__ void scan(int *out, int *block_sums, const int *in, int n, int segment)
{
    // Each thread owns two elements of a power-of-two segment.
    assert(segment == 2 * blockDim.x && segment <= MAX_SEGMENT);
    __shared__ int temp[MAX_SEGMENT];

    const int tid = threadIdx.x;
    const int half = blockDim.x;
    const int base = blockIdx.x * segment;

    // Load the segment; elements past the end of in count as 0.
    temp[tid] = base + tid < n ? in[base + tid] : 0;
    temp[tid + half] = base + tid + half < n ? in[base + tid + half] : 0;

    // Up-sweep: a reduction tree built in place. At each level, d threads each add the left child
    // into the right one, `offset` elements apart; the last element ends up with the total.
    int offset = 1;
    for (int d = half; d > 0; d /= 2) {
        __syncthreads();
        if (tid < d) {
            const int left = offset * (2 * tid + 1) - 1;
            const int right = offset * (2 * tid + 2) - 1;
            temp[right] += temp[left];
        }
        offset *= 2;
    }

    // Keep the segment's total, then clear the root: the exclusive prefix of the first element is 0.
    if (tid == 0) {
        block_sums[blockIdx.x] = temp[segment - 1];
        temp[segment - 1] = 0;
    }

    // Down-sweep: walk back down the tree. Each node passes its prefix to its left child and
    // prefix + left child's old sum to its right child.
    for (int d = 1; d < segment; d *= 2) {
        offset /= 2;
        __syncthreads();
        if (tid < d) {
            const int left = offset * (2 * tid + 1) - 1;
            const int right = offset * (2 * tid + 2) - 1;
            const int leftSum = temp[left];
            temp[left] = temp[right];
            temp[right] += leftSum;
        }
    }
    __syncthreads();

    if (base + tid < n) {
        out[base + tid] = temp[tid];
    }
    if (base + tid + half < n) {
        out[base + tid + half] = temp[tid + half];
    }
}
