"""What an operator sees of a running bot: Prometheus metrics and structured logs.

Every layer records into these modules, so they import nothing of the project (an
import-linter contract in pyproject.toml keeps it so): a metric or a log field is a plain
value handed in by the code that knows it. The HTTP server that exposes the metrics, and
the health and readiness answers, sit at the composition root (`bot/http_server.py`,
`bot/probes.py`).
"""
