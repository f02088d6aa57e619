/*
 * histogram.c - a log-linear latency histogram (see histogram.h).
 */
#include "histogram.h"

#include <math.h>
#include <string.h>

#define SUB_COUNT (1u << HISTOGRAM_SUB_BITS)

void histogram_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
}

/* The bucket of value. */
static unsigned int histogram_bucket(uint64_t value)
{
	unsigned int exponent, sub;

	if (value < HISTOGRAM_LINEAR_MAX)
		return (unsigned int)value;
	exponent = 63u - (unsigned int)__builtin_clzll(value);
	if (exponent >= HISTOGRAM_MAX_EXP)
		return HISTOGRAM_BUCKETS - 1;
	/* The HISTOGRAM_SUB_BITS bits after the leading one. */
	sub = (unsigned int)(value >> (exponent - HISTOGRAM_SUB_BITS)) -
	      SUB_COUNT;
	return HISTOGRAM_LINEAR_MAX +
	       (exponent - HISTOGRAM_LINEAR_BITS) * SUB_COUNT + sub;
}

/* The largest value that falls in bucket. */
static uint64_t histogram_bucket_high(unsigned int bucket)
{
	unsigned int exponent, sub;
	uint64_t low;

	if (bucket < HISTOGRAM_LINEAR_MAX)
		return bucket;
	exponent = (bucket - HISTOGRAM_LINEAR_MAX) / SUB_COUNT +
		   HISTOGRAM_LINEAR_BITS;
	sub = (bucket - HISTOGRAM_LINEAR_MAX) % SUB_COUNT;
	low = (uint64_t)(SUB_COUNT + sub) << (exponent - HISTOGRAM_SUB_BITS);
	return low + (1ull << (exponent - HISTOGRAM_SUB_BITS)) - 1;
}

void histogram_record(struct histogram *h, uint64_t value_us)
{
	h->counts[histogram_bucket(value_us)]++;
	h->total++;
	h->sum += value_us;
	if (value_us > h->max)
		h->max = value_us;
}

uint64_t histogram_percentile(const struct histogram *h, double percentile)
{
	uint64_t wanted, seen = 0;
	unsigned int bucket;

	if (!h->total)
		return 0;
	if (percentile >= 100.0)
		return h->max;
	/* The epsilon keeps 99.9 % of 1000 at 999, not 1000. */
	wanted = (uint64_t)ceil(percentile / 100.0 * (double)h->total - 1e-9);
	if (wanted < 1)
		wanted = 1;
	for (bucket = 0; bucket < HISTOGRAM_BUCKETS; bucket++) {
		seen += h->counts[bucket];
		if (seen >= wanted) {
			uint64_t high = histogram_bucket_high(bucket);

			return high < h->max ? high : h->max;
		}
	}
	return h->max;
}
