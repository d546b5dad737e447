// The executable that owns the tests' precompiled header (tests/support/test_pch.h): built with the
// tests' own flags, so that each test can reuse its header. It does nothing.
int main() { return 0; }
