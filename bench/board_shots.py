"""Screenshots of the board page of every title, at a phone's size and a laptop's (issue 29).

    python bench/board_shots.py            # writes docs/board-<title>-<size>.png
    python bench/board_shots.py --full     # the whole page's height, not the first screen

Each title's shipped example is played on the engine to the round with the most kinds of company
on the board (1801: minors, regionals and majors together), served by the board's own app on a
free local port, and photographed in Debian's headless Chromium (selenium in the venv). Run on
demand; the PNGs are committed. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "board")]

from board_page import EXAMPLES, SIZES, chromium, served, viewport  # noqa: E402
from test_board_titles import browser_position, read_page  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the page's whole height")
    parser.add_argument("--out", default=str(ROOT / "docs"), help="the folder for the PNGs")
    args = parser.parse_args()
    out = Path(args.out)
    with tempfile.TemporaryDirectory(prefix="board-shots-") as profile:
        driver = chromium(profile)
        try:
            for title in sorted(EXAMPLES):
                label, position = browser_position(title)
                with served(position) as url:
                    for size, (width, height, mobile) in SIZES.items():
                        viewport(driver, size)
                        driver.get(url)
                        read_page(driver, 1)
                        if args.full:
                            height = driver.execute_script("return document.documentElement.scrollHeight")
                            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                                   {"width": width, "height": height, "deviceScaleFactor": 1,
                                                    "mobile": mobile})
                        path = out / f"board-{title}-{size}.png"
                        driver.save_screenshot(str(path))
                        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {title} at {label}")
                    driver.get("about:blank")  # closes the page's event stream before the server stops
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
