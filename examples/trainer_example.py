"""ROUGE in a Seq2SeqTrainer with one line — runnable offline (tiny model built from a config).

With a real model, replace the tokenizer/model lines by e.g.
``AutoTokenizer.from_pretrained("google-t5/t5-small")`` and
``AutoModelForSeq2SeqLM.from_pretrained("google-t5/t5-small")``.
"""

import tempfile

from datasets import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (
    DataCollatorForSeq2Seq,
    PreTrainedTokenizerFast,
    Seq2SeqTrainer,
    Seq2SeqTrainingArguments,
    T5Config,
    T5ForConditionalGeneration,
)

from rouge_lcs.trainer import make_compute_metrics

words = ["the", "a", "cat", "dog", "sat", "ran", "on", "to", "mat", "park", "big", "red"]
backend = Tokenizer(
    models.WordLevel(
        {"<pad>": 0, "</s>": 1, "<unk>": 2, **{w: i + 3 for i, w in enumerate(words)}}, "<unk>"
    )
)
backend.pre_tokenizer = pre_tokenizers.Whitespace()
backend.post_processor = processors.TemplateProcessing(
    single="$A </s>", special_tokens=[("</s>", 1)]
)
tokenizer = PreTrainedTokenizerFast(
    tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
)
model = T5ForConditionalGeneration(
    T5Config(
        vocab_size=len(tokenizer),
        d_model=32,
        d_ff=64,
        d_kv=16,
        num_layers=1,
        num_heads=2,
        decoder_start_token_id=0,
        pad_token_id=0,
        eos_token_id=1,
    )
)

sources = ["the big cat sat on the mat", "a red dog ran to the park"]
targets = ["the cat sat on the mat", "a dog ran to the park"]
data = Dataset.from_dict(
    {"input_ids": tokenizer(sources)["input_ids"], "labels": tokenizer(targets)["input_ids"]}
)

trainer = Seq2SeqTrainer(
    model=model,
    args=Seq2SeqTrainingArguments(
        output_dir=tempfile.mkdtemp(),
        # enough for this tiny model to learn its two pairs: with fewer steps (or random
        # weights) it generates only the end-of-sequence token, an empty text, and every
        # ROUGE is 0.0
        max_steps=30,
        learning_rate=1e-2,
        use_cpu=True,
        predict_with_generate=True,
        generation_max_length=12,
        report_to=[],
    ),
    train_dataset=data,
    eval_dataset=data,
    data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
    # <- the one line; the model's tokenizer goes first (hf_tokenizer), and ROUGE's own options
    # follow, e.g. make_compute_metrics(tokenizer, language="zh", tokenizer="jieba")
    compute_metrics=make_compute_metrics(tokenizer),
)
trainer.train()
metrics = trainer.evaluate()  # eval_rouge1 … eval_rougeLsum, eval_gen_len, loss, run times
# evaluated on the pairs it was trained on, it repeats them: 100.0 each (a real model is
# evaluated on held-out data)
print({name: value for name, value in metrics.items() if "rouge" in name})
