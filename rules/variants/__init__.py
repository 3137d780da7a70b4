"""One package per variant: ``rules/variants/<key>/`` holds everything of it.

=============== ===================================================================
``__init__.py``  ``VARIANT``, the one :class:`~rules.variant.Variant` object
``flow.py``      the round flow: the hooks the engine core asks (a ``Flow``)
``wins.py``      winning conditions, fan and payments (a ``HandRules``)
``options.py``   the room options, with their defaults and bounds
``labels.py``    the words players read: name, fan items, reasons
=============== ===================================================================

``shape.py`` is the judge's ``shape`` pseudo-variant (four sets and a pair, nothing scored): the
judge answers for it, no room plays it.

The registry that lists them is :mod:`rules.registry` (kept outside this package so that
importing a variant never runs the registry).
"""
