"""A tournament's page on the web board, as HTML made on the server: its standings (points,
Buchholz, Sonneborn-Berger), then every round's tables, each with its players, its state,
its points once over and a link to its table's page. No script: the page is read, and
reloaded for news. What it may show was decided by the service (`WebEntries.tournament_page`,
which asks the access rule); this module only lays the answer out, every text escaped."""

from __future__ import annotations

import html

from languages import in_context, say

WORDS = {
    "standings": in_context("tournament page", "Standings"),
    "place": in_context("tournament page", "#"),
    "player": in_context("tournament page", "Player"),
    "points": in_context("tournament page", "Points"),
    "buchholz": in_context("tournament page", "Buchholz"),
    "sonneborn": in_context("tournament page", "Sonneborn-Berger"),
    "games": in_context("tournament page", "Games"),
    "withdrawn": in_context("tournament page", "withdrawn"),
    "round": in_context("tournament page", "Round {n}", n="{n}"),
    "table": in_context("tournament page", "Table {n}", n="{n}"),
    "bye": in_context("tournament page", "A bye (worth a win): {names}", names="{names}"),
    "open": in_context("tournament page", "Open the table"),
    "no_rounds": in_context("tournament page", "No round has begun yet."),
    "you": in_context("tournament page", "you"),
}


def tournament_html(page: dict, language: str) -> str:
    def w(key: str, **fill: object) -> str:
        text = say(WORDS[key], language)
        for name, value in fill.items():
            text = text.replace("{" + name + "}", str(value))
        return html.escape(text)

    e = html.escape
    rows = []
    for line in page["standings"]:
        name = e(line["name"]) + (f" <em>({w('you')})</em>" if line["you"] else "")
        if line["withdrawn"]:
            name += f" <small>({w('withdrawn')})</small>"
        rows.append(
            f"<tr{' class=you' if line['you'] else ''}><td>{line['place']}</td><td>{name}</td>"
            f"<td class=n>{e(line['points'])}</td><td class=n>{e(line['buchholz'])}</td>"
            f"<td class=n>{e(line['sonneborn'])}</td><td class=n>{line['games']}</td></tr>"
        )
    standings = (
        f"<h2>{w('standings')}</h2><table class=standings><thead><tr><th>{w('place')}</th>"
        f"<th>{w('player')}</th><th class=n>{w('points')}</th><th class=n>{w('buchholz')}</th>"
        f"<th class=n>{w('sonneborn')}</th><th class=n>{w('games')}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    rounds = []
    for r in page["rounds"]:
        items = []
        for t in r["tables"]:
            players = ", ".join(
                e(name) + (f" <b>{e(points)}</b>" if points else "")
                for name, points in zip(
                    t["players"], t["points"] or [""] * len(t["players"]), strict=True
                )
            )
            link = f" · <a href='/table/{int(t['table'])}'>{w('open')}</a>" if t["table"] else ""
            items.append(
                f"<li{' class=you' if t['you'] else ''} data-table='{t['table'] or ''}'>"
                f"{w('table', n=t['board'])}: {players} · {e(t['status'])}{link}</li>"
            )
        if r["byes"]:
            items.append(f"<li class=bye>{w('bye', names=', '.join(r['byes']))}</li>")
        rounds.append(
            f"<section class=round><h2>{w('round', n=r['round'])}</h2><ul>{''.join(items)}</ul></section>"
        )
    if not rounds:
        rounds.append(f"<p>{w('no_rounds')}</p>")
    return (
        f"<!doctype html><html lang={e(language)}><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<title>{e(page['heading'])}</title><link rel=stylesheet href=/static/board.css>"
        f"<main class=tournament><h1>{e(page['heading'])}</h1><p class=state>{e(page['state'])}</p>"
        f"{standings}{''.join(rounds)}</main></html>"
    )
