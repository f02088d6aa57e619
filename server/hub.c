/*
 * hub.c - every change to the lobby as one step that ends itself: the
 * lobby's sink forwarded to the sessions, the journal and the engine; the
 * encode-once cache; the timer of the lobby's next deadline.
 */
#include "hub.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/* The lobby's sink: each of these forwards what the lobby reports. */
static void hub_on_send(void *ctx, void *conn, const struct event *ev)
{
	struct hub *hub = ctx;

	hub->sink.deliver(hub->sink.ctx, conn, ev);
}

static void hub_on_record(void *ctx, enum lobby_record type,
			  const struct lobby_room *room)
{
	struct hub *hub = ctx;

	journal_record(hub->journal, type, room, hub->step_ms);
	if (type == RECORD_ROOM_CLOSED && room->ai_role != ROLE_NONE &&
	    hub->engine.room_closed)
		hub->engine.room_closed(hub->engine.ctx, room);
}

static void hub_on_think(void *ctx, struct lobby_room *room)
{
	struct hub *hub = ctx;

	if (hub->engine.think)
		hub->engine.think(hub->engine.ctx, room);
}

/* A step begins: the lobby's time for it. */
static uint64_t hub_step_begin(struct hub *hub)
{
	hub->step_ms = hub->now_ms();
	return hub->step_ms;
}

static void hub_on_tick(uv_timer_t *timer);

/*
 * A step ends: the deadlines due by now run (a request may have made
 * one), the next one is armed when it moved, and the messages encoded
 * for this step are let go.
 */
static void hub_step_end(struct hub *hub)
{
	uint64_t now = hub->step_ms;
	uint64_t next = lobby_tick(&hub->lobby, now);

	while (hub->encoded_count)
		outbuf_put(hub->encoded[--hub->encoded_count].buf);
	if (next == hub->tick_at)
		return;
	hub->tick_at = next;
	if (next == UINT64_MAX)
		uv_timer_stop(&hub->tick_timer);
	else
		uv_timer_start(&hub->tick_timer, hub_on_tick,
			       next > now ? next - now : 0, 0);
}

static void hub_on_tick(uv_timer_t *timer)
{
	struct hub *hub = timer->data;

	hub->tick_at = UINT64_MAX; /* fired: armed no more */
	if (hub->stopped)
		return;
	hub_step_begin(hub);
	hub_step_end(hub);
}

int hub_init(struct hub *hub, uv_loop_t *loop,
	     const struct lobby_config *config, struct lobby_random random,
	     struct journal *journal, struct hub_sink sink,
	     uint64_t (*now_ms)(void))
{
	struct lobby_sink lobby_sink = { hub_on_send, hub_on_record,
					 hub_on_think, hub };
	int err;

	memset(hub, 0, sizeof(*hub));
	hub->journal = journal;
	hub->sink = sink;
	hub->now_ms = now_ms ? now_ms : clock_monotonic_ms;
	hub->tick_at = UINT64_MAX;
	err = lobby_init(&hub->lobby, config, random, lobby_sink);
	if (err)
		return err;
	err = uv_timer_init(loop, &hub->tick_timer);
	if (err) {
		lobby_release(&hub->lobby);
		return err;
	}
	hub->tick_timer.data = hub;
	return 0;
}

void hub_set_engine(struct hub *hub, struct hub_engine engine)
{
	hub->engine = engine;
}

void hub_stop(struct hub *hub)
{
	if (hub->stopped)
		return;
	hub->stopped = true;
	uv_close((uv_handle_t *)&hub->tick_timer, NULL);
}

void hub_release(struct hub *hub)
{
	lobby_release(&hub->lobby);
}

struct lobby_player *hub_connect(struct hub *hub, const struct lobby_join *join,
				 void *conn)
{
	struct lobby_player *player;

	if (hub->stopped)
		return NULL;
	player = lobby_join(&hub->lobby, join, conn, hub_step_begin(hub));
	hub_step_end(hub);
	return player;
}

void hub_request(struct hub *hub, struct lobby_player *player,
		 const struct request *req)
{
	if (hub->stopped)
		return;
	lobby_request(&hub->lobby, player, req, hub_step_begin(hub));
	hub_step_end(hub);
}

struct lobby_spectator *hub_watch(struct hub *hub, const char *room_id,
				  void *conn, enum error_code *code)
{
	struct lobby_spectator *spectator;

	*code = ERR_NONE;
	if (hub->stopped)
		return NULL;
	spectator = lobby_watch(&hub->lobby, room_id, conn, hub_step_begin(hub),
				code);
	hub_step_end(hub);
	return spectator;
}

void hub_unwatch(struct hub *hub, struct lobby_spectator *spectator)
{
	if (hub->stopped)
		return;
	lobby_unwatch(&hub->lobby, spectator, hub_step_begin(hub));
	hub_step_end(hub);
}

void hub_spectator_request(struct hub *hub,
			   const struct lobby_spectator *spectator,
			   const struct request *req)
{
	if (hub->stopped)
		return;
	hub_step_begin(hub);
	lobby_spectator_request(&hub->lobby, spectator, req);
	hub_step_end(hub);
}

void hub_disconnect(struct hub *hub, struct lobby_player *player, bool leaving)
{
	if (hub->stopped)
		return;
	lobby_disconnect(&hub->lobby, player, leaving, hub_step_begin(hub));
	hub_step_end(hub);
}

int hub_ai_move(struct hub *hub, const struct lobby_ai_ticket *ticket, int x,
		int y)
{
	int err;

	if (hub->stopped)
		return -ESTALE;
	err = lobby_ai_move(&hub->lobby, ticket, x, y, hub_step_begin(hub));
	hub_step_end(hub);
	return err;
}

int hub_ai_forfeit(struct hub *hub, const struct lobby_ai_ticket *ticket)
{
	int err;

	if (hub->stopped)
		return -ESTALE;
	err = lobby_ai_forfeit(&hub->lobby, ticket, hub_step_begin(hub));
	hub_step_end(hub);
	return err;
}

struct lobby_room *hub_restore(struct hub *hub,
			       const struct lobby_saved_game *saved)
{
	struct lobby_room *room;

	if (hub->stopped)
		return NULL;
	room = lobby_restore(&hub->lobby, saved, hub_step_begin(hub));
	hub_step_end(hub);
	return room;
}

void hub_commit(struct hub *hub)
{
	bool failing;

	journal_commit(hub->journal);
	failing = journal_failing(hub->journal);
	if (hub->lobby.paused != failing)
		lobby_pause(&hub->lobby, failing);
}

/* The message for ev, encoded (no cache). NULL on out of memory. */
static struct outbuf *hub_encode_new(const struct event *ev, bool compact)
{
	struct outbuf *buf;
	size_t len;
	char *text;

	if (ev->type == EVENT_BOARD) {
		buf = outbuf_new(protocol_board_text_max(ev->game,
							 !compact || ev->undo));
		if (!buf)
			return NULL;
		buf->len = ev->undo ?
				   protocol_write_undo(ev->game, ev->undo_cell,
						       ev->undo_role,
						       ev->now_ms,
						       outbuf_payload(buf),
						       buf->cap + 1) :
				   protocol_write_board(ev->game, !compact,
							ev->now_ms,
							outbuf_payload(buf),
							buf->cap + 1);
		return buf;
	}
	text = protocol_encode(ev, 0, &len);
	if (!text)
		return NULL;
	buf = outbuf_new(len);
	if (buf) {
		memcpy(outbuf_payload(buf), text, len);
		buf->len = len;
	}
	free(text);
	return buf;
}

/*
 * Whether ev goes to many connections in a step, the same text to each:
 * a room's board and winner (both players and every spectator), and
 * what spectators get besides (an emote, a seat away or back).
 */
static bool hub_shared(const struct event *ev)
{
	switch (ev->type) {
	case EVENT_BOARD:
	case EVENT_WINNER:
		return ev->game != NULL;
	case EVENT_EMOTE:
	case EVENT_OPPONENT_AWAY:
	case EVENT_OPPONENT_BACK:
		return true;
	default:
		return false;
	}
}

/* The cache entry ev would have (its buf not set). */
static struct hub_encoded hub_encoded_key(const struct event *ev, bool compact)
{
	return (struct hub_encoded){
		.type = ev->type,
		.game = ev->game,
		.moves = ev->game ? ev->game->moves_played : 0,
		.undo = ev->undo,
		.compact = compact,
		.by = ev->by,
		.emote = ev->emote,
		.seconds = ev->seconds,
	};
}

struct outbuf *hub_encode(struct hub *hub, const struct event *ev, bool compact)
{
	bool shared = hub_shared(ev);
	struct hub_encoded key;
	struct outbuf *buf;

	compact = compact && ev->type == EVENT_BOARD && !ev->resume &&
		  !ev->undo;
	key = hub_encoded_key(ev, compact);
	for (unsigned int i = 0; shared && i < hub->encoded_count; i++) {
		struct hub_encoded *slot = &hub->encoded[i];

		if (slot->type == key.type && slot->game == key.game &&
		    slot->moves == key.moves && slot->undo == key.undo &&
		    slot->compact == key.compact && slot->by == key.by &&
		    slot->emote == key.emote && slot->seconds == key.seconds) {
			slot->buf->refs++;
			return slot->buf;
		}
	}
	buf = hub_encode_new(ev, compact);
	if (buf && shared && hub->encoded_count < HUB_ENCODE_CACHE) {
		key.buf = buf;
		hub->encoded[hub->encoded_count++] = key;
		buf->refs++;
	}
	return buf;
}
