"""Citations you can check: every sentence a pack quotes above its rules is in the source.

A quote is a comment line of a pack file whose text starts with `"`, running over the
following comment lines to its closing `"` (rules/core/CONTRACT.md: each rule sits under
the sentence it implements), and the quoted heading of a `Source:` line.  It is found in
the source text modulo whitespace, typographic quotes and apostrophes, and footnote
marks (`^[3.1]`); `…` (or `...`, `[...]`) splits a quote into pieces each found on its
own.  The sources a file is checked against are those its opening comment (its
`Source:` line) names, else those the pack's README names, else every `*.txt` of the
sources folder.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_COMMENT = re.compile(r"\s*%+\s?(.*)$")
_SOURCE_LINE = re.compile(r"\s*%+\s*Source:\s*(.*)$")
_SOURCE_FILE = re.compile(r"[\w.-]+\.txt\b")
_ELLIPSIS = re.compile(r"\[(?:…|\.\.\.)\]|…|\.\.\.")
_FOOTNOTE = re.compile(r"\^\[[^\]]*\]")
_TYPOGRAPHIC = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u00a0": " "})


@dataclass(frozen=True)
class Quote:
    file: Path
    line: int
    text: str


@dataclass(frozen=True)
class Misquote:
    quote: Quote
    missing: str            # the piece of the quote no source holds
    sources: tuple[str, ...]


def normalize(text: str) -> str:
    return " ".join(_FOOTNOTE.sub("", text.translate(_TYPOGRAPHIC)).split())


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def quotes_in(path: Path, read: Callable[[Path], str] = _read) -> list[Quote]:
    """The quoted sentences of one pack file, each at the line it starts on."""
    lines = read(path).splitlines()
    out: list[Quote] = []
    i = 0
    while i < len(lines):
        comment = _COMMENT.match(lines[i])
        source = _SOURCE_LINE.match(lines[i])
        body = comment.group(1).lstrip() if comment else ""
        start = i
        if source and '"' in source.group(1):          # `Source: file.txt, "Heading"`
            body = source.group(1)[source.group(1).index('"'):]
        if body.startswith('"'):
            text = body[1:]
            while '"' not in text and i + 1 < len(lines) and _COMMENT.match(lines[i + 1]):
                i += 1
                text += " " + _COMMENT.match(lines[i]).group(1)
            if '"' in text:
                out.append(Quote(path, start + 1, text[:text.index('"')]))
        i += 1
    return out


def named_sources(path: Path, read: Callable[[Path], str] = _read) -> list[str]:
    """The source files a pack file's opening comment names (its `Source:` line and the
    lines that continue it)."""
    names: list[str] = []
    for line in read(path).splitlines():
        if not _COMMENT.match(line):
            break
        names += _SOURCE_FILE.findall(line)
    return [Path(n).name for n in names]


def misquotes(files: list[Path], sources: Path, read: Callable[[Path], str] = _read) -> list[Misquote]:
    """The quotes of a pack's files not found in the sources they name (under `sources`);
    the pack's files are read by `read` (a Pack's: packs/pack.py)."""
    available = {p.name: p for p in sorted(sources.glob("*.txt"))}
    readme = files[0].parent / "README.md" if files else None
    pack_named = [n for n in _SOURCE_FILE.findall(read(readme))
                  if Path(n).name in available] if readme and readme.is_file() else []
    out: list[Misquote] = []
    source_texts: dict[str, str] = {}
    for path in files:
        named = [n for n in named_sources(path, read) if n in available] or pack_named or list(available)
        texts = [source_texts.setdefault(n, normalize(available[n].read_text(encoding="utf-8")))
                 for n in dict.fromkeys(named)]
        for quote in quotes_in(path, read):
            for piece in _ELLIPSIS.split(quote.text):
                wanted = normalize(piece)
                if wanted.strip(" ,.;:") and not any(wanted in text for text in texts):
                    out.append(Misquote(quote, wanted, tuple(dict.fromkeys(named))))
                    break
    return out
