/*
 * pool: a fixed set of threads per batch of jobs, the jobs handed out in
 * index order by an atomic counter. The threads live for one batch
 * (pool_run, or pool_start to pool_finish): a build makes a few batches
 * (parse, pages, decks, cards to fit), so starting them costs next to
 * nothing, and nothing outlives its batch.
 */
#include "pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "util.h"

#define POOL_MAX_THREADS 64

struct batch {
	pool_job_fn *fn;
	void *arg;
	size_t njobs;
	atomic_size_t next;        /* the next job to hand out */
};

struct worker {
	struct batch *b;
	int id;
};

static void
S_work(struct batch *b, int id)
{
	size_t job;

	while ((job = atomic_fetch_add(&b->next, 1)) < b->njobs)
		b->fn(b->arg, job, id);
}

static void *
S_thread(void *p)
{
	struct worker *w = p;

	S_work(w->b, w->id);
	return NULL;
}

void
pool_run(int nthreads, size_t njobs, pool_job_fn *fn, void *arg)
{
	pthread_t tid[POOL_MAX_THREADS];
	struct worker w[POOL_MAX_THREADS];
	struct batch b;
	int i, started = 0;

	if (njobs == 0)
		return;
	if (nthreads > POOL_MAX_THREADS)
		nthreads = POOL_MAX_THREADS;
	if ((size_t)nthreads > njobs)
		nthreads = (int)njobs;
	b.fn = fn;
	b.arg = arg;
	b.njobs = njobs;
	atomic_init(&b.next, 0);
	/* Worker 0 is the caller; a thread that cannot start leaves its share to the others. */
	for (i = 1; i < nthreads; i++) {
		w[started].b = &b;
		w[started].id = started + 1;
		if (pthread_create(&tid[started], NULL, S_thread, &w[started]) == 0)
			started++;
	}
	S_work(&b, 0);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}

struct pool_batch;

struct bg_worker {
	struct pool_batch *b;
	int id;
};

struct pool_batch {
	pool_job_fn *fn;
	void *arg;
	size_t njobs;
	atomic_size_t next;        /* the next job to hand out */
	atomic_int stop;           /* pool_finish: begin no more jobs */
	unsigned char *done;       /* per job, under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;       /* a job is done */
	pthread_t tid[POOL_MAX_THREADS];
	struct bg_worker w[POOL_MAX_THREADS];
	int nthreads;              /* started */
	size_t ran;                /* without threads: jobs run by pool_wait */
};

static void *
S_background(void *p)
{
	struct bg_worker *w = p;
	struct pool_batch *b = w->b;
	size_t job;

	while (!atomic_load(&b->stop) && (job = atomic_fetch_add(&b->next, 1)) < b->njobs) {
		b->fn(b->arg, job, w->id);
		pthread_mutex_lock(&b->lock);
		b->done[job] = 1;
		pthread_cond_broadcast(&b->cond);
		pthread_mutex_unlock(&b->lock);
	}
	return NULL;
}

struct pool_batch *
pool_start(int nthreads, size_t njobs, pool_job_fn *fn, void *arg)
{
	struct pool_batch *b = xcalloc(1, sizeof(*b));
	int i;

	b->fn = fn;
	b->arg = arg;
	b->njobs = njobs;
	b->done = xcalloc(njobs + 1, 1);
	atomic_init(&b->next, 0);
	atomic_init(&b->stop, 0);
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->cond, NULL);
	if (nthreads > POOL_MAX_THREADS)
		nthreads = POOL_MAX_THREADS;
	for (i = 0; i < nthreads && (size_t)i < njobs; i++) {
		b->w[b->nthreads].b = b;
		b->w[b->nthreads].id = b->nthreads;
		if (pthread_create(&b->tid[b->nthreads], NULL, S_background, &b->w[b->nthreads]) == 0)
			b->nthreads++;
	}
	return b;
}

void
pool_wait(struct pool_batch *b, size_t job)
{
	if (job >= b->njobs)
		return;
	if (b->nthreads == 0) {
		while (b->ran <= job) {
			b->fn(b->arg, b->ran, 0);
			b->ran++;
		}
		return;
	}
	pthread_mutex_lock(&b->lock);
	while (!b->done[job])
		pthread_cond_wait(&b->cond, &b->lock);
	pthread_mutex_unlock(&b->lock);
}

void
pool_finish(struct pool_batch *b)
{
	int i;

	if (b == NULL)
		return;
	atomic_store(&b->stop, 1);
	for (i = 0; i < b->nthreads; i++)
		pthread_join(b->tid[i], NULL);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->cond);
	free(b->done);
	free(b);
}

int
pool_share(int nthreads, size_t n)
{
	return n > 0 && nthreads > 0 && (size_t)nthreads > n ? nthreads / (int)n : 1;
}

int
pool_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > POOL_MAX_THREADS ? POOL_MAX_THREADS : (int)n;
}
