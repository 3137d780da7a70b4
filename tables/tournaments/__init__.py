"""Club events: Swiss tournaments for four-player tables (issue 25)."""
