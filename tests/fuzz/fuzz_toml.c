/* libFuzzer target: the TOML parser must reject or accept, never crash. */
#include <stddef.h>
#include <stdint.h>

#include "toml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct toml_error err;
	struct toml_value *v = toml_parse((const char *)data, size, &err);

	toml_free(v);
	return 0;
}
