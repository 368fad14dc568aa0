"""The ground every layer stands on: argument checks (one error format), deferred imports,
index-array helpers and the version.  Imports nothing else of the package."""
