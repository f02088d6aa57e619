/*
 * report.c - formats a struct report (see report.h).
 */
#include "report.h"

#include <string.h>

void tally_add(struct tally *tally, const char *name, uint64_t count)
{
	unsigned int i;

	for (i = 0; i < tally->used; i++) {
		if (!strcmp(tally->entries[i].name, name)) {
			tally->entries[i].count += count;
			return;
		}
	}
	if (tally->used == TALLY_MAX) {
		tally->other += count;
		return;
	}
	snprintf(tally->entries[tally->used].name, TALLY_NAME_MAX, "%s", name);
	tally->entries[tally->used].count = count;
	tally->used++;
}

uint64_t tally_total(const struct tally *tally)
{
	uint64_t total = tally->other;
	unsigned int i;

	for (i = 0; i < tally->used; i++)
		total += tally->entries[i].count;
	return total;
}

/* "none", or "name count, name count". */
static void tally_print_text(const struct tally *tally, FILE *out)
{
	unsigned int i;

	if (!tally->used && !tally->other) {
		fputs("none", out);
		return;
	}
	for (i = 0; i < tally->used; i++)
		fprintf(out, "%s%s %llu", i ? ", " : "", tally->entries[i].name,
			(unsigned long long)tally->entries[i].count);
	if (tally->other)
		fprintf(out, "%sother %llu", tally->used ? ", " : "",
			(unsigned long long)tally->other);
}

/* {"name":count,...}; names are plain ASCII codes, no escaping needed. */
static void tally_print_json(const struct tally *tally, FILE *out)
{
	unsigned int i;

	fputc('{', out);
	for (i = 0; i < tally->used; i++)
		fprintf(out, "%s\"%s\":%llu", i ? "," : "",
			tally->entries[i].name,
			(unsigned long long)tally->entries[i].count);
	if (tally->other)
		fprintf(out, "%s\"other\":%llu", tally->used ? "," : "",
			(unsigned long long)tally->other);
	fputc('}', out);
}

static void row(FILE *out, const char *name)
{
	fprintf(out, "  %-30s ", name);
}

static void report_print_spectators(const struct report_spectators *s,
				    FILE *out)
{
	row(out, "spectators asked");
	fprintf(out, "%ld per room, %ld more for one room; %llu rooms asked",
		s->watchers, s->crowd, (unsigned long long)s->rooms_asked);
	if (s->rooms_skipped)
		fprintf(out, " (%llu skipped)",
			(unsigned long long)s->rooms_skipped);
	fputc('\n', out);
	row(out, "spectators held (max)");
	fprintf(out, "%ld (open at end %ld, mean %.0f in the window)\n",
		s->held, s->open_at_end, s->open_mean);
	row(out, "spectators opened / failed");
	fprintf(out, "%llu / %llu of %llu attempted, %llu closed\n",
		(unsigned long long)s->opened, (unsigned long long)s->failed,
		(unsigned long long)s->attempted,
		(unsigned long long)s->closed);
	row(out, "crowd's room watched by");
	fprintf(out, "mean %.0f, min %ld, max %ld (sampled each 0.1 s)\n",
		s->crowd_mean, s->crowd_min, s->crowd_max);
	row(out, "spectator messages");
	fprintf(out, "%llu (%.0f/s in the window)\n",
		(unsigned long long)s->messages, s->messages_per_s);
	row(out, "spectate / rematch followed / wrong room");
	fprintf(out, "%llu / %llu / %llu\n", (unsigned long long)s->spectates,
		(unsigned long long)s->followed,
		(unsigned long long)s->wrong_room);
	row(out, "spectator boards / missed");
	fprintf(out, "%llu (%llu full, %llu in the window) / %llu\n",
		(unsigned long long)s->boards,
		(unsigned long long)s->boards_full,
		(unsigned long long)s->boards_window,
		(unsigned long long)s->boards_missed);
	row(out, "spectator winners / complete");
	fprintf(out, "%llu / %llu (after the game's last board)\n",
		(unsigned long long)s->winners,
		(unsigned long long)s->winners_complete);
	row(out, "rooms closed / pings answered");
	fprintf(out, "%llu / %llu\n", (unsigned long long)s->disconnects,
		(unsigned long long)s->pongs);
	row(out, "spectator errors by code");
	tally_print_text(&s->errors, out);
	fputc('\n', out);
	row(out, "spectator closes by code");
	tally_print_text(&s->closes, out);
	fputc('\n', out);
}

void report_print_table(const struct report *r, FILE *out)
{
	fprintf(out, "%s (%s, updates=%s, %s)\n", r->label, r->mode, r->updates,
		r->target);
	row(out, "measured window");
	fprintf(out, "%.1f s\n", r->window_s);
	row(out, "connections held (max)");
	fprintf(out, "%ld (open at end %ld, matched %ld)\n", r->held,
		r->open_at_end, r->matched_at_end);
	row(out, "connections opened / failed");
	fprintf(out, "%llu / %llu of %llu attempted, %llu closed\n",
		(unsigned long long)r->opened, (unsigned long long)r->failed,
		(unsigned long long)r->attempted,
		(unsigned long long)r->closed);
	row(out, "matches");
	fprintf(out, "%llu (%.1f/s)\n", (unsigned long long)r->matches,
		r->matches_per_s);
	row(out, "moves sent / accepted");
	fprintf(out, "%llu / %llu (%.0f/s accepted)\n",
		(unsigned long long)r->moves_sent,
		(unsigned long long)r->moves_accepted, r->moves_per_s);
	row(out, "games won");
	fprintf(out, "%llu\n", (unsigned long long)r->games_won);
	row(out, "boards received compact / full");
	fprintf(out, "%llu / %llu\n", (unsigned long long)r->boards_compact,
		(unsigned long long)r->boards_full);
	row(out, "move latency p50/p99/p99.9/max");
	fprintf(out, "%.3f / %.3f / %.3f / %.3f ms (%llu samples)\n",
		(double)r->latency_us[0] / 1000.0,
		(double)r->latency_us[1] / 1000.0,
		(double)r->latency_us[2] / 1000.0,
		(double)r->latency_us[3] / 1000.0,
		(unsigned long long)r->latency_samples);
	row(out, "connect -> matched p50/p99/max");
	fprintf(out, "%.3f / %.3f / %.3f ms (%llu samples)\n",
		(double)r->match_us[0] / 1000.0,
		(double)r->match_us[1] / 1000.0,
		(double)r->match_us[2] / 1000.0,
		(unsigned long long)r->match_samples);
	row(out, "errors by code");
	tally_print_text(&r->errors, out);
	fputc('\n', out);
	row(out, "unrequested closes by code");
	tally_print_text(&r->closes, out);
	fputc('\n', out);
	row(out, "failed connections by cause");
	tally_print_text(&r->connect_errors, out);
	fputc('\n', out);
	if (r->spect.watchers || r->spect.crowd)
		report_print_spectators(&r->spect, out);
	row(out, "load generator CPU");
	fprintf(out, "%.2f s (%.2f s waiting for a CPU)\n", r->client_cpu_s,
		r->client_wait_s);
	if (!r->server) {
		row(out, "server");
		fputs("not measured (no --server-pid)\n", out);
		return;
	}
	row(out, "server CPU");
	fprintf(out, "%.2f s (%.0f %% of a core)\n", r->server_cpu_s,
		r->server_cpu_pct);
	row(out, "server waiting for a CPU");
	fprintf(out, "%.2f s (%.0f %% of the window; other processes)\n",
		r->server_wait_s,
		r->window_s > 0 ? 100.0 * r->server_wait_s / r->window_s : 0);
	row(out, "server CPU per 100k moves");
	fprintf(out, "%.3f s (%.0f moves per CPU second)\n",
		r->cpu_s_per_100k_moves, r->moves_per_cpu_s);
	row(out, "server RSS empty/start/mid/end");
	fprintf(out, "%ld / %ld / %ld / %ld KiB (peak %ld)\n", r->rss_empty_kib,
		r->rss_start_kib, r->rss_mid_kib, r->rss_end_kib,
		r->rss_peak_kib);
	if (r->rss_after_kib >= 0) {
		row(out, "server RSS after clients left");
		fprintf(out, "%ld KiB (%+ld against window start)\n",
			r->rss_after_kib, r->rss_after_kib - r->rss_start_kib);
	}
	if (r->rss_per_conn_kib > 0) {
		row(out, "server RSS per connection");
		fprintf(out, "%.2f KiB ((end - empty) / open)\n",
			r->rss_per_conn_kib);
	}
	row(out, "system calls/move (after)");
	if (r->syscalls)
		for (int k = 0; k < SYSCALL_KINDS; k++)
			fprintf(out, "%s%s %.2f", k ? ", " : "",
				syscount_kind_name(k), r->syscalls_per_move[k]);
	else
		fputs("not measured", out);
	fputc('\n', out);
	row(out, "server fds empty/start/end");
	fprintf(out, "%ld / %ld / %ld", r->fds_empty, r->fds_start, r->fds_end);
	if (r->fds_after >= 0)
		fprintf(out, " / after %ld", r->fds_after);
	fputc('\n', out);
}

/* A JSON number, or null for a negative "not measured". */
static void json_long(FILE *out, const char *key, long value)
{
	if (value < 0)
		fprintf(out, ",\"%s\":null", key);
	else
		fprintf(out, ",\"%s\":%ld", key, value);
}

/* ,"spectators":{...}: every figure of struct report_spectators. */
static void report_print_spectators_json(const struct report_spectators *s,
					 FILE *out)
{
	fprintf(out,
		",\"spectators\":{\"watchers\":%ld,\"crowd\":%ld,"
		"\"held\":%ld,\"open_at_end\":%ld,\"attempted\":%llu,"
		"\"opened\":%llu,\"failed\":%llu,\"closed\":%llu,"
		"\"rooms_asked\":%llu,\"rooms_skipped\":%llu,"
		"\"messages\":%llu,\"messages_per_s\":%.1f,"
		"\"spectates\":%llu,\"wrong_room\":%llu,\"followed\":%llu,"
		"\"boards\":%llu,"
		"\"boards_full\":%llu,\"boards_window\":%llu,"
		"\"boards_missed\":%llu,\"winners\":%llu,"
		"\"winners_complete\":%llu,\"disconnects\":%llu,"
		"\"pongs\":%llu,\"crowd_mean\":%.1f,\"crowd_min\":%ld,"
		"\"crowd_max\":%ld,\"open_mean\":%.1f,",
		s->watchers, s->crowd, s->held, s->open_at_end,
		(unsigned long long)s->attempted, (unsigned long long)s->opened,
		(unsigned long long)s->failed, (unsigned long long)s->closed,
		(unsigned long long)s->rooms_asked,
		(unsigned long long)s->rooms_skipped,
		(unsigned long long)s->messages, s->messages_per_s,
		(unsigned long long)s->spectates,
		(unsigned long long)s->wrong_room,
		(unsigned long long)s->followed, (unsigned long long)s->boards,
		(unsigned long long)s->boards_full,
		(unsigned long long)s->boards_window,
		(unsigned long long)s->boards_missed,
		(unsigned long long)s->winners,
		(unsigned long long)s->winners_complete,
		(unsigned long long)s->disconnects,
		(unsigned long long)s->pongs, s->crowd_mean, s->crowd_min,
		s->crowd_max, s->open_mean);
	fputs("\"errors\":", out);
	tally_print_json(&s->errors, out);
	fputs(",\"closes\":", out);
	tally_print_json(&s->closes, out);
	fputc('}', out);
}

void report_print_json(const struct report *r, FILE *out)
{
	/* The label and mode come from the command line: keep them plain. */
	fprintf(out, "{\"label\":\"");
	for (const char *c = r->label; *c; c++)
		if (*c != '"' && *c != '\\' && (unsigned char)*c >= ' ')
			fputc(*c, out);
	fprintf(out,
		"\",\"mode\":\"%s\",\"updates\":\"%s\",\"target\":\"%s\","
		"\"connections\":%ld,\"move_rate\":%g,\"churn_rate\":%g,"
		"\"window_s\":%.3f,\"held\":%ld,\"open_at_end\":%ld,"
		"\"matched_at_end\":%ld,"
		"\"conn_attempted\":%llu,\"conn_opened\":%llu,"
		"\"conn_failed\":%llu,\"conn_closed\":%llu,"
		"\"matches\":%llu,\"matches_per_s\":%.2f,"
		"\"moves_sent\":%llu,\"moves_accepted\":%llu,"
		"\"moves_per_s\":%.1f,\"games_won\":%llu,"
		"\"boards_compact\":%llu,\"boards_full\":%llu,"
		"\"latency_samples\":%llu,\"latency_p50_us\":%llu,"
		"\"latency_p99_us\":%llu,\"latency_p999_us\":%llu,"
		"\"latency_max_us\":%llu,\"latency_mean_us\":%.1f,",
		r->mode, r->updates, r->target, r->connections, r->move_rate,
		r->churn_rate, r->window_s, r->held, r->open_at_end,
		r->matched_at_end, (unsigned long long)r->attempted,
		(unsigned long long)r->opened, (unsigned long long)r->failed,
		(unsigned long long)r->closed, (unsigned long long)r->matches,
		r->matches_per_s, (unsigned long long)r->moves_sent,
		(unsigned long long)r->moves_accepted, r->moves_per_s,
		(unsigned long long)r->games_won,
		(unsigned long long)r->boards_compact,
		(unsigned long long)r->boards_full,
		(unsigned long long)r->latency_samples,
		(unsigned long long)r->latency_us[0],
		(unsigned long long)r->latency_us[1],
		(unsigned long long)r->latency_us[2],
		(unsigned long long)r->latency_us[3], r->latency_mean_us);
	fprintf(out,
		"\"match_samples\":%llu,\"match_p50_us\":%llu,"
		"\"match_p99_us\":%llu,\"match_max_us\":%llu,",
		(unsigned long long)r->match_samples,
		(unsigned long long)r->match_us[0],
		(unsigned long long)r->match_us[1],
		(unsigned long long)r->match_us[2]);
	fputs("\"errors\":", out);
	tally_print_json(&r->errors, out);
	fputs(",\"closes\":", out);
	tally_print_json(&r->closes, out);
	fputs(",\"connect_errors\":", out);
	tally_print_json(&r->connect_errors, out);
	fprintf(out, ",\"client_cpu_s\":%.3f,\"client_wait_s\":%.3f",
		r->client_cpu_s, r->client_wait_s);
	report_print_spectators_json(&r->spect, out);
	if (!r->server) {
		fputs(",\"server_pid\":null}\n", out);
		return;
	}
	fprintf(out,
		",\"server_pid\":%ld,\"server_cpu_s\":%.3f,"
		"\"server_cpu_pct\":%.1f,\"server_wait_s\":%.3f,"
		"\"server_cpu_s_per_100k_moves\":%.4f,"
		"\"moves_per_server_cpu_s\":%.0f,\"rss_per_conn_kib\":%.3f",
		r->server_pid, r->server_cpu_s, r->server_cpu_pct,
		r->server_wait_s, r->cpu_s_per_100k_moves, r->moves_per_cpu_s,
		r->rss_per_conn_kib);
	json_long(out, "rss_empty_kib", r->rss_empty_kib);
	json_long(out, "rss_start_kib", r->rss_start_kib);
	json_long(out, "rss_mid_kib", r->rss_mid_kib);
	json_long(out, "rss_end_kib", r->rss_end_kib);
	json_long(out, "rss_after_kib", r->rss_after_kib);
	json_long(out, "rss_peak_kib", r->rss_peak_kib);
	json_long(out, "fds_empty", r->fds_empty);
	json_long(out, "fds_start", r->fds_start);
	json_long(out, "fds_end", r->fds_end);
	json_long(out, "fds_after", r->fds_after);
	fputs(",\"syscalls_per_move\":", out);
	if (r->syscalls)
		for (int k = 0; k < SYSCALL_KINDS; k++)
			fprintf(out, "%s\"%s\":%.3f", k ? "," : "{",
				syscount_kind_name(k), r->syscalls_per_move[k]);
	fputs(r->syscalls ? "}" : "null", out);
	fputs("}\n", out);
}
