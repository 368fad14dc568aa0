/*
 * tokens.h: the part of texts -> token ids that needs no interpreter, run on several threads.
 *
 * text.h prepares each text with the GIL held (str.lower() and NFKC where CPython must do them,
 * sentence splitting, Python tokenizers) and describes what is left as pieces: code units of a
 * string kept alive by the caller, and how to cut them (rouge_score's [a-z0-9] runs, the
 * unicode tokenizer's class scan, or one whole token).  The pieces are split into contiguous
 * shards of about equal length; on each shard's thread the tokens are cut, hashed and looked up
 * in the encoder's vocabulary (read only while the shards run), and the tokens it does not hold
 * get shard-local ids in a map of the shard's own, with their stemmed form computed there for
 * ASCII words (porter.h).  text.h then merges the shards' new tokens into the vocabulary in
 * order, with the GIL held, so ids are given exactly once per distinct token.
 *
 * Like kernels.h this file includes no Python.h: "runs without the GIL" holds by construction.
 * It also holds the vocabulary map and the code-point classes that text.h shares.
 */
#ifndef ROUGE_LCS_TOKENS_H
#define ROUGE_LCS_TOKENS_H

/* clock_gettime and CLOCK_MONOTONIC (kernels.h's signal polling) under -std=c99; before any
 * system header, so that a file compiled on its own sees them too (Python.h sets it anyway). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h" /* grow, mix64, run_parallel, MAX_THREADS */
#include "nfkc.h"    /* the unicode tokenizer's NFKC on the shards; unit_at */
#include "porter.h"
#include "unicode_table.h"

/* A hint that the line at `p` will be read soon (no effect where the compiler has none). */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch((p), 0, 1)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* rouge_score (and so rouge_lcs) stems only tokens longer than this many characters */
#define MIN_STEM_LENGTH 3

/* ------------------------------------------------------------------------------------------ */
/* The vocabulary map: (kind, code units) -> id, open addressing, keys kept in an arena.       */
/*
 * kind is CPython's representation width (1, 2 or 4 bytes a code unit).  Strings are
 * canonical (the narrowest kind that holds them), so equal strings have equal keys.
 */

/* One slot of the table: everything a lookup compares sits in one 32-byte record, and a key
 * of up to 8 bytes (kind byte included: most words) is compared without reading the arena.
 * The table was five parallel arrays, and a lookup's loads from them (each a cache miss in
 * a large vocabulary) were most of the time of cutting a text into ids. */
typedef struct {
    uint64_t hash;
    uint64_t head;  /* the key's first 8 bytes, zero-padded (key_head) */
    int64_t key_at; /* offset of the key in the arena, -1 for an empty slot */
    int32_t key_len;
    int32_t id;
} MapSlot;

typedef struct {
    MapSlot *slots;
    int64_t cap, size;
    char *arena;
    int64_t arena_len, arena_cap;
} Map;

/*
 * A key is its kind byte then its bytes, read as 64-bit words (byte i at bits 8 * (i % 8) of
 * word i / 8: arithmetic, so the same on any byte order).  The first word is the key's head
 * (key_head), which a slot holds.  The hash folds one word at a time (a multiply per 8 bytes,
 * where byte-wise FNV-1a was a multiply per byte, a chain that bounded the scan) and ends
 * with the length and a finalizer.  scan_ascii_runs builds both as it reads a token.
 */
#define HASH_SEED 0x243f6a8885a308d3ULL

static inline uint64_t hash_word(uint64_t h, uint64_t word) {
    h = (h ^ word) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 32);
}

/* the hash of a key of nbytes data bytes whose last, partial word (maybe 0) is `word` */
static inline uint64_t hash_end(uint64_t h, uint64_t word, int64_t nbytes) {
    return mix64(hash_word(h, word) ^ (uint64_t)nbytes);
}

/* A key read byte by byte into its words: the one definition of the packing, used by
 * bytes_hash and by scan_ascii_runs as it reads a token. */
typedef struct {
    uint64_t h, word;
    uint64_t head; /* the first word once complete, else 0 (its kind byte is never 0) */
    int shift;
} KeyWords;

static inline void key_start(KeyWords *k, int kind) {
    k->h = HASH_SEED;
    k->word = (uint64_t)(unsigned char)kind;
    k->head = 0;
    k->shift = 8;
}

static inline void key_push(KeyWords *k, unsigned char c) {
    k->word |= (uint64_t)c << k->shift;
    k->shift += 8;
    if (k->shift == 64) {
        if (k->head == 0) k->head = k->word;
        k->h = hash_word(k->h, k->word);
        k->word = 0;
        k->shift = 0;
    }
}

/* The key's hash, after its nbytes data bytes were pushed. */
static inline uint64_t key_hash(const KeyWords *k, int64_t nbytes) {
    return hash_end(k->h, k->word, nbytes);
}

/* The key's first word (key_head). */
static inline uint64_t key_first_word(const KeyWords *k) { return k->head ? k->head : k->word; }

/* The key's first word: its kind and the first 7 bytes of data, zero-padded. */
static inline uint64_t key_head(int kind, const char *data, int64_t nbytes) {
    uint64_t head = (uint64_t)(unsigned char)kind;
    int64_t n = nbytes < 7 ? nbytes : 7;
    for (int64_t k = 0; k < n; k++) head |= (uint64_t)(unsigned char)data[k] << (8 * (k + 1));
    return head;
}

/* The key's hash, and its first word (key_head) in *head.  Where 64-bit loads are
 * little-endian the full words are read 8 bytes at a time (byte i at bits 8 * (i % 8), as
 * key_push packs them); a token's bytes one by one were ~10% of the text stage. */
static inline uint64_t bytes_key(int kind, const char *data, int64_t n, uint64_t *head) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t h = HASH_SEED, word = key_head(kind, data, n);
    *head = word;
    if (n < 7) return hash_end(h, word, n);
    int64_t i = 7;
    h = hash_word(h, word);
    for (; i + 8 <= n; i += 8) {
        memcpy(&word, data + i, 8);
        h = hash_word(h, word);
    }
    word = 0;
    for (int shift = 0; i < n; i++, shift += 8) word |= (uint64_t)(unsigned char)data[i] << shift;
    return hash_end(h, word, n);
#else
    KeyWords k;
    key_start(&k, kind);
    for (int64_t i = 0; i < n; i++) key_push(&k, (unsigned char)data[i]);
    *head = key_first_word(&k);
    return key_hash(&k, n);
#endif
}

static uint64_t bytes_hash(int kind, const char *data, int64_t n) {
    uint64_t head;
    return bytes_key(kind, data, n, &head);
}

static inline int map_has(const Map *map, int64_t slot) { return map->slots[slot].key_at >= 0; }
static inline int32_t map_id(const Map *map, int64_t slot) { return map->slots[slot].id; }

static void map_free(Map *map) {
    free(map->slots);
    free(map->arena);
    memset(map, 0, sizeof(*map));
}

/* Move the keys to a table of `cap` slots (a power of two, more than twice the keys); 0 when
 * out of memory (the map is unchanged then). */
static int map_resize(Map *map, int64_t cap) {
    MapSlot *slots = malloc((size_t)cap * sizeof(MapSlot));
    if (slots == NULL) return 0;
    for (int64_t s = 0; s < cap; s++) slots[s].key_at = -1;
    for (int64_t s = 0; s < map->cap; s++) {
        if (map->slots[s].key_at < 0) continue;
        uint64_t at = map->slots[s].hash & (uint64_t)(cap - 1);
        while (slots[at].key_at >= 0) at = (at + 1) & (uint64_t)(cap - 1);
        slots[at] = map->slots[s];
    }
    free(map->slots);
    map->slots = slots;
    map->cap = cap;
    return 1;
}

/* Double the table; 0 when out of memory (the map is unchanged then). */
static int map_rehash(Map *map) { return map_resize(map, map->cap ? map->cap * 2 : 1024); }

/* Room for `more` keys (of `bytes` bytes in all, kind bytes included) beyond those held,
 * without a rehash on the way: one table instead of a chain of doublings, each a new block
 * of memory to fault in.  0 when out of memory (the map is unchanged then). */
static int map_reserve(Map *map, int64_t more, int64_t bytes) {
    int64_t cap = map->cap ? map->cap : 1024;
    while (cap < 2 * (map->size + more + 1)) cap *= 2;
    if (cap > map->cap && !map_resize(map, cap)) return 0;
    return grow((void **)&map->arena, &map->arena_cap, map->arena_len + bytes, 1);
}

/* memcmp(a, b, n) == 0; inline, as keys are words of a few bytes (a libc call costs more). */
static inline int same_bytes(const char *a, const char *b, int64_t n) {
    if (n > 16) return memcmp(a, b, (size_t)n) == 0;
    for (int64_t k = 0; k < n; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* The slot holds the key (hash h, head of key_head). */
static inline int slot_is(const Map *map, const MapSlot *slot, const char *data, int64_t nbytes,
                          uint64_t h, uint64_t head) {
    return slot->hash == h && slot->head == head && slot->key_len == nbytes + 1 &&
           (nbytes <= 7 || same_bytes(map->arena + slot->key_at + 8, data + 7, nbytes - 7));
}

/* The id of the key, or -1 when absent; never changes the map (safe from many threads while
 * no thread writes it). */
static int64_t map_lookup(const Map *map, const char *data, int64_t nbytes, uint64_t h,
                          uint64_t head) {
    if (map->cap == 0) return -1;
    uint64_t mask = (uint64_t)map->cap - 1, s = h & mask;
    for (;;) {
        const MapSlot *slot = map->slots + s;
        if (slot->key_at < 0) return -1;
        if (slot_is(map, slot, data, nbytes, h, head)) return slot->id;
        s = (s + 1) & mask;
    }
}

/* The slot of the key (hash h, head = key_head of it, which the caller has): its id is
 * map_id(map, slot) when map_has(map, slot), else the key is absent and map_add(slot) adds
 * it.  -1 when out of memory. */
static inline int64_t map_slot_head(Map *map, const char *data, int64_t nbytes, uint64_t h,
                                    uint64_t head) {
    if (2 * (map->size + 1) > map->cap && !map_rehash(map)) return -1;
    uint64_t mask = (uint64_t)map->cap - 1, s = h & mask;
    for (;;) {
        const MapSlot *slot = map->slots + s;
        if (slot->key_at < 0 || slot_is(map, slot, data, nbytes, h, head)) return (int64_t)s;
        s = (s + 1) & mask;
    }
}

/* map_slot_head with the key's head computed here. */
static int64_t map_slot(Map *map, int kind, const char *data, int64_t nbytes, uint64_t h) {
    return map_slot_head(map, data, nbytes, h, key_head(kind, data, nbytes));
}

/* Add the key at the free slot map_slot gave; 0 when out of memory. */
static int map_add(Map *map, int64_t slot, int kind, const char *data, int64_t nbytes,
                   uint64_t h, int64_t id) {
    if (!grow((void **)&map->arena, &map->arena_cap, map->arena_len + nbytes + 1, 1)) return 0;
    map->arena[map->arena_len] = (char)kind;
    memcpy(map->arena + map->arena_len + 1, data, (size_t)nbytes);
    MapSlot *at = map->slots + slot;
    at->hash = h;
    at->head = key_head(kind, data, nbytes);
    at->key_at = map->arena_len;
    at->key_len = (int32_t)(nbytes + 1);
    at->id = (int32_t)id;
    map->arena_len += nbytes + 1;
    map->size++;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Character classes                                                                          */

static inline int ascii_alnum_lower(unsigned c, char *out) {
    if (c >= 'a' && c <= 'z') {
        *out = (char)c;
        return 1;
    }
    if (c >= '0' && c <= '9') {
        *out = (char)c;
        return 1;
    }
    if (c >= 'A' && c <= 'Z') {
        *out = (char)(c + 32);
        return 1;
    }
    return 0;
}

/* byte -> itself lowered if it is ASCII [A-Za-z0-9], else 0 (filled at module init). */
static char ASCII_ALNUM_LOWER[256];

static void init_ascii_table(void) {
    for (unsigned c = 0; c < 128; c++) {
        char out;
        ASCII_ALNUM_LOWER[c] = ascii_alnum_lower(c, &out) ? out : 0;
    }
}

/* The index of the range of `c` in a sorted (first, last, value) table, -1 if none. */
static int range_index(const uint32_t (*r)[3], int count, uint32_t c) {
    int lo = 0, hi = count - 1, found = -1;
    while (lo <= hi) { /* the last range starting at or before c */
        int mid = (lo + hi) / 2;
        if (r[mid][0] <= c) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found >= 0 && c <= r[found][1] ? found : -1;
}

/* 0: separator, 1: word character, 2: a token by itself; `hint` caches the last range found */
static inline int unicode_class(uint32_t c, int *hint) {
    if (c < 128)
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
    const uint32_t(*r)[3] = UNICODE_RANGES;
    if (*hint >= 0 && c >= r[*hint][0] && c <= r[*hint][1]) return (int)r[*hint][2];
    int found = range_index(r, UNICODE_RANGE_COUNT, c);
    if (found < 0) return 0;
    *hint = found;
    return (int)r[found][2];
}

/* The stemmed form of an ASCII token (kind 1, every byte < 128) into `out` (n + 2 bytes):
 * lowercased, and Porter from MIN_STEM_LENGTH + 1 characters on (rouge_lcs.text.stemming.stem,
 * which text.h's new_id applies to the other tokens).  Returns its length. */
static int ascii_form(const char *data, int n, char *out) {
    if (n > MIN_STEM_LENGTH) return porter_stem(data, n, out);
    for (int k = 0; k < n; k++)
        out[k] = (data[k] >= 'A' && data[k] <= 'Z') ? (char)(data[k] + 32) : data[k];
    return n;
}

static inline int ascii_bytes(const char *data, int64_t n) {
    for (int64_t k = 0; k < n; k++)
        if ((unsigned char)data[k] >= 128) return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* Pieces and shards                                                                          */

enum {
    SCAN_ASCII = 0,   /* maximal ASCII [A-Za-z0-9] runs, lowered (rouge_score's tokens) */
    SCAN_UNICODE = 1, /* the unicode tokenizer's class scan of a normalized, lowered string */
    SCAN_TOKEN = 2,   /* the piece is one token (a custom tokenizer's) */
    SCAN_CHAR = 3,    /* the char tokenizer's characters of a text of char_plain ones */
    SCAN_NFKC = 4,    /* SCAN_UNICODE after NFKC, lower() and the joiners' removal (nfkc.h) */
};

/* The characters for which the char tokenizer (one token per grapheme cluster that starts with
 * a letter or digit, after NFKC and lower(): rouge_lcs.text.tokenizers.char_tokenize) needs no
 * interpreter.  Tokens: ASCII letters and digits; the CJK ideographs of the URO and Extension A;
 * hiragana and katakana letters, the prolonged sound mark, the iteration marks (not the
 * digraphs ゟ ヿ, which NFKC spells out); 々〆〇; Hangul syllables.  None has a decomposition,
 * none composes with another character of the set, none has case but A-Z, and none is a
 * grapheme extender, a joiner or a conjoining jamo, so each is its own NFKC form and its own
 * grapheme cluster.  Separators: the punctuation of CJK text (、。「」『』【】〈〉《》〜…, the
 * general punctuation block but ‗, whose NFKC has a combining mark; fullwidth punctuation):
 * whatever NFKC makes of them holds no
 * letter, digit, mark or jamo, so they never change a token and are skipped.  Every code point
 * here has been assigned since Unicode 13 at the latest, so the regex module's classes agree
 * whatever its version (tests/engine/native/test_native_encoder.py checks all of this per code point).  Texts with
 * any other character take the Python tokenizer. */
static inline int char_separator(uint32_t c) {
    return (c >= 0x3000 && c <= 0x3004) || (c >= 0x3008 && c <= 0x3020) || c == 0x30FB ||
           (c >= 0x2010 && c <= 0x2027 && c != 0x2017) || (c >= 0xFF01 && c <= 0xFF0F) ||
           (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40) ||
           (c >= 0xFF5B && c <= 0xFF65);
}

/* Of the non-ASCII characters, the char tokenizer's tokens that need no interpreter. */
static inline int char_letter(uint32_t c) {
    return (c >= 0x4E00 && c <= 0x9FEF) || (c >= 0xAC00 && c <= 0xD7A3) ||
           (c >= 0x3041 && c <= 0x3096) || (c >= 0x309D && c <= 0x309E) ||
           (c >= 0x30A1 && c <= 0x30FE && c != 0x30FB) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x3005 && c <= 0x3007);
}

static inline int char_plain(uint32_t c) {
    return c < 128 || char_letter(c) || char_separator(c);
}

/* Of the char_plain characters, the tokens: letters and digits (not the separators). */
static inline int char_token_unit(uint32_t c) {
    return char_letter(c);
}

/* Code units [start, end) of a string the caller keeps alive, and how to cut them. */
typedef struct {
    const void *data;
    int64_t start, end;
    int kind, scan;
} TextPiece;

enum { SHARD_OK = 0, SHARD_NO_MEMORY = 1, SHARD_TOO_LONG = 2, SHARD_TOO_MANY = 3 };

/* Tokens looked up together: each one's slot is prefetched as it is cut, and read when this
 * many wait.  In a large vocabulary (the 150,000 tokens of 100,000 short pairs: a 16 MB
 * table) nearly every lookup misses the cache; one after another, each waited for its load,
 * and the lookups were ~30% of the text stage.  In a batch the loads overlap. */
#define PENDING_KEYS 32

typedef struct {
    uint64_t h, head;
    int64_t at, nbytes; /* the key's bytes: pend_bytes[at, at + nbytes) */
    int kind;
} PendingKey;

typedef struct {
    /* in */
    const TextPiece *pieces;
    int64_t first, last;
    const Map *vocab; /* the encoder's raw-token map: read only while shards run */
    int stem;         /* compute the stemmed form of each new ASCII token */
    /* out: one value per token, the vocabulary id (>= 0) or -(new + 1) for a new token */
    int32_t *out;
    int64_t out_len, out_cap;
    int64_t *piece_end; /* tokens of the shard up to the end of each piece (last - first) */
    /* new tokens, by shard-local id: key (kind byte + units) in local.arena, hash, form */
    Map local;
    int64_t n_new, new_cap;
    int64_t *new_at;
    int32_t *new_len;
    uint64_t *new_hash;
    int64_t *form_at; /* offset into forms, -1: no form computed here */
    int32_t *form_len;
    char *forms;
    int64_t forms_len, forms_cap;
    char *buf; /* a token's code units in canonical kind */
    int64_t buf_cap;
    NfkcBuf norm; /* a SCAN_NFKC piece's normal form */
    /* tokens cut but not yet looked up (shard_emit_key): their keys' bytes in pend_bytes */
    PendingKey pend[PENDING_KEYS];
    int n_pend;
    char *pend_bytes;
    int64_t pend_len, pend_cap;
    int status;
    int64_t reset_cap; /* local.cap when token_shard_reset last emptied it */
} TokenShard;

static void token_shard_free(TokenShard *s) {
    free(s->out);
    free(s->piece_end);
    map_free(&s->local);
    free(s->new_at);
    free(s->new_len);
    free(s->new_hash);
    free(s->form_at);
    free(s->form_len);
    free(s->forms);
    free(s->buf);
    free(s->norm.u);
    free(s->pend_bytes);
}

/* Empty a shard for its next task, keeping its buffers (the per-call path runs one shard per
 * call: its allocations were a good part of a short pair's call).  A local map grown past
 * SHARD_KEEP_SLOTS by a long text is freed rather than cleared at every later call. */
#define SHARD_KEEP_SLOTS 4096
static void token_shard_reset(TokenShard *s) {
    free(s->piece_end);
    s->piece_end = NULL;
    s->out_len = 0;
    s->forms_len = 0;
    s->n_pend = 0;
    s->pend_len = 0;
    s->status = SHARD_OK;
    if (s->local.cap > SHARD_KEEP_SLOTS) {
        map_free(&s->local);
    } else if (s->local.cap != s->reset_cap) { /* grown (rehashed) by the last task */
        for (int64_t k = 0; k < s->local.cap; k++) s->local.slots[k].key_at = -1;
    } else if (s->local.cap > 0) {
        /* Only the slots the last task filled, emptied in the reverse order of their keys'
         * insertion (linear probing, no rehash since the table was empty: no key inserted
         * before another probed through that other's slot, so each is still found): a few
         * slots, where clearing the whole table was most of a short pair's call. */
        uint64_t mask = (uint64_t)s->local.cap - 1;
        for (int64_t j = s->n_new - 1; j >= 0; j--) {
            uint64_t at = s->new_hash[j] & mask;
            while (s->local.slots[at].key_at != s->new_at[j]) at = (at + 1) & mask;
            s->local.slots[at].key_at = -1;
        }
    }
    s->local.size = 0;
    s->local.arena_len = 0;
    s->reset_cap = s->local.cap;
    s->n_new = 0;
}

static int shard_fail(TokenShard *s, int status) {
    if (s->status == SHARD_OK) s->status = status;
    return 0;
}

/* Look up a token (kind, code units, h = bytes_hash of them, head = key_head) and write its
 * id (or its new shard-local id) to the shard's output; 0 on failure. */
static int shard_resolve_key(TokenShard *s, int kind, const char *data, int64_t nbytes,
                             uint64_t h, uint64_t head) {
    if (s->out_len == s->out_cap &&
        !grow((void **)&s->out, &s->out_cap, s->out_len + 1, sizeof(int32_t)))
        return shard_fail(s, SHARD_NO_MEMORY);
    int64_t id = map_lookup(s->vocab, data, nbytes, h, head);
    if (id >= 0) {
        s->out[s->out_len++] = (int32_t)id;
        return 1;
    }
    int64_t slot = map_slot_head(&s->local, data, nbytes, h, head);
    if (slot < 0) return shard_fail(s, SHARD_NO_MEMORY);
    if (map_has(&s->local, slot)) {
        s->out[s->out_len++] = -(map_id(&s->local, slot) + 1);
        return 1;
    }
    if (s->n_new >= INT32_MAX - 1) return shard_fail(s, SHARD_TOO_MANY);
    int64_t j = s->n_new, need = j + 1;
    if (need > s->new_cap) {
        int64_t cap = s->new_cap;
        if (!grow((void **)&s->new_at, &cap, need, sizeof(int64_t)) ||
            (cap = s->new_cap, !grow((void **)&s->new_len, &cap, need, sizeof(int32_t))) ||
            (cap = s->new_cap, !grow((void **)&s->new_hash, &cap, need, sizeof(uint64_t))) ||
            (cap = s->new_cap, !grow((void **)&s->form_at, &cap, need, sizeof(int64_t))) ||
            (cap = s->new_cap, !grow((void **)&s->form_len, &cap, need, sizeof(int32_t))))
            return shard_fail(s, SHARD_NO_MEMORY);
        s->new_cap = cap;
    }
    s->new_at[j] = s->local.arena_len; /* where map_add puts the key */
    if (!map_add(&s->local, slot, kind, data, nbytes, h, j)) return shard_fail(s, SHARD_NO_MEMORY);
    s->new_len[j] = (int32_t)nbytes;
    s->new_hash[j] = h;
    s->form_at[j] = -1;
    s->form_len[j] = 0;
    if (s->stem && kind == 1 && ascii_bytes(data, nbytes)) {
        if (!grow((void **)&s->forms, &s->forms_cap, s->forms_len + nbytes + 2, 1))
            return shard_fail(s, SHARD_NO_MEMORY);
        s->form_at[j] = s->forms_len;
        s->form_len[j] = ascii_form(data, (int)nbytes, s->forms + s->forms_len);
        s->forms_len += s->form_len[j];
    }
    s->n_new++;
    s->out[s->out_len++] = (int32_t)(-(j + 1));
    return 1;
}

/* Look up the waiting tokens, in the order they were cut; 0 on failure. */
static int shard_flush(TokenShard *s) {
    int n = s->n_pend;
    s->n_pend = 0;
    s->pend_len = 0;
    for (int k = 0; k < n; k++) {
        const PendingKey *q = &s->pend[k];
        if (!shard_resolve_key(s, q->kind, s->pend_bytes + q->at, q->nbytes, q->h, q->head))
            return 0;
    }
    return 1;
}

/* A token (kind, code units, h = bytes_hash of them, head = key_head) of the shard: its key
 * copied (data may be a buffer the next token overwrites) and its slot prefetched; looked up
 * by shard_flush with the tokens cut after it (PENDING_KEYS).  0 on failure. */
static int shard_emit_key(TokenShard *s, int kind, const char *data, int64_t nbytes, uint64_t h,
                          uint64_t head) {
    if (nbytes > INT32_MAX - 1) return shard_fail(s, SHARD_TOO_LONG);
    /* one byte more: the buffer exists even for an empty token (no offset from NULL) */
    if (!grow((void **)&s->pend_bytes, &s->pend_cap, s->pend_len + nbytes + 1, 1))
        return shard_fail(s, SHARD_NO_MEMORY);
    if (nbytes > 0) memcpy(s->pend_bytes + s->pend_len, data, (size_t)nbytes);
    s->pend[s->n_pend++] = (PendingKey){h, head, s->pend_len, nbytes, kind};
    s->pend_len += nbytes;
    if (s->vocab->cap > 0) PREFETCH(s->vocab->slots + (h & (uint64_t)(s->vocab->cap - 1)));
    /* A token the vocabulary lacks is looked up in the shard's own map: all of them in a new
     * vocabulary (a fresh process's first call), whose map grows past the cache as well. */
    if (s->vocab->size == 0 && s->local.cap > 0)
        PREFETCH(s->local.slots + (h & (uint64_t)(s->local.cap - 1)));
    return s->n_pend < PENDING_KEYS || shard_flush(s);
}

/* shard_emit_key with the key's hash and head computed here. */
static int shard_emit(TokenShard *s, int kind, const char *data, int64_t nbytes) {
    uint64_t head, h = bytes_key(kind, data, nbytes, &head);
    return shard_emit_key(s, kind, data, nbytes, h, head);
}

/* rouge_score's tokens of a piece: the maximal ASCII [A-Za-z0-9] runs, lowered.  The common
 * case (one byte a code unit) is one pass: a table lowers and classifies each byte, and the
 * token's words (bytes_hash, key_head) are built as it is read. */
static int scan_ascii_runs(TokenShard *s, const TextPiece *p) {
    int64_t n = p->end - p->start, run = 0;
    if (!grow((void **)&s->buf, &s->buf_cap, n + 1, 1)) return shard_fail(s, SHARD_NO_MEMORY);
    char *buf = s->buf;
    if (p->kind == 1) {
        const unsigned char *t = (const unsigned char *)p->data + p->start;
        KeyWords key;
        key_start(&key, 1);
        for (int64_t k = 0; k < n; k++) {
            char c = ASCII_ALNUM_LOWER[t[k]];
            if (c) {
                buf[run++] = c;
                key_push(&key, (unsigned char)c);
            } else if (run) {
                if (!shard_emit_key(s, 1, buf, run, key_hash(&key, run), key_first_word(&key)))
                    return 0;
                run = 0;
                key_start(&key, 1);
            }
        }
        return run ? shard_emit_key(s, 1, buf, run, key_hash(&key, run), key_first_word(&key)) : 1;
    }
    for (int64_t k = 0; k <= n; k++) {
        uint32_t c = k < n ? unit_at(p->kind, p->data, p->start + k) : 0;
        if (k < n && c < 128 && ascii_alnum_lower(c, buf + run)) {
            run++;
        } else if (run) {
            if (!shard_emit(s, 1, buf, run)) return 0;
            run = 0;
        }
    }
    return 1;
}

/* Units [a, b) of the piece as a token in canonical representation (the narrowest kind that
 * holds `maxchar`), so that it is interned like the same token coming from Python. */
static int shard_emit_slice(TokenShard *s, const TextPiece *p, int64_t a, int64_t b,
                            uint32_t maxchar) {
    int want = maxchar < 256 ? 1 : maxchar < 65536 ? 2 : 4;
    const char *data = (const char *)p->data + a * p->kind;
    int64_t nbytes = (b - a) * want;
    if (want != p->kind) {
        if (!grow((void **)&s->buf, &s->buf_cap, nbytes, 1)) return shard_fail(s, SHARD_NO_MEMORY);
        for (int64_t k = a; k < b; k++) {
            uint32_t c = unit_at(p->kind, p->data, k);
            if (want == 1) ((uint8_t *)s->buf)[k - a] = (uint8_t)c;
            else if (want == 2) ((uint16_t *)s->buf)[k - a] = (uint16_t)c;
            else ((uint32_t *)s->buf)[k - a] = c;
        }
        data = s->buf;
    }
    return shard_emit(s, want, data, nbytes);
}

/* The unicode tokenizer's tokens of a normalized, lowercased piece: each class-2 character
 * alone, maximal runs of class-1 characters (text.h's scan_unicode, on raw code units). */
static int scan_unicode_units(TokenShard *s, const TextPiece *p) {
    int64_t start = -1;
    int hint = -1;
    uint32_t maxchar = 0;
    for (int64_t k = p->start; k < p->end; k++) {
        uint32_t c = unit_at(p->kind, p->data, k);
        int cls = unicode_class(c, &hint);
        if (cls == 1) {
            if (start < 0) {
                start = k;
                maxchar = 0;
            }
            if (c > maxchar) maxchar = c;
            continue;
        }
        if (start >= 0) {
            if (!shard_emit_slice(s, p, start, k, maxchar)) return 0;
            start = -1;
        }
        if (cls == 2 && !shard_emit_slice(s, p, k, k + 1, c)) return 0;
    }
    return start >= 0 ? shard_emit_slice(s, p, start, p->end, maxchar) : 1;
}

/* The char tokenizer's tokens of a piece of char_plain characters: each ASCII letter or digit
 * (A-Z lowered) and each non-punctuation character, alone. */
static int scan_char_units(TokenShard *s, const TextPiece *p) {
    for (int64_t k = p->start; k < p->end; k++) {
        uint32_t c = unit_at(p->kind, p->data, k);
        if (c < 128) {
            char low = ASCII_ALNUM_LOWER[c];
            if (low && !shard_emit(s, 1, &low, 1)) return 0;
        } else if (char_token_unit(c) && !shard_emit_slice(s, p, k, k + 1, c)) {
            return 0;
        }
    }
    return 1;
}

/* The unicode tokenizer's tokens of a raw piece: its normal form (nfkc.h) cut by the class
 * scan. */
static int scan_nfkc_units(TokenShard *s, const TextPiece *p) {
    if (!nfkc_lower(&s->norm, p->kind, p->data, p->start, p->end))
        return shard_fail(s, SHARD_NO_MEMORY);
    TextPiece normal = {s->norm.u, 0, s->norm.len, 4, SCAN_UNICODE};
    return scan_unicode_units(s, &normal);
}

/* The most tokens token_shard_task reserves room for at once (64 MB of ids). */
#define SHARD_OUT_RESERVE ((int64_t)1 << 24)

static void token_shard_task(void *arg) {
    TokenShard *s = (TokenShard *)arg;
    int64_t count = s->last - s->first;
    s->piece_end = malloc((size_t)(count > 0 ? count : 1) * sizeof(int64_t));
    if (s->piece_end == NULL) {
        shard_fail(s, SHARD_NO_MEMORY);
        return;
    }
    /* The output sized once for rouge_score's tokens (at most one in two code units) and
     * whole-piece tokens: its doublings copied it block after block, each a new one to fault
     * in (a fresh process's first call).  Pages of the bound that no token reaches are never
     * touched; other pieces grow it as they go. */
    int64_t bound = 0;
    for (int64_t k = s->first; k < s->last; k++) {
        const TextPiece *p = &s->pieces[k];
        bound += p->scan == SCAN_ASCII ? (p->end - p->start + 1) / 2 : p->scan == SCAN_TOKEN;
    }
    if (bound > SHARD_OUT_RESERVE) bound = SHARD_OUT_RESERVE;
    if (!grow((void **)&s->out, &s->out_cap, bound, sizeof(int32_t))) {
        shard_fail(s, SHARD_NO_MEMORY);
        return;
    }
    for (int64_t k = s->first; k < s->last; k++) {
        const TextPiece *p = &s->pieces[k];
        int ok;
        if (p->scan == SCAN_ASCII) {
            ok = scan_ascii_runs(s, p);
        } else if (p->scan == SCAN_UNICODE) {
            ok = scan_unicode_units(s, p);
        } else if (p->scan == SCAN_CHAR) {
            ok = scan_char_units(s, p);
        } else if (p->scan == SCAN_NFKC) {
            ok = scan_nfkc_units(s, p);
        } else {
            const char *data = (const char *)p->data + p->start * p->kind;
            int64_t nbytes = (p->end - p->start) * p->kind;
            ok = shard_emit(s, p->kind, data, nbytes);
        }
        if (!ok) return;
        /* each waiting token will be one id of the output */
        s->piece_end[k - s->first] = s->out_len + s->n_pend;
    }
    shard_flush(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Ids of one short call: rouge_score's ASCII runs numbered by first appearance               */
/*
 * The per-call path (one example, no stemmer) needs ids equal for equal tokens within the
 * call and nothing more.  Its common input (pieces of one-byte code units cut into [a-z0-9]
 * runs) is cut here in one pass that writes each token's lowered bytes once, hashes it a word
 * at a time and looks it up in a table of the call's tokens only: slots stamped with the
 * call's number (no clearing between calls), keys compared in the call's own arena.  The
 * shards' general machinery (pending keys, prefetches, a map of arena-held keys, the merge)
 * is built for vocabularies of megabytes; for ~100 tokens it cost ~55 ns a token.
 */
typedef struct {
    uint32_t *stamp; /* per slot: the call that filled it (0: never) */
    int32_t *slot_id;
    int64_t cap; /* slots, a power of two */
    uint32_t call;
    char *arena; /* the call's distinct tokens, lowered, one after another */
    int64_t arena_cap;
    int64_t *tok_at; /* per local id: its bytes in the arena, their number, their hash */
    int32_t *tok_len;
    uint64_t *tok_hash;
    int64_t ids_cap;
} LocalIds;

static void local_ids_free(LocalIds *t) {
    free(t->stamp);
    free(t->slot_id);
    free(t->arena);
    free(t->tok_at);
    free(t->tok_len);
    free(t->tok_hash);
    memset(t, 0, sizeof(*t));
}

/* Room for a call of `units` code units in `n_pieces` pieces (at most units / 2 + n_pieces
 * tokens: a token and the separator after it); 0 without memory. */
static int local_ids_reserve(LocalIds *t, int64_t units, int64_t n_pieces) {
    int64_t tokens = units / 2 + n_pieces + 1;
    if (!grow((void **)&t->arena, &t->arena_cap, units + 1, 1)) return 0;
    if (tokens > t->ids_cap) {
        int64_t cap = t->ids_cap;
        if (!grow((void **)&t->tok_at, &cap, tokens, sizeof(int64_t)) ||
            (cap = t->ids_cap, !grow((void **)&t->tok_len, &cap, tokens, sizeof(int32_t))) ||
            (cap = t->ids_cap, !grow((void **)&t->tok_hash, &cap, tokens, sizeof(uint64_t))))
            return 0;
        t->ids_cap = cap;
    }
    int64_t slots = 64;
    while (slots < 2 * tokens) slots *= 2;
    if (slots > t->cap || ++t->call == 0) { /* a larger table, or the stamps wrapped */
        if (slots < t->cap) slots = t->cap;
        uint32_t *stamp = calloc((size_t)slots, sizeof(uint32_t));
        int32_t *ids = malloc((size_t)slots * sizeof(int32_t));
        if (stamp == NULL || ids == NULL) {
            free(stamp);
            free(ids);
            return 0;
        }
        free(t->stamp);
        free(t->slot_id);
        t->stamp = stamp;
        t->slot_id = ids;
        t->cap = slots;
        t->call = 1;
    }
    return 1;
}

/* Whether local_ascii_ids takes these pieces: each cut into ASCII runs, of one-byte units. */
static int local_ascii_ok(const TextPiece *pieces, int64_t n_pieces) {
    for (int64_t k = 0; k < n_pieces; k++)
        if (pieces[k].scan != SCAN_ASCII || pieces[k].kind != 1) return 0;
    return 1;
}

/* The pieces' tokens (local_ascii_ok) as ids by first appearance into out (room for
 * local_ids_reserve's bound), ends[k + 1] the tokens up to the end of piece k (ends[0] = 0);
 * returns the number of distinct tokens.  Call local_ids_reserve first. */
static int64_t local_ascii_ids(LocalIds *t, const TextPiece *pieces, int64_t n_pieces,
                               int32_t *out, int64_t *ends) {
    const uint64_t mask = (uint64_t)t->cap - 1;
    const uint32_t call = t->call;
    char *arena = t->arena;
    int64_t n_out = 0, n_ids = 0, arena_len = 0;
    ends[0] = 0;
    for (int64_t k = 0; k < n_pieces; k++) {
        const unsigned char *p = (const unsigned char *)pieces[k].data + pieces[k].start;
        int64_t n = pieces[k].end - pieces[k].start, i = 0;
        for (;;) {
            while (i < n && !ASCII_ALNUM_LOWER[p[i]]) i++;
            if (i >= n) break;
            /* the token's bytes hashed a word at a time as they are read (a word read back
             * from the bytes just stored waited on the stores: ~15% of the loop) */
            int64_t at = arena_len;
            uint64_t h = HASH_SEED, w = 0;
            int shift = 0;
            char c;
            while (i < n && (c = ASCII_ALNUM_LOWER[p[i]]) != 0) {
                arena[arena_len++] = c;
                w |= (uint64_t)(unsigned char)c << shift;
                shift += 8;
                if (shift == 64) {
                    h = hash_word(h, w);
                    w = 0;
                    shift = 0;
                }
                i++;
            }
            int64_t len = arena_len - at;
            h = hash_end(h, w, len);
            uint64_t s = h & mask;
            int32_t id;
            for (;;) {
                if (t->stamp[s] != call) { /* a new token: its bytes stay in the arena */
                    t->stamp[s] = call;
                    t->slot_id[s] = id = (int32_t)n_ids++;
                    t->tok_at[id] = at;
                    t->tok_len[id] = (int32_t)len;
                    t->tok_hash[id] = h;
                    break;
                }
                id = t->slot_id[s];
                if (t->tok_hash[id] == h && t->tok_len[id] == len &&
                    same_bytes(arena + t->tok_at[id], arena + at, len)) {
                    arena_len = at; /* seen: its copy is dropped */
                    break;
                }
                s = (s + 1) & mask;
            }
            out[n_out++] = id;
        }
        ends[k + 1] = n_out;
    }
    return n_ids;
}

/* Code units per thread below which another thread costs more than it saves (starting one
 * is ~20-50 us; cutting 64k units takes ~100 us). */
#define UNITS_PER_THREAD 65536

/* A thread of the text stage: it cuts the next shard not yet taken until none is left. */
typedef struct {
    TokenShard *shards;
    int64_t n_shards;
    int64_t *next; /* the next shard to take, shared (FETCH_ADD64) */
} TokenWorker;

static void token_worker_task(void *arg) {
    TokenWorker *w = (TokenWorker *)arg;
    for (;;) {
        int64_t k = FETCH_ADD64(w->next, 1);
        if (k >= w->n_shards) return;
        token_shard_task(&w->shards[k]);
    }
}

/* Shards per thread of the text stage: the threads take them as they go, so that a thread
 * slowed down (a core shared with another job) leaves its share to the others instead of
 * holding up the call; the merge takes them in order, so which tokens share an id does not
 * change. */
#define SHARDS_PER_THREAD 4

/* Cut `n_pieces` pieces into shards of about equal length (in code units) and tokenize them
 * on at most `threads` threads (*ran: how many).  `shards` holds MAX_THREADS entries; returns
 * the shards used (each shard's status says whether it succeeded; the caller frees them). */
static int64_t piece_units(const void *pieces, int64_t k) {
    const TextPiece *p = (const TextPiece *)pieces + k;
    return p->end - p->start;
}

static int run_token_shards(TokenShard *shards, int threads, const TextPiece *pieces,
                            int64_t n_pieces, const Map *vocab, int stem, int *ran) {
    int64_t total = 0;
    for (int64_t k = 0; k < n_pieces; k++) total += pieces[k].end - pieces[k].start;
    threads = threads_for(threads, total, UNITS_PER_THREAD);
    int n = threads == 1 ? 1 : threads * SHARDS_PER_THREAD;
    if (n > MAX_THREADS) n = MAX_THREADS;
    int64_t k = 0, seen = 0;
    for (int t = 0; t < n; t++) {
        TokenShard *s = &shards[t];
        memset(s, 0, sizeof(*s));
        s->pieces = pieces;
        s->vocab = vocab;
        s->stem = stem;
        s->first = k;
        s->last = k = range_end(k, n_pieces, t, n, total, &seen, piece_units, pieces);
    }
    *ran = threads;
    if (threads == 1) {
        token_shard_task(&shards[0]); /* no thread to start */
    } else {
        int64_t next = 0;
        TokenWorker workers[MAX_THREADS];
        for (int t = 0; t < threads; t++) workers[t] = (TokenWorker){shards, n, &next};
        run_parallel(token_worker_task, workers, sizeof(TokenWorker), threads);
    }
    return n;
}

#endif /* ROUGE_LCS_TOKENS_H */
