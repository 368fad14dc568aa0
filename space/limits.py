"""The bounds of one request.

A public Space must answer everyone: each limit bounds the work of one request, and each
violation is one clear message on the page.  The library itself has none of these limits.
Other modules read them as ``limits.NAME`` at call time (so a test may lower one).
"""

from __future__ import annotations

import os

MAX_TEXT_CHARS = 10_000
MAX_REFERENCES = 8
MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # also the server's max_file_size: refused before landing
#: Seconds an upload that no live page sent may wait for the request that reads it (an API
#: caller uploads, then calls at once); past them it is deleted.  ROUGE_SPACE_UNCLAIMED_S
#: sets it (the tests shorten it to see an abandoned upload go).
UNCLAIMED_UPLOAD_S = float(os.environ.get("ROUGE_SPACE_UNCLAIMED_S", "120"))
#: File types an upload may have (the readers' formats).
UPLOAD_SUFFIXES = (".csv", ".jsonl", ".json")
MAX_PAIRS = 5_000
#: Rouge types per request: each type is a pass over the data and a block of explanation HTML.
MAX_TYPES = 8
#: Largest N of ROUGE-N here (the library takes up to 1000): N passes over every text.
MAX_N = 20
#: ROUGE-Lsum sentences per text: its cost grows with (prediction sentences × reference
#: sentences); 5,000 one-token lines against 8 such references took minutes.
MAX_SENTENCES = 200
#: Explanation HTML of one pair, in characters; past it the remaining references are summarized.
MAX_EXPLANATION_CHARS = 1_500_000
#: Time budgets in seconds: scoring of a batch or a comparison stops between chunks past it; the
#: explanation stops adding references past its own.
TIME_BUDGET_S = 20.0
EXPLAIN_BUDGET_S = 5.0
#: Examples scored between two looks at the clock.
CHUNK = 250
#: Rows of one page of the per-example table (each row carries its pair's explanation), and
#: characters of each text shown in the row (the explanation and the CSV have everything).
PAGE_ROWS = 10
SHOWN_CHARS = 300
#: Examples listed under "where the systems differ most".
LARGEST_DIFFERENCES = 10
#: Characters of a system's name.
MAX_NAME_CHARS = 40
#: The Reproduce tab: characters of the reported numbers and of the sentence-end marker, and
#: the candidates listed before "every other recipe".
MAX_REPORTED_CHARS = 200
MAX_SEPARATOR_CHARS = 20
AUDIT_ROWS_SHOWN = 10
CONFIDENCE = 0.95
RESAMPLES = 1000
SEED = 0
HISTOGRAM_BINS = 10
#: Below this many examples the Compare tab says its test has little power.  Why 10: with n
#: examples, approximate randomization has 2**n sign patterns, so no p-value can be below
#: 2**(1 - n) (0.0625 at n = 5: never "significant"); and the paired bootstrap draws from at
#: most C(2n - 1, n) distinct resamples (126 at n = 5, 92,378 at n = 10), with whole-sample
#: resamples too few to stand for the spread — its p-value then understates the uncertainty
#: (one example gives 1/1001, the smallest value possible).
MIN_PAIRS_FOR_TEST = 10
