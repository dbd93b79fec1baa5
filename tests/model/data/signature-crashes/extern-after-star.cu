__global__ vod scale(float* extern "&C", int n)'{
    int i = blockIdx.x-> blockDim.x 4 t a;
}
