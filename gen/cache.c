/*
 * cache: an open-addressing table of keys to owned byte strings, under
 * one lock. Lookups are few (one per rendered piece or written file) and
 * short next to rendering, so one lock costs nothing measurable.
 */
#include "cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct entry {
	uint64_t key;
	char *data;                /* NULL: an empty slot */
	size_t len;
	int used;
};

struct cache {
	pthread_mutex_t lock;
	struct entry *v;           /* a power of two slots, at most half full */
	size_t cap, n;
};

struct cache *
cache_new(void)
{
	struct cache *c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->lock, NULL);
	c->cap = 64;
	c->v = xcalloc(c->cap, sizeof(*c->v));
	return c;
}

void
cache_free(struct cache *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->cap; i++)
		free(c->v[i].data);
	free(c->v);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* The slot holding key, or the empty one where it would go. */
static struct entry *
S_slot(struct entry *v, size_t cap, uint64_t key)
{
	size_t i = (size_t)(key ^ (key >> 32)) & (cap - 1);

	while (v[i].data != NULL && v[i].key != key)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

/* Rehashes the used entries (all, or only those marked used) into a table of cap slots. */
static void
S_rehash(struct cache *c, size_t cap, int only_used)
{
	struct entry *v = xcalloc(cap, sizeof(*v));
	size_t i;

	c->n = 0;
	for (i = 0; i < c->cap; i++) {
		struct entry *e = &c->v[i];

		if (e->data == NULL)
			continue;
		if (only_used && !e->used) {
			free(e->data);
			continue;
		}
		*S_slot(v, cap, e->key) = *e;
		c->n++;
	}
	free(c->v);
	c->v = v;
	c->cap = cap;
}

const char *
cache_get(struct cache *c, uint64_t key, size_t *len)
{
	struct entry *e;
	const char *data = NULL;

	pthread_mutex_lock(&c->lock);
	e = S_slot(c->v, c->cap, key);
	if (e->data) {
		e->used = 1;
		data = e->data;
		*len = e->len;
	}
	pthread_mutex_unlock(&c->lock);
	return data;
}

void
cache_put(struct cache *c, uint64_t key, const void *data, size_t len)
{
	char *copy = xmalloc(len + 1);
	struct entry *e;

	memcpy(copy, data, len);
	copy[len] = '\0';
	pthread_mutex_lock(&c->lock);
	if ((c->n + 1) * 2 > c->cap)
		S_rehash(c, c->cap * 2, 0);
	e = S_slot(c->v, c->cap, key);
	if (e->data == NULL)
		c->n++;
	free(e->data);
	e->key = key;
	e->data = copy;
	e->len = len;
	e->used = 1;
	pthread_mutex_unlock(&c->lock);
}

void
cache_sweep(struct cache *c)
{
	size_t i;

	pthread_mutex_lock(&c->lock);
	S_rehash(c, c->cap, 1);
	for (i = 0; i < c->cap; i++)
		c->v[i].used = 0;
	pthread_mutex_unlock(&c->lock);
}

/*
 * A word at a time, not FNV-1a's byte at a time: serve hashes every
 * source and every page it writes on each rebuild. Not for anything an
 * adversary chooses, nor for output (hash_fnv1a makes the fingerprints).
 */
#define MIX 0x9e3779b97f4a7c15ULL

static uint64_t
S_mix(uint64_t h, uint64_t w)
{
	h ^= w * MIX;
	h = (h << 31) | (h >> 33);
	return h * 0xbf58476d1ce4e5b9ULL;
}

uint64_t
cache_key_bytes(uint64_t k, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t w;

	k = S_mix(k, (uint64_t)n);
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		k = S_mix(k, w);
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, s, n);
		k = S_mix(k, w);
	}
	k ^= k >> 32;
	return k;
}

uint64_t
cache_key_str(uint64_t k, const char *s)
{
	if (s == NULL)
		return S_mix(k, MIX);
	return cache_key_bytes(k, s, strlen(s));
}

uint64_t
cache_key_int(uint64_t k, long long v)
{
	return S_mix(S_mix(k, 0x5851f42d4c957f2dULL), (uint64_t)v);
}
