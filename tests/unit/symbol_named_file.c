/* symbol_named_file - named_file.h (the checked open of files a recording names) and
 * perf_map_load on hostile map files: a FIFO (opened plainly, it blocks forever), a
 * device, a file of another user, a map file with no valid line (qsort(NULL, 0), which
 * the sanitizer build reports). */
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file_owner.h"
#include "check.h"
#include "symbol/named_file.h"
#include "symbol/perf_map.h"
#include "symbol/symbol_table.h"

int main(void)
{
	char dir[] = "/tmp/tephra-named-XXXXXX", path[128];
	const char *why = NULL;
	struct symbol_table t;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* a FIFO: refused by stat before any open (an open would block: no writer) */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK(named_file_open(path, 0, &why) == -1);
	CHECK(why && !strcmp(why, "not a regular file (a FIFO)"));
	CHECK(named_file_refused(why));
	memset(&t, 0, sizeof(t));
	CHECK(perf_map_load(&t, path, 1, &why) == -1);
	CHECK(named_file_refused(why));
	symbol_table_release(&t);
	unlink(path);

	/* a device */
	CHECK(named_file_check("/dev/null", 0, &why) == -1);
	CHECK(why && !strcmp(why, "not a regular file (a character device)"));

	/* missing, a directory: not opened, but nothing worth a note */
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(named_file_open(path, 0, &why) == -1 && !named_file_refused(why));
	CHECK(named_file_open(dir, 0, &why) == -1 && !named_file_refused(why));

	/* a regular file: opened, blocking reads (O_NONBLOCK cleared) */
	snprintf(path, sizeof(path), "%s/perf-1.map", dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("garbage\nnot a line\n1000 zz name\n", f);
		fclose(f);
	}
	int fd = named_file_open(path, NAMED_FILE_OWNER, &why);
	CHECK(fd >= 0 && why == NULL);
	if (fd >= 0) {
		CHECK(!(fcntl(fd, F_GETFL) & O_NONBLOCK));
		close(fd);
	}
	/* no valid line: no symbol, and no qsort on the table's NULL array */
	memset(&t, 0, sizeof(t));
	CHECK(perf_map_load(&t, path, 1, &why) == 0);
	symbol_table_release(&t);

	/* another user's map file: refused unless the owner is not checked (-f) */
	struct passwd *nobody = getpwnam("nobody");
	if (geteuid() == 0 && nobody && chown(path, nobody->pw_uid, nobody->pw_gid) == 0) {
		memset(&t, 0, sizeof(t));
		CHECK(perf_map_load(&t, path, 1, &why) == -1);
		CHECK(why && !strcmp(why, FILE_OWNER_REFUSED) && named_file_refused(why));
		symbol_table_release(&t);
		memset(&t, 0, sizeof(t));
		CHECK(perf_map_load(&t, path, 0, &why) == 0);
		symbol_table_release(&t);
	} else {
		fprintf(stderr, "note: not root: the owner check is not tested\n");
	}
	unlink(path);
	rmdir(dir);
	return failures != 0;
}
