"""Queyou's mahjong rules engine: a pure-Python library with no Django import.

Tiles and notation (:mod:`rules.tiles`), the wall and deal (:mod:`rules.wall`), hand analysis
(:mod:`rules.shapes`), the round as a state machine (:mod:`rules.engine`), the variants
(:mod:`rules.variants`) and the judge (:mod:`rules.judge`).
"""
