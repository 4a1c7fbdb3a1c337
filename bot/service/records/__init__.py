"""A table's records and the standings they make: past games, replays and logs, ratings,
leaderboards, rating seasons and the daily castle's boards.

It may import `base`, `pictures` and `tables`.
"""
