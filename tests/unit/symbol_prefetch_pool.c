/* symbol_prefetch_pool - the object pool's ownership rules (dso_prefetch.h), with a
 * request function that records what runs where: two objects load at the same time
 * on two workers (the first object's request does not finish before the second
 * object's has started, and the test waits for that before settle could help: with
 * one worker both would wait forever, so they give up after a minute and the test
 * fails); requests of one object never overlap and run in the
 * order asked; settle returns with everything run; freeing with work queued neither
 * hangs nor leaks (ASan run).  The dsos are opaque tokens to the pool, so plain
 * addresses stand in for them. */
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "symbol/dso_prefetch.h"
#include "unit/check.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static char object_a, object_b, object_c;
static int b_started, gave_up;
static int running[3];           /* requests of object a, b, c running now */
static int overlap;              /* a request started while one of its object ran */
static uint64_t last_addr[3];    /* the last address run, per object */
static int out_of_order;
static int ran;

static int which(const struct dso *d)
{
	return d == (const struct dso *)&object_a ? 0 : d == (const struct dso *)&object_b ? 1 : 2;
}

/* With LOCK held: until b's first request has started, or a minute has passed (only a
 * failing pool waits that long; the checks then say what did not happen). */
static void wait_for_b(void)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 60;
	while (!b_started && !gave_up)
		if (pthread_cond_timedwait(&changed, &lock, &until) != 0)
			gave_up = 1;
}

static void run(struct dso_request rq)
{
	int o = which(rq.d);
	pthread_mutex_lock(&lock);
	if (running[o]++)
		overlap++;
	if (rq.addr < last_addr[o])
		out_of_order++;
	last_addr[o] = rq.addr;
	if (o == 1 && rq.addr == 1) {
		b_started = 1;
		pthread_cond_broadcast(&changed);
	}
	if (o == 0 && rq.addr == 1) {
		/* a's first request waits for b's: only a second worker can start it */
		wait_for_b();
	}
	running[o]--;
	ran++;
	pthread_mutex_unlock(&lock);
}

static void ask(struct dso_prefetch *p, char *object, uint64_t addr)
{
	dso_prefetch_request(p, (struct dso_request){ .d = (struct dso *)object, .addr = addr });
}

int main(void)
{
	struct dso_prefetch *p = dso_prefetch_new(run, 2);
	CHECK(p != NULL);
	if (!p)
		return 1;
	CHECK(dso_prefetch_workers(p) == 2);
	/* a's lane first: a worker takes it and waits in it until b's request runs */
	for (uint64_t addr = 1; addr <= 200; addr++) {
		ask(p, &object_a, addr);
		ask(p, &object_c, addr);
		if (addr % 50 == 0)
			ask(p, &object_b, addr / 50);
	}
	/* the workers alone (settle's help would start b on this thread) */
	pthread_mutex_lock(&lock);
	wait_for_b();
	pthread_mutex_unlock(&lock);
	dso_prefetch_settle(p);
	CHECK(!dso_prefetch_busy(p));
	pthread_mutex_lock(&lock);
	CHECK(b_started);
	CHECK(!gave_up);
	CHECK(ran == 200 + 200 + 4);
	CHECK(overlap == 0);
	CHECK(out_of_order == 0);
	CHECK(last_addr[0] == 200 && last_addr[1] == 4 && last_addr[2] == 200);
	pthread_mutex_unlock(&lock);
	dso_prefetch_free(p);

	/* freed with requests still queued: drops them, joins the workers */
	p = dso_prefetch_new(run, 3);
	CHECK(p && dso_prefetch_workers(p) == 3);
	if (p) {
		for (uint64_t addr = 10; addr < 1000; addr++)
			ask(p, addr % 2 ? &object_b : &object_c, addr);
		dso_prefetch_free(p);
	}
	return failures != 0;
}
