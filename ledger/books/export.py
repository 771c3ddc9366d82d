"""`bank export`: commands, events, postings and a per-round snapshot of every balance and holding,
as CSV files in a folder or one JSON file."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from ledger.core import engine
from ledger.core.events import apply
from ledger.core.rules import shares
from ledger.core.state import round_label


def round_snapshots(session) -> list[dict]:
    """At the start of every round (and at the end): every account's balance and every holder's
    percentage of every company, and each company's share price."""
    rs = session.rs
    state = engine.initial_state(rs, session.players, session.options)
    out = []

    def snap():
        holdings: dict[str, dict[str, int]] = {}
        for cert, holder in state.certs.items():
            corp = cert.rsplit(".", 1)[0]
            holdings.setdefault(holder, {}).setdefault(corp, 0)
            holdings[holder][corp] += state.cert_percent[cert]
        out.append({"round": round_label(state), "balances": {a: v for a, v in sorted(state.balances.items())},
                    "holdings": holdings,
                    "prices": {c: shares.price(state, rs, c) for c, corp in state.corps.items() if corp.cell}})

    for event in session.store.active_events():
        apply(state, event)
        if event["kind"] in ("round_started", "game_over"):
            snap()
    return out


def tables(session) -> dict[str, list[dict]]:
    q = session.store.query
    # who entered each command (terminal, banker or player:NAME); a file from before the table's
    # pages has no such column, and every command in it was typed at a terminal
    by = session.store.author_column() or ", 'terminal' as entered_by"
    return {
        "commands": q(f"select id, text, verb, args, status, at{by} from commands order by id"),
        "events": q("select id, command_id, seq, kind, data from events order by id"),
        "postings": q("select id, event_id, command_id, account, amount, counterparty from postings order by id"),
    }


def export_json(session, path: Path) -> None:
    header = dict(session.header)
    data = {"game": header, **tables(session), "rounds": round_snapshots(session)}
    path.write_text(json.dumps(data, indent=1))


def export_csv(session, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in tables(session).items():
        written.append(write_csv(folder / f"{name}.csv", rows))
    balances, holdings = [], []
    for snap in round_snapshots(session):
        balances += [{"round": snap["round"], "account": a, "balance": v} for a, v in snap["balances"].items()]
        holdings += [{"round": snap["round"], "holder": h, "company": c, "percent": p}
                     for h, corps in snap["holdings"].items() for c, p in corps.items()]
    written.append(write_csv(folder / "balances_by_round.csv", balances))
    written.append(write_csv(folder / "holdings_by_round.csv", holdings))
    return written


def write_csv(path: Path, rows: list[dict]) -> Path:
    with path.open("w", newline="") as f:
        if rows:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return path
