"""What a community plays together over weeks: tournaments (`tournaments/`), and the
entries for seasons and a tournament's web page (`entries.py`).

It may import `base`, `pictures`, `tables` and `records`.
"""
