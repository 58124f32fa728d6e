/* kallsyms_prefetch.c - a kallsyms file read on a second thread (see
 * kallsyms_prefetch.h). */
#include "symbol/kallsyms_prefetch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct kallsyms_prefetch {
	pthread_t thread;
	char *path;              /* the file it reads (owned) */
	struct kallsyms result;
	int rc;                  /* kallsyms_load's answer */
	atomic_int stop;         /* the result is no longer wanted */
	atomic_int done;         /* the thread has finished (RESULT still needs the join) */
};

static void *kallsyms_prefetch_main(void *arg)
{
	struct kallsyms_prefetch *p = arg;
	p->rc = kallsyms_load_stoppable(&p->result, p->path, &p->stop);
	atomic_store(&p->done, 1);
	return NULL;
}

struct kallsyms_prefetch *kallsyms_prefetch_start(const char *path)
{
	struct kallsyms_prefetch *p = xcalloc(1, sizeof(*p));
	p->path = xstrdup(path);
	atomic_init(&p->stop, 0);
	atomic_init(&p->done, 0);
	if (pthread_create(&p->thread, NULL, kallsyms_prefetch_main, p) != 0) {
		free(p->path);
		free(p);
		return NULL;
	}
	return p;
}

int kallsyms_prefetch_done(const struct kallsyms_prefetch *p)
{
	return atomic_load(&p->done);
}

static void kallsyms_prefetch_free(struct kallsyms_prefetch *p)
{
	if (p->rc == 0 && !p->result.restricted)
		kallsyms_release(&p->result);
	free(p->path);
	free(p);
}

void kallsyms_prefetch_cancel(struct kallsyms_prefetch *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, 1);
	pthread_join(p->thread, NULL);
	kallsyms_prefetch_free(p);
}

int kallsyms_prefetch_finish(struct kallsyms_prefetch *p, struct kallsyms *k, const char *file)
{
	int rc;
	if (p)
		pthread_join(p->thread, NULL);
	if (p && strcmp(p->path, file) == 0) {
		*k = p->result;
		rc = p->rc;
		memset(&p->result, 0, sizeof(p->result));
		p->rc = -1;
	} else {
		rc = kallsyms_load(k, file);
	}
	if (p)
		kallsyms_prefetch_free(p);
	return rc;
}
