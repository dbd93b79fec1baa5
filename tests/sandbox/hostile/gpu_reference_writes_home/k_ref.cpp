#include <cstdio>
#include <cstdlib>
#include <string>
// A correct reference that also tries to write into the home folder of whoever checks a GPU run.
void k_ref(float* out, const float* in, int n) {
    if (std::FILE* f = std::fopen((std::string(std::getenv("HOME")) + "/pwned-reference").c_str(), "w")) std::fclose(f);
    for (int i = 0; i < n; ++i) out[i] = 2 * in[i];
}
