/*
 * site_keys.h - the names of what the instances of a site keep in its
 * Redis (--redis), in one place; the modules that own each say what it
 * holds.
 *
 *   gomoku:instance:ID        an instance's lease (instance.h)
 *   gomoku:seat:UID           where a player plays or waits (cluster.h)
 *   gomoku:queue:POOL         a pool's waiting players (cluster.h)
 *   gomoku:inst:ID            an instance's pub/sub channel (cluster.h)
 *   gomoku:invite:CODE        an invite's instance (cluster.h)
 *   gomoku:room:ID            a room's owner and epoch (redis_journal.h)
 *   gomoku:game:ID            a live game's stream (redis_journal.h)
 *   gomoku:owned:ID:TOKEN     the rooms one process owns (redis_journal.h)
 *   gomoku:owners             the processes that own rooms (takeover.h)
 *   gomoku:ended              the site's finished games by end (site_index.h)
 *   gomoku:ended:ID           a finished game's entry there (site_index.h)
 *   gomoku:record:ID          a finished game's record (redis_journal.h)
 *   gomoku:live:ID            an instance's rooms and pools (site_index.h)
 *   gomoku:lives              the instances that have one (site_index.h)
 */
#ifndef GOMOKU_SITE_KEYS_H
#define GOMOKU_SITE_KEYS_H

#define SITE_SEAT_PREFIX "gomoku:seat:"
#define SITE_QUEUE_PREFIX "gomoku:queue:"
#define SITE_CHANNEL_PREFIX "gomoku:inst:"
#define SITE_ROOM_PREFIX "gomoku:room:"
#define SITE_INVITE_PREFIX "gomoku:invite:"
#define SITE_GAME_PREFIX "gomoku:game:"
#define SITE_OWNED_PREFIX "gomoku:owned:"
#define SITE_OWNERS_KEY "gomoku:owners"
#define SITE_ENDED_KEY "gomoku:ended"
#define SITE_ENDED_PREFIX "gomoku:ended:"
#define SITE_RECORD_PREFIX "gomoku:record:"
#define SITE_LIVE_PREFIX "gomoku:live:"
#define SITE_LIVES_KEY "gomoku:lives"

#define SITE_INVITE_TTL_S 86400	 /* an invite's record: a day */
#define SITE_RECORD_TTL_S 172800 /* a room's record: two days */
#define SITE_OVER_TTL_S 86400	 /* a finished game's stream: a day */
#define SITE_ENDED_KEEP 1000	 /* finished games in gomoku:ended */

#endif
