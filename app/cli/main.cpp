#include <cstdio>
int main() { std::puts("irlens-cli: not yet"); return 0; }
