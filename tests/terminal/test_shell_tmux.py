"""`bank shell` as a table uses it: in tmux at 80 columns, typing a stock round and an operating round
with Tab, reading the screen. Tab's menu shows what each entry costs, the bottom toolbar the Next
line as it is after each command, a refusal is one line and Enter on a menu entry takes the entry.

Needs tmux (Debian's package; .ci/run installs it): without it the test fails, as a missing tool must."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPENING = ROOT / "examples" / "1830-opening.txt"


def first_lines(count: int) -> str:
    """The opening transcript's first `count` commands (comments and blank lines kept out)."""
    lines = [raw.split("#", 1)[0].rstrip() for raw in OPENING.read_text().splitlines()]
    return "\n".join([line for line in lines if line.strip()][:count]) + "\n"


class Tmux:
    def __init__(self, folder: Path, game: Path):
        assert shutil.which("tmux"), "tmux is not installed (apt-get install tmux)"
        self.name = f"bank-test-{os.getpid()}"
        self.socket = str(folder / "tmux.sock")
        bank = Path(sys.executable).with_name("bank")
        env = f"BANK_HISTORY={folder / 'history'} TERM=xterm-256color NO_COLOR=1"
        self.run("new-session", "-d", "-s", self.name, "-x", "80", "-y", "30",
                 f"cd {folder} && env {env} {bank} --game {game} shell; sleep 60")

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=20).stdout

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.name, *keys)

    def screen(self) -> str:
        return self.run("capture-pane", "-t", self.name, "-p")

    def wait_for(self, text, seconds: float = 20) -> str:
        """The screen once it shows `text` (or once `text(screen)` holds)."""
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if text(screen) if callable(text) else text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared on the screen:\n{screen}")
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def shell_at(tmp_path):
    opened = []

    def start(commands: int) -> Tmux:
        transcript = tmp_path / "start.txt"
        transcript.write_text(first_lines(commands))
        game = tmp_path / "game.db"
        subprocess.run([str(Path(sys.executable).with_name("bank")), "--game", str(game), "play", str(transcript)],
                       check=True, capture_output=True, timeout=60)
        t = Tmux(tmp_path, game)
        opened.append(t)
        t.wait_for("bank [")
        return t
    yield start
    for t in opened:
        t.close()


def menu_line(screen: str, word: str) -> str:
    return next((line for line in screen.splitlines() if line.strip().startswith(word + " ")), "")


def test_a_stock_round_typed_with_tab(shell_at):
    """SR 1 after the auction (Alice to act): Tab after `par Alice NYC ` lists the par prices with what
    Alice pays; Enter on an entry takes it, Enter again runs the line; the toolbar moves on to Bob."""
    t = shell_at(17)        # the auction done, B&O parred: Alice opens SR 1
    screen = t.wait_for("Next: SR 1")
    assert any(line.startswith("Next: SR 1: Alice") for line in screen.rstrip().splitlines()[-3:])   # the toolbar
    assert all(len(line) <= 80 for line in screen.splitlines())
    t.keys("par Alice NYC ", "Tab")
    screen = t.wait_for("$152")
    assert "$152" in menu_line(screen, "76")       # 2 x $76 for the president's certificate
    assert "$134" in menu_line(screen, "67")
    t.keys("Down", "Down", "Down")                 # 67, 71, 76
    t.keys("Enter")                                # takes the entry: the line is not run yet
    time.sleep(0.5)
    assert "Alice pars" not in t.screen() and "buys" not in t.screen()
    t.keys("Enter")
    screen = t.wait_for("Next: SR 1: Bob")
    assert "NYC" in screen and "$152" in screen


def test_an_operating_round_typed_with_tab(shell_at):
    """OR 1.1, NYC to operate: Tab at an empty line offers the verbs legal now (no `pay` once it has
    run); Tab after `train NYC ` types the one train for sale; a refusal is one line; Ctrl-L clears
    the screen and the toolbar still says NYC operates."""
    t = shell_at(42)        # SR 1 over: OR 1.1 starts with NYC
    screen = t.wait_for("Next: OR 1.1")
    assert "NYC" in screen
    t.keys("tile NYC 0", "Enter")
    t.wait_for("lays")
    t.keys("withhold NYC 0", "Enter")
    t.wait_for("withholds")
    t.keys("Tab")
    screen = t.wait_for(lambda sc: menu_line(sc, "train"))   # the verbs accepted now, each with its words
    assert menu_line(screen, "train") and menu_line(screen, "done") and not menu_line(screen, "pay")
    t.keys("C-u", "train NYC ", "Tab")         # one train is for sale: Tab types it
    t.wait_for("train NYC 2")
    t.keys("C-u", "train NYC 5", "Enter")
    screen = t.wait_for("error:")
    refusal = [line for line in screen.splitlines() if line.startswith("error:")]
    assert len(refusal) == 1 or not refusal[1:] or refusal[1].startswith("  ")
    t.keys("C-l")   # Ctrl-L clears the screen (the refusal goes), the toolbar stays: waited for, not raced
    screen = t.wait_for(lambda sc: "Next: OR 1.1" in sc and "error:" not in sc)
    assert "Next: OR 1.1" in screen and "error:" not in screen
