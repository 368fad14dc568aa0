"""From counts to what users read: P/R/F and several references, per-example ``Scores``,
bootstrap and significance, the reproducibility signature, the evaluate-style output, token
explanations, and the configured scorer ``Rouge``."""
