"""The package version: the one place the code writes it (pyproject.toml reads it from here).

The signature names it, so a release whose numbers differ by even one ulp gets a new version
and an entry in CHANGELOG.md."""

__version__ = "0.3.0"
