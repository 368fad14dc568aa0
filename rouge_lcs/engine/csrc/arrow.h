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
 */
#ifndef ROUGE_LCS_ARROW_H
#define ROUGE_LCS_ARROW_H

#include <stdint.h>
#include <string.h>

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

#endif /* ROUGE_LCS_ARROW_H */
