"""Images in every language the bot speaks: each catalogue translates every image label and
nothing else; the labels drawn are the locale's; longer words never overflow the image or run into
each other; and golden hashes pin how a table, a mat, the results and a preview look per locale.

The golden hashes hash the decoded RGB pixels (not the PNG bytes or palette), so neither a zlib
build nor a change of PNG mode can fail them while any visual change still does. If a deliberate
change to the look breaks them, look at the new images and update the hashes.
"""

from __future__ import annotations

import hashlib
import io
import string
import threading
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.core.wording.locales import catalogues, image_words, locales
from engine import GameState, Master, Options, Phase, Place, Shape, legal_actions, master_options
from renders import (
    fonts,
    labels,
    render_ghost_split,
    render_master_preview,
    render_mat,
    render_preview,
    render_results,
    render_table,
)
from renders.samples import play

LOCALES = [None, *locales()]
"""English (no catalogue) and every catalogue."""

NAMES = ("Ana", "Bartholomew Fitzgerald", "Chloé", "李小龍", "Дмитрий", "Eun-ji")


def fields_of(template: Any) -> set[str]:
    """Every ``{field}`` a template (or each form of a count or table) fills in."""
    if isinstance(template, Mapping):
        return set().union(*(fields_of(form) for form in template.values()))
    if isinstance(template, list):
        return set().union(*(fields_of(line) for line in template))
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def is_count(key: str, template: Any) -> bool:
    return not key.isupper() and isinstance(template, Mapping)


@pytest.mark.parametrize("locale", locales())
def test_every_catalogue_translates_every_image_label_and_nothing_unused(locale: str) -> None:
    """Every key of ``renders.labels.ENGLISH`` has an entry, every entry is such a key, and each
    has the English one's shape: a table keeps its engine values, a list its line count, and no
    translation asks for a field the English does not give (it may leave one out)."""
    words = catalogues()[locale]["images"]
    assert sorted(set(labels.ENGLISH) - set(words)) == [], f"{locale} lacks image labels"
    assert sorted(set(words) - set(labels.ENGLISH)) == [], f"{locale} has unused image labels"
    for key, english in labels.ENGLISH.items():
        translated = words[key]
        given = fields_of(english) | ({"n"} if is_count(key, english) else set())
        if is_count(key, translated):
            assert set(translated) == {"one", "other"}, key
            assert "n" in given, f"{key}: a count's form is chosen by its field n"
        elif isinstance(english, Mapping):
            assert set(translated) == set(english), key
        elif isinstance(english, list):
            assert isinstance(translated, list) and len(translated) == len(english), key
        else:
            assert isinstance(translated, str), key
        assert fields_of(translated) <= given, (key, fields_of(translated) - given)


def test_english_is_the_default_and_a_gap_falls_back_to_it() -> None:
    assert labels.round_number(7) == "Round 7"
    assert labels.RESERVE == "Reserve"
    with labels.speaking({"round_number": "Rodada {n}", "COLOUR_DECK": {"white": "Pilha branca"}}):
        assert labels.round_number(7) == "Rodada 7"
        assert labels.RESERVE == "Reserve"  # not translated: English
        assert labels.colour_deck("white") == "Pilha branca"
        assert labels.colour_deck("black") == "Black deck"  # a table's missing entry
    assert labels.round_number(7) == "Round 7"  # the block's language ends with it


def test_portuguese_labels_read_as_portuguese() -> None:
    with labels.speaking(image_words("pt-BR")):
        assert labels.round_number(7) == "Rodada 7"
        assert labels.to_play("Ana") == "Vez de Ana"
        assert labels.RESERVE == "Reserva"
        assert labels.actions_left(1) == "resta 1 ação"
        assert labels.actions_left(3) == "restam 3 ações"
        assert labels.points(0) == "0 pts" and labels.points(1) == "1 pt"
        assert labels.join_names(["Ana", "Bo", "Cy"]) == "Ana, Bo e Cy"
        assert labels.winners_line(["Ana", "Bo"]) == "Ana e Bo dividem a vitória"
        assert labels.ordinal(2) == "2º"
        assert labels.piece_label("L3") == "L3 (triminó em L)"
        assert labels.piece_label("1") == "monominó"


def test_english_piece_names_are_the_engines() -> None:
    for shape in Shape:
        assert labels.piece_label(shape.value) == shape.label


def test_each_thread_draws_in_its_own_language() -> None:
    """The language is a context variable: two renders at once in two threads do not mix."""
    seen: dict[str, str] = {}
    gate = threading.Barrier(2)

    def work(locale: str | None) -> None:
        with labels.speaking(image_words(locale)):
            gate.wait()
            seen[str(locale)] = labels.round_number(3)

    threads = [threading.Thread(target=work, args=(code,)) for code in ("pt-BR", None)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"pt-BR": "Rodada 3", "None": "Round 3"}


# -- the images themselves ------------------------------------------------------------------------


@cache
def game(options: Options, seed: int) -> tuple[GameState, ...]:
    return tuple(play(options, seed, max_actions=2000))


def first(states: tuple[GameState, ...], test: Callable[[GameState], bool]) -> GameState:
    return next(s for s in states if test(s))


def some_place(state: GameState) -> Place:
    return max((a for a in legal_actions(state) if isinstance(a, Place)),
               key=lambda p: (p.shape.size, p.card, p.mask))


def first_master(states: list[GameState]) -> tuple[GameState, Master]:
    """The first state whose player may Master three puzzles or more, with the first such action."""
    for state in states:
        options = master_options(state) if state.phase is Phase.PLAY else None
        if options is None:
            continue
        action = next((a for a in options.iter_actions() if len(a.placements) >= 3), None)
        if action is not None:
            return state, action
    raise AssertionError("no Master of three placements in this game")


def images(words: Mapping[str, Any] | None) -> dict[str, Callable[[], bytes]]:
    """Every kind of image, in states that show every kind of label (banners, Finishing, the end,
    Solo, Line Clear with ghosts, Finesse, hidden scores)."""
    four = game(Options(players=4), 3)
    mid = four[len(four) // 2]
    playing = first(four[len(four) // 2:], lambda s: any(isinstance(a, Place) for a in legal_actions(s)))
    end = first(four, lambda s: s.last_round is not None and s.phase is Phase.PLAY)
    finishing = first(four, lambda s: s.phase is Phase.FINISHING)
    solo = game(Options(players=1, variant="solo"), 3)
    line_clear = game(Options(players=6, variant="lineclear", ghost=True), 5)
    finesse = game(Options(players=3, finesse=True), 4)
    hidden = game(Options(players=2, known_scores=False), 4)
    packs = game(Options(players=2, known_scores=False, ambassador=True, phoenix=True), 4)
    ambassadors = packs[len(packs) // 2].evolve(ext={**packs[len(packs) // 2].ext, "ambassador": {
        "ready": [["B33"], []], "fresh": [["W45"], []]}})  # seat 0's two unflipped Ambassador cards
    master = first_master(four)
    w = words
    return {
        "table": lambda: render_table(mid, NAMES[:4], four[len(four) // 2 - 3], words=w),
        "table-end": lambda: render_table(end, NAMES[:4], words=w),
        "table-finishing": lambda: render_table(finishing, NAMES[:4], words=w),
        "table-over": lambda: render_table(four[-1], NAMES[:4], words=w),
        "mat": lambda: render_mat(mid, mid.current, NAMES[:4], words=w),
        "mat-finishing": lambda: render_mat(finishing, finishing.current, NAMES[:4], words=w),
        "results": lambda: render_results(four[-1], NAMES[:4], words=w),
        "preview": lambda: render_preview(playing, playing.current, some_place(playing), NAMES[:4], words=w),
        "solo": lambda: render_table(solo[len(solo) * 2 // 3], NAMES[:1], words=w),
        "solo-results": lambda: render_results(solo[-1], NAMES[:1], words=w),
        "line-clear": lambda: render_table(line_clear[len(line_clear) // 2], NAMES, words=w),
        "line-clear-mat": lambda: render_mat(line_clear[len(line_clear) // 2], 0, NAMES, words=w),
        "line-clear-results": lambda: render_results(line_clear[-1], NAMES, words=w),
        "finesse": lambda: render_table(finesse[len(finesse) // 2], NAMES[:3], words=w),
        "finesse-mat": lambda: render_mat(finesse[len(finesse) // 2], 0, NAMES[:3], words=w),
        "finesse-results": lambda: render_results(finesse[-1], NAMES[:3], words=w),
        "hidden": lambda: render_table(hidden[len(hidden) * 2 // 3], NAMES[:2], words=w),
        "hidden-mat": lambda: render_mat(hidden[len(hidden) * 2 // 3], 0, NAMES[:2], viewer=1, words=w),
        "ambassador-mat": lambda: render_mat(ambassadors, 0, NAMES[:2], viewer=1, words=w),
        "ambassador-table": lambda: render_table(ambassadors, NAMES[:2], words=w),
        "ghost": lambda: render_ghost_split(Shape.P5, [Shape.MONO, Shape.O4], words=w),
        "master": lambda: render_master_preview(master[0], master[0].current, master[1].placements, NAMES[:4],
                                                words=w),
    }


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Two text boxes share more than a pixel's edge."""
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("locale", LOCALES)
def test_no_label_leaves_the_image_or_runs_into_another(locale: str | None) -> None:
    """Measured layouts: however long a language's words, every text stays inside its image and
    clear of every other text drawn on it (cards and tiles are drawn apart, then pasted)."""
    problems = []
    for name, render in images(image_words(locale)).items():
        with fonts.recording() as drawn:
            render()
        shown = [d for d in drawn if d.text.strip()]
        for i, d in enumerate(shown):
            width, height = d.image_size
            if d.box[0] < 0 or d.box[1] < 0 or d.box[2] > width or d.box[3] > height:
                problems.append(f"{name}: {d.text!r} leaves the image at {d.box}")
            for other in shown[i + 1:]:
                if other.canvas == d.canvas and (other.text, other.box) != (d.text, d.box) \
                        and overlaps(d.box, other.box):
                    problems.append(f"{name}: {d.text!r} runs into {other.text!r}")
    assert problems == []


def test_the_portuguese_table_says_it_in_portuguese() -> None:
    four = game(Options(players=4), 3)
    mid = four[len(four) // 2]
    with fonts.recording() as drawn:
        render_table(mid, NAMES[:4], words=image_words("pt-BR"))
    said = [d.text for d in drawn]
    assert f"Rodada {mid.round}" in said and f"Vez de {NAMES[mid.current]}" in said
    assert "Reserva" in said and "peças para pegar" in said and "Suprimento" in said
    english = {value for key, value in labels.ENGLISH.items() if key.isupper() and isinstance(value, str)}
    portuguese = {value for key, value in image_words("pt-BR").items() if isinstance(value, str)}
    assert not [text for text in said if text in english - portuguese]


def rgb_digest(data: bytes) -> str:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return hashlib.sha256(f"{image.width}x{image.height}".encode() + image.tobytes()).hexdigest()


GOLDEN: dict[tuple[str, str], str] = {
    ("en", "table"): "d4e16bb901953d78b649290333224f033923d397f253f8662e133376619254c7",
    ("en", "mat"): "462abaec34d3d0310bedb4229fe4f98e352d5967bd55c28d3585e12ff0248eec",
    ("en", "results"): "98f1e90a603db84f68da4762be5b4ad4d71ecf3e427adfb39ef1f52a634982d0",
    ("en", "preview"): "70de05660d61a0b7399fdbdbfb6ced7570cce7d6b1a52facc9cba4f5e7d9b13c",
    ("en", "solo"): "d3fbc4bb2a696ba5ea73d0528696eaf04569a248c6fd7f67bf39bf69fafdde0c",
    ("en", "line-clear"): "fd7ff649d9c99435d6018b8d7a0238d10a1fb705a9098c97d6f0267e8ec1fcfc",
    ("en", "master"): "1040ee9586a63ccf3fdef8a7c28d14f648ea17af44f2335fbaa151449232d54b",
    ("en", "finesse-mat"): "cc8c293de236afcf0964cb1cfdf48d55f8db9392f7a8c5be07371c06a861f14b",
    ("en", "finesse-results"): "6c3e2da7717ba7cb9736752eca888ae99121f971af4be623a3d0bcc1797035a7",
    ("pt-BR", "finesse-mat"): "179ebfeed9bf5d217cb2531a32eadd2ee6c10e95be45404a880b986d087ac9b6",
    ("pt-BR", "finesse-results"): "b932e4280086e6106154f555c7506e2607e6aa86ed926cea5aae59c7b5908f5b",
    ("pt-BR", "table"): "af4defb52215b73c42d40593f63ccee85611b3e379fe195b130bc87da7967196",
    ("pt-BR", "mat"): "306f41b6a2e05960b9d4b9678e6dd0022bf36716c0acb33fbd7d94bc8259303d",
    ("pt-BR", "results"): "8b1ffd8aeb6c81eb3a7b83621c9d0a2bc53a9e0a034f50ef68492ba460d24f2a",
    ("pt-BR", "preview"): "3b458dccb8a66e77c8026360285b9e4e35e4c1ffd1682e982cf404872b75ebe2",
    ("pt-BR", "solo"): "ace6b8567675829b7595b55564418b10d151946a20ac84779a04d9c61a97e08d",
    ("pt-BR", "line-clear"): "1c6e9045d3063e9fcef8cccf2e0954b5bbbbbb298ce58d26b1d528f1724ba8eb",
    ("pt-BR", "master"): "f3e622ed3aeb9d53e637f401f23a362df911bc7aad2bf3146d36ddf90310349d",
    ("en", "ambassador-mat"): "a8bb70d1167c6471eb86b5f3675440aabbf1ad671c718554a1b7c992aa28fda6",
    ("pt-BR", "ambassador-mat"): "6bb257286847e7d31d6dbda6614dd4ea19cd9cf902a30b57de7cd24b3de10edd",
    ("en", "ambassador-table"): "bbfc00e1f65090db40aaf7ad05b4859b91c5ea71d348352325baa97d49e782e0",
    ("pt-BR", "ambassador-table"): "4a59aeb92e6611a9a1ddc98032773dfc33c5d9ae61f86212e72768a04aaf6a1d",
}
"""(locale, image) -> digest; "en" is English (no catalogue is read for it)."""


@pytest.mark.parametrize(("locale", "name"), sorted(GOLDEN))
def test_golden_images_per_locale(locale: str, name: str) -> None:
    data = images(image_words(locale))[name]()
    assert rgb_digest(data) == GOLDEN[(locale, name)]


def test_no_cached_drawing_keeps_another_languages_words() -> None:
    """Cards and names are cached between renders: a Portuguese mat drawn right after an English
    one is the same as one drawn from cold caches."""
    from renders import card, fonts

    english, portuguese = images(None), images(image_words("pt-BR"))
    warm = {}
    for name in ("mat", "preview", "table"):
        english[name]()
        warm[name] = portuguese[name]()
    for cached in (card._plan_card, card.market_card, card.mini_card, fonts._drawable, fonts.run):
        cached.cache_clear()
    assert {name: portuguese[name]() for name in warm} == warm


def test_every_image_the_bot_sends_names_its_language() -> None:
    """Each call of the bot's renderer (``….renderer.<image>(…)``) passes ``locale=``: the server's
    for a channel post, the reader's for a private reply (the offline demo is English)."""
    import ast
    from pathlib import Path

    import bot

    unnamed = []
    for path in sorted(Path(bot.__file__).parent.rglob("*.py")):
        if path.name in {"demo.py", "render.py"}:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "renderer"
                    and not any(keyword.arg == "locale" for keyword in node.keywords)):
                unnamed.append(f"{path.name}:{node.lineno} {node.func.attr}")
    assert unnamed == []


def test_no_module_copies_a_word_at_import() -> None:
    """``from .labels import RESERVE`` would keep the English forever: fixed words are read as
    ``labels.RESERVE`` while drawing, when the language is known."""
    import ast
    from pathlib import Path

    import renders

    copied = []
    for path in sorted(Path(renders.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("labels"):
                copied += [f"{path.name}: {alias.name}" for alias in node.names if alias.name.isupper()]
    assert copied == []
