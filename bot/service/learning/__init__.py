"""Learning a game: the catalogue and each game's rules, lessons, hints and a finished
game's review.

It may import `base`, `pictures` and `tables`.
"""
