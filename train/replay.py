"""``aoi replay FILE``: replay a game record move by move and show it.

The record is replayed through ``Game.apply_move`` (``train.records.replay``): every move must be
legal, the final scores (and the final state) must be the recorded ones, otherwise the command
fails naming the move number and the move.  Output:

* default: an ANSI text frame (``aoi_env.render.text``) after every move; ``--final``: only the
  final position;
* ``--svg DIR``: one SVG per position (``frame_0000.svg`` = start, then one per move; higher-numbered
  ``frame_NNNN.svg`` files of an earlier replay into the same folder are removed);
* ``--html FILE``: one self-contained HTML page with a slider over the SVG frames.

The Automa's turns are played by the engine inside the move that hands her the turn, so a move
before her turn gets extra frames (``aoi_env.core.flow.automa_frames``): the position after the move itself, then
one after each of her steps (``move 12/80: seat 1 (Automa) build``, AUTOMA.md §5) or her pass.

SVG output uses ``aoi_env.render.svg.render_svg``.
"""

from __future__ import annotations

import html
import json
import sys
from pathlib import Path
from typing import TextIO

from aoi_env.core.engine import Game
from aoi_env.core.flow import automa_frames
from aoi_env.render.svg import render_svg
from train.records import GameRecord, load, replay, version_warnings


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
    render = render_svg if (svg_dir or html_file) else None
    total = len(rec.moves)
    frames: list[str] = []
    captions: list[str] = []
    current = {"seat": -1, "number": 0, "move": None, "automa": False, "shown": b""}  # the move being replayed

    def show(g: Game, caption: str) -> None:
        current["shown"] = g.state.to_bytes()
        if not final:
            print(f"== {caption}", file=out)
            print(render_text(g, color=color), file=out)
        if render is not None:
            frames.append(render(g))
            captions.append(caption)

    def before_automa(g: Game) -> None:
        """The position after the move itself, once, before the Automa's first turn or step in it
        (a player's answer to her power offer resumes her turn with a step)."""
        if not current["automa"] and current["move"] is not None:
            current["automa"] = True
            show(g, frame_title(current["number"], total, current["move"], current["seat"]))

    def after_automa_step(g: Game, seat: int, what: str) -> None:
        if current["move"] is not None:  # her setup before the start frame is part of the start
            show(g, f"move {current['number']}/{total}: seat {seat} (Automa) {what}")

    def on_frame(g: Game, number: int, move: str | None) -> None:
        caption = frame_title(number, total, move, current["seat"] if move is not None else None)
        if move is None or not current["automa"]:
            show(g, caption)
        elif g.state.to_bytes() != current["shown"]:  # what followed her turn (income, a new round ...)
            show(g, caption + " (after the Automa's turn)")
        current.update(seat=g.current_seat(), number=number + 1, automa=False)
        current["move"] = rec.moves[number] if number < total else None

    with automa_frames(before_automa, after_automa_step, before_step=before_automa):
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
        numbered = [(f, f.stem[6:]) for f in d.glob("frame_*.svg")]
        stale = [f for f, n in numbered if n.isascii() and n.isdigit() and int(n) >= len(frames)]
        for f in stale:  # an earlier, longer replay's frames: the folder shows one game
            f.unlink()
        removed = f" (removed {len(stale)} frames of an earlier replay)" if stale else ""
        print(f"wrote {len(frames)} SVG frames to {d}{removed}", file=out)
    if render is not None and html_file:
        path = Path(html_file)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html_page(f"{rec.game} seed {rec.seed}", frames, captions), encoding="utf-8")
        print(f"wrote {path} ({len(frames)} frames)", file=out)
    return game
