"""Every option declared once (:data:`rouge_lcs.config.options.OPTIONS`) and the checked,
resolved scoring settings (:class:`rouge_lcs.config.settings.Settings`)."""
