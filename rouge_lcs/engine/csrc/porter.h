/*
 * porter.h: NLTK's PorterStemmer() (NLTK_EXTENSIONS mode, the one rouge_score uses) on bytes.
 *
 * porter_stem(s, n, out) stems one word given as bytes: ASCII letters, and any byte >= 128
 * standing for a non-ASCII character (text.h's porter_stem_unicode maps each distinct one to
 * its own byte and back; NLTK's rules treat every such character alike, as a consonant that
 * matches no suffix).  Pure C with no Python.h: the Encoder calls it for every new ASCII word,
 * and tests/engine/native/ compiles this file alone (test_native_sources.py) and checks it
 * equal to NLTK on 800,000+ words (test_native_porter.py).
 */
#ifndef ROUGE_LCS_PORTER_H
#define ROUGE_LCS_PORTER_H

#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Porter stemmer: NLTK's PorterStemmer() in its default NLTK_EXTENSIONS mode, on ASCII words  */
/*
 * A line-by-line port of nltk/stem/porter.py (the mode rouge_score uses), including NLTK's
 * irregular-forms pool and its changes to steps 1a, 1b, 1c and 2.  NLTK's rules are "the first
 * rule whose suffix matches decides, whether or not its condition holds"; apply_rules keeps
 * that.  Words are lowercase ASCII in a buffer with room for one more character (step 1b can
 * add an "e" after removing "ed"/"ing", so no step grows a word past its input length + 1).
 */

typedef struct {
    char *s;
    int n;
} Word;

/* Consonant flags follow NLTK's _consonant_flags: a letter other than a, e, i, o, u is a
 * consonant, except that y is a consonant iff it starts the word or follows a vowel. */
static int measure(const char *s, int n) {
    int m = 0, prev = -1;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        int cons;
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') cons = 0;
        else if (c == 'y') cons = i == 0 ? 1 : !prev;
        else cons = 1;
        if (prev == 0 && cons == 1) m++; /* a "vc" */
        prev = cons;
    }
    return m;
}

static int contains_vowel(const char *s, int n) {
    int prev = -1;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        int cons;
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') cons = 0;
        else if (c == 'y') cons = i == 0 ? 1 : !prev;
        else cons = 1;
        if (!cons) return 1;
        prev = cons;
    }
    return 0;
}

/* flag of the last position, in O(n) without recursion depth trouble */
static int cons_last(const char *s, int n) {
    int prev = -1;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') prev = 0;
        else if (c == 'y') prev = i == 0 ? 1 : !prev;
        else prev = 1;
    }
    return prev == 1;
}

static int ends_double_consonant(const char *s, int n) {
    return n >= 2 && s[n - 1] == s[n - 2] && cons_last(s, n);
}

static int ends_cvc(const char *s, int n) {
    if (n >= 3) {
        int c3 = cons_last(s, n - 2), c2 = cons_last(s, n - 1), c1 = cons_last(s, n);
        char last = s[n - 1];
        if (c3 && !c2 && c1 && last != 'w' && last != 'x' && last != 'y') return 1;
    }
    return n == 2 && !cons_last(s, 1) && cons_last(s, 2);
}

static int ends_with(const Word *w, const char *suffix) {
    int k = (int)strlen(suffix);
    return w->n >= k && memcmp(w->s + w->n - k, suffix, (size_t)k) == 0;
}

/* replace the last `drop` characters by `repl` */
static void replace_tail(Word *w, int drop, const char *repl) {
    int k = (int)strlen(repl);
    memcpy(w->s + w->n - drop, repl, (size_t)k);
    w->n += k - drop;
}

enum { COND_NONE, COND_M_GT_0, COND_M_GT_1, COND_ION, COND_LOGI };

typedef struct {
    const char *suffix, *repl;
    int cond;
} Rule;

static int rule_holds(const Word *w, int stem_len, int cond) {
    switch (cond) {
    case COND_NONE: return 1;
    case COND_M_GT_0: return measure(w->s, stem_len) > 0;
    case COND_M_GT_1: return measure(w->s, stem_len) > 1;
    case COND_ION:
        return measure(w->s, stem_len) > 1 &&
               (w->s[stem_len - 1] == 's' || w->s[stem_len - 1] == 't');
    case COND_LOGI: return measure(w->s, w->n - 3) > 0; /* NLTK tests word[:-3] here */
    }
    return 0;
}

/* the first rule whose suffix matches decides (NLTK's _apply_rule_list) */
static void apply_rules(Word *w, const Rule *rules, int count) {
    for (int k = 0; k < count; k++) {
        if (ends_with(w, rules[k].suffix)) {
            int stem_len = w->n - (int)strlen(rules[k].suffix);
            if (rule_holds(w, stem_len, rules[k].cond)) {
                w->n = stem_len;
                replace_tail(w, 0, rules[k].repl);
            }
            return;
        }
    }
}

static void step1a(Word *w) {
    if (ends_with(w, "ies") && w->n == 4) {
        replace_tail(w, 3, "ie");
        return;
    }
    static const Rule rules[] = {
        {"sses", "ss", COND_NONE}, {"ies", "i", COND_NONE}, {"ss", "ss", COND_NONE},
        {"s", "", COND_NONE}};
    apply_rules(w, rules, 4);
}

static void step1b(Word *w) {
    if (ends_with(w, "ied")) {
        replace_tail(w, 3, w->n == 4 ? "ie" : "i");
        return;
    }
    if (ends_with(w, "eed")) {
        if (measure(w->s, w->n - 3) > 0) replace_tail(w, 3, "ee");
        return;
    }
    int stem_len = -1;
    if (ends_with(w, "ed") && contains_vowel(w->s, w->n - 2)) stem_len = w->n - 2;
    else if (ends_with(w, "ing") && contains_vowel(w->s, w->n - 3)) stem_len = w->n - 3;
    if (stem_len < 0) return;
    w->n = stem_len; /* the intermediate stem */
    if (ends_with(w, "at")) {
        replace_tail(w, 2, "ate");
    } else if (ends_with(w, "bl")) {
        replace_tail(w, 2, "ble");
    } else if (ends_with(w, "iz")) {
        replace_tail(w, 2, "ize");
    } else if (ends_double_consonant(w->s, w->n)) {
        /* "*d": one letter of the pair goes, unless it is l, s or z (then nothing changes) */
        char last = w->s[w->n - 1];
        if (last != 'l' && last != 's' && last != 'z') w->n -= 1;
    } else if (measure(w->s, w->n) == 1 && ends_cvc(w->s, w->n)) {
        replace_tail(w, 0, "e");
    }
}

static void step1c(Word *w) {
    if (ends_with(w, "y")) {
        int stem_len = w->n - 1;
        if (stem_len > 1 && cons_last(w->s, stem_len)) replace_tail(w, 1, "i");
    }
}

static void step2(Word *w) {
    if (ends_with(w, "alli") && measure(w->s, w->n - 4) > 0) {
        replace_tail(w, 4, "al");
        step2(w);
        return;
    }
    static const Rule rules[] = {
        {"ational", "ate", COND_M_GT_0}, {"tional", "tion", COND_M_GT_0},
        {"enci", "ence", COND_M_GT_0},   {"anci", "ance", COND_M_GT_0},
        {"izer", "ize", COND_M_GT_0},    {"bli", "ble", COND_M_GT_0},
        {"alli", "al", COND_M_GT_0},     {"entli", "ent", COND_M_GT_0},
        {"eli", "e", COND_M_GT_0},       {"ousli", "ous", COND_M_GT_0},
        {"ization", "ize", COND_M_GT_0}, {"ation", "ate", COND_M_GT_0},
        {"ator", "ate", COND_M_GT_0},    {"alism", "al", COND_M_GT_0},
        {"iveness", "ive", COND_M_GT_0}, {"fulness", "ful", COND_M_GT_0},
        {"ousness", "ous", COND_M_GT_0}, {"aliti", "al", COND_M_GT_0},
        {"iviti", "ive", COND_M_GT_0},   {"biliti", "ble", COND_M_GT_0},
        {"fulli", "ful", COND_M_GT_0},   {"logi", "log", COND_LOGI}};
    apply_rules(w, rules, (int)(sizeof(rules) / sizeof(rules[0])));
}

static void step3(Word *w) {
    static const Rule rules[] = {
        {"icate", "ic", COND_M_GT_0}, {"ative", "", COND_M_GT_0}, {"alize", "al", COND_M_GT_0},
        {"iciti", "ic", COND_M_GT_0}, {"ical", "ic", COND_M_GT_0}, {"ful", "", COND_M_GT_0},
        {"ness", "", COND_M_GT_0}};
    apply_rules(w, rules, (int)(sizeof(rules) / sizeof(rules[0])));
}

static void step4(Word *w) {
    static const Rule rules[] = {
        {"al", "", COND_M_GT_1},   {"ance", "", COND_M_GT_1}, {"ence", "", COND_M_GT_1},
        {"er", "", COND_M_GT_1},   {"ic", "", COND_M_GT_1},   {"able", "", COND_M_GT_1},
        {"ible", "", COND_M_GT_1}, {"ant", "", COND_M_GT_1},  {"ement", "", COND_M_GT_1},
        {"ment", "", COND_M_GT_1}, {"ent", "", COND_M_GT_1},  {"ion", "", COND_ION},
        {"ou", "", COND_M_GT_1},   {"ism", "", COND_M_GT_1},  {"ate", "", COND_M_GT_1},
        {"iti", "", COND_M_GT_1},  {"ous", "", COND_M_GT_1},  {"ive", "", COND_M_GT_1},
        {"ize", "", COND_M_GT_1}};
    apply_rules(w, rules, (int)(sizeof(rules) / sizeof(rules[0])));
}

static void step5a(Word *w) {
    if (ends_with(w, "e")) {
        int m = measure(w->s, w->n - 1);
        if (m > 1 || (m == 1 && !ends_cvc(w->s, w->n - 1))) w->n -= 1;
    }
}

static void step5b(Word *w) {
    if (ends_with(w, "ll") && measure(w->s, w->n - 1) > 1) w->n -= 1;
}

static const char *const POOL[][2] = {
    {"sky", "sky"},         {"skies", "sky"},       {"dying", "die"},
    {"lying", "lie"},       {"tying", "tie"},       {"news", "news"},
    {"innings", "inning"},  {"inning", "inning"},   {"outings", "outing"},
    {"outing", "outing"},   {"cannings", "canning"}, {"canning", "canning"},
    {"howe", "howe"},       {"proceed", "proceed"}, {"exceed", "exceed"},
    {"succeed", "succeed"}};

/* Stem the ASCII word s[0..n) into out (room for n + 2 bytes); returns the stem's length.
 * Exactly NLTK's PorterStemmer().stem(word) (which lowercases first). */
static int porter_stem(const char *s, int n, char *out) {
    for (int i = 0; i < n; i++) out[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] + 32) : s[i];
    for (size_t k = 0; k < sizeof(POOL) / sizeof(POOL[0]); k++) {
        if ((int)strlen(POOL[k][0]) == n && memcmp(out, POOL[k][0], (size_t)n) == 0) {
            int len = (int)strlen(POOL[k][1]);
            memcpy(out, POOL[k][1], (size_t)len);
            return len;
        }
    }
    if (n <= 2) return n;
    Word w = {out, n};
    step1a(&w);
    step1b(&w);
    step1c(&w);
    step2(&w);
    step3(&w);
    step4(&w);
    step5a(&w);
    step5b(&w);
    return w.n;
}

#endif /* ROUGE_LCS_PORTER_H */
