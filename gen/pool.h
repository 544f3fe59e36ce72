/*
 * pool: runs n independent jobs, by index, on a few threads.
 *
 * The jobs share nothing writable: each writes only its own slot of the
 * caller's arrays (indexed by job), so what they produce, gathered in
 * index order afterwards, is the same whatever the thread count.
 */
#ifndef QUIZDECK_POOL_H
#define QUIZDECK_POOL_H

#include <stddef.h>

/*
 * A job: `job` is its index in [0, njobs), `worker` the thread running it
 * in [0, nthreads), for state a thread keeps between its jobs (a font
 * map, a buffer). Jobs of one worker run one after another.
 */
typedef void pool_job_fn(void *arg, size_t job, int worker);

/*
 * Runs fn for every job on min(nthreads, njobs) threads, the caller's
 * among them, handing jobs out in index order; returns when all are done.
 * With nthreads <= 1, or if no thread can be started, every job runs in
 * the caller, in order.
 */
void pool_run(int nthreads, size_t njobs, pool_job_fn *fn, void *arg);

/*
 * A batch that runs beside the caller: pool_start hands its jobs out, in
 * index order, to nthreads threads and returns at once; pool_wait returns
 * when job `job` is done; pool_finish lets the threads stop (jobs not yet
 * begun are skipped), joins them and frees the batch. With nthreads < 1,
 * or if no thread starts, pool_wait runs the jobs up to `job` itself.
 * Workers are numbered from 0; the caller is none of them.
 */
struct pool_batch;

struct pool_batch *pool_start(int nthreads, size_t njobs, pool_job_fn *fn, void *arg);
void pool_wait(struct pool_batch *b, size_t job);
void pool_finish(struct pool_batch *b);

/* The number of online cores (at least 1): the default for -j. */
int pool_default_threads(void);

/*
 * Threads each of n jobs may use when nthreads run them side by side:
 * one each, and what is left shared out (a deck's helpers lay out its
 * cards). At least 1.
 */
int pool_share(int nthreads, size_t n);

#endif
