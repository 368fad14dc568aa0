"""The package version: the one place the code writes it (pyproject.toml reads it from here;
requirements.txt pins the released package for the Space, and a test checks the two agree)."""

__version__ = "0.2.0"
