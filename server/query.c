/*
 * query.c - one argument of a request's query string, read from the
 * fragments libwebsockets parsed.
 */
#include "query.h"

#include <string.h>

/* The longest query fragment the header parser can hold, plus one. */
#define QUERY_FRAGMENT_MAX 4097

int query_arg(struct lws *wsi, const char *name, char *buf, size_t size)
{
	size_t name_len = strlen(name);
	char fragment[QUERY_FRAGMENT_MAX];
	int len;

	for (int i = 0;
	     (len = lws_hdr_copy_fragment(wsi, fragment, sizeof(fragment),
					  WSI_TOKEN_HTTP_URI_ARGS, i)) >= 0;
	     i++) {
		size_t value_len;

		if ((size_t)len <= name_len || fragment[name_len] != '=' ||
		    strncmp(fragment, name, name_len))
			continue;
		value_len = (size_t)len - name_len - 1;
		if (value_len >= size)
			return -2;
		memcpy(buf, fragment + name_len + 1, value_len + 1);
		return (int)value_len;
	}
	return -1;
}
