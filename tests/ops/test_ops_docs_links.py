"""The documents a newcomer reads hold together: every relative link in ``README.md``,
``CONTRIBUTING.md`` and ``docs/*.md`` leads to a file of the repository, every ``#anchor``
to a heading of its file (as GitHub makes anchors), and nothing in the repository points
at a tracker's numbers or at files outside it."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])


FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+).+?\1")
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]"  # [text], which may hold one [nested] pair
    r"\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)"  # (target "optional title")
)
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)

TRACKER = re.compile(r"\b(?:issues?|pull requests?|PR)\s*#?\d+\b|/(?:issues|pull)/\d+\b", re.I)
OUTSIDE_FILES = re.compile(r"(?:^|[^\w.])/work/|\.\./shared\b")
OUTSIDE_RULE_BOOK = re.compile(r"(?<![\w/.-])RULES\.md")
"""The rules are the repository's own ``docs/rules.md``; the name in capitals is a file
outside the repository that a reader does not have."""


def prose_lines(path: Path, *, code_spans: bool = False) -> list[tuple[int, str]]:
    """The document's lines outside fenced code blocks, with inline code spans blanked
    (kept with ``code_spans``: a heading's text includes them)."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line if code_spans else CODE_SPAN.sub("", line)))
    return lines


def heading_text(markdown: str) -> str:
    """A heading as GitHub renders its text: links by their text, no code or emphasis marks."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return text.replace("`", "").replace("**", "").replace("*", "")


def slug(text: str) -> str:
    """GitHub's anchor for a heading: lower case; letters, digits, marks, ``_`` and ``-``
    kept, other punctuation and symbols dropped; each space a hyphen."""
    kept = (c for c in text.lower() if c in " -_" or unicodedata.category(c)[0] in {"L", "N", "M"})
    return "".join(kept).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of the document: its headings' slugs (a repeated slug gets ``-1``,
    ``-2``, ...) and explicit ``<a id="...">`` anchors."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    previous = ""

    def add(title: str) -> None:
        base = slug(heading_text(title))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")

    for _, line in prose_lines(path, code_spans=True):
        atx = ATX.match(line)
        if atx:
            add(atx.group(2))
        elif SETEXT.match(line) and previous.strip() and previous.lstrip()[:1] not in "|#>-*":
            add(previous.strip())
        found.update(HTML_ANCHOR.findall(line))
        previous = line
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """Every link target in the document's prose: inline links, images and references."""
    found = []
    for number, line in prose_lines(path):
        found += [(number, target) for target in INLINE_LINK.findall(line)]
        reference = REFERENCE.match(line)
        if reference:
            found.append((number, reference.group(1)))
    return found


def broken(document: Path, target: str) -> str | None:
    """Why ``target``, linked from ``document``, leads nowhere; None when it resolves."""
    if EXTERNAL.match(target) or not target:
        return None
    where, _, anchor = target.partition("#")
    path = (document.parent / unquote(where)).resolve() if where else document
    if not path.is_relative_to(ROOT):
        return f"{target} leaves the repository"
    if not path.exists():
        return f"{target}: no such file"
    if anchor and path.suffix == ".md" and unquote(anchor) not in anchors(path):
        return f"{target}: no heading #{anchor} in {path.relative_to(ROOT)}"
    return None


def test_the_documents_are_there() -> None:
    assert (ROOT / "README.md").is_file() and (ROOT / "CONTRIBUTING.md").is_file()
    assert {"architecture.md", "benchmarks.md", "playing.md"} <= {d.name for d in DOCUMENTS}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_link_resolves_to_a_file_or_a_heading(document: Path) -> None:
    problems = [
        f"{document.relative_to(ROOT)}:{number}: {why}"
        for number, target in links(document)
        if (why := broken(document, target)) is not None
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_no_document_names_the_rule_book_outside_the_repository(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    assert not OUTSIDE_RULE_BOOK.search(text), "the rule book is docs/rules.md"


SKIPPED_FOLDERS = {".git", ".venv", "venv", "build", "dist", "data", "node_modules"}
TEXT_SUFFIXES = {".py", ".md", ".cfg", ".toml", ".yml", ".yaml", ".txt", ".example", ".po"}


def repository_texts() -> list[Path]:
    """The repository's own text files: code, tests, documents, configuration."""
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIPPED_FOLDERS or p.endswith((".egg-info", "_cache")) for p in parts):
            continue
        named = path.name in {"Dockerfile", "run", ".env.example", ".gitignore", ".dockerignore"}
        if path.is_file() and (path.suffix in TEXT_SUFFIXES or named):
            found.append(path)
    return found


def test_nothing_refers_to_a_tracker_number_or_to_files_outside_the_repository() -> None:
    this = Path(__file__).resolve()
    texts = repository_texts()
    assert ROOT / "bot" / "engine" / "rules.py" in texts and ROOT / "README.md" in texts
    problems = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
        for path in texts
        if path != this  # its patterns name what they look for
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TRACKER.search(line) or OUTSIDE_FILES.search(line) or OUTSIDE_RULE_BOOK.search(line)
    ]
    assert not problems, "\n".join(problems)


def test_anchors_are_made_as_github_makes_them(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Languages / Talen\n\n## The `store`: **its** tools\n\n```\n# not a heading\n```\n\n"
        "## Notes\n\n## Notes\n\nSetext heading\n---\n",
        encoding="utf-8",
    )
    assert anchors(page) == {
        "languages--talen",
        "the-store-its-tools",
        "notes",
        "notes-1",
        "setext-heading",
    }


def test_a_broken_link_or_anchor_is_found() -> None:
    page = ROOT / "docs" / "page.md"  # where a page would sit; only its folder is used
    assert broken(page, "architecture.md") is None
    assert broken(page, "../README.md#settings") is None
    assert broken(page, "no-such-page.md") == "no-such-page.md: no such file"
    assert broken(page, "architecture.md#no-such-heading") is not None
    assert broken(page, "../../outside.md") == "../../outside.md leaves the repository"
    assert broken(page, "https://discord.com/developers/applications") is None
