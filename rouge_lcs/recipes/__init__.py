"""Reproducing a reported score: the known ROUGE configurations ("recipes") and the auditor
that ranks them against a paper's numbers (docs/audit.md)."""
