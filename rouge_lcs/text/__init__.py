"""Text to tokens and sentences: tokenizers (one record each), ROUGE-Lsum sentence splitters,
Punkt, stemmers, languages, and the names of the ROUGE types.  Imports only ``base``.

To add a tokenizer, add its record to :data:`rouge_lcs.text.tokenizers.TOKENIZERS`."""
