from rouge_lcs.cli import main

raise SystemExit(main())
