/*
 * engine_net.c - the learnt evaluation's tables and output (engine_net.h);
 * the weights are engine_net_weights.h, written by train_net.py.
 */
#include "engine_net.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#include "engine_net_weights.h"

/* A logit of the network in the linear evaluation's units. */
#define NET_SCALE 200.0

uint16_t net_class[COMBINED_COUNT];
struct net_sums net_cell[NET_CLASSES][NET_VIEWS];

static struct net_sums net_bias; /* the first layer's, fixed point */
static pthread_once_t net_once = PTHREAD_ONCE_INIT;

void net_features(int combined, float features[NET_FEATURES])
{
	int n[PAT_COUNT] = { 0 };
	int rest = combined, threat, pair, dir, p;

	for (dir = 0; dir < 4; dir++) {
		n[rest % PAT_COUNT]++;
		rest /= PAT_COUNT;
	}
	memset(features, 0, NET_FEATURES * sizeof(*features));
	for (p = PAT_B1; p <= PAT_F4; p++)
		features[p - PAT_B1] = (float)n[p];
	threat = combined_threat[combined];
	if (threat >= THREAT_LOW && threat <= THREAT_F4)
		features[PAT_F4 - PAT_B1 + 1 + threat - THREAT_LOW] = 1;
	pair = pattern_pair(n);
	if (pair >= 0)
		features[NET_FEATURES - PAIR_COUNT + pair] = 1;
}

/* The four patterns of combined, weakest first, as one number. */
static int sorted_key(int combined)
{
	int d[4], rest = combined, key = 0, a, b;

	for (a = 0; a < 4; a++) {
		d[a] = rest % PAT_COUNT;
		rest /= PAT_COUNT;
	}
	for (a = 0; a < 4; a++) {
		for (b = a + 1; b < 4; b++) {
			if (d[b] < d[a]) {
				int t = d[a];

				d[a] = d[b];
				d[b] = t;
			}
		}
	}
	for (a = 3; a >= 0; a--)
		key = key * PAT_COUNT + d[a];
	return key;
}

/* A class's first-layer weights: its inputs times the rows of view. */
static void class_weigh(int klass, int combined)
{
	float features[NET_FEATURES];
	int view, h, i;

	net_features(combined, features);
	for (view = 0; view < NET_VIEWS; view++) {
		for (h = 0; h < NET_HIDDEN; h++) {
			double sum = 0;

			for (i = 0; i < NET_FEATURES; i++)
				sum += net_w1[view * NET_FEATURES + i][h] *
				       features[i];
			net_cell[klass][view].lane[h / 4][h % 4] =
				(int32_t)lrint(sum * NET_ONE);
		}
	}
}

static void net_build(void)
{
	static int16_t key_class[COMBINED_COUNT];
	int combined, classes = 0, h;

	memset(key_class, 0xff, sizeof(key_class));
	for (combined = 0; combined < COMBINED_COUNT; combined++) {
		int key = sorted_key(combined);

		if (key_class[key] < 0) {
			key_class[key] = (int16_t)classes;
			class_weigh(classes++, combined);
		}
		net_class[combined] = (uint16_t)key_class[key];
	}
	for (h = 0; h < NET_HIDDEN; h++)
		net_bias.lane[h / 4][h % 4] =
			(int32_t)lrint(net_b1[h] * NET_ONE);
}

void net_tables(void)
{
	pthread_once(&net_once, net_build);
}

int net_output(const struct net_sums *mover, const struct net_sums *other)
{
	float sum = 0;
	int lane, h;

	for (lane = 0; lane < NET_LANES; lane++) {
		net_lanes pre = mover->lane[lane] + other->lane[lane] +
				net_bias.lane[lane];

		for (h = 0; h < 4; h++)
			if (pre[h] > 0)
				sum += net_w2[lane * 4 + h] * (float)pre[h];
	}
	return (int)lrintf((net_b2 + sum / (float)NET_ONE) * (float)NET_SCALE);
}
