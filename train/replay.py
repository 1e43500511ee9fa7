"""``aoi replay FILE``: replay a game record move by move and show it.

The record is replayed through ``Game.apply_move`` (``train.records.replay``): every move must be
legal, the final scores (and the final state) must be the recorded ones, otherwise the command
fails naming the move number and the move.  Output:

* default: an ANSI text frame (``aoi_env.render.text``) after every move; ``--final``: only the
  final position;
* ``--svg DIR``: one SVG per position (``frame_0000.svg`` = start, then one per move);
* ``--html FILE``: one self-contained HTML page with a slider over the SVG frames.

SVG output uses ``aoi_env.render.svg.render_svg``; without it the command says so and skips the
SVG/HTML output.
"""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from aoi_env.core.engine import Game
from train.records import GameRecord, load, replay, version_warnings

SvgRenderer = Callable[[Game], str]


def svg_renderer() -> SvgRenderer | None:
    """``aoi_env.render.svg.render_svg`` if that module is available, else None."""
    try:
        from aoi_env.render.svg import render_svg
    except ImportError:
        return None
    return render_svg


def frame_title(number: int, total: int, move: str | None, seat: int | None) -> str:
    if move is None:
        return f"start ({total} moves follow)"
    return f"move {number}/{total}: seat {seat} {move}"


def html_page(title: str, frames: list[str], captions: list[str]) -> str:
    """A self-contained page: the SVG frames in a JSON array, a slider and prev/next buttons."""
    data = json.dumps({"frames": frames, "captions": captions}).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
#controls {{ display: flex; gap: .5em; align-items: center; margin-bottom: .5em; }}
#slider {{ flex: 1; }}
#caption {{ font-family: monospace; min-width: 28em; }}
#frame svg {{ max-width: 100%; height: auto; }}
</style></head>
<body>
<h3>{html.escape(title)}</h3>
<div id="controls">
<button id="prev" title="previous (left arrow)">&#9664;</button>
<input id="slider" type="range" min="0" max="{len(frames) - 1}" value="0">
<button id="next" title="next (right arrow)">&#9654;</button>
<span id="caption"></span>
</div>
<div id="frame"></div>
<script>
const DATA = {data};
const slider = document.getElementById("slider");
function show(i) {{
  i = Math.max(0, Math.min(DATA.frames.length - 1, i));
  slider.value = i;
  document.getElementById("frame").innerHTML = DATA.frames[i];
  document.getElementById("caption").textContent = DATA.captions[i];
}}
slider.addEventListener("input", () => show(+slider.value));
document.getElementById("prev").onclick = () => show(+slider.value - 1);
document.getElementById("next").onclick = () => show(+slider.value + 1);
document.addEventListener("keydown", (e) => {{
  if (e.key === "ArrowLeft") show(+slider.value - 1);
  if (e.key === "ArrowRight") show(+slider.value + 1);
}});
show(0);
</script>
</body></html>
"""


def run_replay(
    record: GameRecord | str | Path,
    final: bool = False,
    svg_dir: str | Path | None = None,
    html_file: str | Path | None = None,
    color: bool = False,
    out: TextIO | None = None,
) -> Game:
    """Replay and write the requested output; returns the finished game (ReplayError on mismatch)."""
    from aoi_env.render.text import render_text

    out = out or sys.stdout
    if isinstance(record, GameRecord):
        record.validate()  # load() validates a file; a record object is checked before its fields are used
        rec = record
    else:
        rec = load(record)
    for note in version_warnings(rec):
        print(f"warning: {note}", file=sys.stderr)
    render = svg_renderer() if (svg_dir or html_file) else None
    if (svg_dir or html_file) and render is None:
        print("note: aoi_env.render.svg.render_svg is not available yet: skipping --svg/--html", file=sys.stderr)
    total = len(rec.moves)
    frames: list[str] = []
    captions: list[str] = []
    seat_before: list[int] = [-1]

    def on_frame(g: Game, number: int, move: str | None) -> None:
        seat = seat_before[0] if move is not None else None
        caption = frame_title(number, total, move, seat)
        if not final:
            print(f"== {caption}", file=out)
            print(render_text(g, color=color), file=out)
        if render is not None:
            frames.append(render(g))
            captions.append(caption)
        seat_before[0] = g.current_seat()

    game = replay(rec, on_frame=on_frame)
    if final:
        print(render_text(game, color=color), file=out)
    labels = [*rec.agents, *(f"automa {a}" for a in getattr(rec.config, "automa", ()))]
    scores = ", ".join(f"seat {i} ({labels[i] if i < len(labels) else '-'}): {v}" for i, v in enumerate(rec.scores))
    print(f"replayed {total} moves of {rec.game} seed {rec.seed}: final VP {scores} (as recorded)", file=out)
    if render is not None and svg_dir:
        d = Path(svg_dir)
        d.mkdir(parents=True, exist_ok=True)
        for i, svg in enumerate(frames):
            (d / f"frame_{i:04d}.svg").write_text(svg, encoding="utf-8")
        print(f"wrote {len(frames)} SVG frames to {d}", file=out)
    if render is not None and html_file:
        path = Path(html_file)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html_page(f"{rec.game} seed {rec.seed}", frames, captions), encoding="utf-8")
        print(f"wrote {path} ({len(frames)} frames)", file=out)
    return game
