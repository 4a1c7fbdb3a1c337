"""The deploy files, checked by what runs here: hadolint on the Dockerfile, systemd-analyze on
the unit (verify, and the security rating), the compose file rendered (by `docker compose
config` where Docker has it, and always by reading it as compose resolves it), the build
context's ignore list, and the pinned dependency set. In CI a missing tool fails the test."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def tool(name: str) -> str:
    """A tool beside this Python (a dev dependency) or on PATH; in CI its absence fails."""
    found = shutil.which(
        name, path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    if found is None:
        message = f"{name} is not installed here"
        if IN_CI:
            pytest.fail(message + " (CI must run every deploy check)")
        pytest.skip(message)
    return found


# ----- Dockerfile -----------------------------------------------------------------------
def test_hadolint_finds_nothing_in_the_dockerfile():
    done = subprocess.run(
        [tool("hadolint"), "--no-color", str(DEPLOY / "Dockerfile")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_the_image_holds_every_package_of_the_project():
    """Each top-level package the project installs is copied into the image (the catalogues'
    `languages` once was not, and the image could not start)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = [p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    text = (DEPLOY / "Dockerfile").read_text()
    assert packages and all(f"COPY {p} ./{p}" in text for p in packages), packages


def test_the_image_runs_as_a_numeric_non_root_user_with_a_healthcheck_and_pinned_deps():
    text = (DEPLOY / "Dockerfile").read_text()
    lines = [
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]
    users = [line for line in lines if line.startswith("USER ")]
    assert users == ["USER 10001:10001"]
    after_user = lines[lines.index(users[0]) :]
    # a relative ESCAPE_DB (.env.example's data/escape.sqlite3) lands in the volume
    assert "WORKDIR /data" in after_user and 'VOLUME ["/data"]' in after_user
    assert "ESCAPE_DB=/data/escape.sqlite3" in text
    assert re.search(r'HEALTHCHECK .*\n?.*CMD \["escape-bot", "health"\]', text)
    assert "pip install --no-deps -r requirements.lock" in text
    assert "pip install --no-deps ." in text
    assert "libfribidi0" in text  # Raqm's bidi: names in Arabic or Hebrew drawn right to left


def _ignored(patterns: list[str], path: str) -> bool:
    """Docker's rule, enough for our file: the last pattern that matches the path or one of
    its parent folders decides; `!` re-includes; `**` spans folders."""
    parts = path.split("/")
    verdict = False
    for raw in patterns:
        negate = raw.startswith("!")
        pattern = raw.removeprefix("!").rstrip("/")
        for depth in range(1, len(parts) + 1):
            prefix = "/".join(parts[:depth])
            if pattern.startswith("**/"):
                hit = fnmatch.fnmatchcase(parts[depth - 1], pattern[3:])
            else:
                hit = pattern.count("/") == prefix.count("/") and fnmatch.fnmatchcase(
                    prefix, pattern
                )
            if hit:
                verdict = not negate
                break
    return verdict


def test_the_build_context_carries_no_tokens_data_or_virtualenv():
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for secret in (
        ".env",
        ".venv/bin/python",
        "data/escape.sqlite3",
        "escape.sqlite3-wal",
        "pictures/game-1/board.png",
        ".git/config",
        "tests/bot/console/test_console.py",
        "bot/__pycache__/cli.cpython-311.pyc",
    ):
        assert _ignored(patterns, secret), secret
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    copied = re.findall(r"^COPY (?!--from=)(\S+(?: \S+)*?) \S+$", dockerfile, re.M)
    for sources in copied:
        for source in sources.split():
            assert (ROOT / source).exists(), source
            assert not _ignored(patterns, source), f"{source} is copied but ignored"
    assert not _ignored(patterns, "bot/console/terminal.py")
    assert not _ignored(patterns, "bot/web/static/board.js")  # the page, served by the bot
    assert _ignored(patterns, "bot/web/activity/node_modules/esbuild/package.json")


# ----- the pinned dependency set ----------------------------------------------------------
def _lock() -> dict[str, str]:
    pins = {}
    for line in (DEPLOY / "requirements.lock").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep and version, f"not pinned exactly: {line}"
            pins[_norm(name)] = version
    return pins


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _runtime_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in project["dependencies"]]


def test_the_lock_pins_every_runtime_dependency_and_what_they_need():
    pins = _lock()
    wanted = list(_runtime_requirements())
    seen: set[str] = set()
    while wanted:
        req = wanted.pop()
        name = _norm(req.name)
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        assert name in pins, f"{req.name} is not in deploy/requirements.lock"
        assert req.specifier.contains(pins[name], prereleases=True), (req, pins[name])
        key = name + "[" + ",".join(sorted(req.extras)) + "]"
        if key in seen:
            continue
        seen.add(key)
        for sub in metadata.requires(req.name) or []:
            dep = Requirement(sub)
            extras = [{"extra": e} for e in req.extras] or [{"extra": ""}]
            if dep.marker is None or any(dep.marker.evaluate(e) for e in extras):
                wanted.append(Requirement(str(dep).split(";")[0]))
    assert len(seen) >= 8 and "apscheduler" not in pins  # PTB's job-queue extra is not used


# ----- compose ----------------------------------------------------------------------------
def test_compose_renders_with_the_readme_volume_and_settings(tmp_path):
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    service = compose["services"]["escape"]
    assert (DEPLOY / service["build"]["context"]).resolve() == ROOT
    assert (ROOT / service["build"]["dockerfile"]).is_file()
    assert (DEPLOY / service["env_file"]).resolve() == ROOT / ".env"  # as the README says
    assert service["volumes"] == ["escape-data:/data"]
    assert service["environment"]["ESCAPE_DB"].startswith("/data/")
    volume = compose["volumes"]["escape-data"]
    assert volume["name"] == "escape-data"  # compose would otherwise prefix the project name
    assert "`escape-data` volume" in (ROOT / "docs" / "deployment.md").read_text()
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        project = tmp_path / "project"
        shutil.copytree(DEPLOY, project / "deploy")
        shutil.copy(ROOT / ".env.example", project / ".env")
        done = subprocess.run(
            [
                docker,
                "compose",
                "-f",
                str(project / "deploy/compose.yaml"),
                "config",
                "--format",
                "json",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        rendered = json.loads(done.stdout)
        assert rendered["volumes"]["escape-data"]["name"] == "escape-data"
        assert rendered["services"]["escape"]["environment"]["ESCAPE_DB"] == "/data/escape.sqlite3"


# ----- systemd ----------------------------------------------------------------------------
def _unit_here(tmp_path: Path) -> Path:
    """The unit with ExecStart pointed at this install's escape-bot (not /opt/escape here)."""
    program = Path(tool("escape-bot"))
    text = (DEPLOY / "escape-bot.service").read_text()
    assert "ExecStart=/opt/escape/.venv/bin/escape-bot run" in text
    unit = tmp_path / "escape-bot.service"
    unit.write_text(text.replace("/opt/escape/.venv/bin/escape-bot", str(program)))
    return unit


def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    done = subprocess.run(
        [tool("systemd-analyze"), "verify", str(_unit_here(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not (done.stdout + done.stderr).strip(), done.stderr


def test_the_unit_is_hardened_and_keeps_the_database_private(tmp_path):
    text = (DEPLOY / "escape-bot.service").read_text()
    for line in ("UMask=0077", "StateDirectoryMode=0700", "User=escape", "NoNewPrivileges=true"):
        assert f"\n{line}\n" in text, line
    install = [line for line in text.splitlines() if line.startswith("#")]
    assert not any("make" in line.split() for line in install)  # a plain install, no dev tools
    assert any(
        "pip install -r /opt/escape/src/deploy/requirements.lock" in line for line in install
    )
    done = subprocess.run(
        [
            tool("systemd-analyze"),
            "security",
            "--offline=true",
            "--no-pager",
            str(_unit_here(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    rating = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout + done.stderr)
    assert rating is not None, done.stdout + done.stderr
    assert float(rating.group(1)) <= 2.0  # was 8.5 "EXPOSED"


# ----- operations: Prometheus, Grafana, the dashboard ----------------------------------------
def _exposed_names() -> set[str]:
    """Every series name the bot can expose: each family's name with its type's suffixes
    (a labelled metric shows no sample before its first use)."""
    from bot.telemetry import metrics

    suffixes = {
        "counter": ["_total"],
        "histogram": ["_bucket", "_count", "_sum"],
        "info": ["_info"],
        "summary": ["_count", "_sum"],
    }
    names = set()
    for family in metrics.REGISTRY.collect():
        names.add(family.name)
        names.update(family.name + s for s in suffixes.get(family.type, []))
        names.update(sample.name for sample in family.samples)
    return names


_PROMQL_WORDS = {
    "sum",
    "max",
    "min",
    "avg",
    "by",
    "without",
    "rate",
    "irate",
    "increase",
    "histogram_quantile",
    "time",
    "le",
    "on",
    "ignoring",
    "and",
    "or",
    "unless",
}


def _metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads: identifiers that are neither a function,
    a keyword, a label (inside braces or a by/without list) nor a range."""
    bare = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\"[^\"]*\"", " ", expr)
    bare = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", " ", bare)
    bare = re.sub(r"\b\d+(\.\d+)?(e\d+)?\b", " ", bare)  # numbers, 1e9 too
    words = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", bare))
    return {w for w in words if w not in _PROMQL_WORDS}


def test_the_dashboard_loads_and_every_query_names_a_metric_the_bot_exposes():
    dashboard = json.loads((DEPLOY / "grafana" / "escape.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    titles = " ".join(panel["title"] for panel in dashboard["panels"]).lower()
    for wanted in ("moves per second", "p50 / p99", "refused", "owed", "timer", "errors"):
        assert wanted in titles, wanted
    exposed = _exposed_names()
    read = set().union(*(_metric_names(e) for e in exprs))
    assert "escape_moves_accepted_total" in read and "escape_move_seconds_bucket" in read
    assert read <= exposed, sorted(read - exposed)
    assert _metric_names('sum by (le) (rate(escape_nonsense_bucket{x="y"}[5m]))') == {
        "escape_nonsense_bucket"
    }
    source = yaml.safe_load(
        (DEPLOY / "grafana/provisioning/datasources/prometheus.yaml").read_text()
    )
    uids = {d["uid"] for d in source["datasources"]}
    assert {t["datasource"]["uid"] for p in dashboard["panels"] for t in p["targets"]} <= uids


def test_compose_scale_scrapes_every_bot_and_provisions_the_dashboard():
    compose = yaml.safe_load((DEPLOY / "compose.scale.yaml").read_text())
    services = compose["services"]
    bots = {
        n
        for n, s in services.items()
        if s.get("build", {}).get("dockerfile") == "deploy/Dockerfile"
    }
    assert len(bots) == 4
    for name in bots:
        env = services[name]["environment"]
        assert env["ESCAPE_METRICS"] == "0.0.0.0:9100" and env["ESCAPE_LOG_FORMAT"] == "json"
        test = " ".join(services[name]["healthcheck"]["test"])
        assert "urllib" in test and "/healthz" in test and "curl" not in test
    prometheus = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    [job] = prometheus["scrape_configs"]
    assert job["metrics_path"] == "/metrics"
    targets = {t for c in job["static_configs"] for t in c["targets"]}
    assert targets == {f"{name}:9100" for name in bots}
    assert all("process" in c["labels"] for c in job["static_configs"])
    for name in ("prometheus", "grafana"):
        for volume in services[name]["volumes"]:
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (DEPLOY / source).exists(), f"{name} mounts {source}, which is missing"
    mounts = dict(v.split(":")[:2] for v in services["grafana"]["volumes"])
    provider = yaml.safe_load((DEPLOY / "grafana/provisioning/dashboards/escape.yaml").read_text())
    folder = provider["providers"][0]["options"]["path"]
    assert mounts["./grafana/escape.json"] == f"{folder}/escape.json"
    assert mounts["./grafana/provisioning"] == "/etc/grafana/provisioning"
    for volume in ("escape-prometheus", "escape-grafana"):
        assert volume in compose["volumes"]
