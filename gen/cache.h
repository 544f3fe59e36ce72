/*
 * cache: byte strings kept from one build to the next under 64-bit keys.
 *
 * serve keeps one so that a rebuild after an edit renders only what the
 * edit touched: a renderer hashes everything a piece of output reads
 * into its key, and takes the bytes stored under it when they are there.
 * A key is a hash, not a proof: two different inputs hashing alike would
 * show stale bytes, at odds of 2^-64 per piece, in a preview.
 *
 * Entries neither got nor put since the last cache_sweep are dropped by
 * it, so the cache holds about one build's worth. Every call may come
 * from any thread.
 */
#ifndef QUIZDECK_CACHE_H
#define QUIZDECK_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct cache;

struct cache *cache_new(void);
void cache_free(struct cache *c);
/*
 * The bytes stored under key (NUL-terminated, *len without it), or NULL;
 * the entry counts as used. They stay valid until the next cache_sweep
 * or cache_put under the same key.
 */
const char *cache_get(struct cache *c, uint64_t key, size_t *len);
/* Stores a copy of data under key, used, in place of anything before. */
void cache_put(struct cache *c, uint64_t key, const void *data, size_t len);
/* Drops every entry not used since the last sweep. */
void cache_sweep(struct cache *c);

/*
 * Key building: a hash of the key so far and some bytes, a string (NULL
 * differs from "") or a number.
 */
uint64_t cache_key_bytes(uint64_t k, const void *p, size_t n);
uint64_t cache_key_str(uint64_t k, const char *s);
uint64_t cache_key_int(uint64_t k, long long v);

#endif
