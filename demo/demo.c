/* demo.c - a small program with a recognisable profile for `make demo`:
 * main spends about half its time in parse(), a third in render() and the rest in
 * compress(), each with a few levels of calls below. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

/* The leaf.  GCC 12 gives a leaf function that needs no stack no frame pointer, even with
 * -mno-omit-leaf-frame-pointer, and a frame-pointer walk from such a leaf skips its
 * caller (perf shows parse;mix, not parse;tokenize;mix).  The volatile slot makes mix
 * need a frame, so the demo's stacks are whole. */
__attribute__((noinline)) static unsigned long mix(unsigned long x)
{
	volatile unsigned long frame_slot = 0;

	x += frame_slot;
	for (int i = 0; i < 64; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long tokenize(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += mix((unsigned long)i);
	return s;
}

__attribute__((noinline)) static unsigned long build_tree(int n)
{
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s ^= mix((unsigned long)i << 3);
	return s;
}

__attribute__((noinline)) static void parse(void)
{
	sink += tokenize(3000);
	sink += build_tree(2000);
}

__attribute__((noinline)) static void layout(void)
{
	sink += mix(sink) + tokenize(1500);
}

__attribute__((noinline)) static void paint(void)
{
	char *buf = malloc(1 << 16);
	if (!buf)
		return;
	memset(buf, (int)(sink & 0xff), 1 << 16);
	sink += (unsigned char)buf[1234] + build_tree(1000);
	free(buf);
}

__attribute__((noinline)) static void render(void)
{
	layout();
	paint();
}

__attribute__((noinline)) static void compress(void)
{
	sink += build_tree(1200);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 400;

	for (int r = 0; r < rounds; r++) {
		parse();
		render();
		compress();
	}
	printf("demo: %lu\n", sink);
	return 0;
}
