/*
 * files.c - static files under the real path of the web root, revalidated
 * by ETag, the text ones gzip-compressed once per version (files.h).
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
#include <zlib.h>

#define FILES_INDEX "index.html"
/* Smaller text files go as they are: gzip would save next to nothing. */
#define FILES_GZIP_MIN_BYTES 256
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
	files->gzips = NULL;
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

/* Whether a file of type mime is text worth compressing. */
static bool files_compressible(const char *mime)
{
	static const char *const types[] = {
		"text/", "application/javascript", "image/svg+xml",
		"application/json",
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
		if (!strncmp(mime, types[i], strlen(types[i])))
			return true;
	return false;
}

/*
 * data (len bytes) gzip-compressed into a new buffer, its size in *out;
 * NULL when out of memory.
 */
static unsigned char *files_deflate(const char *data, size_t len,
				    size_t *out)
{
	z_stream zs = { 0 };
	unsigned char *gz;
	uLong bound;

	/* windowBits 15 + 16: a gzip header and trailer, not zlib's. */
	if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	bound = deflateBound(&zs, (uLong)len);
	gz = malloc(bound);
	if (!gz) {
		deflateEnd(&zs);
		return NULL;
	}
	zs.next_in = (Bytef *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = gz;
	zs.avail_out = (uInt)bound;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&zs);
		free(gz);
		return NULL;
	}
	*out = zs.total_out;
	deflateEnd(&zs);
	return gz;
}

/*
 * The kept gzip copy of the file real at version etag, made from body
 * (len bytes) when there is none yet or it is of another version; NULL
 * when out of memory.
 */
static const struct files_gzip *files_gzip_of(struct files *files,
					      const char *real,
					      const char *etag,
					      const char *body, size_t len)
{
	struct files_gzip *gzip;
	unsigned char *data;
	size_t data_len;

	for (gzip = files->gzips; gzip; gzip = gzip->next)
		if (!strcmp(gzip->real, real))
			break;
	if (gzip && !strcmp(gzip->etag, etag))
		return gzip;
	data = files_deflate(body, len, &data_len);
	if (!data)
		return NULL;
	if (!gzip) {
		gzip = calloc(1, sizeof(*gzip));
		if (!gzip || !(gzip->real = strdup(real))) {
			free(gzip);
			free(data);
			return NULL;
		}
		gzip->next = files->gzips;
		files->gzips = gzip;
	}
	free(gzip->data);
	gzip->data = data;
	gzip->len = data_len;
	snprintf(gzip->etag, sizeof(gzip->etag), "%s", etag);
	return gzip;
}

int files_answer(struct files *files, const char *path,
		 const char *if_none_match, bool gzip,
		 struct http_answer *answer)
{
	const struct files_gzip *packed;
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
	mime = lws_get_mimetype(real, NULL);
	mime = mime ? mime : "application/octet-stream";
	gzip = gzip && files_compressible(mime) &&
	       st.st_size >= FILES_GZIP_MIN_BYTES;
	files_etag(&st, answer->etag, sizeof(answer->etag));
	if (files_compressible(mime))
		answer->vary = "Accept-Encoding";
	if (gzip) /* the compressed copy is a version of its own */
		strcat(answer->etag, "-gz");
	answer->cache = "no-cache"; /* keep it, but ask every time */
	answer->mime = mime;
	if (if_none_match && !strcmp(if_none_match, answer->etag)) {
		close(fd);
		answer->status = HTTP_STATUS_NOT_MODIFIED;
		return 0;
	}
	answer->body = files_slurp(fd, (size_t)st.st_size);
	close(fd);
	if (!answer->body)
		return -ENOMEM;
	answer->status = HTTP_STATUS_OK;
	answer->len = (size_t)st.st_size;
	if (!gzip)
		return 0;
	packed = files_gzip_of(files, real, answer->etag, answer->body,
			       answer->len);
	if (!packed || packed->len > answer->len) {
		/* no memory, or no gain: the file as it is, and its own tag */
		answer->etag[strlen(answer->etag) - 3] = '\0';
		return 0;
	}
	memcpy(answer->body, packed->data, packed->len);
	answer->len = packed->len;
	answer->encoding = "gzip";
	return 0;

not_found:
	return http_answer_text(answer, HTTP_STATUS_NOT_FOUND, "text/html",
				FILES_NOT_FOUND);
}

void files_release(struct files *files)
{
	while (files->gzips) {
		struct files_gzip *gzip = files->gzips;

		files->gzips = gzip->next;
		free(gzip->real);
		free(gzip->data);
		free(gzip);
	}
}
