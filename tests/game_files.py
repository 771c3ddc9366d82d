"""Game files made once per test process and copied into each test that needs one: a test that
changes a game gets its own copy, and none pays again for the same `bank new` or `bank play`.

    path = played_copy("1830-opening.txt", tmp_path / "opening.db")
    path = new_copy(tmp_path / "g.db")          # `bank new 1830 Alice Bob Carol Dave`

The files are made by the real CLI (typer's runner, SQLite), so a copy is what a table's own game
file would be; copying a .db file is how a person copies a game (the journal mode is DELETE).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path

from cli_driver import run_bank

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
PLAYERS = ("Alice", "Bob", "Carol", "Dave")

PREFIX = "bank-test-games-"
_made: dict[tuple, Path] = {}
_folder: Path | None = None


# A memory filesystem smaller than this (a container's default /dev/shm is 64 MiB) is not used: the
# suite's game files would fill it, and a full disk is a test of its own (tests/store/test_safety.py).
MEMORY_NEEDED = 512 * 1024 ** 2   # the whole suite used under 40 MiB there at its peak


def memory_root() -> str | None:
    """/dev/shm when the machine has one that is writable and roomy enough, else None (the system's
    temporary folder then)."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        return None
    try:
        stat = os.statvfs(shm)
    except OSError:
        return None
    return str(shm) if stat.f_bavail * stat.f_frsize >= MEMORY_NEEDED else None


def _where(name: str) -> Path:
    global _folder
    if _folder is None:
        # made on a memory filesystem where there is one: every command of a played example is a
        # durable commit (synchronous=FULL), and on a disk shared by busy neighbours those syncs,
        # not the rules, took most of the time. Durability itself is tested on the real thing
        # (tests/store/test_safety.py: the pragmas, a copy taken while a shell writes).
        memory = memory_root()
        _remove_left_over(Path(memory or tempfile.gettempdir()))
        _folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=memory))
        atexit.register(shutil.rmtree, _folder, True)
    return _folder / name


def _remove_left_over(where: Path) -> None:
    """The folders of test processes that ended without their exit handlers (a killed run, a worker
    that left by os._exit): memory is not a disk to leave games on."""
    for folder in where.glob(f"{PREFIX}*"):
        pid = folder.name[len(PREFIX):].split("-", 1)[0]
        # a day old as well: another machine's run (a container sharing /dev/shm) has other pids
        stale = time.time() - folder.stat().st_mtime > 86400 if folder.exists() else False
        if pid.isdigit() and not Path(f"/proc/{pid}").exists() and stale:
            shutil.rmtree(folder, ignore_errors=True)


def _made_once(key: tuple, name: str, *argv: str) -> Path:
    if key not in _made:
        path = _where(name)
        result = run_bank("--game", str(path), *argv)
        assert result.returncode == 0, result.stderr.decode()
        _made[key] = path
    return _made[key]


def played_file(example: str, first: int | None = None) -> Path:
    """The examples/ transcript `example` (its first `first` lines of the file, when given) played
    once through the CLI (do not change it: copy)."""
    if first is None:
        return _made_once(("play", example), f"{Path(example).stem}.db", "play", str(EXAMPLES / example))
    script = _where(f"{Path(example).stem}-first-{first}.txt")
    script.write_text("\n".join((EXAMPLES / example).read_text().splitlines()[:first]) + "\n")
    return _made_once(("play", example, first), f"{script.stem}.db", "play", str(script))


def new_file(title: str = "1830", players: tuple[str, ...] = PLAYERS) -> Path:
    """`bank new TITLE PLAYERS` made once (do not change it: copy)."""
    return _made_once(("new", title, players), f"new-{title}-{len(players)}.db", "new", title, *players)


def copy_to(source: Path, dest: Path) -> Path:
    shutil.copyfile(source, dest)
    return dest


def played_copy(example: str, dest: Path, first: int | None = None) -> Path:
    return copy_to(played_file(example, first), dest)


def new_copy(dest: Path, title: str = "1830", players: tuple[str, ...] = PLAYERS) -> Path:
    return copy_to(new_file(title, players), dest)


_scratch = 0


def memory_folder(name: str = "test") -> Path:
    """A new empty folder beside the made games (on the memory filesystem where there is one)."""
    global _scratch
    _scratch += 1
    folder = _where(f"{name}-{_scratch}")
    folder.mkdir()
    return folder


def in_memory():
    """A test's folder on the memory filesystem, removed after it: a module whose tests write whole
    games says

        @pytest.fixture
        def tmp_path():
            yield from in_memory()

    Where a game file lives changes nothing the bank does but the time its durable commits wait for
    a disk; what durability itself needs is tested on disk (tests/store/test_safety.py)."""
    folder = memory_folder()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
