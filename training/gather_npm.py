"""Gather ordinary (honest) MCP tool definitions from public npm packages.

Usage (from /work/main):
    .venv/bin/python training/gather_npm.py              # probe packages in npm-packages.txt
    .venv/bin/python training/gather_npm.py --refresh    # rebuild npm-packages.txt first
    .venv/bin/python training/gather_npm.py --packages LIST --out OUT.jsonl   # another list / output

Each package is installed with `npm install --ignore-scripts` under /tmp/npm_gather,
its bin is started as a stdio MCP server (temp HOME, dummy API keys, hard timeout),
and `initialize` + `tools/list` are called through the official `mcp` SDK.
One JSONL line per (deduplicated) tool is written to ordinary-npm.jsonl.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import records  # training/records.py and snapshot.py, beside this script
import snapshot

HERE = Path(__file__).resolve().parent
PKG_LIST = HERE / "npm-packages.txt"
OUT = HERE / "ordinary-npm.jsonl"
SCRATCH = Path("/tmp/npm_gather")  # noqa: S108 - fixed, documented scratch location
NPM_TSV = Path("/work/.library/env/packages/npm.tsv")  # offline registry snapshot (name, version, downloads, summary)

# Servers used elsewhere in the project: never gather them.
EXCLUDED = {
    "chrome-devtools-mcp",
    "@upstash/context7-mcp",
    "@playwright/mcp",
    "@notionhq/notion-mcp-server",
    "@modelcontextprotocol/server-everything",
    "@modelcontextprotocol/server-filesystem",
    "@modelcontextprotocol/server-github",
    "@modelcontextprotocol/server-memory",
    "@modelcontextprotocol/server-postgres",
    "@modelcontextprotocol/server-sequential-thinking",
    "@modelcontextprotocol/server-fetch",
    "@modelcontextprotocol/server-git",
    "@modelcontextprotocol/server-time",
    "mcp-server-fetch",
    "mcp-server-git",
    "mcp-server-time",
    "context7-mcp",
    "playwright-mcp",
    "notion-mcp-server",
    "server-everything",
    "server-filesystem",
    "server-github",
    "server-memory",
    "server-postgres",
    "server-sequential-thinking",
}
# Tool ids reviewed by hand and judged malicious/poisoned: never written.
MALICIOUS_IDS: set[str] = set()

# Libraries, SDKs, clients and proxies rather than servers.
LIB_NAME = re.compile(
    r"sdk|adapter|inspector|transport|framework|middleware|instrumentation|[-/]utils?\b|types|handler|"
    r"mcp-ui|n8n-nodes|eslint|-(linux|darwin|win32)-|langchain|^@tmcp/|^tmcp$|fastmcp|^mcp-proxy$|"
    r"mcp-remote|mcpb|^use-mcp$|evals|tunnel|-client$|/client$|session|^@metorial/|mcp-nest|^@mastra/",
    re.I,
)
LIB_SUMMARY = re.compile(
    r"framework for|\bsdk\b|library for|client library|adapters? for|typescript implementation", re.I
)
SEARCH_QUERIES = [
    "mcp server",
    "keywords:mcp",
    "keywords:modelcontextprotocol",
    "mcp-server",
    "keywords:mcp-server",
    "scope:modelcontextprotocol",
]

DUMMY_KEYS = [
    "API_KEY",
    "API_TOKEN",
    "ACCESS_TOKEN",
    "AUTH_TOKEN",
    "SECRET_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GITHUB_TOKEN",
    "GITHUB_PERSONAL_ACCESS_TOKEN",
    "GITLAB_TOKEN",
    "GITLAB_PERSONAL_ACCESS_TOKEN",
    "SLACK_BOT_TOKEN",
    "SLACK_TEAM_ID",
    "BRAVE_API_KEY",
    "TAVILY_API_KEY",
    "FIRECRAWL_API_KEY",
    "EXA_API_KEY",
    "PERPLEXITY_API_KEY",
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_MAPS_API_KEY",
    "STRIPE_SECRET_KEY",
    "STRIPE_API_KEY",
    "NOTION_API_KEY",
    "NOTION_TOKEN",
    "LINEAR_API_KEY",
    "JIRA_API_TOKEN",
    "JIRA_EMAIL",
    "JIRA_URL",
    "JIRA_HOST",
    "CONFLUENCE_API_TOKEN",
    "ATLASSIAN_API_TOKEN",
    "SUPABASE_ACCESS_TOKEN",
    "SUPABASE_URL",
    "SUPABASE_KEY",
    "CLOUDFLARE_API_TOKEN",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_REGION",
    "AZURE_DEVOPS_PAT",
    "DATABASE_URL",
    "MONGODB_URI",
    "REDIS_URL",
    "HUBSPOT_ACCESS_TOKEN",
    "SHOPIFY_ACCESS_TOKEN",
    "TWILIO_AUTH_TOKEN",
    "TWILIO_ACCOUNT_SID",
    "DISCORD_TOKEN",
    "TELEGRAM_BOT_TOKEN",
    "APIFY_TOKEN",
    "SENTRY_AUTH_TOKEN",
    "FIGMA_API_KEY",
    "FIGMA_ACCESS_TOKEN",
    "VERCEL_TOKEN",
    "NETLIFY_TOKEN",
    "HF_TOKEN",
    "MISTRAL_API_KEY",
    "GROQ_API_KEY",
    "DEEPSEEK_API_KEY",
    "OPENROUTER_API_KEY",
    "SERPER_API_KEY",
    "SERPAPI_API_KEY",
    "ELEVENLABS_API_KEY",
    "REPLICATE_API_TOKEN",
    "AIRTABLE_API_KEY",
    "TODOIST_API_TOKEN",
    "ASANA_ACCESS_TOKEN",
    "CLICKUP_API_KEY",
    "MONDAY_API_KEY",
    "DATADOG_API_KEY",
    "DD_API_KEY",
    "CIRCLECI_TOKEN",
    "DOCKER_HOST_TOKEN",
    "X_API_KEY",
    "TWITTER_API_KEY",
    "OBSIDIAN_API_KEY",
]


# ---------------------------------------------------------------- package list


def search_registry() -> list[tuple[str, float]]:
    """npm search API (popularity-weighted). Returns [] when the registry refuses search."""
    found: dict[str, float] = {}
    for q in SEARCH_QUERIES:
        for start in range(0, 1000, 250):
            url = "https://registry.npmjs.org/-/v1/search?" + urllib.parse.urlencode(
                {"text": q, "size": 250, "from": start, "popularity": 1.0, "quality": 0.2, "maintenance": 0.2}
            )
            try:
                with urllib.request.urlopen(url, timeout=30) as r:
                    objs = json.load(r).get("objects", [])
            except Exception as e:  # noqa: BLE001 - search is best effort
                print(f"search unavailable ({q}): {e}", file=sys.stderr)
                return []
            for o in objs:
                pkg = o["package"]
                if LIB_SUMMARY.search(pkg.get("description") or "") is None:
                    found[pkg["name"]] = max(
                        found.get(pkg["name"], 0.0), o.get("score", {}).get("detail", {}).get("popularity", 0.0)
                    )
            if len(objs) < 250:
                break
    return sorted(found.items(), key=lambda kv: -kv[1])


def snapshot_candidates() -> list[tuple[str, float]]:
    """Fallback: the offline npm snapshot, MCP-looking packages sorted by monthly downloads."""
    out: list[tuple[str, float]] = []
    for parts in snapshot.rows(NPM_TSV, 3):
        name, summary = parts[0], (parts[3] if len(parts) > 3 else "")
        if not ("mcp" in name.lower() or re.search(r"mcp[ -]server|model context protocol", summary, re.I)):
            continue
        if LIB_SUMMARY.search(summary):
            continue
        out.append((name, float(parts[2] or 0)))
    return sorted(out, key=lambda kv: -kv[1])


def refresh_list(limit: int, path: Path) -> list[str]:
    cands = search_registry() or snapshot_candidates()
    names = [n for n, _ in cands if n not in EXCLUDED and not LIB_NAME.search(n)][:limit]
    path.write_text("\n".join(names) + "\n")
    return names


# ---------------------------------------------------------------- probing (worker, one server start)


def probe_worker(cmd: list[str], cwd: str, out_path: str, timeout: float) -> None:
    """Runs in its own process: start the server, initialize, list tools, write JSON to out_path."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.types import PaginatedRequestParams

    bad_lines = 0

    class Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            nonlocal bad_lines
            if "Failed to parse JSONRPC" in record.getMessage():
                bad_lines += 1

    logging.getLogger("mcp").addHandler(Count())
    logging.getLogger("mcp").propagate = False
    result: dict[str, Any] = {"ok": False}

    async def run() -> None:
        params = StdioServerParameters(
            command=cmd[0], args=cmd[1:], env=dict(os.environ), cwd=cwd, encoding_error_handler="replace"
        )
        with open(Path(out_path).with_suffix(".stderr"), "w") as errlog:  # noqa: ASYNC230 - opened once
            with anyio.fail_after(timeout):
                async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
                    init = await s.initialize()
                    result["initialized"] = True
                    tools: list[dict[str, Any]] = []
                    cursor = None
                    for _ in range(50):
                        page = await s.list_tools(
                            params=None if cursor is None else PaginatedRequestParams(cursor=cursor)
                        )
                        tools += [t.model_dump(mode="json", by_alias=True, exclude_unset=True) for t in page.tools]
                        cursor = page.next_cursor
                        if not cursor:
                            break
                    result.update(
                        ok=True,
                        tools=tools,
                        instructions=init.instructions or "",
                        server=init.server_info.model_dump(mode="json", exclude_none=True),
                    )

    try:
        anyio.run(run)
    except BaseException as e:  # noqa: BLE001 - report, never raise
        while isinstance(e, BaseExceptionGroup) and e.exceptions:
            e = e.exceptions[0]
        result["error"] = f"{type(e).__name__}: {e}"[:300]
    result["bad_lines"] = bad_lines
    Path(out_path).write_text(json.dumps(result))


def reap(tag: str) -> int:
    """SIGKILL every process carrying our per-attempt marker in its environment."""
    killed = 0
    for p in Path("/proc").iterdir():
        if not p.name.isdigit() or int(p.name) == os.getpid():
            continue
        try:
            if f"NPM_GATHER_TAG={tag}".encode() in (p / "environ").read_bytes().split(b"\0"):
                os.kill(int(p.name), signal.SIGKILL)
                killed += 1
        except (OSError, ValueError):
            pass
    return killed


# ---------------------------------------------------------------- per package


def safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def pick_bin(pkg: str, meta: dict[str, Any]) -> str | None:
    b = meta.get("bin")
    if isinstance(b, str):
        return b
    if isinstance(b, dict) and b:
        base = pkg.split("/")[-1]
        for key in (base, *[k for k in b if "mcp" in k.lower()], *[k for k in b if "server" in k.lower()]):
            if key in b:
                return b[key]
        return next(iter(b.values()))
    return None


def server_env(home: Path, tag: str) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "TMPDIR": str(home),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "NODE_NO_WARNINGS": "1",
        "NPM_GATHER_TAG": tag,
        "npm_config_cache": str(SCRATCH / "npm-cache"),
    }
    env.update(dict.fromkeys(DUMMY_KEYS, "dummy"))
    return env


def npm_install(prefix: Path, pkgs: list[str]) -> bool:
    prefix.mkdir(parents=True, exist_ok=True)
    try:
        return (
            subprocess.run(
                [
                    "npm",
                    "install",
                    "--ignore-scripts",
                    "--legacy-peer-deps",
                    "--no-audit",
                    "--no-fund",
                    "--no-package-lock",
                    "--loglevel=error",
                    "--prefix",
                    str(prefix),
                    *pkgs,
                ],
                capture_output=True,
                timeout=120 + 60 * len(pkgs),
                env=dict(os.environ, npm_config_cache=str(SCRATCH / "npm-cache")),
            ).returncode
            == 0
        )
    except subprocess.TimeoutExpired:
        return False


def install_batch(idx: int, pkgs: list[str], deadline: float) -> dict[str, Path | None]:
    """Installs a batch into one prefix (shared deps = much faster); falls back to one prefix per package."""
    if time.time() > deadline:
        return {}
    root = SCRATCH / "batches" / str(idx)
    shutil.rmtree(root, ignore_errors=True)
    if npm_install(root, pkgs):
        return dict.fromkeys(pkgs, root)
    out: dict[str, Path | None] = {}
    for p in pkgs:
        alone = root / "single" / safe(p)
        out[p] = alone if time.time() < deadline and npm_install(alone, [p]) else None
    return out


def probe_package(pkg: str, prefix: Path | None, timeout: float) -> dict[str, Any]:
    rep: dict[str, Any] = {"pkg": pkg, "status": "?"}
    if prefix is None:
        return rep | {"status": "install-failed"}
    d = SCRATCH / "probe" / safe(pkg)
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    try:
        pdir = prefix / "node_modules" / pkg
        meta = json.loads((pdir / "package.json").read_text())
        rep["version"] = meta.get("version", "?")
        binrel = pick_bin(pkg, meta)
        if not binrel:
            return rep | {"status": "no-bin"}
        binpath = (pdir / binrel).resolve()
        first = binpath.read_bytes()[:200].split(b"\n")[0] if binpath.exists() else b""
        base_cmd = [str(binpath)] if first.startswith(b"#!") and b"node" not in first else ["node", str(binpath)]
        workdir = d / "work"
        workdir.mkdir()
        for attempt, extra in enumerate([[], [str(workdir)]]):
            home = d / f"home{attempt}"
            home.mkdir()
            tag = f"{safe(pkg)}-{attempt}-{time.time_ns()}"
            out = d / f"probe{attempt}.json"
            cmd = [
                sys.executable,
                str(Path(__file__).resolve()),
                "--probe",
                str(out),
                str(workdir),
                str(timeout),
                "--",
                *base_cmd,
                *extra,
            ]
            try:
                subprocess.run(
                    cmd,
                    env=server_env(home, tag),
                    timeout=timeout + 15,
                    cwd=workdir,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            except subprocess.TimeoutExpired:
                rep["hung"] = True
            rep["reaped"] = rep.get("reaped", 0) + reap(tag)
            res = json.loads(out.read_text()) if out.exists() else {"ok": False, "error": "no result"}
            rep["bad_lines"] = rep.get("bad_lines", 0) + res.get("bad_lines", 0)
            if res.get("error", "").startswith("TimeoutError"):
                rep["hung"] = True
            if res.get("ok") and res.get("tools"):
                return rep | {
                    "status": "ok",
                    "args": extra and ["<tmpdir>"],
                    "tools": res["tools"],
                    "instructions": res.get("instructions", ""),
                    "server": res.get("server"),
                }
            rep["err"] = res.get("error") or "no tools"
            if res.get("initialized") or "Connection closed" not in rep["err"]:
                break  # the server did start (or hung): a directory argument will not help
        return rep | {"status": "failed"}
    except Exception as e:  # noqa: BLE001
        return rep | {"status": "error", "err": f"{type(e).__name__}: {e}"[:300]}
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------- output

SUSPICIOUS = re.compile(
    r"<important>|ignore (all )?(previous|prior) instructions|do not (tell|mention|inform) the user|"
    r"id_rsa|\.ssh/|exfiltrat|system prompt|before using this tool,? (you must|read)|"
    r"send (it|them|the contents?) to|conversation history|<system>|\bsidenote\b",
    re.I,
)


def write_jsonl(reports: list[dict[str, Any]], out: Path) -> tuple[int, int, list[str]]:
    seen: set[str] = set()
    n_tools, n_pkgs, flagged = 0, 0, []
    with out.open("w", encoding="utf-8") as f:
        for rep in reports:
            if rep.get("status") != "ok":
                continue
            src = f"npm:{rep['pkg']}@{rep['version']}"
            wrote = 0
            for tool in rep["tools"]:
                tid = f"{rep['pkg']}:{tool.get('name')}"
                key = json.dumps(tool, sort_keys=True)
                if key in seen or tid in MALICIOUS_IDS:
                    continue
                seen.add(key)
                if SUSPICIOUS.search(key):
                    flagged.append(tid)
                f.write(records.line({"id": tid, "source": src, "tool": tool}))
                wrote += 1
            if rep.get("instructions") and f"{rep['pkg']}:__instructions__" not in MALICIOUS_IDS:
                f.write(records.instructions(rep["pkg"], src, rep["instructions"]))
            n_tools += wrote
            n_pkgs += wrote > 0
    return n_pkgs, n_tools, flagged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--packages", type=Path, default=PKG_LIST, help="package list (default: npm-packages.txt)")
    ap.add_argument("--out", type=Path, default=OUT, help="output JSONL (default: ordinary-npm.jsonl)")
    ap.add_argument("--refresh", action="store_true", help="rebuild the package list (search API, else snapshot)")
    ap.add_argument("--limit", type=int, default=500, help="max packages when refreshing")
    ap.add_argument("--jobs", type=int, default=4, help="parallel server probes")
    ap.add_argument("--timeout", type=float, default=25.0, help="seconds per server start")
    ap.add_argument("--max-minutes", type=float, default=0, help="start no new package after this (0: no limit)")
    ap.add_argument("--batch", type=int, default=12, help="packages per npm install")
    ap.add_argument("--resume", action="store_true", help="reuse per-package results cached in /tmp/npm_gather/results")
    ap.add_argument("--keep", action="store_true", help="keep installs under /tmp/npm_gather")
    ap.add_argument("--report", type=Path, default=SCRATCH / "report.json", help="per-package status log")
    ap.add_argument("--probe", nargs=3, metavar=("OUT", "CWD", "TIMEOUT"), help=argparse.SUPPRESS)
    ap.add_argument("cmd", nargs="*", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.probe:
        probe_worker(a.cmd, a.probe[1], a.probe[0], float(a.probe[2]))
        return

    SCRATCH.mkdir(parents=True, exist_ok=True)
    pkgs = (
        refresh_list(a.limit, a.packages)
        if a.refresh or not a.packages.exists()
        else [p.strip() for p in a.packages.read_text().splitlines() if p.strip() and not p.startswith("#")]
    )
    pkgs = list(dict.fromkeys(p for p in pkgs if p not in EXCLUDED))
    order = {p: i for i, p in enumerate(pkgs)}
    cache = SCRATCH / "results"
    cache.mkdir(exist_ok=True)
    reports: list[dict[str, Any]] = []
    todo = []
    for p in pkgs:
        cached = cache / f"{safe(p)}.json"
        if a.resume and cached.exists():
            reports.append(json.loads(cached.read_text()))
        else:
            todo.append(p)
    t0 = time.time()
    deadline = t0 + a.max_minutes * 60 if a.max_minutes else float("inf")
    batches = [todo[i : i + a.batch] for i in range(0, len(todo), a.batch)]
    with ThreadPoolExecutor(2) as inst_pool, ThreadPoolExecutor(a.jobs) as probe_pool:
        inst_futs = {inst_pool.submit(install_batch, i, b, deadline): b for i, b in enumerate(batches)}
        probe_futs = []
        for fut in as_completed(inst_futs):
            for p, prefix in fut.result().items():
                probe_futs.append(probe_pool.submit(probe_package, p, prefix, a.timeout))
            print(f"[{time.time() - t0:5.0f}s] installed batch of {len(inst_futs[fut])}", flush=True)
        for pf in as_completed(probe_futs):
            rep = pf.result()
            reports.append(rep)
            (cache / f"{safe(rep['pkg'])}.json").write_text(json.dumps(rep))
    for rep in reports:
        extra = f" tools={len(rep['tools'])}" if rep["status"] == "ok" else f" {str(rep.get('err', ''))[:120]!r}"
        print(f"{rep['pkg']}: {rep['status']}{extra}")
    done = {r["pkg"] for r in reports}
    reports += [{"pkg": p, "status": "skipped"} for p in pkgs if p not in done]
    if not a.keep:
        shutil.rmtree(SCRATCH / "batches", ignore_errors=True)
    reports.sort(key=lambda r: order[r["pkg"]])
    a.report.write_text(json.dumps([{k: v for k, v in r.items() if k != "tools"} for r in reports], indent=1))
    n_pkgs, n_tools, flagged = write_jsonl(reports, a.out)
    skipped = [r["pkg"] for r in reports if r["status"] == "skipped"]
    if skipped:
        print(f"skipped (deadline): {len(skipped)}")
    print(f"tried={len(pkgs) - len(skipped)} packages_with_tools={n_pkgs} tools_written={n_tools} -> {a.out}")
    print(f"non-protocol stdout: {[r['pkg'] for r in reports if r.get('bad_lines')]}")
    print(f"hung: {[r['pkg'] for r in reports if r.get('hung')]}")
    print(f"flagged for review (kept unless listed in MALICIOUS_IDS): {flagged}")


if __name__ == "__main__":
    main()
