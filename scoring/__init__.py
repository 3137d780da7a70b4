"""Scoring: the settlement ledger of every ended round, its replay and review pages, history,
ratings and leaderboards, and the shareable result image."""
