/* libFuzzer target: front-matter splitting and validation of one file. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "content.h"
#include "diag.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source src;
	struct diag_list dl;

	memset(&src, 0, sizeof(src));
	src.rel = "quiz/t/topic.md";
	src.display = "content/quiz/t/topic.md";
	src.kind = SOURCE_TOPIC;
	src.data = xstrndup((const char *)data, size);
	src.len = size;
	diag_init(&dl);
	content_front_matter(&src, &dl);
	front_matter_free(&src.fm);
	diag_free(&dl);
	free(src.data);
	return 0;
}
