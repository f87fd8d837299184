"""A game's view kept on disk by ``pitch report`` (``record.spool``) comes back
equal, and its cards come back as the one shared face of each card and trump
flag (``views.game.shared_face``), not as some hundred new objects a game."""

from __future__ import annotations

import pickle
from pathlib import Path

from pitchcli.pipeline.check import check_paths
from pitchcli.record.spool import Spool
from pitchcli.views.game import CardFace, GameView, face_of, game_view, shared_face, usable

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _views() -> list[GameView]:
    return [game_view(c) for c in check_paths([str(SAMPLES)]) if usable(c)]


def _faces(v: GameView) -> list[CardFace]:
    out = []
    for h in v.hands:
        out += [f for t in h.tricks for f in t.faces]
        out += [a.card for a in h.awards if a.card is not None]
        if h.deal:
            for sd in h.deal.seats:
                out += sd.dealt + (sd.discards or []) + (sd.draws or [])
    return out


def test_a_spooled_view_comes_back_equal_with_its_faces_shared() -> None:
    views = _views()
    assert len(views) > 10 and any(_faces(v) for v in views)
    spool = Spool()
    try:
        handles = [spool.put(v) for v in views]
        for v, handle in zip(views, handles, strict=True):
            back = spool.get(handle)
            assert back == v
            for f in _faces(back):
                assert f is shared_face(*f)  # the one object of these fields
    finally:
        spool.close()


def test_a_face_made_anywhere_is_read_back_as_the_shared_one() -> None:
    made = CardFace("10H", "10", "H", True)  # not through face_of
    back = pickle.loads(pickle.dumps(made))
    assert back == made and back is shared_face("10H", "10", "H", True)
    assert pickle.loads(pickle.dumps(CardFace("LJ", "", None))) == CardFace("LJ", "", None, False)


def test_face_of_gives_the_shared_face() -> None:
    from pitchcli.cards import card

    for text, trump in (("10H", True), ("QS", False), ("BJ", True), ("LJ", False)):
        face = face_of(card(text), trump)
        assert face is shared_face(*face) and face.card == text and face.trump is trump
