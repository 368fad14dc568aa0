/*
 * arrow.h: the texts of an Arrow string column read from its buffers (no Python.h).
 *
 * An Arrow string column is an offsets buffer (int32 or int64, one more than the rows) and a
 * data buffer of UTF-8 bytes.  Nothing about either is trusted: the caller (py_arrow.h) checks
 * that the offsets it reads lie in their buffer, do not decrease and stay within the data;
 * every row's bytes are validated here as strict UTF-8 (what CPython's decoder accepts: no
 * overlong forms, no surrogates, nothing above U+10FFFF) before a tokenizer sees them, and
 * decoded into the representation CPython would give the str (the smallest of 1, 2 or 4 bytes
 * a code unit), so that tokens are interned exactly as the same text's str's are.
 *
 * Both passes over the rows run on the text stage's threads, each thread a contiguous range of
 * rows of about equal bytes.  Pass 1 validates each run of rows that lie end to end 16 bytes
 * at a time (utf8_valid) and counts each row's code points and its largest byte the same way
 * (utf8_count); pass 2 decodes each non-ASCII row and, in the caller's loop (ArrowClassify),
 * decides how it is tokenized as it is decoded.  A byte at a time, these passes were ~20% of
 * a one-thread call on bench_arrow.py's short pairs; now the Arrow path's scoring is no slower
 * than the list path's (docs/arrow.md).
 */
#ifndef ROUGE_LCS_ARROW_H
#define ROUGE_LCS_ARROW_H

/* kernels.h's clock_gettime under -std=c99, for this file compiled on its own */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <string.h>

#include "kernels.h" /* run_parallel, MAX_THREADS */

/* One offset of an offsets buffer (width 4 or 8 bytes, little-endian as Arrow's in memory on
 * these machines), read without assuming alignment. */
static inline int64_t arrow_offset(const unsigned char *buf, int width, int64_t k) {
    if (width == 4) {
        int32_t v;
        memcpy(&v, buf + k * 4, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, buf + k * 8, 8);
    return v;
}

/* Validate s[0:n) as strict UTF-8, a byte at a time: -1 when valid, else the offset of the
 * first byte of the first invalid sequence (the byte the error names). */
static int64_t utf8_scan(const unsigned char *s, int64_t n) {
    int64_t k = 0;
    while (k < n) {
        /* ASCII eight bytes at a time: most texts are mostly ASCII */
        while (k + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + k, 8);
            if (w & 0x8080808080808080ULL) break;
            k += 8;
        }
        if (k >= n) break;
        unsigned char b = s[k];
        if (b < 0x80) {
            k++;
            continue;
        }
        int len;
        unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
        if (b >= 0xC2 && b <= 0xDF) {
            len = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            if (b == 0xE0) lo = 0xA0;      /* overlong */
            else if (b == 0xED) hi = 0x9F; /* surrogates */
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            if (b == 0xF0) lo = 0x90;      /* overlong */
            else if (b == 0xF4) hi = 0x8F; /* above U+10FFFF */
        } else {
            return k;
        }
        if (n - k < len) return k;
        for (int j = 1; j < len; j++) {
            unsigned char t = s[k + j];
            if (j == 1 ? (t < lo || t > hi) : (t < 0x80 || t > 0xBF)) return k;
        }
        k += len;
    }
    return -1;
}

/* The code-unit size CPython gives a str (0: ASCII), from the largest byte of its valid UTF-8:
 * a lead byte up to 0xC3 begins a code point below U+0100, one up to 0xEF one below U+10000
 * (continuation bytes are 0x80..0xBF, below every lead byte that matters here). */
static inline int utf8_kind_of_byte(unsigned max_byte) {
    return max_byte < 0x80 ? 0 : max_byte < 0xC4 ? 1 : max_byte < 0xF0 ? 2 : 4;
}

static inline int utf8_continuation(unsigned char b) { return (b & 0xC0) == 0x80; }

#if defined(__GNUC__) && defined(__x86_64__)
#define ARROW_SSE 1
#include <emmintrin.h> /* SSE2: every x86-64 */
#include <tmmintrin.h> /* SSSE3: pshufb, palignr (utf8_valid_ssse3, chosen at run time) */
#endif

/* Code points (*chars) and the code-unit size (*kind, 0: ASCII) of valid UTF-8 s[0:n): the
 * bytes that are no continuation byte, and the largest byte. */
static void utf8_count(const unsigned char *s, int64_t n, int64_t *chars, int *kind) {
    int64_t k = 0, continuations = 0;
    unsigned top = 0;
#ifdef ARROW_SSE
    if (n >= 16) {
        /* continuation bytes are 0x80..0xBF: below -64 as signed bytes; each block's count
         * summed across its lanes by psadbw (no popcount instruction in baseline x86-64) */
        const __m128i below = _mm_set1_epi8(-64), zero = _mm_setzero_si128();
        static const unsigned char ones[32] = {
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        const __m128i one = _mm_loadu_si128((const __m128i *)(ones + 16));
        __m128i max = zero, sums = zero;
        for (; k + 16 <= n; k += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(s + k));
            __m128i cont = _mm_and_si128(_mm_cmplt_epi8(v, below), one);
            max = _mm_max_epu8(max, v);
            sums = _mm_add_epi64(sums, _mm_sad_epu8(cont, zero));
        }
        if (k < n) { /* the last 16 bytes, counting only the n - k not yet seen */
            __m128i v = _mm_loadu_si128((const __m128i *)(s + n - 16));
            __m128i fresh = _mm_loadu_si128((const __m128i *)(ones + (n - k)));
            __m128i cont = _mm_and_si128(_mm_cmplt_epi8(v, below), fresh);
            max = _mm_max_epu8(max, v);
            sums = _mm_add_epi64(sums, _mm_sad_epu8(cont, zero));
            k = n;
        }
        continuations = _mm_cvtsi128_si64(_mm_add_epi64(sums, _mm_unpackhi_epi64(sums, sums)));
        /* the largest byte, as far as utf8_kind_of_byte's thresholds tell it apart */
        const __m128i f0 = _mm_set1_epi8((char)0xF0), c4 = _mm_set1_epi8((char)0xC4);
        top = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(max, f0), max))   ? 0xF0
              : _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(max, c4), max)) ? 0xC4
              : _mm_movemask_epi8(max)                                         ? 0x80
                                                                               : 0;
    }
#endif
    for (; k < n; k++) {
        continuations += utf8_continuation(s[k]);
        top = s[k] > top ? s[k] : top;
    }
    *chars = n - continuations;
    *kind = utf8_kind_of_byte(top);
}

#ifdef ARROW_SSE
/* Whether s[0:n) is valid UTF-8, strictly (as utf8_scan), 16 bytes at a time: the lookup
 * algorithm of Keiser and Lemire ("Validating UTF-8 in less than one instruction per byte",
 * Software: Practice and Experience, 2021).  Each byte and the one before it index three
 * 16-entry tables by their nibbles; the AND of the three answers has a bit set where the pair
 * is one of the errors of two bytes (too short, too long, overlong, surrogate, too large, a
 * continuation after a continuation where none belongs); the third and fourth bytes of 3- and
 * 4-byte sequences are checked by where their lead bytes lie.  Past the end the input reads as
 * zero bytes, which end a sequence cut short with an error. */
__attribute__((target("ssse3"))) static int utf8_valid_ssse3(const unsigned char *s, int64_t n) {
    enum {
        TOO_SHORT = 1 << 0,  /* a lead byte, then no continuation */
        TOO_LONG = 1 << 1,   /* ASCII, then a continuation */
        OVERLONG_3 = 1 << 2, /* E0 then 80..9F */
        TOO_LARGE = 1 << 3,  /* F4 then 90..BF, or F5..FF */
        SURROGATE = 1 << 4,  /* ED then A0..BF */
        OVERLONG_2 = 1 << 5, /* C0 or C1 */
        TOO_LARGE_1000 = 1 << 6,
        OVERLONG_4 = 1 << 6, /* F0 then 80..8F */
        TWO_CONTS = 1 << 7,  /* a continuation after a continuation, unless expected */
        CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS,
    };
    /* indexed by the high nibble of the first byte of the pair */
    const __m128i byte_1_high = _mm_setr_epi8(
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS, TOO_SHORT | OVERLONG_2, TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    /* by its low nibble */
    const __m128i byte_1_low = _mm_setr_epi8(
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
        CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000);
    /* by the high nibble of the second byte */
    const __m128i byte_2_high = _mm_setr_epi8(
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE), TOO_SHORT, TOO_SHORT,
        TOO_SHORT, TOO_SHORT);
    const __m128i nibble = _mm_set1_epi8(0x0F), high = _mm_set1_epi8((char)0x80);
    const __m128i third = _mm_set1_epi8((char)(0xE0 - 0x80)); /* 111_____ saturate to >= 0x80 */
    const __m128i fourth = _mm_set1_epi8((char)(0xF0 - 0x80)); /* 1111____ likewise */
    __m128i prev = _mm_setzero_si128(), error = _mm_setzero_si128();
    for (int64_t k = 0;; k += 16) {
        __m128i in;
        int last = k + 16 > n;
        if (!last) {
            in = _mm_loadu_si128((const __m128i *)(s + k));
        } else { /* the rest, then zeros: also flushes a sequence the last block left open */
            unsigned char block[16] = {0};
            if (n > k) memcpy(block, s + k, (size_t)(n - k));
            in = _mm_loadu_si128((const __m128i *)block);
        }
        __m128i prev1 = _mm_alignr_epi8(in, prev, 15);
        __m128i special = _mm_and_si128(
            _mm_and_si128(
                _mm_shuffle_epi8(byte_1_high, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble)),
                _mm_shuffle_epi8(byte_1_low, _mm_and_si128(prev1, nibble))),
            _mm_shuffle_epi8(byte_2_high, _mm_and_si128(_mm_srli_epi16(in, 4), nibble)));
        __m128i must_continue = _mm_and_si128(
            _mm_or_si128(_mm_subs_epu8(_mm_alignr_epi8(in, prev, 14), third),
                         _mm_subs_epu8(_mm_alignr_epi8(in, prev, 13), fourth)),
            high);
        error = _mm_or_si128(error, _mm_xor_si128(must_continue, special));
        prev = in;
        if (last) break;
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(error, _mm_setzero_si128())) == 0xFFFF;
}
#endif

/* Whether s[0:n) is valid UTF-8 (strictly, as utf8_scan): 16 bytes at a time where the CPU
 * can (SSSE3), else utf8_scan itself. */
static int utf8_valid(const unsigned char *s, int64_t n) {
#ifdef ARROW_SSE
    if (__builtin_cpu_supports("ssse3")) return utf8_valid_ssse3(s, n); /* a flag's load */
#endif
    return utf8_scan(s, n) < 0;
}

/* The code point of valid UTF-8 at s[*k], *k moved past it; `four`: 4-byte sequences may
 * occur (a constant where it is inlined, so that a loop for code units below U+10000 does
 * not test for them). */
static inline uint32_t utf8_next(const unsigned char *s, int64_t *k, int four) {
    unsigned char b = s[*k];
    if (b < 0x80) {
        *k += 1;
        return b;
    }
    if (b < 0xE0) {
        *k += 2;
        return ((uint32_t)(b & 0x1F) << 6) | (s[*k - 1] & 0x3F);
    }
    if (!four || b < 0xF0) {
        *k += 3;
        return ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(s[*k - 2] & 0x3F) << 6) |
               (s[*k - 1] & 0x3F);
    }
    *k += 4;
    return ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(s[*k - 3] & 0x3F) << 12) |
           ((uint32_t)(s[*k - 2] & 0x3F) << 6) | (s[*k - 1] & 0x3F);
}

/* Decode valid UTF-8 s[0:n) into code units of type T at out: a loop per code-unit size, so
 * that none tests the size per character. */
#define UTF8_DECODE_AS(NAME, T, FOUR)                                                        \
    static void NAME(const unsigned char *s, int64_t n, T *out) {                           \
        for (int64_t k = 0; k < n;) *out++ = (T)utf8_next(s, &k, FOUR);                      \
    }
UTF8_DECODE_AS(utf8_decode_1, uint8_t, 0)
UTF8_DECODE_AS(utf8_decode_2, uint16_t, 0)
UTF8_DECODE_AS(utf8_decode_4, uint32_t, 1)
#undef UTF8_DECODE_AS

/* Decode valid UTF-8 s[0:n) (pass 1 said so) into code units of `kind` bytes at out. */
static void utf8_decode(const unsigned char *s, int64_t n, int kind, void *out) {
    if (kind == 1) utf8_decode_1(s, n, (uint8_t *)out);
    else if (kind == 2) utf8_decode_2(s, n, (uint16_t *)out);
    else utf8_decode_4(s, n, (uint32_t *)out);
}

/* One row of an Arrow call: its bytes, and what the passes found. */
typedef struct {
    const unsigned char *bytes;
    int64_t nbytes;
    int64_t chars; /* code points (pass 1) */
    int64_t at;    /* where its decoded code units start in the arena (set between passes) */
    int8_t kind;   /* 0: ASCII, read in place; else the decoded code-unit size (pass 1) */
    int8_t scan;   /* the piece's scan mode, or -1: the text goes to the interpreter (pass 2) */
} ArrowRow;

/* The caller's rule for a non-ASCII row: decode its valid UTF-8 bytes[0:nbytes) into `chars`
 * code units of `kind` bytes at `units` (utf8_decode, or a loop of its own that classifies as
 * it decodes), and answer its scan mode, or -1 for CPython's path. */
typedef int (*ArrowClassify)(const void *ctx, const unsigned char *bytes, int64_t nbytes,
                             int kind, void *units, int64_t chars);

/* A thread's contiguous range of rows and what it reports. */
typedef struct {
    ArrowRow *rows;
    int64_t start, stop;
    int64_t bad_row, bad_byte; /* pass 1: the range's first invalid row (or -1) and byte */
    char *arena;               /* pass 2: where decoded rows go (row.at) */
    ArrowClassify classify;
    const void *ctx;
    int ascii_scan; /* pass 2: an ASCII row's scan mode (or -1) */
} ArrowRange;

/* Bytes a thread should have at least, or it is not worth starting. */
#define ARROW_BYTES_PER_THREAD 65536

/* The first invalid row of rows[start:stop) (utf8_scan on each): 0 and the range's bad_row and
 * bad_byte set, or 1 when every row is valid. */
static int arrow_find_invalid(ArrowRange *r, int64_t start, int64_t stop) {
    for (int64_t k = start; k < stop; k++) {
        int64_t bad = utf8_scan(r->rows[k].bytes, r->rows[k].nbytes);
        if (bad >= 0) {
            r->bad_row = k;
            r->bad_byte = bad;
            return 0;
        }
    }
    return 1;
}

/* Pass 1 over a range: validate each row, count its code points, choose its kind.
 *
 * The rows of one column lie end to end in its data buffer, so a run of rows whose bytes
 * follow each other is validated at once (utf8_valid, 16 bytes at a time): each of them is
 * valid UTF-8 exactly when the run is and no row but an empty one starts with a continuation
 * byte, since in valid UTF-8 the other bytes are where characters start.  A run found invalid
 * is read again row by row, for the first invalid row and byte. */
static void arrow_scan_range(void *arg) {
    ArrowRange *r = (ArrowRange *)arg;
    r->bad_row = r->bad_byte = -1;
    ArrowRow *rows = r->rows;
    for (int64_t k = r->start; k < r->stop;) {
        const unsigned char *from = rows[k].bytes, *to = from + rows[k].nbytes;
        int starts = 1; /* every row of the run after its first starts where a character can */
        int64_t end = k + 1;
        for (; end < r->stop && rows[end].bytes == to; end++) {
            if (rows[end].nbytes > 0 && utf8_continuation(*to)) starts = 0;
            to += rows[end].nbytes;
        }
        if (!(starts && utf8_valid(from, to - from))) {
            if (!arrow_find_invalid(r, k, end)) return;
            /* not reached: a run of valid rows is valid */
        }
        for (; k < end; k++) {
            int kind;
            utf8_count(rows[k].bytes, rows[k].nbytes, &rows[k].chars, &kind);
            rows[k].kind = (int8_t)kind;
        }
    }
}

/* Pass 2 over a range: decode each non-ASCII row into the arena and choose every row's scan. */
static void arrow_decode_range(void *arg) {
    ArrowRange *r = (ArrowRange *)arg;
    for (int64_t k = r->start; k < r->stop; k++) {
        ArrowRow *row = &r->rows[k];
        if (row->kind == 0) {
            row->scan = (int8_t)r->ascii_scan;
            continue;
        }
        row->scan = (int8_t)r->classify(r->ctx, row->bytes, row->nbytes, row->kind,
                                        r->arena + row->at, row->chars);
    }
}

static int64_t arrow_row_bytes(const void *rows, int64_t k) {
    return ((const ArrowRow *)rows)[k].nbytes;
}

/* Cut rows [0, n) into at most `threads` contiguous ranges of about equal bytes (`ranges`
 * holds MAX_THREADS); returns how many. */
static int arrow_ranges(ArrowRange *ranges, ArrowRow *rows, int64_t n, int threads) {
    int64_t total = 0;
    for (int64_t k = 0; k < n; k++) total += rows[k].nbytes;
    threads = threads_for(threads, total, ARROW_BYTES_PER_THREAD);
    int64_t k = 0, seen = 0;
    for (int t = 0; t < threads; t++) {
        int64_t start = k;
        k = range_end(k, n, t, threads, total, &seen, arrow_row_bytes, rows);
        ranges[t] = (ArrowRange){rows, start, k, -1, -1, NULL, NULL, NULL, -1};
    }
    return threads;
}

/* Run a pass over the ranges: on threads when there are several. */
static void arrow_pass(TaskFn fn, ArrowRange *ranges, int n) {
    if (n == 1) fn(&ranges[0]);
    else run_parallel(fn, ranges, sizeof(ArrowRange), n);
}

#endif /* ROUGE_LCS_ARROW_H */
