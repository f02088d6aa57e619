/*
 * http_answer.c - short text answers.
 */
#include "http_answer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int http_answer_text(struct http_answer *answer, unsigned int status,
		     const char *mime, const char *text)
{
	answer->status = status;
	answer->mime = mime;
	answer->len = strlen(text);
	answer->body = malloc(answer->len ? answer->len : 1);
	if (!answer->body)
		return -ENOMEM;
	memcpy(answer->body, text, answer->len);
	return 0;
}
