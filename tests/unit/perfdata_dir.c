/* perfdata_dir.c - a perf.data directory (perf record --threads layout) built here: the
 * files take turns the way perf 6.1 reads them, which decides the order of records with
 * equal timestamps.  Worked out by hand:
 *
 *   "data"   header, one attr (TID|TIME|RAW, sample_id_all), a data section with one
 *            COMM at time 0 (delivered at once)
 *   data.0, data.1   50 samples each, all at time 100, each 65528 bytes long
 *
 * A file's turn ends once 2 MiB have been read in it, checked after each record:
 * 32 records are 2096896 bytes (< 2 MiB), 33 are 2162424, so a turn is 33 records.  With
 * F the data file the directory lists first and S the other: COMM, F1..F33, S1..S33,
 * F34..F50, S34..S50 — and, all times being equal, that arrival order is the delivery
 * order.  (Which file is listed first is the directory's business; perf takes readdir
 * order, and so does this test.) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perf_reader.h"

#define REC_SIZE 65528
#define PER_FILE 50

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", \
	__FILE__, __LINE__, #cond); failures++; } } while (0)

static void put(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n) {
		perror("fwrite");
		exit(2);
	}
}
static void p16(FILE *f, uint16_t v) { put(f, &v, 2); }
static void p32(FILE *f, uint32_t v) { put(f, &v, 4); }
static void p64(FILE *f, uint64_t v) { put(f, &v, 8); }

#define ST (PERF_ST_TID | PERF_ST_TIME | PERF_ST_RAW)

static void write_samples(const char *path, uint32_t pid)
{
	static unsigned char raw[REC_SIZE - 28];
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		exit(2);
	}
	for (uint32_t i = 1; i <= PER_FILE; i++) {
		p32(f, PERF_REC_SAMPLE); p16(f, PERF_MISC_USER); p16(f, REC_SIZE);
		p32(f, pid); p32(f, i);          /* TID: which file, which record */
		p64(f, 100);                     /* TIME */
		p32(f, sizeof(raw)); put(f, raw, sizeof(raw));
	}
	fclose(f);
}

static void write_header_file(const char *path)
{
	unsigned char attr[128] = { 0 };
	uint64_t st = ST, flags = PERF_ATTR_FLAG_SAMPLE_ID_ALL, data_off = 104 + 144 + 8;
	uint32_t type = 1, size = 128;
	FILE *f = fopen(path, "wb");

	if (!f) {
		perror(path);
		exit(2);
	}
	memcpy(attr, &type, 4);
	memcpy(attr + 4, &size, 4);
	memcpy(attr + 24, &st, 8);
	memcpy(attr + 40, &flags, 8);
	put(f, "PERFILE2", 8);
	p64(f, 104); p64(f, 144);
	p64(f, 104); p64(f, 144);            /* attrs */
	p64(f, data_off); p64(f, 48);        /* data: one COMM */
	p64(f, 0); p64(f, 0);
	p64(f, 0); p64(f, 0); p64(f, 0); p64(f, 0); /* no features */
	put(f, attr, 128);
	p64(f, 104 + 144); p64(f, 8);        /* ids */
	p64(f, 42);
	/* COMM: pid, tid, "prog\0\0\0\0", trailer TID + TIME(0) */
	p32(f, PERF_REC_COMM); p16(f, 0); p16(f, 48);
	p32(f, 7); p32(f, 7); put(f, "prog\0\0\0\0", 8);
	p32(f, 7); p32(f, 7); p64(f, 0);
	p64(f, 0); /* padding up to the 48 bytes */
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/perfdata_dir.XXXXXX", path[256];
	struct perf_reader *r;
	struct tephra_error err = { { 0 } };
	struct perf_event ev;
	uint32_t first = 0, want_pid[2 * PER_FILE], want_tid[2 * PER_FILE];
	size_t n = 0, k = 0;
	struct dirent *de;
	DIR *d;
	int rc;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/data", dir);
	write_header_file(path);
	snprintf(path, sizeof(path), "%s/data.0", dir);
	write_samples(path, 1000);
	snprintf(path, sizeof(path), "%s/data.1", dir);
	write_samples(path, 1001);
	snprintf(path, sizeof(path), "%s/data.2", dir); /* empty: gets no turn */
	fclose(fopen(path, "wb"));

	d = opendir(dir);
	while (d && (de = readdir(d)) != NULL && !first)
		if (!strcmp(de->d_name, "data.0") || !strcmp(de->d_name, "data.1"))
			first = !strcmp(de->d_name, "data.0") ? 1000 : 1001;
	if (d)
		closedir(d);
	/* F1..F33, S1..S33, F34..F50, S34..S50 */
	for (int half = 0; half < 2; half++)
		for (int file = 0; file < 2; file++)
			for (uint32_t i = half ? 34 : 1; i <= (half ? PER_FILE : 33u); i++) {
				want_pid[n] = file == 0 ? first : (first == 1000 ? 1001 : 1000);
				want_tid[n++] = i;
			}

	if (perf_reader_open(&r, dir, NULL, &err)) {
		fprintf(stderr, "open failed: %s\n", err.msg);
		return 1;
	}
	CHECK(perf_reader_header(r)->directory && perf_reader_header(r)->nr_data_files == 2);
	CHECK(perf_reader_next(r, &ev, &err) == 1 && ev.type == PERF_REC_COMM);
	while ((rc = perf_reader_next(r, &ev, &err)) > 0) {
		if (ev.type != PERF_REC_SAMPLE)
			continue;
		if (k >= n || ev.u.sample.pid != want_pid[k] || ev.u.sample.tid != want_tid[k]) {
			fprintf(stderr, "sample %zu: file %u record %u, want file %u record %u\n", k,
				ev.u.sample.pid, ev.u.sample.tid, k < n ? want_pid[k] : 0,
				k < n ? want_tid[k] : 0);
			failures++;
		}
		CHECK(ev.u.sample.raw_size == REC_SIZE - 28);
		k++;
	}
	CHECK(rc == 0);
	CHECK(k == n);
	perf_reader_close(r);

	snprintf(path, sizeof(path), "%s/data.0", dir); unlink(path);
	snprintf(path, sizeof(path), "%s/data.1", dir); unlink(path);
	snprintf(path, sizeof(path), "%s/data.2", dir); unlink(path);
	snprintf(path, sizeof(path), "%s/data", dir); unlink(path);
	rmdir(dir);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
