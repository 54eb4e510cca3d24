"""Cutting long notes into overlapping chunks that fit a model's context.

A chunk ends at a line break or space near its size limit, so no word is
cut in two; neighbours share ``overlap`` characters, so an identifier at a
boundary lies whole in at least one chunk.  Offsets go back to the note by
adding the chunk's start; spans found twice in an overlap unite later.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Chunk:
    start: int
    end: int

    def text_of(self, text: str) -> str:
        return text[self.start : self.end]


def _break_before(text: str, limit: int, floor: int) -> int:
    """The last line break, else the last space, in ``(floor, limit]``; else ``limit``."""
    for sep in ("\n", " "):
        pos = text.rfind(sep, floor + 1, limit)
        if pos > floor:
            return pos + 1
    return limit


def plan_chunks(text: str, chunk_chars: int, overlap_chars: int) -> list[Chunk]:
    """Chunks covering ``text``; a note within ``chunk_chars`` is one chunk."""
    if chunk_chars < 1 or not 0 <= overlap_chars < chunk_chars // 2:
        raise ValueError(f"need chunk_chars >= 1 and 0 <= overlap_chars < chunk_chars/2, got {chunk_chars}, {overlap_chars}")
    n = len(text)
    if n <= chunk_chars:
        return [Chunk(0, n)] if n else []
    chunks: list[Chunk] = []
    start = 0
    while True:
        limit = start + chunk_chars
        if limit >= n:
            chunks.append(Chunk(start, n))
            return chunks
        # Break in the last quarter of the chunk, so chunks stay near full size.
        end = _break_before(text, limit, start + (3 * chunk_chars) // 4)
        chunks.append(Chunk(start, end))
        nxt = end - overlap_chars
        # Start the next chunk at a word edge inside the overlap.
        edge = text.find(" ", nxt, end)
        line = text.find("\n", nxt, end)
        cands = [p + 1 for p in (edge, line) if p >= 0]
        start = min(cands) if cands else nxt
        if start <= chunks[-1].start:  # pragma: no cover - guarded by overlap < chunk/2
            start = end
