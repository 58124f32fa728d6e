/* perf_dir.c - a perf.data directory, as `perf record --threads` writes it: the
 * file "data" holds the header, the attrs, the features and a data section of its own;
 * each "data.N" file holds the records one recording thread wrote (no header).
 *
 * Every file is mapped.  The reader reads one file at a time (see read_dir_record in
 * perf_reader.c); the active file's state lives in the reader's own fields and
 * perf_dir_switch() swaps it with the state kept here.  The data files are taken in the
 * order the directory lists them (readdir), skipping empty ones and anything that is not
 * a regular file, as perf 6.1 does. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "base/xalloc.h"
#include "perfdata/perf_reader_internal.h"

#define MAX_PARTS 65535 /* part numbers are kept in 16 bits */

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Maps PATH whole; 0, or -1 with ERR.  An empty file maps to nothing (size 0). */
static int map_file(const char *path, const uint8_t **map, size_t *size,
		    struct tephra_error *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *m;

	*map = NULL;
	*size = 0;
	if (fd < 0) {
		tephra_error_at(err, path, -1, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		tephra_error_at(err, path, -1, "not a regular file");
		close(fd);
		return -1;
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd); /* the mapping stays valid */
	if (m == MAP_FAILED) {
		tephra_error_at(err, path, -1, "cannot map: %s", strerror(errno));
		return -1;
	}
	madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	*map = m;
	*size = (size_t)st.st_size;
	return 0;
}

static struct perf_input_part *add_part(struct perf_reader *r, size_t *cap)
{
	if (r->nr_parts == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		r->parts = xrealloc(r->parts, *cap * sizeof(*r->parts));
	}
	memset(&r->parts[r->nr_parts], 0, sizeof(r->parts[0]));
	return &r->parts[r->nr_parts++];
}

int perf_dir_open(struct perf_reader *r, const char *dir, struct tephra_error *err)
{
	struct perf_input_part *p;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	r->dir_path = xstrdup(dir);
	free(r->path);
	r->path = NULL;
	p = add_part(r, &cap);
	p->path = join(dir, "data");
	r->path = p->path;
	if (access(p->path, F_OK) != 0 && errno == ENOENT) {
		tephra_error_at(err, dir, -1, "a directory without a data file: not a perf.data "
				"directory (perf record --threads writes DIR/data, DIR/data.N)");
		return -1;
	}
	if (map_file(p->path, &p->map, &p->map_size, err))
		return -1;
	if (!p->map) {
		tephra_error_at(err, p->path, 0, "empty file");
		return -1;
	}
	r->map = p->map;
	r->map_size = p->map_size;
	r->map_is_mmap = 1;
	r->input = PERF_INPUT_MAPPED;
	if (perf_header_read_file(r, err))
		return -1;
	r->total_bytes = r->hdr.data_size;
	r->hdr.directory = 1;

	d = opendir(dir);
	if (!d) {
		tephra_error_at(err, dir, -1, "cannot list directory: %s", strerror(errno));
		return -1;
	}
	while (!r->hdr.unfinished && (de = readdir(d)) != NULL) {
		char *path;
		const uint8_t *map;
		size_t size;

		struct stat st;

		if (strncmp(de->d_name, "data.", 5))
			continue;
		path = join(dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode)) { /* perf skips these too */
			free(path);
			continue;
		}
		if (map_file(path, &map, &size, err)) {
			free(path);
			closedir(d);
			return -1;
		}
		if (!map) { /* empty: perf gives it no turn */
			free(path);
			continue;
		}
		if (r->nr_parts == MAX_PARTS) {
			munmap((void *)map, size);
			tephra_error_at(err, dir, -1, "more than %d data files", MAX_PARTS - 1);
			free(path);
			closedir(d);
			return -1;
		}
		p = add_part(r, &cap);
		p->path = path;
		p->map = map;
		p->map_size = size;
		p->end = size;
		r->total_bytes += size;
		r->hdr.nr_data_files++;
	}
	closedir(d);
	/* part 0 is active: its state is in the reader's fields */
	r->parts[0].pos = r->pos;
	r->parts[0].end = r->end;
	r->cur_part = 0;
	r->parts_left = r->nr_parts;
	return 0;
}

static void save_active(struct perf_reader *r)
{
	struct perf_input_part *p = &r->parts[r->cur_part];

	p->map = r->map;
	p->map_size = r->map_size;
	p->pos = r->pos;
	p->end = r->end;
	p->zstd = r->zstd;
	p->dbuf = r->dbuf;
	p->dbuf_len = r->dbuf_len;
	p->dbuf_cap = r->dbuf_cap;
	p->released = r->released;
	p->release_next = r->release_next;
}

void perf_dir_switch(struct perf_reader *r, size_t to)
{
	struct perf_input_part *p = &r->parts[to];

	if (to == r->cur_part)
		return;
	save_active(r);
	r->cur_part = to;
	r->path = p->path;
	r->map = p->map;
	r->map_size = p->map_size;
	r->pos = p->pos;
	r->end = p->end;
	r->zstd = p->zstd;
	r->dbuf = p->dbuf;
	r->dbuf_len = p->dbuf_len;
	r->dbuf_cap = p->dbuf_cap;
	r->released = p->released;
	r->release_next = p->release_next;
}

void perf_dir_close(struct perf_reader *r)
{
	save_active(r);
	for (size_t i = 0; i < r->nr_parts; i++) {
		if (r->parts[i].map)
			munmap((void *)r->parts[i].map, r->parts[i].map_size);
		if (r->parts[i].zstd)
			ZSTD_freeDStream(r->parts[i].zstd);
		free(r->parts[i].dbuf);
		free(r->parts[i].path);
	}
	free(r->parts);
	r->parts = NULL;
	r->nr_parts = 0;
	r->map = NULL;
	r->dbuf = NULL;
	r->zstd = NULL;
	r->path = r->dir_path; /* freed with the reader */
	r->dir_path = NULL;
}
