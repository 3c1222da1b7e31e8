"""The differential test against the real array-api-strict: its grid of calls and outcomes (``grid``)."""
