/*
 * identity.h - who a client says it is: the uid and display name query
 * values checked, and room ids made from random bytes.
 */
#ifndef GOMOKU_IDENTITY_H
#define GOMOKU_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>

#define UID_LEN 36			    /* canonical 8-4-4-4-12 form */
#define NAME_MAX_CHARS 20		    /* display name, in characters */
#define NAME_MAX_BYTES (NAME_MAX_CHARS * 4) /* ... in UTF-8 bytes */
#define INVITE_LEN 12 /* an invite code: 72 random bits, base64url */
#define INVITE_BYTES 9 /* ... from this many random bytes */

/*
 * Checks a uid in canonical 8-4-4-4-12 hex form, any case, and writes its
 * lower-case form to out. False (out untouched) when malformed.
 */
bool identity_check_uid(const char *uid, char out[UID_LEN + 1]);

/* Formats 16 random bytes as a version 4 UUID (lower case). */
void identity_format_uuid(const uint8_t bytes[16], char out[UID_LEN + 1]);

/*
 * Formats a room id: a UUID of version 8 (a layout of our own, RFC 9562)
 * whose first 48 bits are order, big-endian, and whose other 74 bits come
 * from bytes. Ids made with a growing order sort in the order they were
 * made, so that the database adds each new game at the end of its
 * indexes rather than on a random page; 74 random bits keep them
 * unguessable.
 */
void identity_format_room_id(uint64_t order, const uint8_t bytes[16],
			     char out[UID_LEN + 1]);

/* An invite code from INVITE_BYTES random bytes: base64url, no padding. */
void identity_format_invite(const uint8_t bytes[INVITE_BYTES],
			    char out[INVITE_LEN + 1]);

/* True when text is an invite code's form (INVITE_LEN base64url). */
bool identity_check_invite(const char *text);

/*
 * Checks a display name: leading and trailing spaces trimmed, then 1 to
 * NAME_MAX_CHARS characters of valid UTF-8 with no control characters
 * (C0, DEL, C1). Writes the trimmed name to out; false when refused.
 */
bool identity_check_name(const char *name, char out[NAME_MAX_BYTES + 1]);

#endif
