/*
 * scaffold: `quizdeck new DIR`, a new site with one example of each kind.
 */
#ifndef QUIZDECK_SCAFFOLD_H
#define QUIZDECK_SCAFFOLD_H

#include "diag.h"

/* Creates dir (which must not exist or be empty). 0, or -1 with a diagnostic. */
int scaffold_write(const char *dir, struct diag_list *dl);

#endif
