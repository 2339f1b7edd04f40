"""A judge of the text contrast axe-core cannot decide itself: the nodes its `color-contrast` rule reports as
"incomplete" (needs review) because the text lies over an SVG drawing, an image, a gradient or another element.

For each such node the judge reads, in the page, the colour the text is painted with (the computed `color`, or
`fill` for an SVG <text>; its alpha times `fill-opacity` and the `opacity` of the element and its ancestors)
and the rendered size of its font (an SVG text's font size times the scale its drawing is shown at). It then
takes two screenshots of the viewport, one as the page is and one with the judged texts made transparent
(nothing else changes: transparent text keeps its layout), and reads the background behind each text from the
second, at the pixels the text's glyphs cover in the first (the pixels that differ between the two, inside the
text's boxes: for an HTML element the boxes of its own text, for an SVG text its bounding box). Against each such
background pixel the text colour (blended over it when not opaque) gives a WCAG 2 contrast ratio; the node's ratio
is the lowest of them but for the worst ``ALLOWANCE`` of its glyph pixels (see there), compared with 4.5:1, or
3:1 for large text (at least 24 px, or 18.66 px and bold).

A node that is not text a user can see in the viewport is skipped, and counted by why: not found again, hidden
(display, visibility, opacity 0, no fill), zero-size, or offscreen (outside the page, or clipped away by an
ancestor). The others are scrolled into view in turn (nested scrolling boxes too), a viewport at a time: the
part of it not covered by a bar fixed (or stuck) to the screen's top or bottom edge.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from PIL import Image

# WCAG 2 success criterion 1.4.3 (AA): contrast of normal and of large text.
NORMAL, LARGE = 4.5, 3.0
LARGE_PX, LARGE_BOLD_PX, BOLD = 24.0, 18.66, 700
# The share of a text's glyph pixels whose background may be worse than its ratio: the ratio is the 2nd
# percentile of the per-pixel ratios, not their minimum. Axis-aligned 1-pixel lines of the drawing under a label
# (a space's stroke, a die's outline, the anti-aliased corner of a rounded rectangle) touch a few of its glyph
# pixels without making it any harder to read; the worst pixel would fail them. A background as big as one
# letter of a 10-letter label is ~10 % of its glyph pixels, far beyond the allowance, so real failures stay
# failures. The worst pixel is reported beside it.
ALLOWANCE = 0.02

# Marks the nodes in the page (data-contrast-node = index) and reads what does not depend on scrolling.
MARK = """(targets) => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const rgba = (css) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = "rgba(0, 0, 0, 0)";
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  return targets.map((target, index) => {
    let element = null;
    try { element = typeof target === "string" ? document.querySelector(target) : null; } catch (e) { element = null; }
    if (!element) return { found: false };
    element.setAttribute("data-contrast-node", String(index));
    const style = getComputedStyle(element);
    const svg = element instanceof SVGElement;
    const paint = svg ? style.fill : style.webkitTextFillColor || style.color;
    let opacity = 1;
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      opacity *= Number(getComputedStyle(node).opacity);
    }
    let scale = 1;
    if (svg && element.getScreenCTM()) {
      const m = element.getScreenCTM();
      scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    const painted = !/^(none|url\\()/.test(paint);
    const colour = painted ? rgba(paint) : [0, 0, 0, 0];
    const alpha = colour[3] * opacity * (svg ? Number(style.fillOpacity) : 1);
    return {
      found: true,
      svg,
      text: (element.textContent || "").replace(/\\s+/g, " ").trim().slice(0, 80),
      paint,
      colour: colour.slice(0, 3),
      alpha,
      font_px: parseFloat(style.fontSize) * scale,
      weight: Number(style.fontWeight) || (style.fontWeight === "bold" ? 700 : 400),
    };
  });
}"""

# Where a marked node's text is now, in viewport pixels: its boxes clipped by the ancestors that clip, or why
# it is skipped. `inView` when every box lies wholly in the part of the viewport a bar fixed to its top or bottom
# edge (the recording screen's quick bar on a phone), or stuck there (the replay's sticky step bar on a phone),
# does not cover, unless the text is in that bar.
PLACE = """(indexes) => {
  const bars = [...document.body.querySelectorAll("*:not(svg, svg *)")]
    .filter((node) => ["fixed", "sticky"].includes(getComputedStyle(node).position))
    .map((node) => ({ node, r: node.getBoundingClientRect() }))
    .filter(({ r }) => r.width > 0 && r.height > 0 && (r.top <= 1 || r.bottom >= window.innerHeight - 1));
  return indexes.map((index) => {
  const element = document.querySelector(`[data-contrast-node="${index}"]`);
  if (!element) return { skip: "not found" };
  if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return { skip: "hidden" };
  const style = getComputedStyle(element);
  if (element instanceof SVGElement && /^none/.test(style.fill)) return { skip: "hidden" };
  let boxes = [];
  if (element instanceof SVGElement) {
    boxes = [element.getBoundingClientRect()];
  } else {
    for (const child of element.childNodes) {
      if (child.nodeType !== 3 || !child.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(child);
      boxes.push(...range.getClientRects());
    }
    if (!boxes.length) boxes = [element.getBoundingClientRect()];
  }
  boxes = boxes.map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }))
    .filter((r) => r.right - r.left > 0 && r.bottom - r.top > 0);
  if (!boxes.length) return { skip: "zero-size" };
  // what the ancestors cut away: overflow other than visible, a clip or a clip-path (the visually-hidden pattern);
  // what a scrolling box hides is still to scroll into view, what a box that does not scroll hides is offscreen
  let hidden = false;
  for (let node = element.parentElement; node && node !== document.documentElement; node = node.parentElement) {
    const s = getComputedStyle(node);
    const cut = s.clip !== "auto" || (s.clipPath !== "none" && !(node instanceof SVGElement));
    if (!cut && s.overflowX === "visible" && s.overflowY === "visible") continue;
    const scrolls = !cut && /auto|scroll/.test(s.overflowX + s.overflowY);
    const c = node.getBoundingClientRect();
    const kept = boxes.map((r) => cut ? { left: 0, top: 0, right: 0, bottom: 0 } : {
      left: Math.max(r.left, c.left), top: Math.max(r.top, c.top),
      right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom),
    });
    if (kept.some((r, i) => ["left", "top", "right", "bottom"].some((k) => r[k] !== boxes[i][k]))) {
      if (!scrolls && !kept.some((r) => r.right - r.left >= 1 && r.bottom - r.top >= 1)) return { skip: "offscreen" };
      if (scrolls) hidden = true;
    }
    boxes = kept.filter((r) => r.right - r.left >= 1 && r.bottom - r.top >= 1);
  }
  // outside the page (a negative position, or beyond what the document scrolls to)
  const doc = document.documentElement;
  const left = -window.scrollX, top = -window.scrollY;
  const right = left + Math.max(doc.scrollWidth, window.innerWidth);
  const bottom = top + Math.max(doc.scrollHeight, window.innerHeight);
  if (boxes.length && !boxes.some((r) => r.right > left && r.left < right && r.bottom > top && r.top < bottom)) {
    return { skip: "offscreen" };
  }
  let shownTop = 0, shownBottom = window.innerHeight;
  for (const bar of bars) {
    if (bar.node.contains(element)) continue;
    if (bar.r.bottom >= window.innerHeight - 1) shownBottom = Math.min(shownBottom, bar.r.top);
    else shownTop = Math.max(shownTop, bar.r.bottom);
  }
  const inView = !hidden && boxes.every((r) => r.left >= 0 && r.top >= shownTop && r.right <= window.innerWidth &&
    r.bottom <= shownBottom);
  return { boxes, inView };
  });
}"""

SCROLL_TO = """(index) => {
  const element = document.querySelector(`[data-contrast-node="${index}"]`);
  element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
}"""

# The texts made transparent, and back, through the CSS object model (the pages' Content-Security-Policy refuses
# a <style> element; inline styles set from a script are allowed).
HIDE = """(indexes) => {
  for (const index of indexes) {
    const element = document.querySelector(`[data-contrast-node="${index}"]`);
    element.dataset.contrastStyle = element.getAttribute("style") ?? "";
    for (const name of ["color", "-webkit-text-fill-color", "fill", "stroke"]) {
      element.style.setProperty(name, "transparent", "important");
    }
    element.style.setProperty("text-shadow", "none", "important");
    element.style.setProperty("transition", "none", "important");
  }
}"""

SHOW = """() => {
  for (const element of document.querySelectorAll("[data-contrast-style]")) {
    const style = element.dataset.contrastStyle;
    if (style) element.style.cssText = style;
    else element.removeAttribute("style");
    delete element.dataset.contrastStyle;
  }
}"""

UNMARK = """() => {
  for (const element of document.querySelectorAll("[data-contrast-node]")) {
    element.removeAttribute("data-contrast-node");
  }
}"""


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0..255 channels)."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    """WCAG 2 contrast ratio of two opaque colours."""
    a, b = sorted((luminance(one), luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def blend(top: tuple[int, int, int], alpha: float, under: tuple[int, int, int]) -> tuple[float, float, float]:
    return tuple(t * alpha + u * (1 - alpha) for t, u in zip(top, under, strict=True))  # type: ignore[return-value]


def hexed(rgb: tuple[float, ...]) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in rgb[:3])


@dataclass
class Judged:
    """One needs-review node: what was read of it and, unless skipped, its verdict."""

    target: str
    text: str = ""
    skip: str | None = None
    colour: str = ""
    alpha: float = 1.0
    font_px: float = 0.0
    bold: bool = False
    needed: float = NORMAL
    ratio: float | None = None  # at the ALLOWANCE percentile of its glyph pixels
    worst: float | None = None  # at its worst pixel
    background: str = ""  # behind the pixel of `ratio`
    backgrounds: list[str] = field(default_factory=list)  # the most common ones
    pixels: int = 0
    glyphs: bool = True  # False: no glyph pixel told apart, the whole box read

    @property
    def failed(self) -> bool:
        return self.ratio is not None and self.ratio < self.needed

    def described(self) -> str:
        alpha = f" at opacity {self.alpha:.2f}" if self.alpha < 1 else ""
        return (
            f"{self.target} {self.text!r}: {self.colour}{alpha} over {self.background} = {self.ratio:.2f}:1 "
            f"(worst pixel {self.worst:.2f}:1; backgrounds {', '.join(self.backgrounds)}), needs {self.needed}:1 "
            f"for {self.font_px:.1f} px{' bold' if self.bold else ''} text"
        )


def judge(page: Any, incomplete: list[dict[str, Any]]) -> list[Judged]:
    """Judge every node of axe's incomplete `color-contrast` results (``incomplete``: axe's "incomplete" list)."""
    nodes = [node for result in incomplete if result["id"] == "color-contrast" for node in result["nodes"]]
    targets = [node["target"][0] if len(node["target"]) == 1 else None for node in nodes]
    read = page.evaluate(MARK, targets)
    judged = [Judged(target=" ".join(map(str, node["target"]))) for node in nodes]
    pending: list[int] = []
    for index, (verdict, info) in enumerate(zip(judged, read, strict=True)):
        if not info["found"]:
            verdict.skip = "not found"
            continue
        verdict.text = info["text"]
        verdict.colour = hexed(info["colour"])
        verdict.alpha = round(info["alpha"], 3)
        verdict.font_px = round(info["font_px"], 2)
        verdict.bold = info["weight"] >= BOLD
        large = verdict.font_px >= LARGE_PX or (verdict.bold and verdict.font_px >= LARGE_BOLD_PX)
        verdict.needed = LARGE if large else NORMAL
        if info["alpha"] <= 0:
            verdict.skip = "hidden"
            continue
        pending.append(index)
    try:
        while pending:
            places = where(page, pending, judged)
            pending = list(places)
            now = [i for i in pending if places[i]["inView"]]
            if pending and not now:
                first = pending[0]
                page.evaluate(SCROLL_TO, first)
                places = where(page, pending, judged)
                pending = list(places)
                # the first judged in the part of it the viewport shows, should it not fit there
                now = [i for i in pending if places[i]["inView"]] or [i for i in pending[:1] if i == first]
                if first in places and not places[first]["boxes"]:  # not revealed by scrolling to it
                    judged[first].skip = "offscreen"
                    pending.remove(first)
                    continue
            if not now:
                break
            shown = screenshot(page)
            page.evaluate(HIDE, now)
            try:
                bare = screenshot(page)
            finally:
                page.evaluate(SHOW)
            scale = shown.width / page.evaluate("window.innerWidth")
            for index in now:
                measure(
                    judged[index], read[index], places[index]["boxes"], shown=shown, bare=bare, scale=scale
                )
            pending = [i for i in pending if i not in set(now)]
    finally:
        page.evaluate(UNMARK)
    return judged


def where(page: Any, pending: list[int], judged: list[Judged]) -> dict[int, dict[str, Any]]:
    """The boxes of the pending nodes that are still to judge; the others are marked skipped, with why."""
    places: dict[int, dict[str, Any]] = {}
    for index, place in zip(pending, page.evaluate(PLACE, pending), strict=True):
        if "skip" in place:
            judged[index].skip = place["skip"]
        else:
            places[index] = place
    return places


def screenshot(page: Any) -> Image.Image:
    shot = page.screenshot(animations="disabled", caret="hide")
    return Image.open(io.BytesIO(shot)).convert("RGB")


def measure(
    verdict: Judged,
    info: dict[str, Any],
    boxes: list[dict[str, float]],
    *,
    shown: Image.Image,
    bare: Image.Image,
    scale: float,
) -> None:
    """Read the background behind the node's glyphs (``shown``: the page, ``bare``: without the text; ``scale``:
    image pixels per CSS pixel) and give the node its ratios."""
    width, height = shown.size
    seen: set[tuple[int, int]] = set()
    for box in boxes:
        left, top = max(0, int(box["left"] * scale)), max(0, int(box["top"] * scale))
        right = min(width, int(-(-box["right"] * scale // 1)))
        bottom = min(height, int(-(-box["bottom"] * scale // 1)))
        seen.update((x, y) for x in range(left, right) for y in range(top, bottom))
    if not seen:
        verdict.skip = "offscreen"
        return
    a, b = shown.load(), bare.load()
    glyphs = [xy for xy in seen if a[xy] != b[xy]]
    verdict.glyphs = bool(glyphs)
    behind = Counter(b[xy] for xy in (glyphs or seen))
    colour = tuple(info["colour"])
    alpha = min(1.0, info["alpha"])
    ratios = sorted(
        (ratio(blend(colour, alpha, bg), bg), bg, count)
        for bg, count in behind.items()  # type: ignore[arg-type]
    )
    total = sum(behind.values())
    allowed, running = ALLOWANCE * total, 0
    for value, bg, count in ratios:
        running += count
        if running > allowed:
            verdict.ratio, verdict.background = round(value, 2), hexed(bg)
            break
    verdict.worst = round(ratios[0][0], 2)
    verdict.pixels = total
    verdict.backgrounds = [hexed(bg) for bg, _ in behind.most_common(3)]


def summary(judged: list[Judged]) -> dict[str, Any]:
    """What the output file holds: the counts, then every node."""
    skipped = Counter(j.skip for j in judged if j.skip)
    measured = [j for j in judged if not j.skip]
    return {
        "needs_review": len(judged),
        "judged": len(measured),
        "failed": sum(j.failed for j in measured),
        "skipped": dict(sorted(skipped.items())),
        "allowance": ALLOWANCE,
        "nodes": [{**asdict(j), "failed": j.failed} for j in judged],
    }
