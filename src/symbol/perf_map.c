#include "symbol/perf_map.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/named_file.h"

long perf_map_load(struct symbol_table *t, const char *path, int check_owner,
		   const char **why)
{
	/* Anyone can write /tmp/perf-PID.map: read only when root or the user reading
	 * the recording owns it (unless -f), and never a FIFO or a device. */
	int fd = named_file_open(path, check_owner ? NAMED_FILE_OWNER : 0, why);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long n = 0;

	/* perf inserts map lines into its rbtree as they come and never removes or
	 * extends any: overlapping or repeated entries are answered by its tree shape */
	t->perf_tree = 1;

	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		char *p = line, *end;
		unsigned long long start = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;   /* not "START SIZE name": skip the line */
		p = end + 1;
		unsigned long long size = strtoull(p, &end, 16);
		if (end == p || *end != ' ' || !end[1])
			continue;
		symbol_table_add(t, start, size, STB_GLOBAL, end + 1);
		n++;
	}
	free(line);
	fclose(f);
	symbol_table_resort(t);
	return n;
}
