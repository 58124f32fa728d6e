/* ct_lib.c - the library of tests/symbol/container.test.sh, built twice: with
 * -DCT_INSIDE for the chroot (ct_inside_*), without for the host (ct_outside_*).
 * The chroot's leaf keeps a buffer on its stack: another frame size, so the host
 * file's CFI does not unwind it. */
#include <stdint.h>

#ifdef CT_INSIDE
#define CT(name) ct_inside_##name
#else
#define CT(name) ct_outside_##name
#endif

__attribute__((noinline)) uint64_t CT(leaf)(uint64_t x)
{
#ifdef CT_INSIDE
	volatile uint64_t frame[32];
	frame[x & 31] = x;
	x ^= frame[(x >> 8) & 31];
#endif
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

__attribute__((noinline)) uint64_t CT(work)(uint64_t x)
{
	return CT(leaf)(x) ^ 1;
}

uint64_t ct_spin(uint64_t x)
{
	return CT(work)(x);
}
