/* base_number - option values as checked numbers: whole numbers are digits only, up to
 * 2^64 - 1 exactly (one more is out of range, not wrapped), each within its range; the
 * error names the option, the value and the range.  Decimals: no hex, nan, inf, sign or
 * blank; overflow (1e999) is out of range. */
#include <stdint.h>
#include <string.h>

#include "base/number.h"
#include "unit/check.h"

static int u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v, struct tephra_error *e)
{
	e->msg[0] = 0;
	return number_parse_u64("--n", s, lo, hi, v, e);
}

int main(void)
{
	struct tephra_error e;
	uint64_t v = 7;
	CHECK(u64("0", 0, 10, &v, &e) == 0 && v == 0);
	CHECK(u64("0010", 0, 10, &v, &e) == 0 && v == 10);
	CHECK(u64("18446744073709551615", 1, UINT64_MAX, &v, &e) == 0 && v == UINT64_MAX);
	CHECK(u64("18446744073709551616", 1, UINT64_MAX, &v, &e) == -1 && v == UINT64_MAX);
	CHECK(!strcmp(e.msg, "--n: 18446744073709551616 is out of range (1..18446744073709551615)"));
	CHECK(u64("4294967297", 1, 65535, &v, &e) == -1);
	CHECK(!strcmp(e.msg, "--n: 4294967297 is out of range (1..65535)"));
	CHECK(u64("99999999999999999999999x", 1, 65535, &v, &e) == -1);
	CHECK(!strcmp(e.msg, "--n: '99999999999999999999999x' is not a whole number (1..65535)"));
	const char *bad[] = { "", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.0", NULL };
	for (int i = 0; bad[i]; i++) {
		CHECK(u64(bad[i], 0, 100, &v, &e) == -1);
		CHECK(strstr(e.msg, "is not a whole number (0..100)") != NULL);
	}
	CHECK(u64("0", 1, 2, &v, &e) == -1 && strstr(e.msg, "0 is out of range (1..2)"));
	CHECK(u64("3", 1, 2, &v, &e) == -1);

	double d = 0;
	CHECK(number_parse_double("--w", "1200", 100, 1e6, &d, &e) == 0 && d == 1200);
	CHECK(number_parse_double("--w", "0.5", 0, 1, &d, &e) == 0 && d == 0.5);
	CHECK(number_parse_double("--w", ".5e1", 0, 10, &d, &e) == 0 && d == 5);
	CHECK(number_parse_double("--w", "1e999", 0, 10, &d, &e) == -1);
	CHECK(!strcmp(e.msg, "--w: 1e999 is out of range (0..10)"));
	CHECK(number_parse_double("--w", "5", 100, 1e6, &d, &e) == -1);
	CHECK(!strcmp(e.msg, "--w: 5 is out of range (100..1000000)"));
	const char *dbad[] = { "", "nan", "inf", "-1", "+1", " 1", "0x10", "1,5", "e5", "1e", NULL };
	for (int i = 0; dbad[i]; i++) {
		CHECK(number_parse_double("--w", dbad[i], -10, 1e6, &d, &e) == -1);
		CHECK(strstr(e.msg, "is not a number (-10..1000000)") != NULL);
	}
	return failures != 0;
}
