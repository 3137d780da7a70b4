"""Tables: rooms opened in a club, their seats, matches and rounds, the live game over a
websocket (:mod:`tables.game`, :mod:`tables.consumers`), the bots, the hand calculator and club
events (:mod:`tables.tournaments`)."""
