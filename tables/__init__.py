"""Tables: rooms opened in a club, and (later) seats, matches and the live game."""
