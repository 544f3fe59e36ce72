/*
 * check.h: the unit tests' tiny harness. Every check prints one line,
 * `ok <name>` or `not ok <name>: what differed`, which tests/run counts.
 * Include it once per test program (it defines its state statically).
 */
#ifndef QUIZDECK_CHECK_H
#define QUIZDECK_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;
static const char *check_group = "";

#define CHECK_GROUP(name) (check_group = (name))

#define CHECK(cond, ...) do {                                          \
	if (cond) {                                                        \
		check_passed++;                                                \
		printf("ok %s: ", check_group);                                \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
	} else {                                                           \
		check_failed++;                                                \
		printf("not ok %s: ", check_group);                            \
		printf(__VA_ARGS__);                                           \
		printf(" (%s:%d: %s)\n", __FILE__, __LINE__, #cond);           \
	}                                                                  \
} while (0)

/* Compares two C strings; NULL is shown as (null) and equals only NULL. */
#define CHECK_STR(got, want, ...) do {                                 \
	const char *check_g_ = (got), *check_w_ = (want);                  \
	int check_ok_ = (check_g_ == NULL || check_w_ == NULL)             \
	    ? check_g_ == check_w_ : strcmp(check_g_, check_w_) == 0;      \
	if (check_ok_) {                                                   \
		check_passed++;                                                \
		printf("ok %s: ", check_group);                                \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
	} else {                                                           \
		check_failed++;                                                \
		printf("not ok %s: ", check_group);                            \
		printf(__VA_ARGS__);                                           \
		printf(": got \"%s\", want \"%s\" (%s:%d)\n",                  \
		    check_g_ ? check_g_ : "(null)",                            \
		    check_w_ ? check_w_ : "(null)", __FILE__, __LINE__);       \
	}                                                                  \
} while (0)

#define CHECK_INT(got, want, ...) do {                                 \
	long long check_g_ = (long long)(got), check_w_ = (long long)(want); \
	if (check_g_ == check_w_) {                                        \
		check_passed++;                                                \
		printf("ok %s: ", check_group);                                \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
	} else {                                                           \
		check_failed++;                                                \
		printf("not ok %s: ", check_group);                            \
		printf(__VA_ARGS__);                                           \
		printf(": got %lld, want %lld (%s:%d)\n", check_g_, check_w_,  \
		    __FILE__, __LINE__);                                       \
	}                                                                  \
} while (0)

static int
check_finish(void)
{
	fflush(stdout);
	return check_failed ? 1 : 0;
}

#endif
