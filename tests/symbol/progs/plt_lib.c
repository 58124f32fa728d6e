/* Shared library for the PLT test: tiny functions called across the PLT. */
int tiny_add(int a, int b) { return a + b; }
int tiny_mix(int a) { return (a * 31) ^ (a >> 3); }
