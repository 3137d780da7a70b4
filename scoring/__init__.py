"""Scoring: ledgers of results, history and leaderboards (models arrive with the game issue)."""
