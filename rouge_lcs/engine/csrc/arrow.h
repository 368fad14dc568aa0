/*
 * arrow.h: the texts of an Arrow string column read from its buffers (no Python.h).
 *
 * An Arrow string column is an offsets buffer (int32 or int64, one more than the rows) and a
 * data buffer of UTF-8 bytes.  Nothing about either is trusted: the caller (module.c) checks
 * that the offsets it reads lie in their buffer, do not decrease and stay within the data;
 * every row's bytes are validated here as strict UTF-8 (what CPython's decoder accepts: no
 * overlong forms, no surrogates, nothing above U+10FFFF) before a tokenizer sees them, and
 * decoded into the representation CPython would give the str (the smallest of 1, 2 or 4 bytes
 * a code unit), so that tokens are interned exactly as the same text's str's are.
 *
 * Both passes over the rows (validate and size; decode and classify) run on the text stage's
 * threads, each thread a contiguous range of rows of about equal bytes: on the calling thread
 * they were the serial part of an Arrow call (~12% of a one-thread call on bench_arrow.py's
 * short pairs, by perf).
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

/* Validate s[0:n) as strict UTF-8: -1 when valid (*chars: code points, *max_code: the largest),
 * else the offset of the first byte of the first invalid sequence. */
static int64_t utf8_scan(const unsigned char *s, int64_t n, int64_t *chars, uint32_t *max_code) {
    int64_t k = 0, count = 0;
    uint32_t top = 0;
    while (k < n) {
        /* ASCII eight bytes at a time: most texts are mostly ASCII */
        while (k + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + k, 8);
            if (w & 0x8080808080808080ULL) break;
            k += 8;
            count += 8;
        }
        if (k >= n) break;
        unsigned char b = s[k];
        if (b < 0x80) {
            k++;
            count++;
            continue;
        }
        uint32_t c;
        int len;
        unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
        if (b >= 0xC2 && b <= 0xDF) {
            len = 2;
            c = b & 0x1F;
        } else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            c = b & 0x0F;
            if (b == 0xE0) lo = 0xA0;      /* overlong */
            else if (b == 0xED) hi = 0x9F; /* surrogates */
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            c = b & 0x07;
            if (b == 0xF0) lo = 0x90;      /* overlong */
            else if (b == 0xF4) hi = 0x8F; /* above U+10FFFF */
        } else {
            return k;
        }
        if (n - k < len) return k;
        for (int j = 1; j < len; j++) {
            unsigned char t = s[k + j];
            if (j == 1 ? (t < lo || t > hi) : (t < 0x80 || t > 0xBF)) return k;
            c = (c << 6) | (t & 0x3F);
        }
        if (c > top) top = c;
        k += len;
        count++;
    }
    *chars = count;
    *max_code = top;
    return -1;
}

/* The code-unit size CPython gives a str whose largest code point is max_code. */
static inline int utf8_kind(uint32_t max_code) {
    return max_code < 256 ? 1 : max_code < 65536 ? 2 : 4;
}

/* Decode valid UTF-8 s[0:n) (utf8_scan said so) into code units of `kind` bytes at out. */
static void utf8_decode(const unsigned char *s, int64_t n, int kind, void *out) {
    int64_t k = 0, i = 0;
    while (k < n) {
        unsigned char b = s[k];
        uint32_t c;
        if (b < 0x80) {
            c = b;
            k++;
        } else if (b < 0xE0) {
            c = ((uint32_t)(b & 0x1F) << 6) | (s[k + 1] & 0x3F);
            k += 2;
        } else if (b < 0xF0) {
            c = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(s[k + 1] & 0x3F) << 6) |
                (s[k + 2] & 0x3F);
            k += 3;
        } else {
            c = ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(s[k + 1] & 0x3F) << 12) |
                ((uint32_t)(s[k + 2] & 0x3F) << 6) | (s[k + 3] & 0x3F);
            k += 4;
        }
        if (kind == 1) ((uint8_t *)out)[i] = (uint8_t)c;
        else if (kind == 2) ((uint16_t *)out)[i] = (uint16_t)c;
        else ((uint32_t *)out)[i] = c;
        i++;
    }
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

/* The caller's rule for a decoded non-ASCII row: its scan mode, or -1 for CPython's path. */
typedef int (*ArrowClassify)(const void *ctx, int kind, const void *units, int64_t n);

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

/* Pass 1 over a range: validate each row, count its code points, choose its kind. */
static void arrow_scan_range(void *arg) {
    ArrowRange *r = (ArrowRange *)arg;
    r->bad_row = r->bad_byte = -1;
    for (int64_t k = r->start; k < r->stop; k++) {
        ArrowRow *row = &r->rows[k];
        uint32_t top = 0;
        int64_t bad = utf8_scan(row->bytes, row->nbytes, &row->chars, &top);
        if (bad >= 0) {
            r->bad_row = k;
            r->bad_byte = bad;
            return;
        }
        row->kind = top < 128 ? 0 : (int8_t)utf8_kind(top);
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
        char *units = r->arena + row->at;
        utf8_decode(row->bytes, row->nbytes, row->kind, units);
        row->scan = (int8_t)r->classify(r->ctx, row->kind, units, row->chars);
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
