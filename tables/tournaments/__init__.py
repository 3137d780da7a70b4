"""Club events (比赛): Swiss tournaments for four-player tables.

``seating`` (who sits where each round) and ``standings`` (placement points and tie-breaks) are
pure Python: no Django, no database, no clock; randomness only from the ``random.Random`` they are
given. The Django side of events lives in other modules of this package. This file imports
nothing, so that importing the pure modules never loads Django.
"""
