/*
 * fuzz_reader.h - the fuzz targets' reader of their input: a stream of
 * bytes that reads as zeros once it runs out.
 */
#ifndef GOMOKU_FUZZ_READER_H
#define GOMOKU_FUZZ_READER_H

#include <stddef.h>
#include <stdint.h>

/* One per fuzz input, on the stack of the target's entry point. */
struct fuzz_reader {
	const uint8_t *data; /* the input */
	size_t size;	     /* its length */
	size_t pos;	     /* bytes read */
};

/* The next byte of the input; 0 past its end. */
static inline uint8_t fuzz_byte(struct fuzz_reader *in)
{
	return in->pos < in->size ? in->data[in->pos++] : 0;
}

#endif
