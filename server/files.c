/*
 * files.c - static files under the real path of the web root.
 */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libwebsockets.h>

#define FILES_INDEX "index.html"
#define FILES_NOT_FOUND "<html><body><h1>404</h1>not found</body></html>"

int files_init(struct files *files, const char *web_root, char *err,
	       size_t err_size)
{
	struct stat st;

	if (!realpath(web_root, files->root) || stat(files->root, &st) ||
	    !S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "--web-root \"%s\": not a directory",
			 web_root);
		return -1;
	}
	files->root_len = strlen(files->root);
	if (files->root_len == 1) /* the root directory itself: "/" */
		files->root_len = 0;
	return 0;
}

/*
 * The real path of the file path names, into real; false when it does
 * not exist or lies outside the web root.
 */
static bool files_resolve(const struct files *files, const char *path,
			  char *real)
{
	char joined[PATH_MAX];
	int n;

	n = snprintf(joined, sizeof(joined), "%.*s%s%s", (int)files->root_len,
		     files->root, path, strcmp(path, "/") ? "" : FILES_INDEX);
	if (n < 0 || (size_t)n >= sizeof(joined) || !realpath(joined, real))
		return false;
	return !strncmp(real, files->root, files->root_len) &&
	       real[files->root_len] == '/';
}

/* The ETag of a file: its size and modification time, as lws made it. */
static void files_etag(const struct stat *st, char *out, size_t size)
{
	snprintf(out, size, "%08llX%08llX",
		 (unsigned long long)st->st_size & 0xffffffffULL,
		 (unsigned long long)st->st_mtime & 0xffffffffULL);
}

/* Reads all of fd (st_size bytes) into a new buffer; NULL on failure. */
static char *files_slurp(int fd, size_t size)
{
	char *data = malloc(size ? size : 1);
	size_t got = 0;

	while (data && got < size) {
		ssize_t n = read(fd, data + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(data);
			return NULL;
		}
		got += (size_t)n;
	}
	return data;
}

int files_answer(const struct files *files, const char *path,
		 const char *if_none_match, struct http_answer *answer)
{
	char real[PATH_MAX];
	const char *mime;
	struct stat st;
	int fd;

	if (!files_resolve(files, path, real))
		goto not_found;
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		goto not_found;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		goto not_found;
	}
	if (st.st_size > FILES_MAX_BYTES) {
		close(fd);
		return http_answer_text(answer,
					HTTP_STATUS_INTERNAL_SERVER_ERROR,
					"text/plain", "file too large\n");
	}
	files_etag(&st, answer->etag, sizeof(answer->etag));
	answer->cache = "no-store";
	if (if_none_match && !strcmp(if_none_match, answer->etag)) {
		close(fd);
		answer->status = HTTP_STATUS_NOT_MODIFIED;
		return 0;
	}
	answer->body = files_slurp(fd, (size_t)st.st_size);
	close(fd);
	if (!answer->body)
		return -ENOMEM;
	mime = lws_get_mimetype(real, NULL);
	answer->status = HTTP_STATUS_OK;
	answer->mime = mime ? mime : "application/octet-stream";
	answer->len = (size_t)st.st_size;
	return 0;

not_found:
	return http_answer_text(answer, HTTP_STATUS_NOT_FOUND, "text/html",
				FILES_NOT_FOUND);
}
