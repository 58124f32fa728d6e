/* Unit tests of frame names in SVG text: XML escaping, non-UTF-8 bytes and control
 * characters, annotation suffixes, label truncation on character boundaries; and the
 * palette (annotation hues, determinism, diff colours, palette map file).  Expected
 * strings and colours are worked out by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/palette.h"
#include "render/svg_text.h"

#include "unit/check.h"

static void expect(const char *got, const char *want, int line)
{
	if (strcmp(got ? got : "", want)) {
		fprintf(stderr, "line %d: want \"%s\" got \"%s\"\n", line, want, got ? got : "");
		failures++;
	}
}

static void display(const char *name, size_t len, const char *want, int line)
{
	struct strbuf sb = STRBUF_INIT;
	svg_display_name(&sb, name, len);
	expect(sb.buf, want, line);
	strbuf_release(&sb);
}

static void escaped(const char *s, const char *want, int line)
{
	struct strbuf sb = STRBUF_INIT;
	svg_escape(&sb, s, strlen(s));
	expect(sb.buf, want, line);
	strbuf_release(&sb);
}

static void label(const char *s, size_t max, const char *want, int line)
{
	struct strbuf sb = STRBUF_INIT;
	svg_label(&sb, s, strlen(s), max);
	expect(sb.buf, want, line);
	strbuf_release(&sb);
}

int main(void)
{
	escaped("a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&#39;", __LINE__);
	escaped("plain", "plain", __LINE__);
	escaped("", "", __LINE__);

	display("main", 4, "main", __LINE__);
	display("do_syscall_64_[k]", 17, "do_syscall_64", __LINE__);
	display("f_[i]", 5, "f", __LINE__);
	display("f_[x]", 5, "f_[x]", __LINE__);        /* not an annotation */
	display("bad\xff" "byte", 8, "bad\\xffbyte", __LINE__);
	display("nul\0x", 5, "nul\\x00x", __LINE__);    /* a NUL inside a name */
	display("tab\there", 8, "tab\there", __LINE__); /* tabs are fine in XML */
	display("bell\x07", 5, "bell\\x07", __LINE__);
	display("\xc3\xbc" "ber", 5, "\xc3\xbc" "ber", __LINE__);  /* valid UTF-8 stays */
	display("\xc3", 1, "\\xc3", __LINE__);                  /* cut sequence */
	display("\xc0\xaf", 2, "\\xc0\\xaf", __LINE__);         /* overlong '/' */
	display("\xed\xa0\x80", 3, "\\xed\\xa0\\x80", __LINE__); /* surrogate */
	display("\xef\xbf\xbf", 3, "\\xef\\xbf\\xbf", __LINE__); /* U+FFFF */

	label("function", 10, "function", __LINE__);
	label("function", 8, "function", __LINE__);
	label("function", 7, "funct..", __LINE__);
	label("function", 3, "f..", __LINE__);
	label("function", 2, "", __LINE__);
	label("\xc3\xbc\xc3\xbc\xc3\xbc\xc3\xbc", 3, "\xc3\xbc..", __LINE__); /* by character */
	CHECK(svg_utf8_chars("\xc3\xbc" "a\xe2\x82\xac", 6) == 3);

	/* Palettes: same name, same colour; kernel/inlined/JIT frames get their hues. */
	enum palette_kind k;
	CHECK(palette_parse("hot", &k) == 0 && k == PAL_HOT);
	CHECK(palette_parse("python", &k) == 0 && k == PAL_PYTHON);
	CHECK(palette_parse("nope", &k) == -1);
	struct rgb a = palette_color(PAL_HOT, 0, "main", 4), b = palette_color(PAL_HOT, 0, "main", 4);
	CHECK(a.r == b.r && a.g == b.g && a.b == b.b);
	CHECK(a.r >= 205 && a.g <= 230 && a.b <= 55);              /* hot: red-yellow */
	struct rgb kern = palette_color(PAL_HOT, 0, "schedule_[k]", 12);
	CHECK(kern.r >= 190 && kern.g >= 90 && kern.g <= 155 && kern.b == 0); /* orange */
	struct rgb jit = palette_color(PAL_JAVA, 0, "Interpreter_[j]", 15);
	CHECK(jit.g >= 200 && jit.r <= 110 && jit.b <= 110);       /* green */
	struct rgb inl = palette_color(PAL_HOT, 0, "helper_[i]", 10);
	CHECK(inl.g >= 165 && inl.g == inl.b && inl.r <= 110);     /* aqua */
	struct rgb java = palette_color(PAL_JAVA, 0, "java/lang/Thread.run", 20);
	CHECK(java.g >= 200 && java.r <= 110);
	struct rgb cxx = palette_color(PAL_JAVA, 0, "JavaThread::run", 15);
	CHECK(cxx.r == cxx.g && cxx.b <= 70);                      /* yellow */
	struct rgb mem = palette_color(PAL_MEM, 0, "malloc", 6);
	CHECK(mem.r == 0 && mem.g >= 190);
	/* --hash: names sharing their start get close colours. */
	struct rgb h1 = palette_color(PAL_HOT, 1, "parse_header", 12);
	struct rgb h2 = palette_color(PAL_HOT, 1, "parse_headers", 13);
	CHECK(abs(h1.g - h2.g) < 20);

	/* Diff colours: 210 * (1 - |delta| / max) on the other channels. */
	struct rgb up = palette_diff_color(10, 10), half = palette_diff_color(-5, 10),
		   none = palette_diff_color(0, 10);
	CHECK(up.r == 255 && up.g == 0 && up.b == 0);
	CHECK(half.r == 105 && half.g == 105 && half.b == 255);
	CHECK(none.r == 255 && none.g == 255 && none.b == 255);

	/* Palette map: read, extend, write back sorted; malformed files are errors. */
	char path[] = "/tmp/render-escape-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, "zeta->rgb(1,2,3)\n", 17) == 17);
	close(fd);
	struct tephra_error err = { "" };
	struct palette_map *m = palette_map_load(path, &err);
	CHECK(m != NULL);
	struct rgb want = { 9, 9, 9 };
	struct rgb got = palette_map_get(m, "zeta", 4, want);
	CHECK(got.r == 1 && got.g == 2 && got.b == 3);
	got = palette_map_get(m, "alpha", 5, want);
	CHECK(got.r == 9);
	CHECK(palette_map_save(m, path, &err) == 0);
	palette_map_free(m);
	FILE *f = fopen(path, "r");
	char buf[128] = "";
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
	expect(buf, "alpha->rgb(9,9,9)\nzeta->rgb(1,2,3)\n", __LINE__);
	f = fopen(path, "w");
	fputs("ok->rgb(1,2,3)\nbroken line\n", f);
	fclose(f);
	CHECK(palette_map_load(path, &err) == NULL);
	CHECK(strstr(err.msg, "offset 0xf") != NULL);
	unlink(path);

	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
