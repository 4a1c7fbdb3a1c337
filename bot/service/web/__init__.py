"""What the web board (`bot/web`) asks of the service: a link claimed, a page and its
pushes, pictures, frames, a press, a lesson, a review.

It may import every other room of the service but the top modules (`game_service`,
`commands`, `presses`, `timer_loop`).
"""
