"""A round in play: its commands (:mod:`tables.game.commands`) and its storage
(:mod:`tables.game.store`)."""
