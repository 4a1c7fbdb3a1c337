"""What the processes of one bot agree on through the store they share (issue 58).

Owns delivery's records (which message is a table's live board, what a game leaves to
tidy), the platforms' rate limits counted per token and per chat for every process, the
queue of a platform's updates (stored before they are acknowledged, handed out in chat
order under a lease) and the turns of the gateway logins. On PostgreSQL every process of a
bot shares them; on SQLite (one process) the limits and turns are kept in the process.
It may import `base` and the store.
"""
