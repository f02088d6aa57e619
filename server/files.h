/*
 * files.h - the web client's static files, read from --web-root.
 *
 * A file is served only when its real path (every symlink resolved) lies
 * inside the real path of the web root: a symlink that leads out of the
 * web root, to a file or to a directory such as /etc, is answered 404 like
 * a missing file, and so is a directory (no listings). Symlinks that stay
 * inside the web root are followed. "/" is index.html.
 */
#ifndef GOMOKU_FILES_H
#define GOMOKU_FILES_H

#include <limits.h>
#include <stddef.h>

#include "http_answer.h"

#define FILES_MAX_BYTES (16 * 1024 * 1024) /* larger files: 500 */

/* One of these per server: where the files are. */
struct files {
	char root[PATH_MAX]; /* real path of the web root, no trailing '/' */
	size_t root_len;
};

/*
 * Resolves the web root's real path. 0, or -1 with one line in err when
 * it is not a directory.
 */
int files_init(struct files *files, const char *web_root, char *err,
	       size_t err_size);

/*
 * Answers GET of path (decoded, without the query; it starts with '/'):
 * 200 with the file, its type and an ETag; 304 with no body when
 * if_none_match (NULL: none) is that ETag; 404 for anything not served.
 * 0, or -ENOMEM.
 */
int files_answer(const struct files *files, const char *path,
		 const char *if_none_match, struct http_answer *answer);

#endif
