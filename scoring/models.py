"""Scoring models: none yet; the game issue adds the ledger."""
