/*
 * answer: typed answers' numbers (answer.h has the grammar). The
 * theme's answer.js reads a learner's input by the same rules for the
 * number, with a decimal comma where the page's language writes one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "util.h"

static const char *
S_skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The length of `±`, `+/-` or `+-` at p, or 0. */
static size_t
S_plus_minus(const char *p)
{
	if ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0xb1)
		return 2;
	if (strncmp(p, "+/-", 3) == 0)
		return 3;
	if (strncmp(p, "+-", 2) == 0)
		return 2;
	return 0;
}

/* The end of the unit at p: a word of no spaces, up to a ±; p itself when there is none. */
static const char *
S_unit_end(const char *p)
{
	const char *e = p;

	if ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
		return p;
	while (*e && *e != ' ' && *e != '\t' && S_plus_minus(e) == 0)
		e++;
	return e;
}

static size_t
S_digits(const char *p)
{
	size_t n = 0;

	while (p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

/*
 * The length of a space that may group digits at p (a space, U+00A0
 * NO-BREAK SPACE, U+2009 THIN SPACE, U+202F NARROW NO-BREAK SPACE), or 0.
 */
static size_t
S_group_space(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	if (u[0] == ' ')
		return 1;
	if (u[0] == 0xc2 && u[1] == 0xa0)
		return 2;
	if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0x89 || u[2] == 0xaf))
		return 3;
	return 0;
}

/*
 * The whole part of a number at p: digits, grouped in threes after the
 * first one to three ("10 000", "1 234 567") or not grouped at all. Its
 * digits go to text, which has room for cap; *len gets the bytes read
 * and *ndigits the digits written. Returns -1 when they do not fit.
 */
static int
S_whole(const char *p, char *text, size_t cap, size_t *len, size_t *ndigits)
{
	size_t i = S_digits(p), n = i, sp;

	if (n >= cap)
		return -1;
	memcpy(text, p, n);
	if (n >= 1 && n <= 3)
		while ((sp = S_group_space(p + i)) > 0 && S_digits(p + i + sp) == 3) {
			if (n + 3 >= cap)
				return -1;
			memcpy(text + n, p + i + sp, 3);
			n += 3;
			i += sp + 3;
		}
	*len = i;
	*ndigits = n;
	return 0;
}

size_t
answer_scan_number(const char *s, int decimal_comma, double *v)
{
	char text[128];
	size_t i = 0, n = 0, whole, len, frac = 0, e;
	int neg = 0;

	if (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-';
		i = 1;
	} else if ((unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x88 && (unsigned char)s[2] == 0x92) {
		neg = 1;           /* U+2212 MINUS SIGN */
		i = 3;
	}
	if (neg)
		text[n++] = '-';
	if (S_whole(s + i, text + n, sizeof(text) - 8 - n, &len, &whole) == -1)
		return 0;
	n += whole;
	i += len;
	if (s[i] == '.' || (decimal_comma && s[i] == ',')) {
		frac = S_digits(s + i + 1);
		if (frac > 0 && n + frac + 2 < sizeof(text) - 8) {
			text[n++] = '.';
			memcpy(text + n, s + i + 1, frac);
			n += frac;
			i += 1 + frac;
		} else if (frac > 0)
			return 0;
		else if (whole > 0)
			i++;   /* "2." is 2 */
	}
	if (whole == 0 && frac == 0)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t sign = s[i + 1] == '+' || s[i + 1] == '-';

		e = S_digits(s + i + 1 + sign);
		if (e > 0 && e < 6) {
			memcpy(text + n, s + i, 1 + sign + e);
			n += 1 + sign + e;
			i += 1 + sign + e;
		}
	}
	text[n] = '\0';
	*v = strtod(text, NULL);
	return i;
}

/* Fills out with a range around v, the unit [u, ue). */
static void
S_fill(struct answer_number *out, double v, double tol, const char *u, const char *ue)
{
	out->value = v;
	out->min = v - tol;
	out->max = v + tol;
	out->unit = xstrndup(u, (size_t)(ue - u));
}

int
answer_parse_number(const char *s, struct answer_number *out, char *why, size_t whylen)
{
	const char *p = S_skip_space(s), *u, *ue, *tu, *tue;
	size_t n, pm;
	double v, tol;

	memset(out, 0, sizeof(*out));
	n = answer_scan_number(p, 0, &v);
	if (n == 0)
		return 0;
	p += n;
	u = S_skip_space(p);
	ue = S_unit_end(u);
	p = S_skip_space(ue);
	pm = S_plus_minus(p);
	if (*p != '\0' && pm == 0)
		return 0;          /* "3 times a day": words, a text answer */
	if (!isfinite(v)) {
		snprintf(why, whylen, "the number is too large to compare: write it with a unit or an exponent under 1e308");
		return -1;
	}
	if (pm == 0) {
		S_fill(out, v, 0, u, ue);
		return 1;
	}
	p = S_skip_space(p + pm);
	n = answer_scan_number(p, 0, &tol);
	if (n == 0 || *p == '+' || *p == '-') {
		snprintf(why, whylen, "the tolerance after \xc2\xb1 is not a number: write it as \xc2\xb1 0.5, "
		    "\xc2\xb1 5 %% (relative) or \xc2\xb1 1 and the answer's unit");
		return -1;
	}
	p = S_skip_space(p + n);
	tu = p;
	tue = S_unit_end(tu);
	p = S_skip_space(tue);
	if (*p != '\0' || (tue == tu && *tu != '\0')) {
		snprintf(why, whylen, "\"%s\" after the tolerance is not part of a number answer: "
		    "write number [unit] \xc2\xb1 tolerance [unit or %%]", tu);
		return -1;
	}
	if (tue - tu == 1 && *tu == '%' && !(ue - u == 1 && *u == '%'))
		tol = fabs(v) * tol / 100;     /* relative */
	else if (tue != tu && ((size_t)(tue - tu) != (size_t)(ue - u) || strncmp(tu, u, (size_t)(ue - u)) != 0)) {
		if (ue == u)
			snprintf(why, whylen, "the tolerance is in %.*s but the answer has no unit: "
			    "write the unit after the answer too, or the tolerance as a plain number",
			    (int)(tue - tu), tu);
		else
			snprintf(why, whylen, "the tolerance is in %.*s but the answer in %.*s: no units are "
			    "converted; write the tolerance in %.*s, or as a percentage",
			    (int)(tue - tu), tu, (int)(ue - u), u, (int)(ue - u), u);
		return -1;
	}
	/* A range that overflows would compare as inf or nan: no answer could be right. */
	if (!isfinite(tol) || !isfinite(v - tol) || !isfinite(v + tol)) {
		snprintf(why, whylen, "the tolerance is too large to compare: keep the answer and its "
		    "tolerance under 1e308, or write them with a unit");
		return -1;
	}
	S_fill(out, v, tol, u, ue);
	return 1;
}

int
answer_number_split(const char *s)
{
	const char *p = S_skip_space(s);
	size_t n, sp;
	double v;

	if ((n = answer_scan_number(p, 0, &v)) == 0)
		return 0;
	p += n;
	if (*p == '\t')
		sp = 1;
	else if ((sp = S_group_space(p)) == 0)
		return 0;
	while (sp > 0) {
		p += sp;
		sp = *p == '\t' ? 1 : S_group_space(p);
	}
	return *p >= '0' && *p <= '9';
}

int
answer_decimal_comma(const char *language)
{
	/* Primary subtags whose usual form writes 0,5 (CLDR's decimal symbol). */
	static const char *const comma[] = {
		"af", "az", "be", "bg", "bs", "ca", "cs", "da", "de", "el", "es", "et", "eu", "fi",
		"fo", "fr", "gl", "hr", "hu", "hy", "id", "is", "it", "ka", "kk", "ky", "lt", "lv",
		"mk", "mn", "nb", "nl", "nn", "no", "pl", "pt", "ro", "ru", "sk", "sl", "sq", "sr",
		"sv", "tr", "uk", "uz", "vi",
	};
	/* Regions of those languages that write a point. */
	static const char *const point[] = { "de-ch", "de-li", "it-ch", "es-mx", "es-us", "es-pr" };
	char tag[16];
	size_t i, n;

	if (language == NULL)
		return 0;
	for (n = 0; language[n] && n < sizeof(tag) - 1; n++)
		tag[n] = (char)(language[n] >= 'A' && language[n] <= 'Z' ? language[n] + 32 :
		    language[n] == '_' ? '-' : language[n]);
	tag[n] = '\0';
	for (i = 0; i < sizeof(point) / sizeof(*point); i++)
		if (strncmp(tag, point[i], 5) == 0 && (tag[5] == '\0' || tag[5] == '-'))
			return 0;
	for (i = 0; i < sizeof(comma) / sizeof(*comma); i++) {
		n = strlen(comma[i]);
		if (strncmp(tag, comma[i], n) == 0 && (tag[n] == '\0' || tag[n] == '-'))
			return 1;
	}
	return 0;
}
