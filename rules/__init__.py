"""Queyou's mahjong rules engine: a pure-Python library with no Django import.

Tiles and notation (:mod:`rules.tiles`), the wall and deal (:mod:`rules.wall`), hand analysis
(:mod:`rules.shapes`), what every variant's hand rules share (:mod:`rules.hand_rules`), the round
as a state machine (:mod:`rules.engine`), one package per variant (:mod:`rules.variants`) listed
by the registry (:mod:`rules.registry`), and the judge (:mod:`rules.judge`). The words players
read are marked, never translated, here (:mod:`rules.i18n`).
"""
