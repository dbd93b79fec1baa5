// CPU reference: the standard library's sort.
#include <algorithm>

void sort_ref(unsigned int* keys, int n)
{
    std::sort(keys, keys + n);
}
