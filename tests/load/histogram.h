/*
 * histogram.h - a log-linear latency histogram, after HdrHistogram.
 *
 * Values are whole microseconds. Below HISTOGRAM_LINEAR_MAX every value has
 * its own bucket (1 µs resolution up to ~1 ms); above it each power of two
 * is cut into 2^HISTOGRAM_SUB_BITS buckets (under 0.8 % relative error) up
 * to 2^HISTOGRAM_MAX_EXP µs (~67 s); larger values land in the last bucket.
 * Recording is O(1) and the memory is fixed (~25 KiB), so millions of
 * samples cost nothing to keep. The caller owns the struct; no allocation.
 */
#ifndef LOAD_HISTOGRAM_H
#define LOAD_HISTOGRAM_H

#include <stdint.h>

#define HISTOGRAM_LINEAR_BITS 10 /* 1 µs buckets below 2^10 µs */
#define HISTOGRAM_LINEAR_MAX (1u << HISTOGRAM_LINEAR_BITS)
#define HISTOGRAM_SUB_BITS 7 /* 128 buckets per power of two above */
#define HISTOGRAM_MAX_EXP 26 /* 2^26 µs, ~67 s */
#define HISTOGRAM_BUCKETS                                                     \
	(HISTOGRAM_LINEAR_MAX + (HISTOGRAM_MAX_EXP - HISTOGRAM_LINEAR_BITS) * \
					(1u << HISTOGRAM_SUB_BITS))

/* One of these per measured quantity. */
struct histogram {
	uint64_t counts[HISTOGRAM_BUCKETS]; /* samples per bucket */
	uint64_t total;			    /* samples recorded */
	uint64_t max;			    /* exact largest sample */
	uint64_t sum;			    /* of all samples, for the mean */
};

/* Empties h. */
void histogram_init(struct histogram *h);

/* Adds one sample of value_us microseconds. */
void histogram_record(struct histogram *h, uint64_t value_us);

/*
 * The value at percentile (0 to 100): the highest value of the bucket that
 * holds it, never above the exact maximum; 0 for an empty histogram.
 */
uint64_t histogram_percentile(const struct histogram *h, double percentile);

#endif
