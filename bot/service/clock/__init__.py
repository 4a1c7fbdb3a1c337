"""The turn clock of games played over days: a deadline served, a vote to replace a late
player, a loss on time and the `clock` command. The clock's pure rules (the JSON record,
deadlines, time zones) are `base.deadlines` and `base.time_zones`, which the table core
applies at every commit.

It may import `base`, `pictures` and `tables`.
"""
