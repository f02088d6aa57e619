/*
 * files.h - the web client's static files, read from --web-root.
 *
 * A file is served only when its real path (every symlink resolved) lies
 * inside the real path of the web root: a symlink that leads out of the
 * web root, to a file or to a directory such as /etc, is answered 404 like
 * a missing file, and so is a directory (no listings). Symlinks that stay
 * inside the web root are followed. "/" is index.html.
 *
 * Every answer carries "Cache-Control: no-cache" and an ETag: a browser
 * keeps the files and asks again with If-None-Match, which costs a 304
 * until a file changes. A text file (HTML, CSS, JavaScript, SVG, JSON)
 * goes gzip-compressed to a client that accepts gzip: compressed once
 * per version of the file (its ETag) and kept in memory, never per
 * request.
 */
#ifndef GOMOKU_FILES_H
#define GOMOKU_FILES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "http_answer.h"

#define FILES_MAX_BYTES (16 * 1024 * 1024) /* larger files: 500 */

/* One compressed file kept: owned by struct files. */
struct files_gzip {
	struct files_gzip *next; /* the next kept, or NULL */
	char *real;		 /* the file's real path (malloc'd) */
	char etag[20];		 /* the version compressed */
	unsigned char *data;	 /* its gzip bytes (malloc'd) */
	size_t len;		 /* bytes of data */
};

/* One of these per server: where the files are, and their gzip copies. */
struct files {
	char root[PATH_MAX]; /* real path of the web root, no trailing '/' */
	size_t root_len;
	struct files_gzip *gzips; /* one per text file sent compressed */
};

/*
 * Resolves the web root's real path. 0, or -1 with one line in err when
 * it is not a directory.
 */
int files_init(struct files *files, const char *web_root, char *err,
	       size_t err_size);

/*
 * Answers GET of path (decoded, without the query; it starts with '/'):
 * 200 with the file, its type and an ETag (gzip-compressed, with an ETag
 * of its own, when gzip is set and it is a text file); 304 with no body
 * when if_none_match (NULL: none) is that ETag; 404 for anything not
 * served. 0, or -ENOMEM.
 */
int files_answer(struct files *files, const char *path,
		 const char *if_none_match, bool gzip,
		 struct http_answer *answer);

/* Frees the compressed copies kept; files may be initialised again. */
void files_release(struct files *files);

#endif
