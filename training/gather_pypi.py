#!/usr/bin/env python
"""Gather ordinary (honest) MCP tool definitions from public PyPI packages.

Reproduce (from /work/main):
    /work/main/.venv/bin/python training/gather_pypi.py            # use training/pypi-packages.txt
    /work/main/.venv/bin/python training/gather_pypi.py --refresh  # rebuild the candidate list first
    /work/main/.venv/bin/python training/gather_pypi.py --packages LIST --out OUT.jsonl  # another list / output

For each package in the list: install its wheel (no sdist builds, so installing runs no
package code) into its own venv under /tmp/pypi_gather, find a console script (or a
`python -m` module), start it as a stdio MCP server inside a sandbox (no network, own PID
namespace, uid nobody, temp HOME, dummy API keys, hard timeout), send initialize +
tools/list through the official `mcp` SDK client, and keep the raw tool objects.

The candidate list is built offline from the local PyPI name list
(/work/.library/env/packages/pypi.tsv); no registry is scanned.
Per-package results are cached in /tmp/pypi_gather/results/ (use --fresh to ignore).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import records  # training/records.py and snapshot.py, beside this script
import snapshot

HERE = Path(__file__).resolve().parent
PACKAGES_TXT = HERE / "pypi-packages.txt"
OUTPUT = HERE / "ordinary-pypi.jsonl"
SCRATCH = Path(tempfile.gettempdir()) / "pypi_gather"
RESULTS = SCRATCH / "results"
PYPI_TSV = Path("/work/.library/env/packages/pypi.tsv")
# A copy of pyenv's 3.12 outside /root, so that uid nobody can run it (see base_python()).
PYENV_PYTHON = Path("/root/.pyenv/versions/3.12.1")
BASE_PYTHON = SCRATCH / "py312"
NOBODY = "65534"

# In the evaluation data, the SDK / frameworks themselves, or not servers at all.
EXCLUDE = {
    "mcp",
    "mcp-server-fetch",
    "mcp-server-git",
    "mcp-server-time",
    "fastmcp",
    "fastmcp-slim",
    "mcp-use",
    "mcpadapt",
    "mcpo",
    "mcp-proxy",
    "mcp-server",
    "fast-agent-mcp",
    "fastapi-mcp",
    "nvidia-nat-mcp",
    "arcade-mcp",
    "django-mcp-server",
    "databricks-mcp",
    "arcade-mcp-server",
}
NAME_SKIP = re.compile(
    r"(^mseep-|^iflow-mcp-|sdk|client|proxy|gateway|bridge|adapter|instrument|langchain|llama-?index|"
    r"framework|fastmcp|-core$|test|template|boilerplate|example|demo|hello|tutorial|-dev$)"
)
SUMMARY_SERVER = re.compile(r"mcp server|mcp-server|model context protocol|\bmcp\b", re.I)
SUMMARY_SKIP = re.compile(r"deprecated|renamed|sdk|client library|proxy|framework|gateway|placeholder", re.I)

DUMMY_KEYS = [
    "API_KEY",
    "API_TOKEN",
    "ACCESS_TOKEN",
    "AUTH_TOKEN",
    "TOKEN",
    "SECRET_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "MISTRAL_API_KEY",
    "GROQ_API_KEY",
    "DEEPSEEK_API_KEY",
    "PERPLEXITY_API_KEY",
    "TAVILY_API_KEY",
    "BRAVE_API_KEY",
    "SERPER_API_KEY",
    "EXA_API_KEY",
    "FIRECRAWL_API_KEY",
    "JINA_API_KEY",
    "COHERE_API_KEY",
    "HF_TOKEN",
    "HUGGINGFACE_API_KEY",
    "REPLICATE_API_TOKEN",
    "ELEVENLABS_API_KEY",
    "GITHUB_TOKEN",
    "GITHUB_PERSONAL_ACCESS_TOKEN",
    "GITLAB_TOKEN",
    "SLACK_BOT_TOKEN",
    "SLACK_TOKEN",
    "NOTION_API_KEY",
    "NOTION_TOKEN",
    "LINEAR_API_KEY",
    "JIRA_API_TOKEN",
    "CONFLUENCE_API_TOKEN",
    "STRIPE_API_KEY",
    "STRIPE_SECRET_KEY",
    "SENTRY_AUTH_TOKEN",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AZURE_OPENAI_API_KEY",
    "DISCORD_TOKEN",
    "TELEGRAM_BOT_TOKEN",
    "TWITTER_BEARER_TOKEN",
    "SHOPIFY_ACCESS_TOKEN",
    "AIRTABLE_API_KEY",
    "TODOIST_API_TOKEN",
    "QDRANT_API_KEY",
    "PINECONE_API_KEY",
    "SUPABASE_KEY",
    "DATABASE_URL",
]
DUMMY_ENV = dict.fromkeys(DUMMY_KEYS, "dummy") | {
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "PYTHONUNBUFFERED": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "NO_COLOR": "1",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
}


# Tool ids found suspicious on review (instructions hidden from the user, exfiltration, ...):
# kept out of the ordinary data set.
SUSPICIOUS: set[str] = set()


# ---------------------------------------------------------------- candidates
def refresh_candidates(limit: int) -> list[str]:
    """Pick server-looking package names from the offline PyPI list: popular ones first,
    then a stable hash-ordered sample of the long tail."""
    ranked: list[tuple[int, str]] = []
    tail: list[tuple[str, str]] = []
    for parts in snapshot.rows(PYPI_TSV, 5):
        name, version, month, rank, summary = parts[:5]
        low = name.lower()
        if "mcp" not in low or low in EXCLUDE or NAME_SKIP.search(low):
            continue
        if SUMMARY_SKIP.search(summary) or month < "2025-03" or version.startswith("0.0."):
            continue
        if rank:
            ranked.append((int(rank), name))
        elif SUMMARY_SERVER.search(summary) and "server" in summary.lower():
            tail.append((hashlib.sha256(low.encode()).hexdigest(), name))
    names = [n for _, n in sorted(ranked)] + [n for _, n in sorted(tail)]
    return names[:limit]


def read_packages(path: Path) -> list[str]:
    lines = path.read_text().splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


# ---------------------------------------------------------------- install
def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def uv() -> str:
    found = shutil.which("uv") or str(SCRATCH / "tools/bin/uv")
    if not Path(found).exists():
        subprocess.run([sys.executable, "-m", "venv", str(SCRATCH / "tools")], check=True)
        subprocess.run([str(SCRATCH / "tools/bin/pip"), "-q", "install", "uv"], check=True)
    return found


def base_python() -> str:
    if not BASE_PYTHON.exists():
        shutil.copytree(PYENV_PYTHON, BASE_PYTHON, symlinks=True)
    return str(BASE_PYTHON / "bin/python3.12")


def install(spec: str, venv: Path) -> tuple[str, str] | None:
    """Install `spec` (wheels only) into `venv`; return (dist name, version) or None."""
    name = spec.split("==")[0]
    env = os.environ | {"UV_CACHE_DIR": str(SCRATCH / "uv-cache")}
    if not (venv / "bin/python").exists():
        subprocess.run(
            [uv(), "venv", "-q", "-p", base_python(), str(venv)], check=True, env=env, capture_output=True, timeout=60
        )
    constraints = SCRATCH / "constraints.txt"
    constraints.write_text("mcp<2\n")  # most servers were written against the 1.x SDK API
    base = [uv(), "pip", "install", "-q", "--no-build", "-p", str(venv / "bin/python"), spec]
    r = subprocess.run([*base, "-c", str(constraints)], env=env, capture_output=True, timeout=300)
    if r.returncode != 0:
        r = subprocess.run(base, env=env, capture_output=True, timeout=300)
    if r.returncode != 0:
        return None
    subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", str(venv)], check=True)  # servers log into it
    for d in (venv / "lib").glob("python3*/site-packages/*.dist-info"):
        dist, _, version = d.name[: -len(".dist-info")].partition("-")
        if norm(dist) == norm(name):
            return dist, version
    return None


def commands(venv: Path, dist: str, version: str) -> list[list[str]]:
    """Candidate stdio commands: console scripts of the package, best match first, else `-m`."""
    info = next((venv / "lib").glob(f"python3*/site-packages/{dist}-{version}.dist-info"))
    scripts: list[str] = []
    ep = info / "entry_points.txt"
    if ep.exists():
        section = ""
        for line in ep.read_text().splitlines():
            line = line.strip()
            if line.startswith("["):
                section = line
            elif section == "[console_scripts]" and "=" in line:
                scripts.append(line.split("=")[0].strip())
    bad = re.compile(r"install|setup|config|client|auth|login|test|migrate|debug|inspect|http|sse|web|ui$")

    def score(s: str) -> tuple[int, int, int]:
        return (bool(bad.search(s)), norm(s) != norm(dist), "mcp" not in s.lower())

    cmds = [[str(venv / "bin" / s)] for s in sorted(scripts, key=score)[:2]]
    if not cmds:
        top = info / "top_level.txt"
        mods = top.read_text().split() if top.exists() else [norm(dist)]
        cmds.extend([str(venv / "bin/python"), "-m", m] for m in mods if list(info.parent.glob(f"{m}/__main__.py")))
    return cmds


# ---------------------------------------------------------------- probe (runs in a child process)
async def probe(cmd: list[str], home: str, limit: float) -> dict[str, Any]:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp_types.jsonrpc import JSONRPCResponse

    venv_bin = str(Path(cmd[0]).parent)
    sandbox = [
        "setpriv",
        "--pdeathsig",
        "KILL",
        "unshare",
        "--net",
        "--pid",
        "--fork",
        "--kill-child",
        "setpriv",
        "--reuid",
        NOBODY,
        "--regid",
        NOBODY,
        "--clear-groups",
        "--",
    ]
    env = DUMMY_ENV | {
        "HOME": home,
        "TMPDIR": home,
        "XDG_CONFIG_HOME": f"{home}/.config",
        "XDG_DATA_HOME": f"{home}/.local/share",
        "XDG_CACHE_HOME": f"{home}/.cache",
        "PATH": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
        "USER": "nobody",
        "LD_LIBRARY_PATH": str(BASE_PYTHON / "lib"),
    }
    cmd = [c.replace("@HOME@", home) for c in cmd]
    params = StdioServerParameters(command=sandbox[0], args=sandbox[1:] + cmd, env=env, cwd=home)
    raw: list[dict[str, Any]] = []
    bad_lines = 0
    out: dict[str, Any] = {"cmd": cmd, "stage": "start"}
    errlog = open(f"{home}/.stderr", "w+")  # noqa: ASYNC230, SIM115 - the server's stderr, read after it exits
    try:
        with anyio.fail_after(limit):
            async with stdio_client(params, errlog=errlog) as (read, write):
                send, recv = anyio.create_memory_object_stream[Any](100)

                async def tap() -> None:
                    nonlocal bad_lines
                    async with send:
                        async for item in read:
                            if isinstance(item, Exception):
                                bad_lines += 1
                            elif isinstance(item.message, JSONRPCResponse):
                                raw.append(item.message.result)
                            await send.send(item)

                async with anyio.create_task_group() as tg:
                    tg.start_soon(tap)
                    async with ClientSession(recv, write) as session:
                        await session.initialize()
                        out["stage"] = "initialized"
                        cursor = None
                        for _ in range(20):
                            res = await session.list_tools(
                                params=__import__("mcp").types.PaginatedRequestParams(cursor=cursor) if cursor else None
                            )
                            cursor = res.next_cursor
                            if not cursor:
                                break
                    tg.cancel_scope.cancel()
        init = next((r for r in raw if "protocolVersion" in r), {})
        out["instructions"] = init.get("instructions") or ""
        out["server_info"] = init.get("serverInfo")
        out["tools"] = [t for r in raw if isinstance(r.get("tools"), list) for t in r["tools"]]
    except BaseException as e:  # noqa: BLE001 - report any failure, including timeouts
        out["error"] = f"{type(e).__name__}: {e}"[:500]
        if isinstance(e, BaseExceptionGroup):
            out["error"] = repr(e.exceptions)[:500]
    out["non_protocol_lines"] = bad_lines
    errlog.seek(0)
    out["stderr_tail"] = errlog.read()[-800:]
    return out


def probe_main(cmd_json: str, timeout: float) -> None:
    home = tempfile.mkdtemp(prefix="home-", dir=SCRATCH / "homes")
    os.chmod(home, 0o700)
    os.chown(home, int(NOBODY), int(NOBODY))
    try:
        result = asyncio.run(probe(json.loads(cmd_json), home, timeout))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print("\n@@RESULT@@" + json.dumps(result))


# ---------------------------------------------------------------- per package driver
def run_probe(cmd: list[str], timeout: float) -> dict[str, Any]:
    p = subprocess.Popen(
        [sys.executable, __file__, "--probe", json.dumps(cmd), "--timeout", str(timeout)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, _ = p.communicate(timeout=timeout + 15)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return {"cmd": cmd, "error": "hard timeout (probe hung)"}
    marker = stdout.rfind("@@RESULT@@")
    if marker < 0:
        return {"cmd": cmd, "error": f"probe crashed rc={p.returncode}"}
    return json.loads(stdout[marker + len("@@RESULT@@") :])


REQUIRED = [
    re.compile(p)
    for p in (
        r"arguments are required: ([^\n]+)",  # argparse
        r"Missing (?:option|argument) '([^']+)'",  # click
        r"[Mm]issing required (?:option|argument)s?:? '?([-\w]+)",
    )
]
USAGE = re.compile(r"usage|Commands:|invalid choice|No such command|Unknown command", re.I)


def required_args(stderr: str) -> list[str]:
    """Dummy values for required CLI arguments named in a usage error ('@HOME@' = temp HOME)."""
    args: list[str] = []
    for pat in REQUIRED:
        for m in pat.finditer(stderr):
            for item in m.group(1).split(","):
                item = item.strip().split("/")[0].split()[0] if item.strip() else ""
                if item.startswith("-"):
                    args += [item, "@HOME@/data"]
                elif re.fullmatch(r"[A-Za-z_][-\w]*", item):
                    args.append("stdio" if re.search(r"\{[^}]*\bstdio\b", stderr) else "@HOME@")
    return args


def gather_one(spec: str, timeout: float) -> dict[str, Any]:
    name = spec.split("==")[0]
    venv = SCRATCH / "venvs" / norm(name)
    res: dict[str, Any] = {"package": name, "attempts": []}
    t0 = time.time()
    try:
        got = install(spec, venv)
    except (subprocess.SubprocessError, OSError) as e:
        got, res["error"] = None, f"install: {e}"
    if got is None:
        res.setdefault("error", "install failed (no wheel / resolver error)")
    else:
        res["dist"], res["version"] = got
        queue = commands(venv, *got)
        tried: set[str] = set()
        while queue and len(tried) < 6:
            cmd = queue.pop(0)
            if json.dumps(cmd) in tried:
                continue
            tried.add(json.dumps(cmd))
            attempt = run_probe(cmd, timeout)
            res["attempts"].append({k: v for k, v in attempt.items() if k != "tools"})
            if attempt.get("tools"):
                res |= {"tools": attempt["tools"], "instructions": attempt.get("instructions", ""), "cmd": cmd}
                break
            err, stderr = str(attempt.get("error", "")), attempt.get("stderr_tail", "")
            if "timeout" in err.lower() or "initialize" in attempt.get("stage", ""):
                continue  # it ran but did not answer; argument variants won't help, other scripts might
            if extra := required_args(stderr):
                queue.insert(0, cmd + extra)
            elif USAGE.search(stderr) and len(cmd) == 1:
                queue[0:0] = [cmd + v for v in (["stdio"], ["serve"], ["--transport", "stdio"], ["run"])]
    shutil.rmtree(venv, ignore_errors=True)
    res["seconds"] = round(time.time() - t0, 1)
    return res


# ---------------------------------------------------------------- output
def write_jsonl(specs: list[str], output: Path) -> tuple[int, int]:
    seen: set[str] = set()
    n_tools, pkgs = 0, 0
    with output.open("w", encoding="utf-8") as out:
        for spec in specs:
            f = RESULTS / f"{norm(spec.split('==')[0])}.json"
            if not f.exists():
                continue
            r = json.loads(f.read_text())
            if not r.get("tools") or r.get("excluded"):
                continue
            pkgs += 1
            source = f"pypi:{r['package']}=={r['version']}"
            for tool in r["tools"]:
                key = json.dumps(tool, sort_keys=True)
                if key in seen or f"{r['package']}:{tool.get('name')}" in SUSPICIOUS:
                    continue
                seen.add(key)
                n_tools += 1
                out.write(records.line({"id": f"{r['package']}:{tool.get('name')}", "source": source, "tool": tool}))
            if r.get("instructions") and f"{r['package']}:__instructions__" not in SUSPICIOUS:
                out.write(records.instructions(r["package"], source, r["instructions"]))
    return pkgs, n_tools


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--packages", type=Path, default=PACKAGES_TXT, help="package list (default: pypi-packages.txt)")
    ap.add_argument("--out", type=Path, default=OUTPUT, help="output JSONL (default: ordinary-pypi.jsonl)")
    ap.add_argument("--refresh", action="store_true", help="rebuild the package list from the offline list")
    ap.add_argument("--limit", type=int, default=450, help="candidates to keep on --refresh")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=25.0, help="seconds per server start")
    ap.add_argument("--fresh", action="store_true", help="ignore cached per-package results")
    ap.add_argument("--budget", type=float, default=0, help="stop starting packages after N minutes")
    ap.add_argument(
        "--pin",
        action="store_true",
        help="afterwards, rewrite the package list as the tried packages, pinned where installed",
    )
    ap.add_argument("--probe", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.probe:
        return probe_main(a.probe, a.timeout)

    for d in (RESULTS, SCRATCH / "venvs", SCRATCH / "homes"):
        d.mkdir(parents=True, exist_ok=True)
    os.chmod(SCRATCH / "homes", 0o755)  # noqa: S103 - the sandboxed servers run as nobody
    if a.refresh:
        a.packages.write_text("\n".join(refresh_candidates(a.limit)) + "\n")
    specs = read_packages(a.packages)
    todo = [s for s in specs if a.fresh or not (RESULTS / f"{norm(s.split('==')[0])}.json").exists()]
    print(f"{len(specs)} packages, {len(todo)} to probe", flush=True)
    deadline = time.time() + a.budget * 60 if a.budget else float("inf")
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:

        def task(spec: str) -> dict[str, Any] | None:
            return gather_one(spec, a.timeout) if time.time() < deadline else None

        for spec, res in zip(todo, pool.map(task, todo), strict=True):
            if res is None:
                continue
            (RESULTS / f"{norm(spec.split('==')[0])}.json").write_text(json.dumps(res, indent=1))
            status = (
                f"{len(res['tools'])} tools"
                if res.get("tools")
                else res.get("error")
                or (res["attempts"][-1].get("error", "no tools") if res["attempts"] else "no command")
            )
            print(f"{spec}: {status} ({res['seconds']}s)", flush=True)
    if a.pin:
        pinned = []
        for spec in specs:
            f = RESULTS / f"{norm(spec.split('==')[0])}.json"
            if f.exists():
                r = json.loads(f.read_text())
                pinned.append(f"{r['package']}=={r['version']}" if r.get("version") else r["package"])
        a.packages.write_text("\n".join(pinned) + "\n")
        specs = pinned
    pkgs, n = write_jsonl(specs, a.out)
    print(f"wrote {n} tools from {pkgs} packages to {a.out}")


if __name__ == "__main__":
    main()
