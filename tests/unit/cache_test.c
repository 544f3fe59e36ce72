/*
 * cache_test: serve's cache of rendered pieces. What is put is got back
 * byte for byte (NULs included), a key differs when any input does, and
 * a sweep keeps exactly what the build since the last one used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "check.h"
#include "util.h"

static void
S_put_get(void)
{
	struct cache *c = cache_new();
	const char *got;
	size_t len = 99;

	CHECK_GROUP("put and get");
	CHECK(cache_get(c, 1, &len) == NULL, "an empty cache has nothing");
	cache_put(c, 1, "a\0b", 3);
	got = cache_get(c, 1, &len);
	CHECK(got && len == 3 && memcmp(got, "a\0b", 3) == 0 && got[3] == '\0',
	    "bytes come back with their NULs and a NUL after them");
	cache_put(c, 1, "second", 6);
	got = cache_get(c, 1, &len);
	CHECK(got && len == 6 && strcmp(got, "second") == 0, "a second put replaces the first");
	cache_put(c, 2, "", 0);
	got = cache_get(c, 2, &len);
	CHECK(got && len == 0, "an empty piece is there, not missing");
	cache_free(c);
}

static void
S_many(void)
{
	struct cache *c = cache_new();
	size_t i, len, bad = 0;
	char want[32];

	CHECK_GROUP("growth");
	for (i = 0; i < 5000; i++) {
		snprintf(want, sizeof(want), "piece %zu", i);
		cache_put(c, (uint64_t)i * 0x100000000ULL, want, strlen(want));
	}
	for (i = 0; i < 5000; i++) {
		const char *got = cache_get(c, (uint64_t)i * 0x100000000ULL, &len);

		snprintf(want, sizeof(want), "piece %zu", i);
		bad += got == NULL || strcmp(got, want) != 0;
	}
	CHECK_INT(bad, 0, "5,000 keys alike in their low bits all come back");
	cache_free(c);
}

static void
S_sweep(void)
{
	struct cache *c = cache_new();
	size_t len;

	CHECK_GROUP("sweep");
	cache_put(c, 1, "one", 3);
	cache_put(c, 2, "two", 3);
	cache_put(c, 3, "three", 5);
	cache_sweep(c);
	CHECK(cache_get(c, 1, &len) && cache_get(c, 2, &len) && cache_get(c, 3, &len),
	    "what was put before a sweep is kept by it");
	cache_sweep(c);
	(void)cache_get(c, 1, &len);
	cache_put(c, 4, "four", 4);
	cache_sweep(c);
	CHECK(cache_get(c, 1, &len) != NULL, "a piece got since the last sweep is kept");
	CHECK(cache_get(c, 4, &len) != NULL, "a piece put since the last sweep is kept");
	CHECK(cache_get(c, 2, &len) == NULL && cache_get(c, 3, &len) == NULL,
	    "pieces the last build did not use are dropped");
	cache_free(c);
}

static void
S_keys(void)
{
	uint64_t base = cache_key_str(HASH_FNV_SEED, "chapter");
	char page[4096];
	size_t i, same = 0;

	CHECK_GROUP("keys");
	CHECK(cache_key_str(base, NULL) != cache_key_str(base, ""), "NULL and \"\" differ");
	CHECK(cache_key_str(cache_key_str(base, "ab"), "c") !=
	    cache_key_str(cache_key_str(base, "a"), "bc"), "where one string ends counts");
	CHECK(cache_key_int(base, 1) != cache_key_int(base, 2), "numbers differ");
	CHECK(cache_key_bytes(base, "a\0", 2) != cache_key_bytes(base, "a", 1),
	    "a trailing NUL counts");
	CHECK(cache_key_str(HASH_FNV_SEED, "x") != cache_key_str(base, "x"), "the key so far counts");
	/* One byte changed anywhere in a page-sized text changes the key. */
	memset(page, 'a', sizeof(page));
	for (i = 0; i < sizeof(page); i++) {
		uint64_t k0 = cache_key_bytes(base, page, sizeof(page)), k1;

		page[i] = 'b';
		k1 = cache_key_bytes(base, page, sizeof(page));
		page[i] = 'a';
		same += k0 == k1;
	}
	CHECK_INT(same, 0, "every one-byte change of a 4 KB text changes its key");
}

int
main(void)
{
	S_put_get();
	S_many();
	S_sweep();
	S_keys();
	return check_finish();
}
